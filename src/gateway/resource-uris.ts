/**
 * Resource URIs through the gateway. Every upstream's URIs are rewritten so that two servers can
 * use the same URI and a read finds its way back, without a table: the server's name rides in the
 * URI, percent-encoded, and the original follows verbatim.
 *
 * - `ui://…` (MCP Apps views) stays a `ui://` URI, since hosts render only those:
 *   `ui://<server>+<rest>` for the upstream's `ui://<rest>`.
 * - Every other URI becomes `mcpwire://<server>/<original>`: `file:///a b` of server `fs` is
 *   `mcpwire://fs/file:///a b`.
 *
 * The mapping is reversible for every server name (`encodeURIComponent` leaves no `/` or `+`
 * in it) and every URI, and a URI template is rewritten the same way: the prefix is literal, so
 * a client expanding the gateway's template gets the gateway's form of the expanded URI.
 */

const UI = 'ui://';
const GATEWAY = 'mcpwire://';

/** The gateway's URI (or URI template) for `uri` of `server`. */
export function gatewayUri(server: string, uri: string): string {
  const name = encodeURIComponent(server);
  return uri.startsWith(UI) ? `${UI}${name}+${uri.slice(UI.length)}` : `${GATEWAY}${name}/${uri}`;
}

/** The server and upstream URI behind a gateway URI, or `undefined` for a URI the gateway did not make. */
export function upstreamUri(uri: string): { server: string; uri: string } | undefined {
  if (uri.startsWith(UI)) {
    const rest = uri.slice(UI.length);
    const at = rest.indexOf('+');
    const server = at > 0 ? decoded(rest.slice(0, at)) : undefined;
    return server === undefined ? undefined : { server, uri: `${UI}${rest.slice(at + 1)}` };
  }
  if (uri.startsWith(GATEWAY)) {
    const rest = uri.slice(GATEWAY.length);
    const at = rest.indexOf('/');
    const server = at > 0 ? decoded(rest.slice(0, at)) : undefined;
    return server === undefined ? undefined : { server, uri: rest.slice(at + 1) };
  }
  return undefined;
}

/** The URI prefixes of `server`'s rewritten URIs (for a read that matches any of them). */
export function serverUriPrefixes(server: string): readonly [string, string] {
  const name = encodeURIComponent(server);
  return [`${UI}${name}+`, `${GATEWAY}${name}/`];
}

function decoded(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}
