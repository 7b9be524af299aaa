/**
 * The Node parts of OAuth (see `auth-runtime.ts`): loaded only through `setNodeAuthParts`, never
 * imported by neutral code. undici's fetch with an owned `Agent` (on Bun, whose undici is a shim
 * without a working `Agent`, the runtime's own fetch), the file token store, the loopback receiver.
 */
import { Agent, fetch as undiciFetch, type Dispatcher } from 'undici';
import type { CallbackReceiver, CallbackReceiverOptions, OwnedFetch } from './auth-runtime.js';
import { FileTokenStore } from './file-token-store.js';
import { LoopbackReceiver } from './loopback-receiver.js';
import type { TokenStore } from './token-store.js';

export function defaultStore(): TokenStore {
  return new FileTokenStore();
}

export function startReceiver(options: CallbackReceiverOptions): Promise<CallbackReceiver> {
  return LoopbackReceiver.start(options);
}

export function ownedFetch(dispatcher?: unknown): OwnedFetch {
  if (dispatcher === undefined && 'Bun' in globalThis) {
    return {
      fetch: (url, init) => fetch(url, { ...init, redirect: 'manual' }),
      close: async () => {},
    };
  }
  const agent =
    (dispatcher as Dispatcher | undefined) ?? new Agent({ keepAliveTimeout: 4_000, connect: { timeout: 10_000 } });
  return {
    fetch: (url, init) =>
      undiciFetch(url, {
        ...(init as object),
        dispatcher: agent,
        redirect: 'manual',
      } as never),
    close: async () => {
      if (dispatcher === undefined) await agent.close().catch(() => {});
    },
  };
}
