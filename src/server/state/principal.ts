/**
 * Who a piece of shared state belongs to: the verified bearer token's client and subject on a
 * protected HTTP endpoint, undefined elsewhere. A session, task or request state made for one
 * principal is not found by another.
 */
import type { AuthInfo } from '../auth-info.js';

/** The principal of a request with `auth` (its token's facts), or undefined for an unprotected one. */
export function principalOf(auth: AuthInfo | undefined): string | undefined {
  return auth ? JSON.stringify([auth.clientId ?? null, auth.subject ?? null]) : undefined;
}
