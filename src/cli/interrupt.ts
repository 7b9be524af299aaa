/**
 * Ctrl-C, SIGTERM and a closed terminal (SIGHUP) while a command runs servers: the connect is
 * aborted, or the open session (a manager's servers) is closed (the pending call fails, a stdio
 * server's whole process tree is stopped, an HTTP session is ended), and the command ends with
 * 130 (SIGINT), 143 (SIGTERM) or 129 (SIGHUP) instead of leaving a server behind. A server leads
 * its own process group, so the terminal's hangup never reaches it: only this close stops one
 * that ignores stdin EOF. Only the process's own signals: a CLI run in-process with other
 * streams gets no handlers.
 */
import { EXIT_BY_SIGNAL, type EndingSignal } from './exit-codes.js';

export interface Interrupt {
  /** Aborted on the first SIGINT / SIGTERM / SIGHUP. */
  signal: AbortSignal;
  /** What to do then (close the session); replaced as the command moves on. */
  onInterrupt(stop: () => Promise<void>): void;
  /** Removes the handlers. Idempotent. */
  dispose(): void;
}

const SIGNALS = Object.keys(EXIT_BY_SIGNAL) as EndingSignal[];

export function watchInterrupts(enabled: boolean): Interrupt {
  const controller = new AbortController();
  let stop: () => Promise<void> = async () => {};
  const handle = (signal: NodeJS.Signals) => {
    if (controller.signal.aborted) return;
    // The terminal is gone: a write to it (an error line, the progress line) fails with EIO,
    // which must not kill the process before the servers are stopped.
    if (signal === 'SIGHUP')
      for (const stream of [process.stdout, process.stderr, process.stdin]) stream.on('error', () => {});
    controller.abort(new Error(`interrupted (${signal})`));
    void stop().finally(() => process.exit(EXIT_BY_SIGNAL[signal as EndingSignal] ?? 1));
  };
  if (enabled) for (const signal of SIGNALS) process.on(signal, handle);
  return {
    signal: controller.signal,
    onInterrupt(next) {
      stop = next;
    },
    dispose() {
      for (const signal of SIGNALS) process.off(signal, handle);
    },
  };
}

/**
 * Runs `work` with the process's signals watched (when `io` writes to the process's own stdout:
 * a CLI run in-process with other streams gets no handlers); the handlers are removed after.
 */
export async function withInterrupts<T>(
  io: { stdout: unknown },
  work: (interrupt: Interrupt) => Promise<T>,
): Promise<T> {
  const interrupt = watchInterrupts(io.stdout === process.stdout);
  try {
    return await work(interrupt);
  } finally {
    interrupt.dispose();
  }
}
