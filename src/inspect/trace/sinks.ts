/**
 * The trace writers: a JSONL file (Node: `node:fs`), and, re-exported from `stream-sinks.ts`,
 * any writable stream and the one-line human form of a record (`--trace`). Each is a
 * {@link TraceSink}, the plain function the tracing decorator (`observe/`) hands its records to
 * and guards, so a sink's failure never reaches the traffic it watches.
 */
import { createWriteStream } from 'node:fs';
import { reportSinkFailure, type TraceSink } from '../../observe/trace-sink.js';

export { prettyTraceLine, streamSink } from './stream-sinks.js';
export type { PrettyOptions, StreamSinkOptions, TextWritable } from './stream-sinks.js';

/** Options of {@link jsonlFileSink}. */
export interface JsonlFileSinkOptions {
  /** Receives the first write error (later ones are dropped with the records). Default: one line on stderr. */
  onError?: (error: Error) => void;
}

/** A {@link TraceSink} writing to a file, with the close that flushes it. */
export interface JsonlFileSink {
  sink: TraceSink;
  /** Flushes what was written and closes the file. Idempotent; never rejects. */
  close(): Promise<void>;
}

/**
 * Appends records to the file at `path`, one JSON object per line (created if missing). Never
 * throws into the caller: the first write error (a missing directory, a full disk) is handed to
 * `onError` or written once to stderr, and later records are dropped. Records offered after
 * `close()` are dropped.
 */
export function jsonlFileSink(path: string, options: JsonlFileSinkOptions = {}): JsonlFileSink {
  const stream = createWriteStream(path, { flags: 'a' });
  let failed = false;
  let closing: Promise<void> | undefined;
  stream.on('error', (error) => {
    if (failed) return;
    failed = true;
    reportSinkFailure(error, options.onError, `mcpwire: cannot write the trace to ${path}: ${error.message}\n`);
  });
  return {
    sink: (record) => {
      if (failed || closing) return;
      stream.write(`${JSON.stringify(record)}\n`);
    },
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        if (stream.destroyed) return resolve();
        // 'close' follows both a clean end and an error, so the promise always settles.
        stream.once('close', () => resolve());
        stream.end();
      })),
  };
}
