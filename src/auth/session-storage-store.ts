/**
 * Logins kept in a browser tab's `sessionStorage`, so a login by redirect survives the page's
 * trip to the authorization server (the PKCE verifier and `state` wait there) and a reload keeps
 * the tokens; another tab, or the tab closed, starts afresh. One JSON entry per server under a
 * prefix. DPoP keys never go there: a non-extractable `CryptoKey` pair is kept in memory for the
 * page's life (a reload loses it, and its bound tokens then get a new login); for keys that
 * outlive the page, write a store on IndexedDB, which keeps `CryptoKey`s as they are.
 */
import type { CryptoDpopKey } from './dpop.js';
import type { StoredLogin, TokenStore } from './token-store.js';

/** What is used of `Storage` (`sessionStorage`, `localStorage`, or a stand-in). */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** Options of {@link SessionStorageTokenStore}. */
export interface SessionStorageTokenStoreOptions {
  /** The storage (default `globalThis.sessionStorage`). */
  storage?: KeyValueStorage;
  /** The prefix of the entries' keys (default `mcpwire.oauth:`). */
  prefix?: string;
}

/** The page's DPoP keys, by entry key (shared by every store of the page). */
const KEYS = new Map<string, CryptoDpopKey>();

/** A {@link TokenStore} in `sessionStorage`; an entry that cannot be read as a login counts as none. */
export class SessionStorageTokenStore implements TokenStore {
  readonly keepsCryptoKeys = true;
  private readonly storage: KeyValueStorage;
  private readonly prefix: string;

  constructor(options: SessionStorageTokenStoreOptions = {}) {
    const storage = options.storage ?? (globalThis as { sessionStorage?: KeyValueStorage }).sessionStorage;
    if (!storage)
      throw new TypeError('SessionStorageTokenStore needs sessionStorage (a browser page) or a storage option');
    this.storage = storage;
    this.prefix = options.prefix ?? 'mcpwire.oauth:';
  }

  async get(key: string): Promise<StoredLogin | undefined> {
    const entry = this.prefix + key;
    const text = this.storage.getItem(entry);
    if (text === null) return undefined;
    let login: StoredLogin;
    try {
      const parsed = JSON.parse(text) as { key?: unknown; login?: StoredLogin };
      if (parsed.key !== key || typeof parsed.login !== 'object' || parsed.login === null) return undefined;
      login = parsed.login;
    } catch {
      return undefined;
    }
    const dpopKey = KEYS.get(entry);
    return dpopKey ? { ...login, dpopKey } : login;
  }

  async set(key: string, login: StoredLogin): Promise<void> {
    const entry = this.prefix + key;
    const { dpopKey, ...rest } = login;
    const inMemory = dpopKey !== undefined && 'keyPair' in dpopKey;
    if (inMemory) KEYS.set(entry, dpopKey);
    else KEYS.delete(entry);
    this.storage.setItem(entry, JSON.stringify({ key, login: inMemory || !dpopKey ? rest : login }));
  }

  async delete(key: string): Promise<void> {
    const entry = this.prefix + key;
    KEYS.delete(entry);
    this.storage.removeItem(entry);
  }
}
