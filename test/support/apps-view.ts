/**
 * The HTML of an MCP App view built the way a server author builds one: test/runtimes/apps-view.mjs
 * (ext-apps' `App` and `PostMessageTransport`, zod included) bundled by esbuild for the browser
 * into one inline IIFE, so the page needs nothing but `'unsafe-inline'` (no `'unsafe-eval'`, no
 * network). `title` names the document.
 */
import path from 'node:path';
import { build, stop as stopEsbuild } from 'esbuild';
import { RUNTIME_APPS } from './runtimes.js';

/** The view's script, bundled once per test file. */
let script: Promise<string> | undefined;

async function bundleView(): Promise<string> {
  const built = await build({
    entryPoints: [path.join(RUNTIME_APPS, 'apps-view.mjs')],
    write: false,
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    logLevel: 'silent',
  }).finally(() => stopEsbuild());
  return built.outputFiles[0]!.text;
}

/** The view's whole HTML document. */
export async function appViewHtml(title = 'test view'): Promise<string> {
  const code = await (script ??= bundleView());
  // `</script` inside the bundle would end the element early.
  const safe = code.replace(/<\/script/gi, '<\\/script');
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body><p id="view">${title}</p><script>${safe}</script></body></html>`;
}
