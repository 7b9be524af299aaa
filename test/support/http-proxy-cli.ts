/**
 * `mcpwire proxy --url TARGET --listen 127.0.0.1:0 --trace-file FILE` as its own process (the
 * built CLI), for tests that drive clients through it: its URL once it prints it, and a stop that
 * ends it as a user would (SIGINT) and waits until it has exited (its trace file complete).
 * Stopped when the test finishes if the test did not stop it.
 */
import { onTestFinished } from 'vitest';
import { startCli } from './cli.js';

export interface ProxyCli {
  /** The proxy's URL (the target's path on the proxy's port). */
  url: string;
  /** SIGINT, then resolves with the exit code once the proxy is gone. Idempotent. */
  stop(): Promise<number | null>;
}

/** Starts the recording HTTP proxy in front of `target`, appending to `traceFile`; call it inside a test. */
export async function startHttpProxyCli(target: string, traceFile: string): Promise<ProxyCli> {
  const proxy = startCli(['proxy', '--url', target, '--listen', '127.0.0.1:0', '--trace-file', traceFile], {
    timeoutMs: 120_000,
  });
  let stopping: Promise<number | null> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      proxy.kill('SIGINT');
      return (await proxy.done).code;
    })();
    return stopping;
  };
  onTestFinished(async () => {
    await stop();
  });
  const out = await proxy.until('stdout', (text) => text.includes('\n'), "the proxy's URL", 15_000);
  return { url: out.trim().split('\n')[0]!, stop };
}
