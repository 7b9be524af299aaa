/**
 * Where the tracing decorator hands its records: a {@link TraceSink} is a plain function, and
 * {@link guardSink} makes sure one that throws never reaches the traffic it watches. The writers
 * (a JSONL file, a stream, the pretty line) are inspection's: `inspect/trace/sinks.ts`.
 */
import type { TraceRecord } from './trace-record.js';

/** Receives every record of a traced connection, in order. Should not throw (a throw is caught and reported once). */
export type TraceSink = (record: TraceRecord) => void;

/**
 * Returns a sink that calls `sink` and never throws: the first failure is handed to `onError`
 * or written once to stderr; later records are still offered.
 */
export function guardSink(sink: TraceSink, onError?: (error: Error) => void): TraceSink {
  let reported = false;
  return (record) => {
    try {
      sink(record);
    } catch (error) {
      if (reported) return;
      reported = true;
      const failure = error instanceof Error ? error : new Error(String(error));
      reportSinkFailure(
        failure,
        onError,
        `mcpwire: a trace sink failed (${failure.message}); tracing continues, further failures are not reported\n`,
      );
    }
  };
}

/** Hands a sink's failure to `onError`, or writes `line` to stderr; never throws. */
export function reportSinkFailure(error: Error, onError: ((error: Error) => void) | undefined, line: string): void {
  try {
    if (onError) onError(error);
    else process.stderr.write(line);
  } catch {
    // Nowhere left to say it.
  }
}
