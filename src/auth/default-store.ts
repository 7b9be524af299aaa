/**
 * The store a session uses when the `auth` option names none: the Node parts' `FileTokenStore`
 * (`~/.mcpwire/oauth`) where they are registered, else a {@link MemoryTokenStore}. Chosen at its
 * first use, so constructing a session loads nothing.
 */
import { nodeAuthParts } from './auth-runtime.js';
import { MemoryTokenStore, type StoredLogin, type TokenStore } from './token-store.js';

/** A {@link TokenStore} that becomes the runtime's default store on first use. */
export class DefaultTokenStore implements TokenStore {
  private chosen: Promise<TokenStore> | undefined;

  /** The store behind this one. */
  resolve(): Promise<TokenStore> {
    return (this.chosen ??= nodeAuthParts().then((parts) => parts?.defaultStore() ?? new MemoryTokenStore()));
  }

  async get(key: string): Promise<StoredLogin | undefined> {
    return (await this.resolve()).get(key);
  }

  async set(key: string, login: StoredLogin): Promise<void> {
    return (await this.resolve()).set(key, login);
  }

  async delete(key: string): Promise<void> {
    return (await this.resolve()).delete(key);
  }

  /** The chosen store's lock, or `task` alone when it has none (one process). */
  async lock<T>(key: string, task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const store = await this.resolve();
    return store.lock ? store.lock(key, task, signal) : task();
  }
}

/** True when `store` (or the store a default one chose) keeps `CryptoKey`s as they are. */
export async function keepsCryptoKeys(store: TokenStore): Promise<boolean> {
  const actual = store instanceof DefaultTokenStore ? await store.resolve() : store;
  return actual.keepsCryptoKeys === true;
}
