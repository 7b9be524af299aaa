/**
 * The per-request authorization hook of the HTTP transports: where the OAuth layer (`src/auth`)
 * plugs into a transport that knows nothing about OAuth. The transport asks it for headers
 * before each request and, once, after a 401/403, whether to send the message again.
 */
import type { HttpError } from '../../protocol/errors.js';

/** What the transport is about to send, or what was just refused. */
export interface AuthorizeRequest {
  /** The HTTP method (`POST`, `GET`, `DELETE`). */
  method: string;
  /** The URL the request goes to (always the transport's own endpoint). */
  url: URL;
  /** Aborted when the request is abandoned. */
  signal?: AbortSignal | undefined;
  /**
   * Set when the server refused the previous attempt of this request with 401/403 (its
   * `challenge` parsed); absent on the first attempt.
   */
  rejected?: HttpError;
  /**
   * With `rejected`: the `authorization` header the refused attempt carried, so the hook can tell
   * a refusal of the credentials it hands out now from a late one of credentials it has replaced.
   */
  rejectedAuthorization?: string | undefined;
}

/**
 * Returns the headers that authorize a request (e.g. `{ authorization: 'Bearer …' }`, later a
 * `DPoP` proof beside it). Called before every request; with `rejected` set, called at most once
 * per message after a 401/403: headers mean "send it again with these", `undefined` means "give
 * up" (the transport then rejects with the refusal). A rejection of the hook's promise becomes
 * the request's error. Header values are credentials: the transport never puts them in an error
 * or a trace.
 */
export type AuthorizeHook = (request: AuthorizeRequest) => Promise<Record<string, string> | undefined>;
