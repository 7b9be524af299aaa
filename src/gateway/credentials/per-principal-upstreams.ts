/**
 * The upstream connections of the servers reached as the calling user (`tokenExchange`): one
 * client per (principal, server), opened on the principal's first call, authorized with the
 * token exchanged for the caller's own (`token-exchange.ts`), which is cached until it expires
 * (one exchange per user, however many calls). A connection without a call for `idleMs` is
 * closed, at most `maxConnections` are open (the least recently used idle one is closed to make
 * room), and `close()` closes them all. The caller's token is never sent upstream: the
 * connection's only credentials are the exchanged token (an `authorization` header in the
 * server's config is dropped). A call that cannot get a token fails with a `ToolError` naming
 * the server and why, written for the model, with no token in it.
 */
import { McpClient } from '../../client/mcp-client.js';
import type { ClientOptions } from '../../client/options.js';
import { clientOptionsFor } from '../../manager/servers/connect-target.js';
import type { ManagedServer } from '../../manager/servers/managed-server.js';
import { McpError } from '../../protocol/errors.js';
import type { AuthInfo } from '../../server/auth-info.js';
import { principalOf } from '../../server/state/principal.js';
import { ToolError } from '../../server/tools/tool-error.js';
import { subjectTokenOf } from './subject-tokens.js';
import { TokenExchanger, type ExchangedToken, type TokenExchangeOptions } from './token-exchange.js';

const DEFAULT_IDLE_MS = 300_000;
const DEFAULT_MAX_CONNECTIONS = 100;
const EXCHANGE_TIMEOUT_MS = 30_000;

/** A client held for one call; `release()` when the call is done (idempotent). */
export interface UpstreamLease {
  client: McpClient;
  release: () => void;
}

/** What the connections need of the gateway. */
export interface PerPrincipalContext {
  /** The configured definition of `server` (its URL and headers). */
  spec(server: string): ManagedServer | undefined;
  /** Options every per-user client gets (the input handlers); the server's own (name, timeouts) are added. */
  clientOptions: ClientOptions;
}

interface Entry {
  readonly key: string;
  readonly server: string;
  /** The caller's token of the latest call: the subject of the next exchange. */
  subjectToken: string;
  token: ExchangedToken | undefined;
  exchanging: Promise<ExchangedToken> | undefined;
  client: Promise<McpClient> | undefined;
  busy: number;
  idle: ReturnType<typeof setTimeout> | undefined;
}

export class PerPrincipalUpstreams {
  private readonly exchangers = new Map<string, TokenExchanger>();
  /** In order of last use, oldest first. */
  private readonly entries = new Map<string, Entry>();
  private readonly closings = new Set<Promise<void>>();
  private readonly lifetime = new AbortController();
  private readonly idleMs: number;
  private readonly maxConnections: number;

  constructor(
    private readonly options: TokenExchangeOptions,
    private readonly context: PerPrincipalContext,
  ) {
    this.idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
    this.maxConnections = options.maxConnections ?? DEFAULT_MAX_CONNECTIONS;
  }

  /** Whether calls to `server` go as the calling user. */
  handles(server: string): boolean {
    return Object.hasOwn(this.options.servers, server);
  }

  /** How many per-user connections are open or opening. */
  get size(): number {
    return this.entries.size;
  }

  /**
   * The client of `auth`'s principal on `server`, its token fresh. Rejects with a `ToolError`
   * (no token to exchange, the exchange refused, too many connections in use), or the connect's
   * error.
   */
  async lease(server: string, auth: AuthInfo | undefined): Promise<UpstreamLease> {
    if (this.lifetime.signal.aborted) throw new McpError('INVALID_STATE', 'the gateway is closed', { server });
    const subjectToken = subjectTokenOf(auth);
    // A token naming neither subject nor client has no principal of its own: its users would share one upstream token.
    if (subjectToken === undefined || (auth?.subject === undefined && auth?.clientId === undefined))
      throw new ToolError(
        'UPSTREAM_AUTH',
        `The server "${server}" is reached as the calling user, and this request has no verified bearer token naming a user to act as.`,
      );
    const entry = this.entryOf(`${principalOf(auth)}\u0000${server}`, server, subjectToken);
    entry.subjectToken = subjectToken;
    entry.busy++;
    clearTimeout(entry.idle);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      if (--entry.busy === 0 && this.entries.get(entry.key) === entry) {
        entry.idle = setTimeout(() => this.drop(entry), this.idleMs);
        entry.idle.unref?.();
      }
    };
    try {
      await this.tokenOf(entry);
      return { client: await this.clientOf(entry), release };
    } catch (error) {
      release();
      throw error;
    }
  }

  /** Closes every connection and ends the exchangers' connections. Idempotent. */
  async close(): Promise<void> {
    this.lifetime.abort(new McpError('CONNECTION_CLOSED', 'the gateway closed'));
    for (const entry of [...this.entries.values()]) this.drop(entry);
    await Promise.all([...this.closings, ...[...this.exchangers.values()].map((exchanger) => exchanger.close())]);
  }

  /** The entry of `key`, moved to the newest end; a new one may close the oldest idle one. */
  private entryOf(key: string, server: string, subjectToken: string): Entry {
    const found = this.entries.get(key);
    if (found) {
      this.entries.delete(key);
      this.entries.set(key, found);
      return found;
    }
    if (this.entries.size >= this.maxConnections) {
      const idle = [...this.entries.values()].find((entry) => entry.busy === 0);
      if (!idle)
        throw new ToolError(
          'UPSTREAM_BUSY',
          `The gateway has ${this.maxConnections} per-user connections in use; try the call to "${server}" again shortly.`,
        );
      this.drop(idle);
    }
    const entry: Entry = {
      key,
      server,
      subjectToken,
      token: undefined,
      exchanging: undefined,
      client: undefined,
      busy: 0,
      idle: undefined,
    };
    this.entries.set(key, entry);
    return entry;
  }

  /** The entry's upstream token: the cached one while it lasts, else one exchange shared by the calls waiting. */
  private async tokenOf(entry: Entry): Promise<ExchangedToken> {
    if (entry.token && Date.now() < entry.token.expiresAt) return entry.token;
    entry.token = undefined;
    const exchanging = (entry.exchanging ??= this.exchange(entry).finally(() => {
      if (entry.exchanging === exchanging) entry.exchanging = undefined;
    }));
    try {
      return await exchanging;
    } catch (error) {
      if (this.lifetime.signal.aborted) throw error;
      const reason = error instanceof McpError ? error.reason : String(error);
      throw new ToolError(
        'UPSTREAM_AUTH',
        `The gateway could not get a token for "${entry.server}" as you: ${reason}`,
        {
          cause: error,
        },
      );
    }
  }

  /** One exchange for the entry, abandoned after `EXCHANGE_TIMEOUT_MS` or when the gateway closes. */
  private async exchange(entry: Entry): Promise<ExchangedToken> {
    const deadline = new AbortController();
    const timer = setTimeout(
      () =>
        deadline.abort(
          new McpError('TIMEOUT', `the token exchange took longer than ${EXCHANGE_TIMEOUT_MS} ms`, {
            server: entry.server,
          }),
        ),
      EXCHANGE_TIMEOUT_MS,
    );
    try {
      const signal = AbortSignal.any([this.lifetime.signal, deadline.signal]);
      return (entry.token = await this.exchangerOf(entry.server).exchange(entry.subjectToken, signal));
    } finally {
      clearTimeout(timer);
    }
  }

  private exchangerOf(server: string): TokenExchanger {
    let exchanger = this.exchangers.get(server);
    if (!exchanger) {
      exchanger = new TokenExchanger(server, this.options.servers[server]!, this.context.spec(server)?.url);
      this.exchangers.set(server, exchanger);
    }
    return exchanger;
  }

  /** The entry's client, connected on first use (again once it closed or failed to connect). */
  private async clientOf(entry: Entry): Promise<McpClient> {
    if (entry.client) {
      const client = await entry.client.catch(() => undefined);
      if (client && !client.isClosed) return client;
      if (client) entry.client = undefined;
    }
    const connecting = (entry.client ??= this.connect(entry));
    connecting.catch(() => {
      if (entry.client === connecting) entry.client = undefined;
    });
    return connecting;
  }

  private connect(entry: Entry): Promise<McpClient> {
    const spec = this.context.spec(entry.server);
    if (!spec || spec.transport === 'stdio' || !spec.url)
      return Promise.reject(
        new ToolError(
          'UPSTREAM_AUTH',
          `The server "${entry.server}" is set to be reached as the calling user, which needs an HTTP server with a URL.`,
        ),
      );
    const headers = Object.fromEntries(
      Object.entries(spec.headers ?? {}).filter(([name]) => name.toLowerCase() !== 'authorization'),
    );
    const bearer = () => (entry.token ? { authorization: `Bearer ${entry.token.accessToken}` } : undefined);
    return McpClient.connect(
      {
        url: spec.url,
        transport: spec.transport,
        headers,
        authorize: async (request) => {
          if (!request.rejected) return bearer();
          // Refused: exchange once more (the upstream may have revoked it), unless a newer token was refused already.
          if (request.rejectedAuthorization === bearer()?.authorization) entry.token = undefined;
          return this.tokenOf(entry).then(bearer, () => undefined);
        },
      },
      { ...clientOptionsFor(spec, this.context.clientOptions), signal: this.lifetime.signal },
    );
  }

  /** Forgets the entry and closes its client (in the background, awaited by `close()`). */
  private drop(entry: Entry): void {
    clearTimeout(entry.idle);
    if (this.entries.get(entry.key) === entry) this.entries.delete(entry.key);
    const client = entry.client;
    entry.client = undefined;
    if (!client) return;
    const closing = client.then(
      (c) => c.close(),
      () => undefined,
    );
    this.closings.add(closing);
    void closing.finally(() => this.closings.delete(closing));
  }
}
