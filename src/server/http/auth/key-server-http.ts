/**
 * The HTTP {@link jwtBearer} reaches the authorization server through (its metadata, its keys).
 * Where undici loads (Node, Bun, Deno), its fetch with a keep-alive `Agent` of its own, made on
 * first use and loaded on demand (a server that never fetches keys never loads undici): `close()`
 * ends its sockets, so a handler's `close()` leaves no connection to the key server behind; a
 * later fetch makes a new one. Where it does not (workerd, a browser), the runtime's own `fetch`,
 * whose connections the runtime owns.
 */
import type { Agent } from 'undici';

/** Named through a variable so a bundler for a runtime without Node leaves the import out. */
const UNDICI = 'undici';

type Undici = typeof import('undici');

/** A fetch through an owned dispatcher where there is one; `close()` ends it. */
export class KeyServerHttp {
  private agent: Agent | undefined;
  private undici: Promise<Undici | undefined> | undefined;

  /** `fetch` as jose's `customFetch` and the discovery call it (redirects are not followed by jose's callers). */
  readonly fetch = async (url: string | URL, init: RequestInit): Promise<Response> => {
    this.undici ??= (import(UNDICI) as Promise<Undici>).catch(() => undefined);
    const undici = await this.undici;
    if (!undici) return globalThis.fetch(url, init);
    this.agent ??= new undici.Agent({ keepAliveTimeout: 4_000, connect: { timeout: 10_000 } });
    return undici.fetch(url, { ...init, dispatcher: this.agent } as never);
  };

  /** Closes the sockets (waiting for requests in flight, which jose's own timeout bounds). Never rejects. */
  async close(): Promise<void> {
    const agent = this.agent;
    this.agent = undefined;
    await agent?.close().catch(() => undefined);
  }
}
