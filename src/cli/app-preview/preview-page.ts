/**
 * The preview's host page as text: a header naming the server and tool, the element views are
 * mounted in, a log of what the view did, the page's settings as JSON (read by `page-main.ts`,
 * never executed) and the bundled page script. Pure: no I/O.
 */
import type { Tool } from '../../protocol/types.js';

/** What the page is told by the CLI. */
export interface PreviewConfig {
  /** The relay's token (sent as `x-mcpwire-token`). */
  token: string;
  server: string;
  tool: Tool;
  arguments: Record<string, unknown>;
  /** The sandbox proxy page, on the other loopback origin. */
  sandboxUrl: string;
}

/** The id of the element holding the page's JSON settings. */
export const PREVIEW_CONFIG_ID = 'mcpwire-app-config';

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** `</script` and `<!--` cannot end or confuse the element that carries `text`. */
const inScript = (text: string): string => text.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');

export function previewPageHtml(config: PreviewConfig, pageScript: string): string {
  const title = `${config.tool.title ?? config.tool.name} — ${config.server}`;
  // JSON in a non-executed script element: `<` escaped so no value can close it.
  const json = JSON.stringify(config).replace(/</g, '\\u003c');
  return [
    '<!doctype html><html lang="en"><head><meta charset="utf-8">',
    `<title>${escapeHtml(title)} · mcpwire app</title>`,
    '<style>body{font:14px system-ui,sans-serif;margin:0;background:#f6f6f4;color:#222}',
    'header{padding:8px 16px;background:#222;color:#eee}header b{color:#fff}',
    'main{display:grid;grid-template-columns:minmax(0,1fr) 320px;gap:12px;padding:12px}',
    '#apps{background:#fff;border:1px solid #ddd;min-height:240px}',
    '#log{font:12px ui-monospace,monospace;white-space:pre-wrap;margin:0;max-height:80vh;overflow:auto}</style>',
    '</head><body>',
    `<header><b>${escapeHtml(config.tool.name)}</b> of ${escapeHtml(config.server)} <span id="status">loading…</span></header>`,
    '<main><div id="apps"></div><pre id="log"></pre></main>',
    `<script type="application/json" id="${PREVIEW_CONFIG_ID}">${json}</script>`,
    `<script>${inScript(pageScript)}</script>`,
    '</body></html>',
  ].join('');
}
