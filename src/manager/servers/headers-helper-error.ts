/**
 * The error of a server's `headersHelper` command that gave no headers: it failed, timed out,
 * or printed something that is not headers. Its output is a secret, so the error never quotes it.
 */
import { McpError, type McpErrorDetails } from '../../protocol/errors.js';

/** The fields of a {@link HeadersHelperError}. */
export interface HeadersHelperErrorDetails extends Pick<McpErrorDetails, 'cause' | 'server'> {
  exitCode?: number | null;
  signal?: string | null;
  timeoutMs?: number;
}

/**
 * `AUTH_REQUIRED`: the server's credentials come from its `headersHelper`, and it gave none.
 * `exitCode` / `signal` say how the helper ended (both `null` when it never ran to an end, e.g.
 * timed out: see `timeoutMs`); the message names the server and the outcome, never the helper's
 * stdout or stderr.
 */
export class HeadersHelperError extends McpError {
  override readonly name: string = 'HeadersHelperError';
  declare readonly code: 'AUTH_REQUIRED';
  /** The helper's exit status; `null` when it was killed or never ended on its own. */
  readonly exitCode: number | null;
  /** The signal that ended the helper, if one did. */
  readonly signal: string | null;
  /** Set when the helper ran past its time bound (and was killed). */
  readonly timeoutMs: number | undefined;

  constructor(reason: string, details: HeadersHelperErrorDetails) {
    super('AUTH_REQUIRED', reason, details);
    this.exitCode = details.exitCode ?? null;
    this.signal = details.signal ?? null;
    this.timeoutMs = details.timeoutMs;
  }

  override toJSON(): Record<string, unknown> {
    const out = super.toJSON();
    out.exitCode = this.exitCode;
    out.signal = this.signal;
    if (this.timeoutMs !== undefined) out.timeoutMs = this.timeoutMs;
    return out;
  }
}
