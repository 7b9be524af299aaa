/**
 * Where a supervised server stands: the public {@link ServerStatus} and {@link StatusChange}
 * the manager reports, the private {@link SlotState} a `ServerSlot` holds (one value, the data of
 * each state with it, so a client exists only where one may be called), and the read-only
 * {@link SlotSnapshot} the status report and error messages read.
 */
import type { McpClient } from '../../client/mcp-client.js';
import type { McpError } from '../../protocol/errors.js';

/**
 * Where a server stands. `not-approved`: the approval step refused it (a project server); it is
 * not started again until its definition changes. `needs-auth`: a connect or a call failed with
 * `AUTH_REQUIRED` (no usable login, or its `headersHelper` failed); it is not restarted, and
 * waits for a login (`McpManager.login`, `/mcp auth NAME`).
 */
export type ServerStatus = 'disconnected' | 'connecting' | 'connected' | 'error' | 'needs-auth' | 'not-approved';

/** A status change, as the manager's `status` event reports it. */
export interface StatusChange {
  server: string;
  status: ServerStatus;
  previous: ServerStatus;
  error?: McpError;
}

/**
 * A slot's state. `lastError` (the error of the last failure, kept until a connect succeeds) is
 * the state's `error` in the failed states. `connecting` holds the client once its handshake is
 * done and its tools are being listed (not callable yet: `connected` comes with the tools
 * published). `closing`: `disconnect()` is closing the client of a connected slot (or it went
 * away meanwhile); reported as `connected` with no client to call until the close is done and
 * the slot turns `disconnected`.
 */
export type SlotState =
  | { readonly kind: 'disconnected'; readonly lastError: McpError | undefined }
  | { readonly kind: 'connecting'; readonly lastError: McpError | undefined; readonly client?: McpClient }
  | { readonly kind: 'connected'; readonly client: McpClient }
  | { readonly kind: 'closing' }
  | { readonly kind: 'error'; readonly error: McpError }
  | { readonly kind: 'needs-auth'; readonly error: McpError }
  | { readonly kind: 'not-approved'; readonly error: McpError };

/** What a slot reports of itself: a frozen copy, taken when asked. */
export interface SlotSnapshot {
  readonly status: ServerStatus;
  /** The error of the last failure (not scrubbed: scrub with the slot's `secrets` before showing it). */
  readonly lastError: McpError | undefined;
  /** Restarts performed since the slot was created. */
  readonly restarts: number;
  /** True once the breaker opened after repeated failures (until `connect()` is called again). */
  readonly circuitOpen: boolean;
  /** True while a restart is scheduled (the slot is in `error` and will try again by itself). */
  readonly restartPending: boolean;
  /** Messages from the server that were not JSON or not JSON-RPC, over the slot's life. */
  readonly invalidMessages: number;
}

/** The status `state` is reported as. */
export function statusOf(state: SlotState): ServerStatus {
  return state.kind === 'closing' ? 'connected' : state.kind;
}

/** The last failure `state` knows of (see {@link SlotState}). */
export function lastErrorOf(state: SlotState): McpError | undefined {
  switch (state.kind) {
    case 'disconnected':
    case 'connecting':
      return state.lastError;
    case 'connected':
    case 'closing':
      return undefined;
    default:
      return state.error;
  }
}

/**
 * The change `server` reports going from `from` to `to`, with the error of a failed state; none
 * when the status stays the same without an error.
 */
export function statusChange(server: string, from: SlotState, to: SlotState): StatusChange | undefined {
  const previous = statusOf(from);
  const status = statusOf(to);
  const error = to.kind === 'error' || to.kind === 'needs-auth' || to.kind === 'not-approved' ? to.error : undefined;
  if (previous === status && error === undefined) return undefined;
  return { server, status, previous, ...(error ? { error } : {}) };
}

/** The client `state` holds: connected, or handshaken and listing its tools. */
export function heldClientOf(state: SlotState): McpClient | undefined {
  return state.kind === 'connected' || state.kind === 'connecting' ? state.client : undefined;
}

/** `state` without its client, its status unchanged (`connected` turns `closing`). */
export function withoutClient(state: SlotState): SlotState {
  if (state.kind === 'connected') return { kind: 'closing' };
  if (state.kind === 'connecting' && state.client) return { kind: 'connecting', lastError: state.lastError };
  return state;
}
