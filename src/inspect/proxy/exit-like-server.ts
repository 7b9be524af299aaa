/**
 * Ending the proxy process the way its server ended, so a host that watches exit codes and
 * signals sees the server's own outcome.
 */
import { constants } from 'node:os';
import type { StdioProxyResult } from './stdio-proxy.js';

/**
 * Exits this process with the server's exit code, or re-raises the signal that killed the
 * server on this process (its default action then ends it with that same signal). Call it after
 * {@link runStdioProxy} resolved, when its signal handlers are gone. Should the signal not end
 * the process (a handler someone else installed), it exits with `128 + signal number`, the
 * shell's convention.
 */
export function exitLikeServer(result: StdioProxyResult, proc: NodeJS.Process = process): void {
  if (result.signal !== null) {
    proc.kill(proc.pid, result.signal);
    // Delivery is asynchronous; give it a turn of the event loop before the fallback.
    setTimeout(() => proc.exit(128 + (constants.signals[result.signal!] ?? 0)), 100);
    return;
  }
  proc.exit(result.exitCode ?? 1);
}
