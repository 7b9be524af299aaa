/** Process helpers for tests that must prove no process outlives them. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { until } from './wait.js';

/** The shared bounded poll, kept importable from here where tests already import it. */
export { eventually } from './wait.js';

export const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../spec-fixtures/servers');

/** True while `pid` exists. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Resolves true once `pid` is gone, false if it is still there after `ms`. */
export async function waitUntilGone(pid: number, ms = 5_000): Promise<boolean> {
  return until(() => !isAlive(pid), ms).then(
    () => true,
    () => false,
  );
}
