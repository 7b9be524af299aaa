/**
 * The downstream caller's own access token, for the one use the gateway has for it: the subject
 * token of an RFC 8693 exchange (`token-exchange.ts`). The kit's verified {@link AuthInfo} holds
 * facts, never the token; a verifier wrapped by {@link keepSubjectTokens} remembers, beside each
 * `AuthInfo` it returns (a `WeakMap` entry, gone with the request), the token it was made from.
 * The token is never put on the `AuthInfo`, in a log, an error, or a header sent upstream.
 */
import type { AuthInfo } from '../../server/auth-info.js';
import type { TokenVerifier } from '../../server/http/auth/bearer-gate.js';

const tokens = new WeakMap<AuthInfo, string>();

/**
 * `verifier` unchanged in what it accepts and refuses, with each accepted token kept beside its
 * `AuthInfo` for the gateway's token exchange. `close` is passed through.
 */
export function keepSubjectTokens(verifier: TokenVerifier): TokenVerifier {
  const kept: TokenVerifier = async (token, context) => {
    const auth = await verifier(token, context);
    tokens.set(auth, token);
    return auth;
  };
  if (verifier.close) kept.close = () => verifier.close!();
  return kept;
}

/** The token `auth` was verified from, when a {@link keepSubjectTokens} verifier made it; else undefined. */
export function subjectTokenOf(auth: AuthInfo | undefined): string | undefined {
  return auth ? tokens.get(auth) : undefined;
}
