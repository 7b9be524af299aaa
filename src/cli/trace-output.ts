/**
 * `--trace` (one pretty line per frame on stderr, coloured on a terminal), `--trace-file
 * FILE.jsonl` (one record per line, appended) and `--otlp-endpoint URL` (spans sent live): the
 * sink they all feed, the client options that turn tracing on, and the close that flushes them.
 */
import path from 'node:path';
import type { ClientOptions } from '../client/options.js';
import { jsonlFileSink, prettyTraceLine } from '../inspect/trace/sinks.js';
import type { TraceSink } from '../observe/trace-sink.js';
import { flag, stringOption, type ParsedArgs } from './argv.js';
import type { CliIO } from './io.js';
import { openOtlp } from './otlp-output.js';

export interface TraceOutput {
  /** Receives every record. */
  sink: TraceSink;
  clientOptions: Pick<ClientOptions, 'trace'>;
  close(): Promise<void>;
}

/** The trace outputs the command line asks for, or undefined for none. */
export async function openTrace(args: ParsedArgs, io: CliIO): Promise<TraceOutput | undefined> {
  const file = stringOption(args, 'trace-file');
  const pretty = flag(args, 'trace');
  const otlp = openOtlp(args, io);
  if (!file && !pretty && !otlp) return undefined;
  const jsonl = file
    ? jsonlFileSink(path.resolve(io.cwd, file), {
        onError: (error) => io.stderr.write(`mcpwire: cannot write the trace to ${file}: ${error.message}\n`),
      })
    : undefined;
  const sink: TraceSink = (record) => {
    jsonl?.sink(record);
    if (pretty) io.stderr.write(`${prettyTraceLine(record, { color: io.color })}\n`);
    otlp?.sink(record);
  };
  const close = async () => {
    await Promise.all([jsonl?.close(), otlp?.close()]);
  };
  return { sink, clientOptions: { trace: { sink } }, close };
}
