/**
 * What `mcpwire doctor` finds about one server: a list of checks, each with a verdict, what was
 * found, and (unless it passed) how to fix it. Verdicts: `ok`; `warn` (works, but something is
 * off); `fail` (this stops the server from working); `skip` (not run: not relevant, or an earlier
 * check failed). A failure names its kind, which the CLI maps to its exit codes.
 */

export type Verdict = 'ok' | 'warn' | 'fail' | 'skip';

/** What kind of trouble a failed check is (the CLI's exit code: 2, 3, 4, 5, 6). */
export type FailureKind = 'config' | 'auth' | 'unreachable' | 'tool' | 'timeout';

/** One check of one server. Text fields never hold a secret of the server's (redacted). */
export interface CheckResult {
  /**
   * Stable id: `definition`, `approval`, `command`, `start`, `dns`, `tcp`, `tls`, `http`, `oauth`,
   * `login`, `connect`, `revision`, `tools`, `schemas`, `card`.
   */
  id: string;
  verdict: Verdict;
  /** What was found, one line. */
  detail: string;
  /** What to do about it (warn and fail). */
  fix?: string;
  /** For `fail`: what kind of failure it is. */
  kind?: FailureKind;
  /** How long the check took. */
  ms: number;
}

/** Every check of one server. */
export interface ServerDiagnosis {
  server: string;
  transport: 'stdio' | 'http' | 'sse';
  /** The command line or URL, redacted. */
  target: string;
  /** The worst verdict among the checks (`skip` counts as ok). */
  verdict: 'ok' | 'warn' | 'fail';
  checks: CheckResult[];
}

/** The worst of `checks`' verdicts. */
export function worstVerdict(checks: readonly CheckResult[]): ServerDiagnosis['verdict'] {
  if (checks.some((c) => c.verdict === 'fail')) return 'fail';
  return checks.some((c) => c.verdict === 'warn') ? 'warn' : 'ok';
}
