/**
 * `--trace` (one pretty line per frame on stderr, coloured on a terminal) and `--trace-file
 * FILE.jsonl` (one record per line, appended): the sink both feed, the client options that turn
 * tracing on, and the close that flushes the file. The sinks are the transport layer's.
 */
import path from 'node:path';
import type { ClientOptions } from '../client/options.js';
import { jsonlFileSink, prettyTraceLine } from '../inspect/trace/sinks.js';
import type { TraceSink } from '../transport/trace/trace-sink.js';
import { flag, stringOption, type ParsedArgs } from './argv.js';
import type { CliIO } from './io.js';

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
  if (!file && !pretty) return undefined;
  const jsonl = file
    ? jsonlFileSink(path.resolve(io.cwd, file), {
        onError: (error) => io.stderr.write(`mcpwire: cannot write the trace to ${file}: ${error.message}\n`),
      })
    : undefined;
  const sink: TraceSink = (record) => {
    jsonl?.sink(record);
    if (pretty) io.stderr.write(`${prettyTraceLine(record, { color: io.color })}\n`);
  };
  return { sink, clientOptions: { trace: { sink } }, close: async () => jsonl?.close() };
}
