/**
 * Ctrl-C and SIGTERM during a one-shot command: the connect is aborted, or the open session is
 * closed (the pending call fails, a stdio server's whole process tree is stopped, an HTTP
 * session is ended), and the command ends with 130 (SIGINT) or 143 (SIGTERM) instead of leaving
 * a server behind. Only the process's own signals: a CLI run in-process with other streams
 * gets no handlers.
 */

export interface Interrupt {
  /** Aborted on the first SIGINT / SIGTERM. */
  signal: AbortSignal;
  /** What to do then (close the session); replaced as the command moves on. */
  onInterrupt(stop: () => Promise<void>): void;
  /** Removes the handlers. Idempotent. */
  dispose(): void;
}

const EXIT_BY_SIGNAL: Record<string, number> = { SIGINT: 130, SIGTERM: 143 };

export function watchInterrupts(enabled: boolean): Interrupt {
  const controller = new AbortController();
  let stop: () => Promise<void> = async () => {};
  const handle = (signal: NodeJS.Signals) => {
    if (controller.signal.aborted) return;
    controller.abort(new Error(`interrupted (${signal})`));
    void stop().finally(() => process.exit(EXIT_BY_SIGNAL[signal] ?? 1));
  };
  if (enabled) {
    process.on('SIGINT', handle);
    process.on('SIGTERM', handle);
  }
  return {
    signal: controller.signal,
    onInterrupt(next) {
      stop = next;
    },
    dispose() {
      process.off('SIGINT', handle);
      process.off('SIGTERM', handle);
    },
  };
}
