/**
 * Stopping a stdio server's whole process tree.
 *
 * POSIX: the server is spawned `detached`, so it leads its own process group, and a signal sent
 * to the negative pid reaches it and every descendant that did not start a group of its own
 * (`npx` → `node` → the helpers a server starts). Windows has no process groups: there a signal
 * reaches the direct child only (`child.kill`), and its grandchildren may outlive it.
 */
import type { ChildProcess } from 'node:child_process';

/** True on Windows, where only the direct child can be signalled. */
export const IS_WINDOWS = process.platform === 'win32';

/**
 * Sends `signal` to the process group `child` leads (POSIX) or to `child` alone (Windows).
 * Never throws: a group that is already gone (ESRCH) is what we wanted anyway.
 */
export function signalTree(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (IS_WINDOWS) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    } else if (child.pid !== undefined) {
      process.kill(-child.pid, signal);
    }
  } catch {
    // ESRCH (nothing left in the group) or EPERM; neither is actionable.
  }
}

/** Trees still running; killed synchronously if this process exits first. */
const live = new Set<ChildProcess>();
let exitHookInstalled = false;

/**
 * Registers `child` to be SIGKILLed with its group if this process exits while it runs, so no
 * server outlives its client. Returns the function that unregisters it (call it on exit).
 */
export function killTreeOnExit(child: ChildProcess): () => void {
  live.add(child);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    // One listener for all transports: an 'exit' listener may only do synchronous work.
    process.on('exit', () => {
      for (const running of live) signalTree(running, 'SIGKILL');
    });
  }
  return () => {
    live.delete(child);
  };
}
