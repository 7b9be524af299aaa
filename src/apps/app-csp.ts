/**
 * The one Content-Security-Policy builder of an MCP App's view (apps.mdx §Security
 * Implications): the policy comes from the domains the resource declares in `_meta.ui.csp` and
 * nothing else, and is never loosened (no `'unsafe-eval'`, no `blob:`, no wildcard a server did
 * not write). A resource that declares no `csp` gets the strict default: nothing but its own inline
 * code, styles and `data:` images may load, and it reaches no network at all.
 */
import type { UiCsp } from '../protocol/extensions/apps-types.js';

/** The policy of a view whose resource declares no `csp`. */
export const DEFAULT_APP_CSP =
  "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; " +
  "img-src 'self' data:; media-src 'self' data:; connect-src 'none'; object-src 'none'; " +
  "frame-src 'none'; base-uri 'self'";

/** A declared `csp` as the host applies it: the domain lists, and WebAssembly compilation when asked for. */
export type AppCsp = UiCsp & { wasmUnsafeEval?: true };

/** A character that would end a directive or smuggle a keyword (`;`, quotes, any white space, a comma). */
const UNSAFE = /[;'"`,\s]/;

/**
 * The entries of a declared domain list a policy may carry: strings without `;`, quotes, commas
 * or white space (spaces, tabs, newlines), at most 512 characters each; everything else
 * dropped, as is a list that is no array.
 */
export function sanitizeDomains(list: unknown): string[] {
  if (!Array.isArray(list)) return [];
  return list.filter((d): d is string => typeof d === 'string' && d.length > 0 && d.length <= 512 && !UNSAFE.test(d));
}

/**
 * The declared `csp` with every list sanitized and empty lists left out, or `undefined` when
 * nothing is declared (then the default applies). What the host puts in the proxy's `?csp=`.
 */
export function sanitizeCsp(csp: unknown): AppCsp | undefined {
  if (csp === null || typeof csp !== 'object' || Array.isArray(csp)) return undefined;
  const given = csp as Record<string, unknown>;
  const out: AppCsp = {};
  for (const key of ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'] as const) {
    const domains = sanitizeDomains(given[key]);
    if (domains.length > 0) out[key] = domains;
  }
  if (given.wasmUnsafeEval === true) out.wasmUnsafeEval = true;
  return out;
}

/**
 * The view's policy for a declared `csp` (sanitized here again), or {@link DEFAULT_APP_CSP}
 * when none is declared. `resourceDomains` may serve scripts, styles, images, fonts and media;
 * `connectDomains` are the only network peers (none: `'none'`); `frameDomains` the only frames;
 * `baseUriDomains` the only `<base>` targets; `wasmUnsafeEval: true` adds `'wasm-unsafe-eval'`
 * (WebAssembly compilation, never string evaluation).
 */
export function buildAppCsp(csp: UiCsp | undefined): string {
  const declared = sanitizeCsp(csp);
  if (declared === undefined) return DEFAULT_APP_CSP;
  const resources = declared.resourceDomains ?? [];
  const list = (...parts: string[]) => parts.join(' ');
  const orNone = (domains: string[] | undefined) => (domains && domains.length > 0 ? list(...domains) : "'none'");
  const script = ["'self'", "'unsafe-inline'", ...(declared.wasmUnsafeEval ? ["'wasm-unsafe-eval'"] : [])];
  return [
    "default-src 'none'",
    `script-src ${list(...script, ...resources)}`,
    `style-src ${list("'self'", "'unsafe-inline'", ...resources)}`,
    `img-src ${list("'self'", 'data:', ...resources)}`,
    `font-src ${list("'self'", ...resources)}`,
    `media-src ${list("'self'", 'data:', ...resources)}`,
    `connect-src ${orNone(declared.connectDomains)}`,
    "object-src 'none'",
    `frame-src ${orNone(declared.frameDomains)}`,
    `base-uri ${declared.baseUriDomains && declared.baseUriDomains.length > 0 ? list(...declared.baseUriDomains) : "'self'"}`,
  ].join('; ');
}
