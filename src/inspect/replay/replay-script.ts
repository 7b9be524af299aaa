/**
 * A recorded session turned into what a replay serves: the client's requests in recorded order,
 * each with the answer the server gave and the server's own messages (notifications, requests to
 * the client) in their place — before the answer (they came while the request ran) or after it
 * (they came before the client's next message). Built from a trace file (`mcpwire proxy`,
 * `--trace-file`): one session's records, client → server as `out`, server → client as `in`.
 *
 * Refusals are `INVALID_ARGUMENT` errors naming the file and line: a line that is not a version-1
 * record, a file with no session or several (unless one is chosen), a session without `initialize`
 * or `server/discover` (not a session's start: the recording began late).
 */
import { McpError } from '../../protocol/errors.js';
import type { JsonRpcId } from '../../protocol/jsonrpc.js';
import type { TraceRecord } from '../../observe/trace-record.js';
import { readTrace } from '../trace/read-trace.js';
import { splitSessions } from '../trace/trace-sessions.js';

/** A message the server sent on its own: replayed as recorded (a request's answer from the client is awaited). */
export interface ServerMessage {
  kind: 'notification' | 'request';
  method: string;
  params: Record<string, unknown> | undefined;
  /** 1-based line in the trace file. */
  line: number;
  /** When it was recorded (the trace's `t`, ms), for its spacing. */
  t: number;
}

/** One request the client sent, and what the server did about it. */
export interface RecordedRequest {
  kind: 'request';
  /** Position among the session's requests, from 1. */
  index: number;
  line: number;
  method: string;
  params: Record<string, unknown> | undefined;
  /** When the request and its answer were recorded (the trace's `t`, ms), for the spacing of `before`. */
  t: number;
  answerT: number;
  /** The recorded answer: a result or an error object; undefined when none was recorded (cancelled, cut off). */
  answer: { result: Record<string, unknown> } | { error: Record<string, unknown> } | undefined;
  /** Server messages recorded while the request ran (before its answer). */
  before: ServerMessage[];
  /** Server messages recorded after its answer, before the client's next message. */
  after: ServerMessage[];
}

/** One notification the client sent: an anchor for what the server sent after it. */
export interface RecordedNotification {
  kind: 'notification';
  line: number;
  method: string;
  after: ServerMessage[];
}

export type ReplayStep = RecordedRequest | RecordedNotification;

/** What a replay serves. */
export interface ReplayScript {
  file: string;
  /** The recorded server's display name. */
  server: string;
  /** `legacy` when the session has `initialize`; `modern` when it has `server/discover` and never initializes. */
  era: 'legacy' | 'modern';
  steps: ReplayStep[];
  /** Server messages recorded before the client's first message (sent when the first request arrives). */
  prelude: ServerMessage[];
}

/** Options of {@link loadReplayScript}. */
export interface LoadScriptOptions {
  /** Which session of a file holding several (1-based, file order, as `mcpwire trace show` numbers them). */
  session?: number;
  signal?: AbortSignal;
}

function refuse(message: string): McpError {
  return new McpError('INVALID_ARGUMENT', message);
}

/** The JSON-RPC messages of a record: its message, or a batch's items. */
function messagesOf(record: TraceRecord): Array<Record<string, unknown>> {
  const list = Array.isArray(record.message) ? (record.message as unknown[]) : [record.message];
  return list.filter((m): m is Record<string, unknown> => typeof m === 'object' && m !== null && !Array.isArray(m));
}

function paramsOf(message: Record<string, unknown>): Record<string, unknown> | undefined {
  const params = message.params;
  return typeof params === 'object' && params !== null && !Array.isArray(params)
    ? (params as Record<string, unknown>)
    : undefined;
}

/**
 * Reads `file` and builds the script of one session. Rejects with `INVALID_ARGUMENT` naming the
 * file (and line) when the file cannot be read or is not one session's recording.
 */
export async function loadReplayScript(file: string, options: LoadScriptOptions = {}): Promise<ReplayScript> {
  const read = await readTrace(file, options.signal ? { signal: options.signal } : {});
  const damaged = read.problems.find((p) => p.kind !== 'other-version');
  if (damaged) throw refuse(`${file}:${damaged.line}: ${damaged.message}: not a trace mcpwire replay can serve`);
  const sessions = splitSessions(read.records).filter((s) => s.records.some((r) => r.kind !== 'event'));
  if (sessions.length === 0) throw refuse(`${file}: holds no recorded message`);
  let chosen = sessions[0]!;
  if (options.session !== undefined) {
    const wanted = sessions[options.session - 1];
    if (!wanted) throw refuse(`${file}: has ${sessions.length} session(s), not a session ${options.session}`);
    chosen = wanted;
  } else if (sessions.length > 1) {
    const list = sessions.map((s) => `${s.index}: ${s.server}`).join(', ');
    throw refuse(`${file}: holds ${sessions.length} sessions (${list}); choose one with --session N`);
  }
  const lineOf = (position: number): number => read.lines[chosen.positions[position]!] ?? 0;
  return buildScript(file, chosen.server, chosen.records, lineOf);
}

/** Builds the script of one session's records (file order); `lineOf(i)` is the file line of `records[i]`. */
export function buildScript(
  file: string,
  server: string,
  records: readonly TraceRecord[],
  lineOf: (position: number) => number,
): ReplayScript {
  const steps: ReplayStep[] = [];
  const prelude: ServerMessage[] = [];
  const open = new Map<JsonRpcId, RecordedRequest>();
  /** Where a server message not tied to a running request goes: after the last answer or client notification. */
  let tail: ServerMessage[] = prelude;
  let initialize = false;
  let discover = false;

  records.forEach((record, position) => {
    const line = lineOf(position);
    if (record.kind === 'event') return;
    if (record.kind === 'invalid')
      throw refuse(
        `${file}:${line}: a frame that is not JSON-RPC (${record.raw?.slice(0, 60) ?? '?'}) cannot be replayed`,
      );
    if (record.message === undefined)
      throw refuse(`${file}:${line}: the record keeps no message (too deep to write) and cannot be replayed`);
    for (const message of messagesOf(record)) {
      const method = typeof message.method === 'string' ? message.method : undefined;
      const id = message.id as JsonRpcId | undefined;
      const isCall = method !== undefined && id !== undefined && id !== null;
      if (record.dir === 'out') {
        if (isCall) {
          const step: RecordedRequest = {
            kind: 'request',
            index: steps.filter((s) => s.kind === 'request').length + 1,
            line,
            method,
            params: paramsOf(message),
            t: timeOf(record),
            answerT: timeOf(record),
            answer: undefined,
            before: [],
            after: [],
          };
          if (method === 'initialize') initialize = true;
          if (method === 'server/discover') discover = true;
          steps.push(step);
          open.set(id, step);
        } else if (method !== undefined) {
          const step: RecordedNotification = { kind: 'notification', line, method, after: [] };
          steps.push(step);
          tail = step.after;
        }
        // The client's answers to the server's requests come live; the recorded ones are not needed.
        continue;
      }
      if (method === undefined) {
        const step = id === undefined || id === null ? undefined : open.get(id);
        if (!step) continue; // an answer to no recorded request (the recording began late): nothing to serve
        open.delete(id!);
        step.answerT = timeOf(record);
        step.answer =
          'error' in message && typeof message.error === 'object' && message.error !== null
            ? { error: message.error as Record<string, unknown> }
            : { result: (message.result ?? {}) as Record<string, unknown> };
        tail = step.after;
        continue;
      }
      const sent: ServerMessage = {
        kind: isCall ? 'request' : 'notification',
        method,
        params: paramsOf(message),
        line,
        t: timeOf(record),
      };
      (runningFor(sent, open)?.before ?? tail).push(sent);
    }
  });
  const first = steps.find((s) => s.kind === 'request');
  if (!initialize && !discover)
    throw refuse(
      `${file}:${first?.line ?? lineOf(0)}: the session has no initialize (nor server/discover): not the start of a session`,
    );
  return { file, server, era: initialize ? 'legacy' : 'modern', steps, prelude };
}

function timeOf(record: TraceRecord): number {
  return typeof record.t === 'number' && Number.isFinite(record.t) ? record.t : 0;
}

/**
 * The running request a server message belongs to: the request whose progress token it carries,
 * else the latest request still running; undefined when none runs.
 */
function runningFor(sent: ServerMessage, open: Map<JsonRpcId, RecordedRequest>): RecordedRequest | undefined {
  const token = sent.method === 'notifications/progress' ? sent.params?.progressToken : undefined;
  let latest: RecordedRequest | undefined;
  for (const step of open.values()) {
    if (token !== undefined && (step.params?._meta as { progressToken?: unknown } | undefined)?.progressToken === token)
      return step;
    latest = step;
  }
  return latest;
}
