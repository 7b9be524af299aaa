/**
 * Reading trace files (JSONL of {@link TraceRecord}s) and selecting records from them: what
 * `mcpwire trace show` and `mcpwire trace check` start from.
 *
 * A trace is read whole and never rejected for its content: a line that is not JSON, not a
 * record, or a record of another format version is a {@link TraceProblem} with its line number,
 * and reading goes on. Blank lines are skipped. What the reader can tell that older recorders did
 * not write (the request an error with id `null` answers, the era negotiation) is filled in
 * ({@link annotateTrace}).
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { errorMessage, McpError } from '../../protocol/errors.js';
import type { TraceDirection, TraceKind, TraceRecord } from '../../observe/trace-record.js';
import { annotateTrace } from './trace-annotate.js';

/** A line that did not become a record. `other-version` is a note (a newer writer), not damage. */
export interface TraceProblem {
  /** 1-based line number in the file or text. */
  line: number;
  kind: 'invalid-json' | 'not-a-record' | 'other-version';
  message: string;
}

/** The outcome of reading a trace. */
export interface TraceReadResult {
  /** The version-1 records, in file order. */
  records: TraceRecord[];
  /** `lines[i]` is the 1-based line of `records[i]`. */
  lines: number[];
  problems: TraceProblem[];
}

const DIRECTIONS: readonly TraceDirection[] = ['out', 'in'];
const KINDS: readonly TraceKind[] = ['request', 'response', 'error', 'notification', 'batch', 'invalid', 'event'];

/** Accumulates lines into a {@link TraceReadResult}. */
class TraceLines {
  readonly result: TraceReadResult = { records: [], lines: [], problems: [] };
  private line = 0;

  add(text: string): void {
    this.line++;
    if (text.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      this.problem('invalid-json', `not JSON (${errorMessage(error)})`);
      return;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      this.problem('not-a-record', 'a trace record is a JSON object');
      return;
    }
    const record = value as Record<string, unknown>;
    if (record.v !== 1) {
      if (typeof record.v === 'number')
        this.problem('other-version', `record of format version ${record.v} skipped (this reader knows version 1)`);
      else
        this.problem(
          'not-a-record',
          `field "v" must be the format version 1 (it is ${JSON.stringify(record.v) ?? 'missing'})`,
        );
      return;
    }
    const wrong =
      typeof record.server !== 'string'
        ? 'field "server" must be a string'
        : !DIRECTIONS.includes(record.dir as TraceDirection)
          ? 'field "dir" must be "out" or "in"'
          : !KINDS.includes(record.kind as TraceKind)
            ? `field "kind" must be one of ${KINDS.join(', ')}`
            : undefined;
    if (wrong) {
      this.problem('not-a-record', wrong);
      return;
    }
    this.result.records.push(record as unknown as TraceRecord);
    this.result.lines.push(this.line);
  }

  private problem(kind: TraceProblem['kind'], message: string): void {
    this.result.problems.push({ line: this.line, kind, message });
  }
}

/** Parses trace text (JSONL; `\n` or `\r\n` line ends). Never throws. */
export function parseTrace(text: string): TraceReadResult {
  const lines = new TraceLines();
  const parts = text.split('\n');
  // A final newline ends the last line; it does not start another.
  if (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
  for (const part of parts) lines.add(part.endsWith('\r') ? part.slice(0, -1) : part);
  annotateTrace(lines.result.records);
  return lines.result;
}

/**
 * Reads a trace: `source` is a file path (read line by line, so files larger than a string can
 * hold are fine), or `{ text }` for content already in memory. Rejects with `INVALID_ARGUMENT`
 * when the file cannot be read, or with the signal's reason when aborted; never for content.
 */
export async function readTrace(
  source: string | { text: string },
  options: { signal?: AbortSignal } = {},
): Promise<TraceReadResult> {
  options.signal?.throwIfAborted();
  if (typeof source !== 'string') return parseTrace(source.text);
  const lines = new TraceLines();
  const stream = createReadStream(source, { encoding: 'utf8', ...(options.signal ? { signal: options.signal } : {}) });
  const reader = createInterface({ input: stream, crlfDelay: Infinity });
  try {
    for await (const line of reader) lines.add(line);
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    const reason = errorMessage(error);
    throw new McpError('INVALID_ARGUMENT', `cannot read the trace file ${source}: ${reason}`, { cause: error });
  } finally {
    reader.close();
    stream.destroy();
  }
  annotateTrace(lines.result.records);
  return lines.result;
}

/** Which records {@link filterTrace} keeps; every given field must match. */
export interface TraceFilter {
  /** Exact method, or a pattern with `*` (`tools/*`). Responses match by the method they answer. */
  method?: string;
  /** The JSON-RPC id; compared as text, so `1` and `"1"` both match either. */
  id?: string | number;
  /** The server's display name, exactly. */
  server?: string;
  /**
   * `true`: only trouble — error responses, tool results with `isError`, frames that did not parse;
   * not the era negotiation (a refused `server/discover` probe).
   */
  errors?: boolean;
}

function methodMatcher(pattern: string): (method: string | undefined) => boolean {
  if (!pattern.includes('*')) return (method) => method === pattern;
  const escaped = pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'));
  const regex = new RegExp(`^${escaped.join('.*')}$`);
  return (method) => method !== undefined && regex.test(method);
}

/** The messages of a record: its message, or the items of a batch. */
function itemsOf(record: TraceRecord): Array<Record<string, unknown>> {
  const message = record.message;
  const list = Array.isArray(message) ? message : message === undefined ? [] : [message];
  return list.filter((m): m is Record<string, unknown> => typeof m === 'object' && m !== null && !Array.isArray(m));
}

function isTrouble(record: TraceRecord): boolean {
  // A refused era probe is negotiation, not trouble.
  if (record.negotiation === true && record.kind !== 'invalid') return false;
  if (record.kind === 'error' || record.kind === 'invalid') return true;
  return itemsOf(record).some(
    (m) =>
      'error' in m ||
      (typeof m.result === 'object' && m.result !== null && (m.result as { isError?: unknown }).isError === true),
  );
}

/** A predicate for `filter`, for callers that keep their own indices (line numbers). */
export function matchesFilter(filter: TraceFilter): (record: TraceRecord) => boolean {
  const method = filter.method === undefined ? undefined : methodMatcher(filter.method);
  const id = filter.id === undefined ? undefined : String(filter.id);
  return (record) => {
    if (filter.server !== undefined && record.server !== filter.server) return false;
    if (filter.errors && !isTrouble(record)) return false;
    // A batch matches when one of its items does.
    if (
      method &&
      !method(record.method) &&
      !itemsOf(record).some((m) => typeof m.method === 'string' && method(m.method))
    )
      return false;
    if (
      id !== undefined &&
      !(record.id !== undefined && String(record.id) === id) &&
      !(record.kind === 'batch' && itemsOf(record).some((m) => m.id !== undefined && String(m.id) === id))
    )
      return false;
    return true;
  };
}

/** The records of `records` that match `filter`, in order (the same objects). */
export function filterTrace(records: readonly TraceRecord[], filter: TraceFilter): TraceRecord[] {
  return records.filter(matchesFilter(filter));
}
