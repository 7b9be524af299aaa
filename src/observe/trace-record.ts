/**
 * The shape of one traced frame: what `mcpwire --trace-file` and `mcpwire proxy` write, one JSON
 * object per line (JSONL), and what `mcpwire trace show|check` read. Everything a reader needs is
 * in the record itself; a file may interleave several servers. Version 1; readers skip records
 * of another `v` with a note rather than failing.
 *
 * Contracts:
 * - Secrets never reach a record: `Authorization`, cookies, tokens and configured secret values
 *   are replaced by `***` (or `Bearer ***`) before the record is built.
 * - `message` is the decoded JSON-RPC value exactly as sent or received (after redaction); a
 *   frame that did not parse keeps its text in `raw` (truncated) and has `kind: 'invalid'`. A
 *   frame that parsed but that JSON cannot write back (nested deeper than the stack allows) keeps
 *   its kind, id and method, and a bounded sample in `raw` instead of `message`.
 * - `t` is milliseconds since the tracer started (monotonic); `ts` is wall-clock ISO time.
 * - A record with `lane: 'ui'` is MCP Apps bridge traffic (`ui/*` between a host and its view),
 *   not MCP wire traffic; records without `lane` are MCP. The version stays 1: readers that do
 *   not know the field read ui records as ordinary frames of their own session.
 */

/**
 * Direction of a frame: `out` is client → server, `in` is server → client. On the ui lane,
 * `out` is host → view and `in` is view → host.
 */
export type TraceDirection = 'out' | 'in';

/** What a frame is, from its JSON-RPC shape. `event` records are not frames (connect, exit, close). */
export type TraceKind = 'request' | 'response' | 'error' | 'notification' | 'batch' | 'invalid' | 'event';

/**
 * A lane of traffic other than MCP's own: `ui` is the MCP Apps bridge (`ui/*` and the MCP
 * requests a view sends through its host), recorded beside the MCP session of the same server.
 */
export type TraceLane = 'ui';

/** HTTP facts of a frame carried over HTTP. Header names are lower-case. */
export interface TraceHttp {
  method: string;
  /** With credentials in the query string redacted. */
  url: string;
  /** The response status, on the record of the response (or the request when only a status came back). */
  status?: number;
  /** `mcp-*`, `content-type`, `last-event-id` and the redacted `authorization`; other headers are left out. */
  headers?: Record<string, string>;
}

/** One line of a trace file. */
export interface TraceRecord {
  v: 1;
  ts: string;
  t: number;
  /** The server's display name (config name, command or host). */
  server: string;
  /**
   * The tracer that wrote it: every record of one connect (restarts included) or one proxy run
   * has the same value, unique per tracer, so an appended file splits into its sessions exactly.
   * Absent in traces written before it existed (sessions are then told apart by their clocks).
   */
  session?: string;
  dir: TraceDirection;
  /** Absent for MCP traffic; `ui` for the MCP Apps bridge between a host and its view. */
  lane?: TraceLane;
  kind: TraceKind;
  /** UTF-8 bytes of the frame as it crossed the wire (0 for events). */
  bytes: number;
  /** The JSON-RPC id, for requests, responses and errors. */
  id?: string | number;
  /** The method: of the request or notification, and for responses the method they answer. */
  method?: string;
  /** For responses and errors: milliseconds since the matching request went out (or came in). */
  latencyMs?: number;
  /**
   * For an answer whose JSON-RPC id is `null` (an error the peer could not tie to an id, such as an
   * HTTP 400 to a request it refused to read): the id of the request the recorder matched it to —
   * the one its HTTP exchange carried, or the only request waiting.
   */
  answers?: string | number;
  /**
   * Set on the frames of the era negotiation: the `server/discover` probe a client sends before it
   * knows the server's era (and the `ping` sent behind it), and an error answer refusing it (the
   * client then goes on with `initialize`). Negotiation, not an error: readers leave such answers
   * out of error counts.
   */
  negotiation?: true;
  /** The negotiated revision once known (set from the initialize result or discover). */
  protocolVersion?: string;
  http?: TraceHttp;
  /** The decoded message (redacted). Absent for `invalid` and `event`, and for a frame JSON cannot write. */
  message?: unknown;
  /** Raw text of an invalid frame, or a sample of a frame JSON cannot write (at most 4 KiB). */
  raw?: string;
  /** For `event` records: `connect`, `close`, `exit`, `stderr`, `spawn`, ... */
  event?: string;
  /** For `event` records: free-form facts (exit code, signal, pid, error message). */
  detail?: Record<string, unknown>;
}

/** The record is MCP Apps bridge traffic (`lane: 'ui'`), not MCP wire traffic. */
export function isUiLane(record: Pick<TraceRecord, 'lane'>): boolean {
  return record.lane === 'ui';
}
