/**
 * What the Streamable HTTP transport knows of its session, as the client told it
 * ({@link HttpSession}), plus the one HTTP fact it keeps itself: the `Mcp-Session-Id` the server
 * assigned (legacy shape, `D/2025-11-25/basic/transports.mdx`). It never learns the era or the
 * revision from the traffic.
 */
import { headerOf } from './http-body.js';
import type { RawHeaders } from './exchange-reporter.js';

/**
 * The session of a Streamable HTTP transport, pushed by the layer that negotiated it:
 * - `modern` (2026-07-28): no session id, no GET stream; every request mirrors its method, name
 *   and `_meta` revision into headers; closing a request's stream is its cancellation.
 * - `legacy` (2025-03-26 … 2025-11-25): the session id the server assigns goes on every later
 *   request; `protocolVersion` (once negotiated) sets `MCP-Protocol-Version` where that revision
 *   has it; `established: true` (after `notifications/initialized`) opens the optional GET stream.
 *   A new `legacy` session without `established` stops the GET stream (a re-initialize).
 */
export type HttpSession = { era: 'modern' } | { era: 'legacy'; protocolVersion?: string; established?: boolean };

/** Revisions that carry `MCP-Protocol-Version` on every request after initialize. */
const WITH_VERSION_HEADER = new Set(['2025-06-18', '2025-11-25']);

/** The legacy session state of one transport: what it was told, and the id the server assigned. */
export class LegacySession {
  /** The session id the server assigned, while the session lives. */
  id: string | undefined;
  private versionHeader: string | undefined;

  /** Takes what the client said of the session (the id is the server's and stays). */
  told(session: Extract<HttpSession, { era: 'legacy' }>): void {
    const version = session.protocolVersion;
    this.versionHeader = version !== undefined && WITH_VERSION_HEADER.has(version) ? version : undefined;
  }

  /** Keeps the id from a successful response's `Mcp-Session-Id`, when none is held yet. */
  assigned(headers: RawHeaders): void {
    if (this.id !== undefined) return;
    const id = headerOf(headers, 'mcp-session-id');
    if (id !== undefined) this.id = id;
  }

  /** The server said the session is gone (404): the id is dropped; the next `initialize` gets a new one. */
  forget(): void {
    this.id = undefined;
  }

  /** Adds the session id and the negotiated version to `headers` (every legacy request). */
  addHeaders(headers: Record<string, string>): Record<string, string> {
    if (this.id !== undefined) headers['mcp-session-id'] = this.id;
    if (this.versionHeader !== undefined) headers['mcp-protocol-version'] = this.versionHeader;
    return headers;
  }
}
