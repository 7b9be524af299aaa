/**
 * `--trace` (one pretty line per frame on stderr, coloured on a terminal) and `--trace-file
 * FILE.jsonl` (one record per line, appended): the client options that turn tracing on, and
 * the close that flushes the file. Also the pretty form of a record, shared with `trace show`.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import path from 'node:path';
import type { ClientOptions } from '../client/options.js';
import type { TraceRecord } from '../transport/trace/trace-record.js';
import { flag, stringOption, type ParsedArgs } from './argv.js';
import { paint, type CliIO } from './io.js';

export interface TraceOutput {
  /** Receives every record. */
  sink: (record: TraceRecord) => void;
  clientOptions: Partial<ClientOptions>;
  close(): Promise<void>;
}

/** The trace outputs the command line asks for, or undefined for none. */
export async function openTrace(args: ParsedArgs, io: CliIO): Promise<TraceOutput | undefined> {
  const file = stringOption(args, 'trace-file');
  const pretty = flag(args, 'trace');
  if (!file && !pretty) return undefined;
  let stream: WriteStream | undefined;
  let failed = false;
  if (file) {
    stream = createWriteStream(path.resolve(io.cwd, file), { flags: 'a' });
    stream.on('error', (error) => {
      if (!failed) io.stderr.write(`mcpwire: cannot write the trace to ${file}: ${error.message}\n`);
      failed = true;
    });
  }
  const sink = (record: TraceRecord) => {
    if (stream && !failed) stream.write(`${JSON.stringify(record)}\n`);
    if (pretty) io.stderr.write(`${prettyRecord(record, io.color)}\n`);
  };
  return {
    sink,
    clientOptions: { trace: { sink } } as Partial<ClientOptions>,
    close: () => new Promise<void>((resolve) => (stream && !stream.destroyed ? stream.end(() => resolve()) : resolve())),
  };
}

const ARROW = { out: '→', in: '←' } as const;

/**
 * One line: time offset, server, arrow (→ client to server), kind, method, id, latency, bytes,
 * HTTP status and session, then the params / result / error shortened to fit.
 */
export function prettyRecord(record: TraceRecord, color = false, width = 160): string {
  const c = paint(color);
  const time = `${(record.t / 1000).toFixed(3).padStart(8)}s`;
  const head = `${c.dim(time)} ${record.server} ${ARROW[record.dir]}`;
  if (record.kind === 'event') return `${head} ${c.yellow(record.event ?? 'event')} ${shorten(JSON.stringify(record.detail ?? {}), width)}`;
  if (record.kind === 'invalid') return `${head} ${c.red('invalid')} ${record.bytes}B ${shorten(JSON.stringify(record.raw ?? ''), width)}`;
  const message = record.message as Record<string, unknown> | undefined;
  const kindColor = record.kind === 'error' ? c.red : record.kind === 'request' ? c.cyan : record.kind === 'response' ? c.green : c.dim;
  const parts = [head, kindColor(record.kind)];
  if (record.method) parts.push(c.bold(record.method));
  if (record.id !== undefined) parts.push(`#${record.id}`);
  if (record.latencyMs !== undefined) parts.push(`${record.latencyMs.toFixed(1)}ms`);
  parts.push(`${record.bytes}B`);
  if (record.http?.status !== undefined) parts.push(`HTTP ${record.http.status}`);
  const session = record.http?.headers?.['mcp-session-id'];
  if (session) parts.push(`session ${session.slice(0, 8)}`);
  const body = record.kind === 'batch' ? record.message : (message?.params ?? message?.result ?? message?.error);
  if (body !== undefined) parts.push(shorten(JSON.stringify(body), width));
  return parts.join(' ');
}

function shorten(text: string, width: number): string {
  return text.length <= width ? text : `${text.slice(0, width - 1)}…`;
}
