/**
 * The proxies' guard around the caller's `onRecord`: recording is a side tap and must never
 * break forwarding, so a throwing callback is caught, the first failure is reported (one line to
 * the error stream), and later records are still offered to it.
 */
import type { TraceRecord } from '../trace/trace-record.js';

/** Something that takes text, like `process.stderr`. */
export interface TextSink {
  write(text: string): unknown;
}

/** Returns a recorder that calls `onRecord` and never throws. */
export function guardedRecorder(onRecord: (record: TraceRecord) => void, errorOutput: TextSink, label: string): (record: TraceRecord) => void {
  let reported = false;
  return (record) => {
    try {
      onRecord(record);
    } catch (error) {
      if (reported) return;
      reported = true;
      const reason = error instanceof Error ? error.message : String(error);
      try {
        errorOutput.write(`${label}: recording a trace record failed (${reason}); forwarding continues, further recording errors are not reported\n`);
      } catch {
        // Nowhere left to say it; forwarding still must not stop.
      }
    }
  };
}
