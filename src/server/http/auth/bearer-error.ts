/**
 * The refusal a bearer check throws: which RFC 6750 / RFC 9449 error it is, so the HTTP handler
 * can answer `401 invalid_token`, `401 invalid_dpop_proof`, `401 use_dpop_nonce` or
 * `403 insufficient_scope` with the right challenge.
 */
import { McpError } from '../../../protocol/errors.js';

/** The error codes a resource server answers with: RFC 6750 §3.1's, and RFC 9449 §7.1 and §9's for DPoP. */
export type BearerErrorCode = 'invalid_token' | 'insufficient_scope' | 'invalid_dpop_proof' | 'use_dpop_nonce';

/**
 * A token refused by a bearer check (code `AUTH_REQUIRED`). `bearerError` picks the answer:
 * `insufficient_scope` → 403 naming `requiredScopes`, any other → 401 (`use_dpop_nonce` with a
 * fresh nonce in `DPoP-Nonce`). The message says why
 * (expired, another audience, a bad signature) and never carries the token or any of its text.
 */
export class BearerTokenError extends McpError {
  override readonly name: string = 'BearerTokenError';
  readonly bearerError: BearerErrorCode;
  /** The scopes the request needs (for `insufficient_scope`). */
  readonly requiredScopes: readonly string[];

  constructor(
    bearerError: BearerErrorCode,
    reason: string,
    options: { requiredScopes?: readonly string[]; cause?: unknown } = {},
  ) {
    super('AUTH_REQUIRED', reason, options.cause === undefined ? {} : { cause: options.cause });
    this.bearerError = bearerError;
    this.requiredScopes = options.requiredScopes ?? [];
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), bearerError: this.bearerError, requiredScopes: [...this.requiredScopes] };
  }
}
