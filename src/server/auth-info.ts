/**
 * Who a request comes from, as an HTTP server's bearer check established it: what tool handlers
 * see in `context.auth`. Never the token itself.
 */

/** The verified facts of one request's access token. */
export interface AuthInfo {
  /** The token's subject (`sub`): the user, or the client itself for a machine grant. */
  readonly subject?: string;
  /** The OAuth client the token was issued to (`client_id`), when the token says. */
  readonly clientId?: string;
  /** The scopes the token grants (empty when it names none). */
  readonly scopes: readonly string[];
  /** When the token expires (ms since the epoch), when it says. */
  readonly expiresAt?: number;
  /** Every verified claim of the token, for checks of your own (never the token). */
  readonly claims?: Readonly<Record<string, unknown>>;
}
