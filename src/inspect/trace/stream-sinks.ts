/**
 * The trace writers that need no Node: any writable (a stream, a socket, `{ write: console.log }`)
 * and the one-line human form of a record (`--trace`). Each is a {@link TraceSink}, the plain
 * function the tracing decorator (`observe/`) hands its records to and guards, so a sink's
 * failure never reaches the traffic it watches. The JSONL file sink is Node's: `sinks.ts`.
 */
import type { TraceRecord } from '../../observe/trace-record.js';
import type { TraceSink } from '../../observe/trace-sink.js';

/** Something that takes text, like `process.stderr` or a socket. */
export interface TextWritable {
  write(text: string): unknown;
}

/** Options of {@link streamSink}. */
export interface StreamSinkOptions {
  /** One {@link prettyTraceLine} per record instead of JSON (default false). */
  pretty?: boolean;
  /** With `pretty`: ANSI colours (default false). */
  color?: boolean;
}

/**
 * Writes each record to `writable` as one line: JSON by default, the pretty form with `pretty`.
 * A throwing `write` is swallowed (the stream's own 'error' events are the stream's business).
 */
export function streamSink(writable: TextWritable, options: StreamSinkOptions = {}): TraceSink {
  const color = options.color === true;
  const format = options.pretty
    ? (record: TraceRecord) => prettyTraceLine(record, { color })
    : (record: TraceRecord) => JSON.stringify(record);
  return (record) => {
    try {
      writable.write(`${format(record)}\n`);
    } catch {
      // A broken output must not break the traced connection.
    }
  };
}

/** Options of {@link prettyTraceLine}. */
export interface PrettyOptions {
  /** ANSI colours: errors red, requests cyan, responses green, notifications and events dimmed or yellow. */
  color: boolean;
  /** Longest shortened JSON of params / result / error / detail, in characters (default 120). */
  width?: number;
}

const ARROWS = { out: '→', in: '←' } as const;
const ANSI = { red: 31, green: 32, yellow: 33, cyan: 36, dim: 2, bold: 1 } as const;

/**
 * One compact line for a record: time offset, server (followed by `ui` for an MCP Apps bridge
 * record, where → is host to view and ← view to host), arrow (→ client to server, ← server to
 * client), kind, method, `#id`, latency, bytes, HTTP status, then the params, result, error or
 * event detail as JSON shortened to `width`. No ANSI escape unless `color`; no newline.
 */
export function prettyTraceLine(record: TraceRecord, options: PrettyOptions): string {
  // Text from the peer (method names, raw lines) is printed with its control characters masked,
  // so a server cannot move the cursor or recolour the terminal through a trace.
  const paint = (code: keyof typeof ANSI, text: string): string =>
    options.color ? `\u001b[${ANSI[code]}m${printable(text)}\u001b[0m` : printable(text);
  const width = options.width ?? 120;
  const parts = [
    paint('dim', `+${(record.t / 1000).toFixed(3)}s`),
    printable(record.server),
    ...(record.lane === 'ui' ? [paint('dim', 'ui')] : []),
    ARROWS[record.dir] ?? printable(String(record.dir)),
  ];
  switch (record.kind) {
    case 'event':
      parts.push(paint('yellow', record.event ?? 'event'));
      break;
    case 'invalid':
      parts.push(paint('red', 'invalid'));
      break;
    case 'error':
      // A refused era probe is negotiation, not trouble: no red.
      parts.push(record.negotiation ? paint('dim', 'error (negotiation)') : paint('red', 'error'));
      break;
    case 'request':
      parts.push(paint('cyan', 'request'));
      break;
    case 'response':
      parts.push(paint('green', 'response'));
      break;
    default:
      parts.push(paint('dim', record.kind));
  }
  if (record.method) parts.push(paint('bold', record.method));
  if (record.id !== undefined) parts.push(printable(`#${record.id}`));
  else if (record.answers !== undefined) parts.push(printable(`#${record.answers} (id null)`));
  if (record.latencyMs !== undefined) parts.push(`${record.latencyMs.toFixed(1)}ms`);
  if (record.bytes > 0) parts.push(`${record.bytes}B`);
  if (record.http) {
    parts.push(record.http.status === undefined ? printable(record.http.method) : `HTTP ${record.http.status}`);
  }
  const body = bodyOf(record);
  if (body !== undefined) parts.push(printable(shorten(body, width)));
  return parts.join(' ');
}

/** The part of a record worth showing after its summary. */
function bodyOf(record: TraceRecord): string | undefined {
  if (record.kind === 'event')
    return record.detail && Object.keys(record.detail).length > 0 ? JSON.stringify(record.detail) : undefined;
  if (record.kind === 'invalid') return record.raw === undefined ? undefined : JSON.stringify(record.raw);
  if (record.kind === 'batch') return JSON.stringify(record.message);
  const message = record.message as { params?: unknown; result?: unknown; error?: unknown } | undefined;
  if (message === undefined || message === null || typeof message !== 'object') return undefined;
  const part = message.params ?? message.result ?? message.error;
  return part === undefined ? undefined : JSON.stringify(part);
}

/** `text` with C0 and C1 control characters (ESC, CSI, newlines) replaced by `?`. */
function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');
}

function shorten(text: string, width: number): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length <= width ? flat : `${flat.slice(0, Math.max(0, width - 1))}…`;
}
