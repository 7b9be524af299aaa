/**
 * Resource updates through the gateway: the gateway holds an upstream subscription to every
 * resource an upstream lists (when it advertises `resources.subscribe`), and each upstream
 * `notifications/resources/updated` is told to the gateway's own servers under the gateway's
 * URI (`resource-uris.ts`). The kit then delivers it only where a downstream client asked for it:
 * a legacy session that sent `resources/subscribe` for that URI, a 2026 `subscriptions/listen`
 * stream naming it in `resourceSubscriptions`.
 *
 * Why every listed resource, not only those a downstream client subscribed to: the kit keeps a
 * downstream subscription in its session (or its listen stream) and tells no one, so the gateway
 * cannot follow downstream subscriptions one by one. An upstream subscription costs a request
 * (legacy) or a filter entry on the one listen stream (2026); updates no one asked for stop at
 * the kit. URIs reached only through a template are not followed.
 */
import type { McpClient } from '../client/mcp-client.js';
import type { Disposer } from '../protocol/transport.js';
import type { Resource } from '../protocol/types.js';
import type { ServerLogger } from '../server/server-types.js';
import { gatewayUri } from './resource-uris.js';

type Unsubscribe = () => Promise<void>;

/** The upstream subscriptions of one upstream client. */
export class ResourceUpdates {
  /** Subscribed (or subscribing) upstream URIs, each with its way out once the subscription holds. */
  private readonly held = new Map<string, Promise<Unsubscribe | undefined>>();
  private readonly off: Disposer;
  private disposed = false;

  /**
   * Follows `client` (the upstream `server`): each update is passed to `tell` with the gateway's
   * URI. Subscribes nothing until {@link follow}.
   */
  constructor(
    private readonly client: McpClient,
    private readonly server: string,
    tell: (uri: string) => void,
    private readonly logger: ServerLogger,
  ) {
    this.off = client.on('resourceUpdated', (params) => {
      if (typeof params.uri === 'string') tell(gatewayUri(server, params.uri));
    });
  }

  /**
   * Holds a subscription to each of `resources` and drops those of resources no longer listed.
   * Does nothing when the upstream cannot subscribe. Never throws: a refused subscription is logged.
   */
  follow(resources: readonly Resource[]): void {
    if (this.disposed || this.client.capabilities.resources?.subscribe !== true) return;
    const wanted = new Set(resources.map((resource) => resource.uri));
    for (const uri of [...this.held.keys()]) if (!wanted.has(uri)) this.drop(uri);
    for (const uri of wanted) {
      if (this.held.has(uri)) continue;
      this.held.set(
        uri,
        this.client.subscribeResource(uri).catch((error: unknown) => {
          this.held.delete(uri);
          this.failed('an upstream resource could not be subscribed to', uri, error);
          return undefined;
        }),
      );
    }
  }

  /** Stops listening and drops every upstream subscription (not awaited: the client may be closing). Idempotent. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.off();
    for (const uri of [...this.held.keys()]) this.drop(uri);
  }

  private drop(uri: string): void {
    const held = this.held.get(uri);
    this.held.delete(uri);
    void held
      ?.then((unsubscribe) => (this.client.isClosed ? undefined : unsubscribe?.()))
      .catch((error: unknown) => this.failed('an upstream subscription could not be dropped', uri, error));
  }

  private failed(msg: string, uri: string, error: unknown): void {
    if (this.disposed && this.client.isClosed) return;
    this.logger({
      level: 'warning',
      msg,
      server: this.server,
      uri: uri.slice(0, 200),
      error: error instanceof Error ? error.message : String(error),
    });
  }
}
