/**
 * The reserved `io.modelcontextprotocol/` names of the 2026-07-28 revision, spelled once for every
 * room: the `_meta` keys a modern request carries instead of the legacy handshake (its revision,
 * the client's capabilities and info, its log level), the one a result carries (the server's info),
 * the one that stamps a listen's changes, and the extension identifiers mcpwire knows.
 */

/** The `_meta` keys of the 2026-07-28 revision. */
export const META_KEYS = {
  /** A modern request's revision (`basic/index.mdx`: required on every request). */
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  /** The client's capabilities, on every modern request. */
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  /** The client's `Implementation` (name, version), on every modern request. */
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  /** The log level the client asks for on this request (instead of `logging/setLevel`). */
  logLevel: 'io.modelcontextprotocol/logLevel',
  /** The server's `Implementation`, on a modern result. */
  serverInfo: 'io.modelcontextprotocol/serverInfo',
  /** The id of the `subscriptions/listen` request a change notification belongs to. */
  subscriptionId: 'io.modelcontextprotocol/subscriptionId',
} as const;

/** Extension identifiers, spelled once in `./extensions/ids.ts`. */
export { EXTENSION_IDS } from './extensions/ids.js';
