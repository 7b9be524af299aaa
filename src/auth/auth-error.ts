/**
 * `AUTH_REQUIRED` with the OAuth facts: which step of the login failed, at which URL, and the
 * authorization server's `error` code when it sent one. Never a token, code, verifier or secret.
 */
import { McpError, type HttpError, type McpErrorDetails } from '../protocol/errors.js';

/** The steps of an OAuth login, in order. */
export type OAuthStep = 'discovery' | 'registration' | 'authorization' | 'callback' | 'token' | 'refresh';

/** The fields of an {@link OAuthError}. */
export interface OAuthErrorDetails extends Omit<McpErrorDetails, 'rpcCode' | 'rpcMessage' | 'data'> {
  step: OAuthStep;
  /** The URL involved (an endpoint or a metadata document; never one that carries a code). */
  url?: string;
  /** The authorization server's `error` (`invalid_grant`, `invalid_client`, …), when it sent one. */
  oauthError?: string;
}

/** A login, refresh or token request that failed; `code` is always `AUTH_REQUIRED`. */
export class OAuthError extends McpError {
  override readonly name: string = 'OAuthError';
  declare readonly code: 'AUTH_REQUIRED';
  readonly step: OAuthStep;
  readonly url: string | undefined;
  readonly oauthError: string | undefined;
  /**
   * The MCP server's 401/403 that asked for this login (its `status`, URL and `challenge`), when
   * a refusal started it: set once, by {@link withRefusal}, where the login was started.
   */
  refusal: HttpError | undefined;

  constructor(reason: string, details: OAuthErrorDetails) {
    super('AUTH_REQUIRED', reason, details);
    this.step = details.step;
    this.url = details.url;
    this.oauthError = details.oauthError;
  }

  override toJSON(): Record<string, unknown> {
    const out = super.toJSON();
    out.step = this.step;
    if (this.url !== undefined) out.url = this.url;
    if (this.oauthError !== undefined) out.oauthError = this.oauthError;
    if (this.refusal !== undefined) out.refusal = this.refusal.toJSON();
    return out;
  }
}

/**
 * `error` with the refusal that started its login kept on it, when it is an {@link OAuthError}
 * without one (so the server's status and challenge survive a failed login); anything else as it is.
 */
export function withRefusal(error: unknown, refusal: HttpError): unknown {
  if (error instanceof OAuthError && error.refusal === undefined) error.refusal = refusal;
  return error;
}

/**
 * The login by redirect started: the page is on its way to the authorization server (the
 * `onAuthorizationUrl` hook sent it there), and the login finishes when it comes back with the
 * callback URL. Step `authorization`; `authorizationUrl` is where the page went.
 */
export class LoginRedirectError extends OAuthError {
  override readonly name: string = 'LoginRedirectError';
  readonly authorizationUrl: string;

  constructor(serverName: string, authorizationUrl: URL) {
    super(
      'the login continues by redirect: the page was sent to the authorization server, and the login finishes when it comes back (the auth option "callbackUrl", or finishRedirectLogin)',
      { server: serverName, step: 'authorization' },
    );
    this.authorizationUrl = authorizationUrl.toString();
  }
}
