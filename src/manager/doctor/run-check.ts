/**
 * One check, bounded: it gets a signal that aborts after `timeoutMs`, and a check that has not
 * finished by then is a `fail` of kind `timeout` (what it started is ended through the signal). A
 * check that throws is a `fail` with the error's message. Every text it returns is scrubbed of the
 * server's secrets.
 */
import { errorMessage } from '../../protocol/errors.js';
import { scrubSecrets } from '../../util/redact.js';
import type { CheckResult } from './doctor-types.js';

/** What a check body returns: a result without its id and time. */
export type CheckOutcome = Omit<CheckResult, 'id' | 'ms'>;

/** Runs `body` as check `id` within `timeoutMs`. Never rejects. */
export async function runCheck(
  id: string,
  timeoutMs: number,
  secrets: readonly string[],
  body: (signal: AbortSignal) => Promise<CheckOutcome>,
): Promise<CheckResult> {
  const started = performance.now();
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<CheckOutcome>((resolve) => {
    timer = setTimeout(() => {
      controller.abort(new Error(`check "${id}" timed out`));
      resolve({
        verdict: 'fail',
        kind: 'timeout',
        detail: `did not finish within ${timeoutMs} ms`,
        fix: 'check that the server is up and answering; --timeout MS gives each check longer',
      });
    }, timeoutMs);
  });
  let outcome: CheckOutcome;
  try {
    outcome = await Promise.race([
      body(controller.signal).catch((error: unknown): CheckOutcome => ({
        verdict: 'fail',
        kind: 'unreachable',
        detail: errorMessage(error),
      })),
      timedOut,
    ]);
  } finally {
    clearTimeout(timer);
  }
  const scrub = (text: string) => (secrets.length ? scrubSecrets(text, secrets) : text);
  return {
    id,
    ...outcome,
    detail: scrub(outcome.detail),
    ...(outcome.fix !== undefined ? { fix: scrub(outcome.fix) } : {}),
    ms: Math.round(performance.now() - started),
  };
}

/** A check that was not run because `reason`. */
export function skipped(id: string, reason: string): CheckResult {
  return { id, verdict: 'skip', detail: reason, ms: 0 };
}
