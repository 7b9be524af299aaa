/**
 * One configured server under supervision: its state machine (`disconnected → connecting →
 * connected`, `error` on a failed start or a crash, `needs-auth` when the server wants a login or
 * its `headersHelper` gave no usable headers, `not-approved` when the approval step refused it),
 * its client, and its restarts. `connected` is reached in one step with the server's tools
 * already listed and published, so whoever sees `connected` can call them. A crash (the transport
 * closed without the manager asking) is reported at once — pending calls already failed with
 * CONNECTION_CLOSED — and a restart is scheduled with capped exponential backoff; after
 * `maxRestarts` quick failures in a row the circuit opens and the slot stays in `error` until
 * someone calls `connect()` again. A refusal is not a failure: nothing is restarted. Neither is
 * `needs-auth` (trying again without a login would fail the same way): it waits for `login()`
 * (`/mcp auth NAME`) or a `connect()` after a login elsewhere (`mcpwire auth login NAME`).
 */
import { McpClient } from '../../client/mcp-client.js';
import type { ClientOptions } from '../../client/options.js';
import { errorMessage, McpError } from '../../protocol/errors.js';
import type { Era } from '../../protocol/revisions.js';
import type { TransportDiagnostic } from '../../protocol/transport.js';
import type { Tool } from '../../protocol/types.js';
import { redactUrl, scrubSecrets } from '../../util/redact.js';
import { redactServer, secretValues } from '../config/redact.js';
import type { LoginHooks } from './server-oauth.js';
import type { DebugLogger } from '../debug-log.js';
import { redactDiagnostic, redactError } from '../error-redaction.js';
import type { ManagedServer, RestartPolicy } from './managed-server.js';
import { clientOptionsFor, slotTarget } from './connect-target.js';

/**
 * Where a server stands. `not-approved`: the approval step refused it (a project server); it is
 * not started again until its definition changes. `needs-auth`: a connect or a call failed with
 * `AUTH_REQUIRED` (no usable login, or its `headersHelper` failed); it is not restarted, and
 * waits for a login (`McpManager.login`, `/mcp auth NAME`).
 */
export type ServerStatus = 'disconnected' | 'connecting' | 'connected' | 'error' | 'needs-auth' | 'not-approved';

/** A status change, as the manager's `status` event reports it. */
export interface StatusChange {
  server: string;
  status: ServerStatus;
  previous: ServerStatus;
  error?: McpError;
}

const DEFAULTS: Required<RestartPolicy> = {
  maxRestarts: 5,
  initialDelayMs: 500,
  maxDelayMs: 30_000,
  resetAfterMs: 60_000,
};

/** Diagnostic kinds that mean the server wrote something that is not a JSON-RPC message. */
const INVALID_KINDS = new Set(['invalid-json', 'invalid-message', 'oversize']);

/** What a slot needs from its manager. */
export interface SlotHooks {
  clientOptions: ClientOptions;
  /**
   * Resolves undefined when this server may start (project servers), else with why not (the
   * text after `was not approved to start (defined in FILE)`); rejects to refuse with a reason.
   */
  refusal(spec: ManagedServer): Promise<string | undefined>;
  changed(change: StatusChange): void;
  /** The tools of a client that just connected, as the catalogue should hold them; rejects when it cannot list them. */
  listTools(spec: ManagedServer, client: McpClient): Promise<Tool[]>;
  /** Puts `tools` in the catalogue as the server's whole tool set (synchronous). */
  publishTools(server: string, tools: Tool[]): void;
  /** The connected client's tool list may have changed (list_changed); never rejects. */
  toolsChanged(server: string): Promise<void>;
  /** A non-fatal problem the client noticed (junk on stdout, …), from its first byte on. */
  diagnostic(server: string, diagnostic: TransportDiagnostic): void;
  /** Debug lines (connection attempts and outcomes); undefined when logging is off. */
  log: DebugLogger | undefined;
  /**
   * The OAuth hooks of a connect: `interactive` for a login the user asked for (with the host's
   * browser hook), otherwise only what needs no person (the store).
   */
  loginHooks(interactive: boolean): LoginHooks;
  /** The server went to `needs-auth` (after the `status` change); `error` is scrubbed of its secrets. */
  needsAuth(server: string, error: McpError): void;
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
  /** Messages from the server that were not JSON or not JSON-RPC, over the slot's life. */
  invalidMessages = 0;
  /**
   * The era this server was last found to speak (by a connect of this slot, or from a saved
   * state), handed to the next connect as `eraHint`: a restart skips the era probe, and a wrong
   * verdict costs a probe, never the connect. Dropped when a connect fails.
   */
  eraHint: Era | undefined;
  private readonly hooks: SlotHooks;
  private starting: Promise<McpClient> | undefined;
  /** Aborts the connect under way: a disconnect does not wait out a handshake that may never come. */
  private startAbort: AbortController | undefined;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private failuresInRow = 0;
  private connectedAt = 0;
  private wanted = false;
  /** The next start is a login the user asked for (`login()`): the browser hook may be used. */
  private interactive = false;
  /** The signal of that login. */
  private loginSignal: AbortSignal | undefined;
  /** A list_changed arrived while the tools were being listed for `connected`: list again after. */
  private toolsStale = false;
  private disposers: Array<() => void> = [];

  /**
   * What of the definition must never be shown (see `secretValues`), and what the server's
   * `headersHelper` printed: scrubbed from every error, status, diagnostic and log line of this slot.
   */
  get secrets(): readonly string[] {
    return this.secretList;
  }
  private secretList: string[];

  constructor(spec: ManagedServer, hooks: SlotHooks) {
    this.spec = spec;
    this.hooks = hooks;
    this.secretList = secretValues(spec);
  }

  /** True while a restart is scheduled (the slot is in `error` and will try again by itself). */
  get restartPending(): boolean {
    return this.retryTimer !== undefined;
  }

  /**
   * Connects (or returns the live client). Concurrent calls share one attempt. Resolves once the
   * server is `connected` with its tools in the catalogue. Rejects with the connect error (the
   * slot goes to `error`), with `INVALID_STATE` for a disabled server, or with the refusal of the
   * approval step (the slot goes to `not-approved`).
   */
  connect(): Promise<McpClient> {
    if (this.spec.enabled === false) {
      return Promise.reject(
        new McpError('INVALID_STATE', 'is disabled in its config (enabled: false)', {
          server: this.spec.name,
          method: 'connect',
        }),
      );
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
    this.startAbort?.abort(
      new McpError('CANCELLED', 'disconnected while connecting', { server: this.spec.name, method: 'connect' }),
    );
    if (starting) await starting.catch(() => {});
    const client = this.client;
    this.detach();
    this.client = undefined;
    if (client) await client.close();
    // A refusal stays visible: only a changed definition (a new slot) can start the server.
    if (this.status !== 'not-approved') this.set('disconnected');
  }

  /**
   * Connects afresh as a login the user asked for: whatever runs is closed, then the connect may
   * show a login (the hooks' `onAuthorizationUrl`) or run the `headersHelper` again. Resolves as
   * {@link connect}; rejects as it does (an `AUTH_REQUIRED` leaves the slot in `needs-auth`).
   * `signal` abandons the login (`CANCELLED`).
   */
  async login(signal?: AbortSignal): Promise<McpClient> {
    await this.disconnect();
    this.interactive = true;
    this.loginSignal = signal;
    try {
      return await this.connect();
    } finally {
      this.interactive = false;
      this.loginSignal = undefined;
    }
  }

  /**
   * A call (or the client) found that the server wants a login: the client is closed and the
   * slot goes to `needs-auth` with `error` (no restart). Idempotent; ignored unless connected.
   */
  authLost(error: McpError): void {
    if (this.status !== 'connected') return;
    const client = this.client;
    this.detach();
    this.client = undefined;
    this.needsLogin(error);
    void client?.close().catch(() => {});
  }

  private async start(): Promise<McpClient> {
    const name = this.spec.name;
    this.set('connecting');
    const refusal = await this.approval();
    if (refusal) {
      // Not a failure to restart from: only a new definition gets a new decision.
      this.wanted = false;
      this.lastError = refusal;
      this.set('not-approved', refusal);
      throw refusal;
    }
    const log = this.hooks.log;
    const began = log ? Date.now() : 0;
    log?.(`connect "${name}": ${this.describeTarget()}`);
    let client: McpClient;
    const abort = new AbortController();
    this.startAbort = abort;
    try {
      const options = clientOptionsFor(this.spec, this.hooks.clientOptions);
      if (this.eraHint !== undefined) options.eraHint = this.eraHint;
      const signals = [options.signal, this.interactive ? this.loginSignal : undefined, abort.signal];
      options.signal = AbortSignal.any(signals.filter((signal) => signal !== undefined));
      // From the first byte: a banner on stdout before the handshake counts too (the event would miss it).
      const own = options.onDiagnostic;
      options.onDiagnostic = (diagnostic) => {
        own?.(diagnostic);
        this.noteDiagnostic(diagnostic);
      };
      client = await McpClient.connect(this.target(), options);
    } catch (error) {
      this.eraHint = undefined;
      const failure =
        error instanceof McpError
          ? error
          : new McpError('TRANSPORT', String(error), { server: name, method: 'connect', cause: error });
      // A disconnect (or the manager's close) cut the connect short: not a failure to restart from.
      if (abort.signal.aborted && !this.wanted) throw redactError(failure, this.secrets);
      throw this.failed(failure);
    } finally {
      if (this.startAbort === abort) this.startAbort = undefined;
    }
    if (!this.wanted) throw await this.superseded(client);
    this.client = client;
    this.eraHint = client.era;
    this.attach(client);
    let tools: Tool[];
    try {
      tools = await this.hooks.listTools(this.spec, client);
    } catch {
      tools = []; // a live server that cannot list its tools is connected without any
    }
    // The server died while its tools were listed: the close listener reported it and scheduled the restart.
    if (this.client !== client)
      throw (
        this.lastError ??
        new McpError('CONNECTION_CLOSED', 'the server went away while its tools were listed', {
          server: name,
          method: 'connect',
        })
      );
    if (!this.wanted) throw await this.superseded(client);
    this.connectedAt = Date.now();
    this.lastError = undefined;
    this.set('connected', undefined, () => this.hooks.publishTools(name, tools));
    log?.(
      `connected "${name}" in ${Date.now() - began} ms: ${client.era} ${client.protocolVersion}, ${tools.length} tools`,
    );
    if (this.toolsStale) {
      this.toolsStale = false;
      void this.hooks.toolsChanged(name);
    }
    return client;
  }

  /** The connect target (`slotTarget`): login pages only while asked for, helper values kept secret. */
  private target(): Parameters<typeof McpClient.connect>[0] {
    return slotTarget(this.spec, this.hooks.loginHooks(this.interactive), {
      loginUnderWay: () => this.interactive,
      credentialsSeen: (values) => {
        const found = new Set([...this.secretList, ...values]);
        this.secretList = [...found].filter((value) => value.length >= 4).sort((a, b) => b.length - a.length);
      },
    });
  }

  /** The refusal of the approval step, or undefined when the server may start. */
  private async approval(): Promise<McpError | undefined> {
    let reason: unknown;
    let why: string | undefined;
    try {
      why = await this.hooks.refusal(this.spec);
      if (why === undefined) return undefined;
    } catch (error) {
      reason = redactError(error, this.secrets);
      why = `; project servers need approval: the approval hook failed: ${errorMessage(reason)}`;
    }
    const where = this.spec.provenance ? ` (defined in ${this.spec.provenance.file})` : '';
    return new McpError('INVALID_STATE', `was not approved to start${where}${why}`, {
      server: this.spec.name,
      method: 'connect',
      ...(reason === undefined ? {} : { cause: reason }),
    });
  }

  /** A failed start: reported, a restart scheduled (none when it needs a login); returns the error to throw. */
  private failed(failure: McpError): McpError {
    redactError(failure, this.secrets);
    this.hooks.log?.(`connect "${this.spec.name}" failed: ${this.shown(failure.message)}`);
    // A login abandoned on purpose leaves the server where it was: waiting for one.
    if (failure.code === 'AUTH_REQUIRED' || (this.interactive && failure.code === 'CANCELLED')) {
      this.needsLogin(failure);
      return failure;
    }
    this.lastError = failure;
    this.set('error', failure);
    this.scheduleRestart();
    return failure;
  }

  /** To `needs-auth` with `error` (already scrubbed): no restart is scheduled, the manager is told. */
  private needsLogin(error: McpError): void {
    this.cancelRetry();
    this.connectedAt = 0;
    this.lastError = error;
    this.hooks.log?.(`"${this.spec.name}" needs a login: ${this.shown(error.message)}`);
    this.set('needs-auth', error);
    this.hooks.needsAuth(this.spec.name, error);
  }

  /** disconnect() came while connecting: do not keep what arrived late. */
  private async superseded(client: McpClient): Promise<McpError> {
    if (this.client === client) {
      this.detach();
      this.client = undefined;
    }
    await client.close();
    return new McpError('CANCELLED', 'connect was superseded by disconnect', {
      server: this.spec.name,
      method: 'connect',
    });
  }

  private attach(client: McpClient): void {
    this.disposers.push(
      client.on('close', (info) => {
        if (this.client !== client) return;
        this.detach();
        this.client = undefined;
        if (!this.wanted) return;
        const error = redactError(
          info.error ?? new McpError('CONNECTION_CLOSED', 'the server went away', { server: this.spec.name }),
          this.secrets,
        );
        if (error.code === 'AUTH_REQUIRED') return this.needsLogin(error);
        this.lastError = error;
        this.hooks.log?.(`"${this.spec.name}" went away: ${this.shown(error.message)}`);
        this.set('error', error);
        this.scheduleRestart();
      }),
      client.on('toolsChanged', () => {
        if (this.status === 'connected') void this.hooks.toolsChanged(this.spec.name);
        else this.toolsStale = true;
      }),
    );
  }

  /** A diagnostic of this slot's client, whenever it came (connecting or connected). */
  private noteDiagnostic(diagnostic: TransportDiagnostic): void {
    if (INVALID_KINDS.has(diagnostic.kind)) this.invalidMessages++;
    this.hooks.diagnostic(this.spec.name, redactDiagnostic(diagnostic, this.secrets));
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
      this.hooks.log?.(`"${this.spec.name}": circuit open after ${this.failuresInRow} failed restarts`);
      return;
    }
    const delay = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** this.failuresInRow);
    this.failuresInRow++;
    this.cancelRetry();
    this.hooks.log?.(`"${this.spec.name}": restart ${this.failuresInRow} of ${policy.maxRestarts} in ${delay} ms`);
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

  /** Changes the status; `before` runs after the assignment and before the event (the catalogue of `connected`). */
  private set(status: ServerStatus, error?: McpError, before?: () => void): void {
    const previous = this.status;
    this.status = status;
    before?.();
    if (previous === status && error === undefined) return;
    this.hooks.changed({ server: this.spec.name, status, previous, ...(error ? { error } : {}) });
  }

  /** What is being started, for a log line (secrets hidden). */
  private describeTarget(): string {
    const shown = redactServer(this.spec);
    return shown.transport === 'stdio'
      ? `stdio ${[shown.command, ...(shown.args ?? [])].join(' ')}`
      : `${shown.transport} ${redactUrl(shown.url ?? '')}`;
  }

  private shown(text: string): string {
    return scrubSecrets(text, this.secrets);
  }
}
