/**
 * The Node-only parts of OAuth, registered rather than imported: the file token store (the
 * default store on Node), the loopback redirect receiver, and undici's fetch with an `Agent` the
 * session owns. Neutral code (everything else in `src/auth`) asks {@link nodeAuthParts} for them
 * and, when none are registered (a browser, a Worker), uses a memory store, the redirect flow and
 * the runtime's `fetch`. The node entry registers them (`src/client/node-parts.ts`):
 *
 *   setNodeAuthParts(() => import('../auth/node-auth-parts.js'));
 *
 * Nothing loads until a login, a refresh or a default store needs it.
 */
import { LazyPart } from '../util/lazy-part.js';
import type { TokenStore } from './token-store.js';

/** What oauth4webapi calls as its `customFetch` (re-exported by `oauth-http.ts`). */
export type OAuthFetch = (url: string, init: RequestInit & { signal?: AbortSignal | null }) => Promise<Response>;

/** A one-shot listener that receives the authorization response on a loopback redirect URI. */
export interface CallbackReceiver {
  /** `http://127.0.0.1:<port><path>`. */
  readonly redirectUri: string;
  /** The callback's query parameters once one with `state` arrives (see `LoopbackReceiver.wait`). */
  wait(state: string, timeoutMs: number, signal?: AbortSignal): Promise<URLSearchParams>;
  close(): Promise<void>;
}

/** What starting a {@link CallbackReceiver} takes (`LoopbackReceiverOptions`). */
export interface CallbackReceiverOptions {
  port?: number;
  fixed?: boolean;
  path?: string;
  serverName: string;
}

/** A fetch that owns its connections, and the way to end them. */
export interface OwnedFetch {
  fetch: OAuthFetch;
  close(): Promise<void>;
}

/** What `node-auth-parts.ts` exports. */
export interface NodeAuthParts {
  /** The store used when the `auth` option names none: a `FileTokenStore` in `~/.mcpwire/oauth`. */
  defaultStore(): TokenStore;
  /** Listens on 127.0.0.1 for one login callback (`LoopbackReceiver.start`). */
  startReceiver(options: CallbackReceiverOptions): Promise<CallbackReceiver>;
  /**
   * undici's fetch through a new keep-alive `Agent`, or through `dispatcher` (an undici
   * `Dispatcher` the caller owns and closes), redirects not followed.
   */
  ownedFetch(dispatcher?: unknown): OwnedFetch;
}

/** The Node parts' loader and what it loaded. */
const parts = new LazyPart<NodeAuthParts>();

/** How the Node parts are loaded (a lazy `() => import(…)`). */
export type NodeAuthPartsLoader = () => Promise<NodeAuthParts>;

/**
 * Registers how to load the Node parts, or none with `undefined`; returns the loader it
 * replaces (so a test can put it back). Idempotent for the same loader.
 */
export function setNodeAuthParts(load: NodeAuthPartsLoader | undefined): NodeAuthPartsLoader | undefined {
  return parts.set(load);
}

/** The Node parts, loaded on first use; undefined when none are registered. A failed load is tried again next time. */
export function nodeAuthParts(): Promise<NodeAuthParts | undefined> {
  return parts.get();
}
