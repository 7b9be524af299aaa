/**
 * The state of one server's diagnosis while it runs: the checks so far (each bounded by
 * `runCheck`, scrubbed of the server's secrets), and the one connect the later checks share
 * (its client, or the redacted error; the HTTP shape the client detected; the last stderr lines of
 * a stdio server). `close()` closes what the connect opened.
 */
import { HttpRouteCache } from '../../client/http-routes.js';
import { McpClient } from '../../client/mcp-client.js';
import { DEFAULT_CONNECT_TIMEOUT_MS } from '../../client/negotiate.js';
import type { ClientOptions } from '../../client/options.js';
import type { TokenStore } from '../../auth/token-store.js';
import { McpError } from '../../protocol/errors.js';
import { redactUrl, scrubSecrets } from '../../util/redact.js';
import { shellLine, shellQuote } from '../../util/shell-quote.js';
import { secretValues } from '../config/redact.js';
import { redactError } from '../error-redaction.js';
import { clientOptionsFor, connectTarget } from '../servers/connect-target.js';
import type { ManagedServer } from '../servers/managed-server.js';
import { worstVerdict, type CheckResult, type FailureKind, type ServerDiagnosis } from './doctor-types.js';
import { runCheck, skipped, type CheckOutcome } from './run-check.js';

/** Options of `diagnoseServer`. */
export interface DiagnoseOptions {
  /** Each check's bound (default 30000 ms, the client's connect timeout), also the connect's own timeout. */
  timeoutMs?: number;
  /** Where logins are kept (the CLI's store). */
  store: TokenStore;
  /** The command that logs this server in, for the fixes (`mcpwire auth login NAME`). */
  loginCommand: string;
  /** The `PATH` a bare command is looked up in (default `process.env.PATH`). */
  envPath?: string;
  /** Resolves relative stdio commands (default the process's cwd). */
  cwd?: string;
  /** False: the server comes from a project file nobody approved; it is not started. */
  approved?: boolean;
  /** The client's name in `initialize`. */
  clientInfo?: ClientOptions['clientInfo'];
}

/** A check's bound when none is given: the client's own connect timeout, as for every other command. */
export const DEFAULT_CHECK_TIMEOUT_MS = DEFAULT_CONNECT_TIMEOUT_MS;

/**
 * What `spec` looks like, for a report: its command line (each word quoted for a POSIX shell, so
 * it pastes as it runs) or URL, with secrets as `***`.
 */
export function targetText(spec: ManagedServer): string {
  const secrets = secretValues(spec);
  if (spec.transport !== 'stdio') return scrubSecrets(redactUrl(spec.url ?? ''), secrets);
  // Scrubbed word by word, then quoted: a `***` stands for the whole secret inside its quotes.
  return shellLine([spec.command ?? '', ...(spec.args ?? [])].map((word) => scrubSecrets(word, secrets)));
}

/**
 * The shell line that runs `spec`'s command as the manager starts it (in its `cwd`, when it has
 * one), quoted for a POSIX shell; its `env` is left out (it may hold secrets).
 */
export function commandLine(spec: ManagedServer): string {
  const command = targetText(spec);
  return spec.cwd !== undefined ? `cd ${shellQuote(spec.cwd)} && ${command}` : command;
}

/** The kind of a failed connect. */
export function failKind(error: unknown): FailureKind {
  if (!(error instanceof McpError)) return 'unreachable';
  if (error.code === 'TIMEOUT') return 'timeout';
  if (error.code === 'AUTH_REQUIRED') return 'auth';
  if (error.code === 'CONFIG_INVALID') return 'config';
  return 'unreachable';
}

export class Diagnosis {
  readonly checks: CheckResult[] = [];
  readonly timeoutMs: number;
  readonly secrets: string[];
  /** The connect's client, once it succeeded. */
  connected: { client: McpClient; ms: number } | undefined;
  /** The connect's error (redacted), once it failed. */
  connectError: unknown;
  /** The shapes the client detected, by URL. */
  readonly routes = new HttpRouteCache();
  /** A stdio server's last three stderr lines. */
  readonly stderr: string[] = [];

  constructor(
    readonly spec: ManagedServer,
    readonly options: DiagnoseOptions,
  ) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS;
    this.secrets = secretValues(spec);
  }

  /** Runs check `id` (bounded) and keeps its result. */
  async check(id: string, body: (signal: AbortSignal) => Promise<CheckOutcome>): Promise<CheckResult> {
    const result = await runCheck(id, this.timeoutMs, this.secrets, body);
    this.checks.push(result);
    return result;
  }

  /** Keeps `result` as it is (a check decided without running anything). */
  add(result: CheckResult): void {
    this.checks.push(result);
  }

  /** Marks `ids` skipped because `reason`. */
  skip(ids: readonly string[], reason: string): void {
    for (const id of ids) this.checks.push(skipped(id, reason));
  }

  /** Connects the server once, with stored logins only; sets `connected` or `connectError`. */
  async connect(signal: AbortSignal): Promise<void> {
    const { spec, options } = this;
    const started = performance.now();
    try {
      const target = connectTarget(spec, { store: options.store });
      // A configured `http` leaves the shape to detection, as a bare --url does: the doctor says which it is.
      const detect = spec.transport === 'http' && 'url' in target ? { ...target, transport: 'auto' as const } : target;
      const base: ClientOptions = {
        signal,
        http: { routes: this.routes },
        onStderr: (line) => {
          this.stderr.push(line);
          if (this.stderr.length > 3) this.stderr.shift();
        },
        ...(options.clientInfo ? { clientInfo: options.clientInfo } : {}),
      };
      const client = await McpClient.connect(detect, {
        ...clientOptionsFor(spec, base),
        connectTimeoutMs: this.timeoutMs,
      });
      // Connected just as the check ran out of time: nobody will use it.
      if (signal.aborted) await client.close();
      else this.connected = { client, ms: Math.round(performance.now() - started) };
    } catch (error) {
      this.connectError = redactError(error, this.secrets);
    }
  }

  report(): ServerDiagnosis {
    return {
      server: this.spec.name,
      transport: this.spec.transport,
      target: targetText(this.spec),
      verdict: worstVerdict(this.checks),
      checks: this.checks,
    };
  }

  /** Closes the connect's client, if any. Never rejects. */
  async close(): Promise<void> {
    await this.connected?.client.close().catch(() => {});
  }
}
