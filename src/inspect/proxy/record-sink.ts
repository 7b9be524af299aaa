/**
 * The proxies' guard around the caller's `onRecord`: recording is a side tap and must never
 * break forwarding, so a throwing callback is caught (by the trace layer's `guardSink`), the
 * first failure is reported as one line on the error stream, and later records are still
 * offered to it.
 */
import { guardSink } from '../../observe/trace-sink.js';
import type { TraceRecord } from '../../observe/trace-record.js';

/** Something that takes text, like `process.stderr`. */
export interface TextSink {
  write(text: string): unknown;
}

/** Returns a recorder that calls `onRecord` and never throws. */
export function guardedRecorder(
  onRecord: (record: TraceRecord) => void,
  errorOutput: TextSink,
  label: string,
): (record: TraceRecord) => void {
  return guardSink(onRecord, (error) => {
    try {
      errorOutput.write(
        `${label}: recording a trace record failed (${error.message}); forwarding continues, further recording errors are not reported\n`,
      );
    } catch {
      // Nowhere left to say it; forwarding still must not stop.
    }
  });
}
