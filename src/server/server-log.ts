/** The kit's default logger: one JSON line per record on stderr (stdout is the wire on stdio). */
import type { ServerLogger, ServerLogRecord } from './server-types.js';

/** Writes `{"time":…,"level":…,"msg":…,…}` to stderr. Never throws. */
export const stderrLogger: ServerLogger = (record: ServerLogRecord) => {
  try {
    process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), ...record })}\n`);
  } catch {
    // A log line must never break a call (a closed stderr, a value JSON cannot write).
  }
};
