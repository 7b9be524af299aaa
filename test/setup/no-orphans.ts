/**
 * Suite-wide guard: after each test file, no process this worker started may still be alive.
 * Servers lead their own process groups, so descendants are found by walking /proc (Linux);
 * elsewhere the check is skipped.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { afterAll, expect } from 'vitest';
import { until } from '../support/wait.js';

function descendants(root: number): number[] {
  if (!existsSync('/proc/self/stat')) return [];
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] === 'Z') continue; // a zombie is already dead
      parents.set(Number(entry), Number(fields[1]));
    } catch {
      // The process went away while we looked.
    }
  }
  const found: number[] = [];
  const queue = [root];
  while (queue.length) {
    const parent = queue.shift()!;
    for (const [pid, ppid] of parents)
      if (ppid === parent && !found.includes(pid)) {
        found.push(pid);
        queue.push(pid);
      }
  }
  return found;
}

afterAll(async () => {
  // A process killed at the end of the last test may take a moment to go, more on a loaded machine.
  await until(() => descendants(process.pid).length === 0, 10_000).catch(() => undefined);
  const left = descendants(process.pid);
  const described = left.map((pid) => {
    try {
      return `${pid}: ${readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim()}`;
    } catch {
      return String(pid);
    }
  });
  expect(described, 'child processes left running after this test file').toEqual([]);
});
