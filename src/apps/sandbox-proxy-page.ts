/**
 * The sandbox proxy of a web host (apps.mdx §Sandbox proxy), as text a server serves on an origin
 * of its own (never the host page's): `sandboxProxyHtml()` is the page, `sandboxProxyHeaders(url)`
 * its response headers, with the view's Content-Security-Policy built from the `?csp=` the host
 * put in the frame's address. The policy must be a header of this page: the view is written into a
 * same-origin `srcdoc` frame, which inherits it, while a `<meta>` policy the view's own HTML could
 * undo or outrun would not hold.
 *
 * The page (plain browser JS, no imports): it refuses to run at the top or without an embedder;
 * it accepts messages from its parent only when they come from the host origin (fixed by
 * `hostOrigin`, else the referrer's origin) and from the view's frame only; on
 * `ui/notifications/sandbox-resource-ready {html, sandbox?, permissions?}` it creates the view's
 * frame once (`allow-scripts allow-same-origin` plus `allow-forms`, the permissions as `allow`),
 * and then relays every other JSON-RPC message both ways unchanged, dropping
 * `ui/notifications/sandbox-*` ones. It starts by sending `ui/notifications/sandbox-proxy-ready`.
 */
import { buildAppCsp, sanitizeCsp } from './app-csp.js';

/** Options of {@link sandboxProxyHtml}. */
export interface SandboxProxyOptions {
  /**
   * The host page's origin, the only one the proxy talks to. Absent: the origin of the page that
   * embeds it (`document.referrer`), so the embedder must send a referrer (the default policy does).
   */
  hostOrigin?: string;
}

/** The proxy's own script; `__HOST_ORIGIN__` is replaced by a JSON string or `null`. */
const PROXY_SCRIPT = String.raw`(function () {
  'use strict';
  var FIXED = __HOST_ORIGIN__;
  if (window.self === window.top) throw new Error('mcp-app sandbox: must run inside a host frame');
  var hostOrigin = FIXED;
  if (!hostOrigin) {
    try { hostOrigin = new URL(document.referrer).origin; } catch (e) { hostOrigin = null; }
  }
  if (!hostOrigin || hostOrigin === 'null') throw new Error('mcp-app sandbox: no host origin (no referrer)');
  var PREFIX = 'ui/notifications/sandbox-';
  var view = null;
  var FEATURES = { camera: 'camera', microphone: 'microphone', geolocation: 'geolocation', clipboardWrite: 'clipboard-write' };
  function isRpc(m) { return m !== null && typeof m === 'object' && m.jsonrpc === '2.0'; }
  function isSandboxMethod(m) { return typeof m.method === 'string' && m.method.indexOf(PREFIX) === 0; }
  function allowOf(permissions) {
    var out = [];
    if (permissions && typeof permissions === 'object')
      for (var key in FEATURES) if (Object.prototype.hasOwnProperty.call(permissions, key) && permissions[key]) out.push(FEATURES[key]);
    return out.join('; ');
  }
  function createView(params) {
    if (view || !params || typeof params.html !== 'string') return;
    view = document.createElement('iframe');
    view.setAttribute('sandbox', 'allow-scripts allow-same-origin allow-forms');
    var allow = allowOf(params.permissions);
    if (allow) view.setAttribute('allow', allow);
    view.setAttribute('title', 'MCP App');
    view.style.cssText = 'border:0;width:100%;height:100%;display:block';
    view.srcdoc = params.html;
    document.body.appendChild(view);
  }
  window.addEventListener('message', function (event) {
    var m = event.data;
    if (!isRpc(m)) return;
    if (event.source === window.parent) {
      if (event.origin !== hostOrigin) return;
      if (m.method === PREFIX + 'resource-ready') return createView(m.params);
      if (isSandboxMethod(m) || !view || !view.contentWindow) return;
      view.contentWindow.postMessage(m, window.location.origin);
    } else if (view && event.source === view.contentWindow) {
      if (isSandboxMethod(m)) return;
      window.parent.postMessage(m, hostOrigin);
    }
  });
  window.parent.postMessage({ jsonrpc: '2.0', method: PREFIX + 'proxy-ready', params: {} }, hostOrigin);
})();`;

/** The proxy page's HTML (one inline script; the `'unsafe-inline'` every view policy has runs it). */
export function sandboxProxyHtml(options: SandboxProxyOptions = {}): string {
  const fixed = options.hostOrigin === undefined ? 'null' : JSON.stringify(new URL(options.hostOrigin).origin);
  // `<` escaped so no origin text can close the script element.
  const script = PROXY_SCRIPT.replace('__HOST_ORIGIN__', fixed.replace(/</g, '\\u003c'));
  return (
    '<!doctype html><html><head><meta charset="utf-8"><meta name="referrer" content="no-referrer">' +
    '<title>MCP App sandbox</title><style>html,body{margin:0;padding:0;height:100%;overflow:hidden}</style>' +
    `</head><body><script>${script}</script></body></html>`
  );
}

/**
 * The declared `csp` a proxy address carries (`?csp=<JSON>`), sanitized, or `undefined` (none,
 * or not JSON: the strict default applies).
 */
export function cspOfProxyUrl(requestUrl: string | URL): ReturnType<typeof sanitizeCsp> {
  const raw = new URL(String(requestUrl), 'http://proxy.invalid').searchParams.get('csp');
  if (raw === null || raw === '') return undefined;
  try {
    return sanitizeCsp(JSON.parse(raw));
  } catch {
    return undefined;
  }
}

/**
 * The headers of the proxy page at `requestUrl`: the view's Content-Security-Policy (from `?csp=`,
 * {@link buildAppCsp}), never cached (the policy is per address), HTML, no sniffing.
 */
export function sandboxProxyHeaders(requestUrl: string | URL): Record<string, string> {
  return {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': buildAppCsp(cspOfProxyUrl(requestUrl)),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  };
}

/** The address of the proxy frame for a view with `csp` declared: `sandboxUrl` with `?csp=<JSON>`. */
export function proxyFrameUrl(sandboxUrl: string | URL, csp: ReturnType<typeof sanitizeCsp>): string {
  const url = new URL(String(sandboxUrl));
  if (csp === undefined) url.searchParams.delete('csp');
  else url.searchParams.set('csp', JSON.stringify(csp));
  return url.href;
}
