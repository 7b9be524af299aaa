// The bench's child bookkeeping: every child leads its own process group, and every group still
// live is killed (SIGKILL) when the bench exits, errs or gets SIGINT / SIGTERM / SIGHUP.
import os from 'node:os';

/** The children still running; add each one spawned `detached`, delete it once it exited. */
export const live = new Set();

/** Kills every live child's group. */
export function killAll() {
  for (const child of live) {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  live.clear();
}

process.on('exit', killAll);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    killAll();
    process.exit(128 + os.constants.signals[signal]);
  });
}
