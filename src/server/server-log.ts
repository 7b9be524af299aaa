/** The kit's default logger: one JSON line per record on stderr (stdout is the wire on stdio). */
import type { ServerLogger, ServerLogRecord } from './server-types.js';

/** Node's, Deno's and Bun's `process`; absent in Workers and browsers. */
type Host = { process?: { stderr?: { write(text: string): unknown } } };

/**
 * Writes `{"time":…,"level":…,"msg":…,…}` to stderr, or to `console.error` where the runtime has
 * no `process.stderr` (Workers, browsers). Never throws.
 */
export const stderrLogger: ServerLogger = (record: ServerLogRecord) => {
  try {
    const line = JSON.stringify({ time: new Date().toISOString(), ...record });
    const stderr = (globalThis as Host).process?.stderr;
    if (stderr) stderr.write(`${line}\n`);
    else console.error(line);
  } catch {
    // A log line must never break a call (a closed stderr, a value JSON cannot write).
  }
};
