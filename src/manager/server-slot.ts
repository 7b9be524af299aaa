/**
 * One configured server under supervision: its state machine (`disconnected → connecting →
 * connected`, `error` on a failed start or a crash), its client, and its restarts. A crash (the
 * transport closed without the manager asking) is reported at once — pending calls already
 * failed with CONNECTION_CLOSED — and a restart is scheduled with capped exponential backoff;
 * after `maxRestarts` quick failures in a row the circuit opens and the slot stays in `error`
 * until someone calls `connect()` again.
 */
import { McpClient } from '../client/mcp-client.js';
import type { ClientOptions } from '../client/options.js';
import { McpError } from '../protocol/errors.js';
import type { ProtocolRevision } from '../protocol/revisions.js';
import type { ManagedServer, RestartPolicy } from './server-spec.js';
import { clientOptionsFor, connectTarget } from './server-target.js';

export type ServerStatus = 'disconnected' | 'connecting' | 'connected' | 'error';

/** A status change, as the manager's `status` event reports it. */
export interface StatusChange {
  server: string;
  status: ServerStatus;
  previous: ServerStatus;
  error?: McpError;
}

const DEFAULTS: Required<RestartPolicy> = { maxRestarts: 5, initialDelayMs: 500, maxDelayMs: 30_000, resetAfterMs: 60_000 };

/** What a slot needs from its manager. */
export interface SlotHooks {
  clientOptions: ClientOptions;
  /** Resolves whether this server may start (project servers); rejects to refuse with a reason. */
  approve(spec: ManagedServer): Promise<boolean>;
  changed(change: StatusChange): void;
  /** The connected client's tool list may have changed (connect, list_changed); never rejects. */
  toolsChanged(server: string): Promise<void>;
}

export class ServerSlot {
  readonly spec: ManagedServer;
  status: ServerStatus = 'disconnected';
  client: McpClient | undefined;
  lastError: McpError | undefined;
  /** Restarts performed since the slot was created. */
  restarts = 0;
  /** True once the breaker opened after repeated failures. */
  circuitOpen = false;
  /** A revision to pin on the next connect (restored state: no era probe). */
  pinnedVersion: ProtocolRevision | undefined;
  private readonly hooks: SlotHooks;
  private starting: Promise<McpClient> | undefined;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private failuresInRow = 0;
  private connectedAt = 0;
  private wanted = false;
  private disposers: Array<() => void> = [];

  constructor(spec: ManagedServer, hooks: SlotHooks) {
    this.spec = spec;
    this.hooks = hooks;
  }

  /**
   * Connects (or returns the live client). Concurrent calls share one attempt. Rejects with the
   * connect error (the slot goes to `error`); a disabled server rejects with `INVALID_STATE`.
   */
  connect(): Promise<McpClient> {
    if (this.spec.enabled === false) {
      return Promise.reject(new McpError('INVALID_STATE', 'is disabled in its config (enabled: false)', { server: this.spec.name, method: 'connect' }));
    }
    this.wanted = true;
    this.circuitOpen = false;
    this.cancelRetry();
    if (this.client && this.status === 'connected') return Promise.resolve(this.client);
    this.starting ??= this.start().finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  /** Closes the client and cancels any pending restart. Idempotent. */
  async disconnect(): Promise<void> {
    this.wanted = false;
    this.cancelRetry();
    const starting = this.starting;
    if (starting) await starting.catch(() => {});
    const client = this.client;
    this.detach();
    this.client = undefined;
    if (client) await client.close();
    this.set('disconnected');
  }

  private async start(): Promise<McpClient> {
    this.set('connecting');
    let client: McpClient;
    try {
      if (!(await this.hooks.approve(this.spec))) {
        const where = this.spec.provenance ? ` (defined in ${this.spec.provenance.file})` : '';
        // Not a failure to restart from: only a new decision lets it start.
        this.wanted = false;
        throw new McpError('INVALID_STATE', `was not approved to start${where}; project servers need approval`, { server: this.spec.name, method: 'connect' });
      }
      client = await McpClient.connect(connectTarget(this.spec), clientOptionsFor(this.spec, this.hooks.clientOptions, this.pinnedVersion));
    } catch (error) {
      const failure = error instanceof McpError ? error : new McpError('TRANSPORT', String(error), { server: this.spec.name, method: 'connect', cause: error });
      this.lastError = failure;
      this.set('error', failure);
      this.scheduleRestart();
      throw failure;
    }
    if (!this.wanted) {
      // disconnect() came while connecting: do not keep what arrived late.
      await client.close();
      throw new McpError('CANCELLED', 'connect was superseded by disconnect', { server: this.spec.name, method: 'connect' });
    }
    this.client = client;
    this.connectedAt = Date.now();
    this.lastError = undefined;
    this.attach(client);
    this.set('connected');
    // The catalogue is filled before connect resolves: `await connectAll(); getAllTools()` works.
    await this.hooks.toolsChanged(this.spec.name);
    return client;
  }

  private attach(client: McpClient): void {
    this.disposers.push(
      client.on('close', (info) => {
        if (this.client !== client) return;
        this.detach();
        this.client = undefined;
        if (!this.wanted) return;
        const error = info.error ?? new McpError('CONNECTION_CLOSED', 'the server went away', { server: this.spec.name });
        this.lastError = error;
        this.set('error', error);
        this.scheduleRestart();
      }),
      client.on('toolsChanged', () => void this.hooks.toolsChanged(this.spec.name)),
    );
  }

  private detach(): void {
    for (const dispose of this.disposers.splice(0)) dispose();
  }

  private scheduleRestart(): void {
    if (!this.wanted || this.spec.restart === false) return;
    const policy = { ...DEFAULTS, ...(this.spec.restart ?? {}) };
    // A connection that lived long enough counts as healthy: start counting afresh.
    if (this.connectedAt > 0 && Date.now() - this.connectedAt >= policy.resetAfterMs) this.failuresInRow = 0;
    this.connectedAt = 0;
    if (this.failuresInRow >= policy.maxRestarts) {
      this.circuitOpen = true;
      this.wanted = false;
      return;
    }
    const delay = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** this.failuresInRow);
    this.failuresInRow++;
    this.cancelRetry();
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      if (!this.wanted) return;
      this.restarts++;
      this.starting ??= this.start().finally(() => {
        this.starting = undefined;
      });
      this.starting.catch(() => {
        // Reported through status and lastError; the next restart is already scheduled.
      });
    }, delay);
    this.retryTimer.unref?.();
  }

  private cancelRetry(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
  }

  private set(status: ServerStatus, error?: McpError): void {
    const previous = this.status;
    if (previous === status && error === undefined) return;
    this.status = status;
    this.hooks.changed({ server: this.spec.name, status, previous, ...(error ? { error } : {}) });
  }
}
