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
 *
 * The state is one private {@link SlotState}; others read it through {@link ServerSlot.connectedClient}
 * and {@link ServerSlot.snapshot} and change it only through the slot's methods.
 */
import { McpClient } from '../../client/mcp-client.js';
import { McpError } from '../../protocol/errors.js';
import type { Era } from '../../protocol/revisions.js';
import type { TransportDiagnostic } from '../../protocol/transport.js';
import type { Tool } from '../../protocol/types.js';
import { scrubSecrets } from '../../util/redact.js';
import { secretValues } from '../config/redact.js';
import { redactDiagnostic, redactError } from '../error-redaction.js';
import { approvalRefusal } from './approval-refusal.js';
import { describeTarget } from './connect-target.js';
import type { ManagedServer } from './managed-server.js';
import { RestartBackoff } from './restart-backoff.js';
import { connectSlotClient } from './slot-connect.js';
import type { SlotHooks } from './slot-hooks.js';
import {
  heldClientOf,
  lastErrorOf,
  statusChange,
  statusOf,
  withoutClient,
  type SlotSnapshot,
  type SlotState,
} from './slot-state.js';

/** Diagnostic kinds that mean the server wrote something that is not a JSON-RPC message. */
const INVALID_KINDS = new Set(['invalid-json', 'invalid-message', 'oversize']);

export class ServerSlot {
  readonly spec: ManagedServer;
  private state: SlotState = { kind: 'disconnected', lastError: undefined };
  private restarts = 0;
  private circuitOpen = false;
  private invalidMessages = 0;
  /**
   * The era this server was last found to speak (by a connect of this slot, or from a saved
   * state), handed to the next connect as `eraHint`: a restart skips the era probe, and a wrong
   * verdict costs a probe, never the connect. Dropped when a connect fails.
   */
  private eraHint: Era | undefined;
  private readonly hooks: SlotHooks;
  private readonly backoff: RestartBackoff;
  /**
   * The connect under way, shared by concurrent `connect()` calls. It outlives the `connecting`
   * state by the few microtasks of its settling: a `connect()` in that window shares it.
   */
  private starting: Promise<McpClient> | undefined;
  /** Aborts the connect under way: a disconnect does not wait out a handshake that may never come. */
  private startAbort: AbortController | undefined;
  /** When the slot last turned `connected` (0 once a failure was counted): long-lived connections reset the backoff. */
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
    this.backoff = new RestartBackoff(spec.restart === false ? undefined : spec.restart);
  }

  /** The client of a `connected` slot (its tools are in the catalogue), else undefined. */
  connectedClient(): McpClient | undefined {
    return this.state.kind === 'connected' ? this.state.client : undefined;
  }

  /** Where the slot stands now, as a frozen plain object (see {@link SlotSnapshot}). */
  snapshot(): SlotSnapshot {
    return Object.freeze({
      status: statusOf(this.state),
      lastError: lastErrorOf(this.state),
      restarts: this.restarts,
      circuitOpen: this.circuitOpen,
      restartPending: this.backoff.pending,
      invalidMessages: this.invalidMessages,
    });
  }

  /** Offers the era a saved state recorded for the next connect; kept only when the slot knows none. */
  offerEraHint(era: Era): void {
    this.eraHint ??= era;
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
    this.backoff.cancel();
    const live = this.connectedClient();
    if (live) return Promise.resolve(live);
    return this.attempt();
  }

  /** Closes the client and cancels any pending restart. Idempotent. */
  async disconnect(): Promise<void> {
    this.wanted = false;
    this.backoff.cancel();
    const starting = this.starting;
    this.startAbort?.abort(
      new McpError('CANCELLED', 'disconnected while connecting', { server: this.spec.name, method: 'connect' }),
    );
    if (starting) await starting.catch(() => {});
    const client = heldClientOf(this.state);
    this.detach();
    this.state = withoutClient(this.state);
    if (client) await client.close();
    // A refusal stays visible: only a changed definition (a new slot) can start the server.
    if (this.state.kind !== 'not-approved') this.enter({ kind: 'disconnected', lastError: lastErrorOf(this.state) });
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
    if (statusOf(this.state) !== 'connected') return;
    const client = this.connectedClient(); // none while `closing`: a disconnect is closing it
    this.detach();
    this.needsLogin(error);
    void client?.close().catch(() => {});
  }

  /** The shared connect attempt: the one under way, or a new one. */
  private attempt(): Promise<McpClient> {
    this.starting ??= this.start().finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  private async start(): Promise<McpClient> {
    const name = this.spec.name;
    this.enter({ kind: 'connecting', lastError: lastErrorOf(this.state) });
    const refusal = await approvalRefusal(
      this.spec,
      (spec) => this.hooks.refusal(spec),
      (error) => redactError(error, this.secrets),
    );
    if (refusal) {
      // Not a failure to restart from: only a new definition gets a new decision.
      this.wanted = false;
      this.enter({ kind: 'not-approved', error: refusal });
      throw refusal;
    }
    const log = this.hooks.log;
    const began = log ? Date.now() : 0;
    log?.(`connect "${name}": ${describeTarget(this.spec)}`);
    let client: McpClient;
    const abort = new AbortController();
    this.startAbort = abort;
    try {
      client = await connectSlotClient(this.spec, {
        base: this.hooks.clientOptions,
        eraHint: this.eraHint,
        signals: [this.interactive ? this.loginSignal : undefined, abort.signal],
        onDiagnostic: (diagnostic) => this.noteDiagnostic(diagnostic),
        loginHooks: () => this.hooks.loginHooks(this.interactive),
        watch: {
          loginUnderWay: () => this.interactive,
          credentialsSeen: (values) => {
            const found = new Set([...this.secretList, ...values]);
            this.secretList = [...found].filter((value) => value.length >= 4).sort((a, b) => b.length - a.length);
          },
        },
      });
    } catch (error) {
      this.eraHint = undefined;
      const failure = error as McpError; // connectSlotClient rejects with McpError only
      // A disconnect (or the manager's close) cut the connect short: not a failure to restart from.
      if (abort.signal.aborted && !this.wanted) throw redactError(failure, this.secrets);
      throw this.failed(failure);
    } finally {
      if (this.startAbort === abort) this.startAbort = undefined;
    }
    if (!this.wanted) throw await this.superseded(client);
    // Held while its tools are listed (a close now is a crash), not callable until `connected`.
    this.state = { kind: 'connecting', lastError: lastErrorOf(this.state), client };
    this.eraHint = client.era;
    this.attach(client);
    let tools: Tool[];
    try {
      tools = await this.hooks.listTools(this.spec, client);
    } catch {
      tools = []; // a live server that cannot list its tools is connected without any
    }
    // The server died while its tools were listed: the close listener reported it and scheduled the restart.
    if (heldClientOf(this.state) !== client)
      throw (
        lastErrorOf(this.state) ??
        new McpError('CONNECTION_CLOSED', 'the server went away while its tools were listed', {
          server: name,
          method: 'connect',
        })
      );
    if (!this.wanted) throw await this.superseded(client);
    this.connectedAt = Date.now();
    this.enter({ kind: 'connected', client }, () => this.hooks.publishTools(name, tools));
    log?.(
      `connected "${name}" in ${Date.now() - began} ms: ${client.era} ${client.protocolVersion}, ${tools.length} tools`,
    );
    if (this.toolsStale) {
      this.toolsStale = false;
      void this.hooks.toolsChanged(name);
    }
    return client;
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
    this.enter({ kind: 'error', error: failure });
    this.scheduleRestart();
    return failure;
  }

  /** To `needs-auth` with `error` (already scrubbed): no restart is scheduled, the manager is told. */
  private needsLogin(error: McpError): void {
    this.backoff.cancel();
    this.connectedAt = 0;
    this.hooks.log?.(`"${this.spec.name}" needs a login: ${this.shown(error.message)}`);
    this.enter({ kind: 'needs-auth', error });
    this.hooks.needsAuth(this.spec.name, error);
  }

  /** disconnect() came while connecting: do not keep what arrived late. */
  private async superseded(client: McpClient): Promise<McpError> {
    if (heldClientOf(this.state) === client) {
      this.detach();
      this.state = withoutClient(this.state);
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
        if (heldClientOf(this.state) !== client) return;
        this.detach();
        this.state = withoutClient(this.state);
        if (!this.wanted) return;
        const error = redactError(
          info.error ?? new McpError('CONNECTION_CLOSED', 'the server went away', { server: this.spec.name }),
          this.secrets,
        );
        if (error.code === 'AUTH_REQUIRED') return this.needsLogin(error);
        this.hooks.log?.(`"${this.spec.name}" went away: ${this.shown(error.message)}`);
        this.enter({ kind: 'error', error });
        this.scheduleRestart();
      }),
      client.on('toolsChanged', () => {
        if (this.state.kind === 'connected') void this.hooks.toolsChanged(this.spec.name);
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
    const delay = this.backoff.next(this.connectedAt);
    this.connectedAt = 0;
    const name = this.spec.name;
    if (delay === undefined) {
      this.circuitOpen = true;
      this.wanted = false;
      this.hooks.log?.(`"${name}": circuit open after ${this.backoff.failures} failed restarts`);
      return;
    }
    this.hooks.log?.(`"${name}": restart ${this.backoff.failures} of ${this.backoff.maxRestarts} in ${delay} ms`);
    this.backoff.schedule(delay, () => {
      if (!this.wanted) return;
      this.restarts++;
      this.attempt().catch(() => {
        // Reported through the status and its last error; the next restart is already scheduled.
      });
    });
  }

  /**
   * Moves to `next`; `before` runs after the assignment and before the event (the catalogue of
   * `connected`). No event when the status stays the same without an error.
   */
  private enter(next: SlotState, before?: () => void): void {
    const change = statusChange(this.spec.name, this.state, next);
    this.state = next;
    before?.();
    if (change) this.hooks.changed(change);
  }

  private shown(text: string): string {
    return scrubSecrets(text, this.secrets);
  }
}
