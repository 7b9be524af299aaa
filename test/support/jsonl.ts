/**
 * JSON Lines as the tests read them back: trace files (`--trace-file`, the proxy's recordings),
 * what a fixture server recorded with `--record`, a child's line-per-event output. One value per
 * line, in order, the last line ended or not; any other line that is not JSON (a blank one too)
 * throws, so a broken file fails the test.
 */
import { readFileSync } from 'node:fs';

/** The values of `text`, one per line (none for an empty text). */
export function parseJsonl<T = unknown>(text: string): T[] {
  const lines = text.trimEnd();
  return lines === '' ? [] : lines.split('\n').map((line) => JSON.parse(line) as T);
}

/** The values of the JSON Lines file `file`. */
export function readJsonl<T = unknown>(file: string): T[] {
  return parseJsonl<T>(readFileSync(file, 'utf8'));
}

/** The `method` of each message a fixture server recorded with `--record` (it appends each line it receives). */
export function recordedMethods(file: string): Array<string | undefined> {
  return readJsonl<{ method?: string }>(file).map((message) => message.method);
}
