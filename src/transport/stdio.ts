/**
 * The stdio transport: a server as a child process, one JSON-RPC message per line on its
 * stdin/stdout, stderr as free-form log lines (never protocol).
 *
 * The child leads its own process group (POSIX), so closing stops its whole tree — `npx` and the
 * node it starts, and whatever helpers the server spawned. Close is graceful and bounded:
 * stdin EOF, wait, SIGTERM, wait, SIGKILL.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { McpError } from '../protocol/errors.js';
import type { JsonRpcMessage } from '../protocol/jsonrpc.js';
import type { CloseInfo, Disposer, Transport, TransportDiagnostic } from '../protocol/transport.js';
import { Inbox } from './inbox.js';
import { NdjsonDecoder } from './ndjson-framer.js';
import { buildServerEnv } from './stdio-env.js';
import { StderrLines } from './stderr-lines.js';

/** How to start a stdio server. Arguments are an array: no shell is involved. */
export interface StdioServerSpec {
  command: string;
  args?: string[];
  /** Added to the inherited allowlist (or to the whole environment with `inheritEnv`). */
  env?: Record<string, string>;
  cwd?: string;
  /** Pass this process's whole environment instead of the safe allowlist. */
  inheritEnv?: boolean;
}

/** Options of {@link StdioTransport.spawn}. */
export interface StdioTransportOptions {
  /** Display name in errors (default: the command). */
  name?: string;
  /** Largest accepted message (default 16 MiB). */
  maxMessageBytes?: number;
  /** Lines of stderr kept for error messages (default 50). */
  stderrLines?: number;
  /** Receives each stderr line as it arrives. */
  onStderr?: (line: string) => void;
  /** Overrides `spec.inheritEnv`. */
  inheritEnv?: boolean;
  /** Bounds of the graceful close. */
  closeTimeouts?: { stdinEndMs?: number; sigtermMs?: number };
}

const IS_WINDOWS = process.platform === 'win32';
/** How long stdout may stay open after the server exited (a grandchild holding it) before we stop waiting. */
const STDOUT_GRACE_MS = 100;

/** Transports whose process still runs: killed synchronously if this process exits first. */
const live = new Set<StdioTransport>();
let exitHookInstalled = false;
function trackLive(transport: StdioTransport): void {
  live.add(transport);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const t of live) t.destroy();
  });
}

/** A child-process transport. Create with {@link StdioTransport.spawn}. */
export class StdioTransport implements Transport {
  /** The server's process id. */
  readonly pid: number;
  readonly closed: Promise<CloseInfo>;
  private readonly name: string;
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly decoder: NdjsonDecoder;
  private readonly stderr: StderrLines;
  private readonly inbox = new Inbox<unknown>();
  private readonly diagnosticListeners = new Set<(d: TransportDiagnostic) => void>();
  private resolveClosed!: (info: CloseInfo) => void;
  private exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  private exitWaiters: Array<() => void> = [];
  private stdoutEnded = false;
  private finished = false;
  private closeRequested = false;
  private closing: Promise<void> | undefined;
  private graceTimer: ReturnType<typeof setTimeout> | undefined;
  private writeError: Error | undefined;
  private corked = false;
  private readonly uncork = (): void => {
    this.corked = false;
    this.child.stdin.uncork();
  };

  private constructor(
    child: ChildProcessWithoutNullStreams,
    private readonly options: StdioTransportOptions,
    command: string,
  ) {
    this.child = child;
    this.pid = child.pid!;
    this.name = options.name ?? command;
    this.closed = new Promise((resolve) => (this.resolveClosed = resolve));
    this.stderr = new StderrLines(options.stderrLines ?? 50, options.onStderr);
    this.decoder = new NdjsonDecoder(
      {
        message: (value) => this.inbox.deliver(value),
        diagnostic: (d) => this.diagnose(d),
      },
      options.maxMessageBytes === undefined ? {} : { maxMessageBytes: options.maxMessageBytes },
    );
    child.stdout.on('data', (chunk: Buffer) => this.decoder.push(chunk));
    child.stdout.on('end', () => this.onStdoutEnd());
    child.stdout.on('error', () => this.onStdoutEnd());
    child.stderr.on('data', (chunk: Buffer) => this.stderr.push(chunk));
    child.stderr.on('error', () => undefined);
    // EPIPE when the server is gone: reported through send(), never as an uncaught error.
    child.stdin.on('error', (error) => {
      this.writeError = error;
    });
    child.on('exit', (code, signal) => this.onExit(code, signal));
    trackLive(this);
  }

  /**
   * Starts the server. Resolves once the process is running; rejects with `SPAWN_FAILED` naming
   * the command and the reason (command not found, permission denied, missing cwd, …).
   */
  static spawn(spec: StdioServerSpec, options: StdioTransportOptions = {}): Promise<StdioTransport> {
    const name = options.name ?? spec.command;
    if (spec.cwd !== undefined && !existsSync(spec.cwd)) {
      return Promise.reject(new McpError('SPAWN_FAILED', `could not start "${spec.command}": working directory ${spec.cwd} does not exist`, { server: name }));
    }
    let child: ChildProcessWithoutNullStreams;
    try {
      child = spawn(spec.command, spec.args ?? [], {
        cwd: spec.cwd,
        env: buildServerEnv(spec.env, options.inheritEnv ?? spec.inheritEnv ?? false),
        stdio: ['pipe', 'pipe', 'pipe'],
        // Its own process group, so close() can stop the whole tree (POSIX only).
        detached: !IS_WINDOWS,
        windowsHide: true,
      });
    } catch (error) {
      return Promise.reject(spawnError(spec.command, name, error));
    }
    return new Promise((resolve, reject) => {
      const onSpawn = () => {
        child.off('error', onError);
        resolve(new StdioTransport(child, options, spec.command));
      };
      const onError = (error: Error) => {
        child.off('spawn', onSpawn);
        reject(spawnError(spec.command, name, error));
      };
      child.once('spawn', onSpawn);
      child.once('error', onError);
    });
  }

  /** The last lines the server wrote to stderr (bounded). */
  stderrTail(): string[] {
    return this.stderr.tail();
  }

  send(message: JsonRpcMessage): Promise<void> | undefined {
    if (this.finished || this.closeRequested || this.writeError) {
      return Promise.reject(new McpError('CONNECTION_CLOSED', `cannot send: ${this.describeEnd()}`, { server: this.name }));
    }
    const stdin = this.child.stdin;
    if (!this.corked) {
      // Everything sent in this tick leaves in one writev: 64 calls in flight cost one syscall, not 64.
      this.corked = true;
      stdin.cork();
      process.nextTick(this.uncork);
    }
    if (stdin.write(`${JSON.stringify(message)}\n`)) return undefined;
    // Back-pressure: resolve when the pipe drains, or fail if the process goes away first.
    return new Promise((resolve, reject) => {
      const onDrain = () => {
        cleanup();
        resolve();
      };
      const onGone = () => {
        cleanup();
        reject(new McpError('CONNECTION_CLOSED', `cannot send: ${this.describeEnd()}`, { server: this.name }));
      };
      const cleanup = () => {
        stdin.off('drain', onDrain);
        stdin.off('close', onGone);
      };
      stdin.once('drain', onDrain);
      stdin.once('close', onGone);
    });
  }

  onMessage(listener: (value: unknown) => void): Disposer {
    return this.inbox.listen(listener);
  }

  onDiagnostic(listener: (d: TransportDiagnostic) => void): Disposer {
    this.diagnosticListeners.add(listener);
    return () => {
      this.diagnosticListeners.delete(listener);
    };
  }

  /**
   * Graceful close: end stdin, wait `stdinEndMs` (default 2 s) for the server to exit, SIGTERM the
   * process group, wait `sigtermMs` (default 2 s), SIGKILL it; then SIGKILL the group once more
   * so no grandchild survives. Idempotent; resolves when the process has exited.
   */
  close(): Promise<void> {
    if (this.closing) return this.closing;
    this.closeRequested = true;
    const { stdinEndMs = 2_000, sigtermMs = 2_000 } = this.options.closeTimeouts ?? {};
    this.closing = (async () => {
      if (!this.exit) {
        this.child.stdin.end();
        if (!(await this.waitForExit(stdinEndMs))) {
          this.signalGroup('SIGTERM');
          if (!(await this.waitForExit(sigtermMs))) {
            this.signalGroup('SIGKILL');
            await this.waitForExit(5_000);
          }
        }
      }
      this.signalGroup('SIGKILL');
      this.finish();
    })();
    return this.closing;
  }

  /** Immediate stop: SIGKILL to the whole process group. Synchronous; safe to call at any time. */
  destroy(): void {
    this.closeRequested = true;
    this.signalGroup('SIGKILL');
    if (this.exit) this.finish();
  }

  // ---- internals ----

  private diagnose(diagnostic: TransportDiagnostic): void {
    for (const listener of this.diagnosticListeners) {
      try {
        listener(diagnostic);
      } catch {
        // Advisory only.
      }
    }
  }

  private onExit(code: number | null, signal: NodeJS.Signals | null): void {
    this.exit = { code, signal };
    for (const wake of this.exitWaiters.splice(0)) wake();
    if (this.stdoutEnded) return this.finish();
    // Let the last responses in the pipe arrive, but do not wait for a grandchild holding stdout.
    if (this.graceTimer !== undefined) clearTimeout(this.graceTimer);
    this.graceTimer = setTimeout(() => this.finish(), STDOUT_GRACE_MS);
  }

  private onStdoutEnd(): void {
    if (this.stdoutEnded) return;
    this.stdoutEnded = true;
    this.decoder.end();
    if (this.exit) return this.finish();
    if (this.closeRequested || this.graceTimer !== undefined) return;
    // Stdout usually ends a moment before the exit is reported; wait for it so the error can
    // carry the exit code. A server that closed stdout but keeps running is stopped.
    this.graceTimer = setTimeout(() => {
      this.graceTimer = undefined;
      if (this.exit) return this.finish();
      this.finish();
      this.signalGroup('SIGTERM');
    }, STDOUT_GRACE_MS * 5);
  }

  /** Settles `closed` once, with an error unless the client asked for the close. */
  private finish(): void {
    if (this.finished) return;
    this.finished = true;
    if (this.graceTimer !== undefined) clearTimeout(this.graceTimer);
    this.graceTimer = undefined;
    this.stderr.flush();
    live.delete(this);
    if (!this.closeRequested && this.exit) {
      // A crashed server's own children would otherwise outlive it.
      this.signalGroup('SIGKILL');
    }
    if (!this.child.stdout.destroyed) this.child.stdout.destroy();
    if (!this.child.stderr.destroyed && this.exit) this.child.stderr.destroy();
    if (!this.child.stdin.destroyed && this.exit) this.child.stdin.destroy();
    this.resolveClosed(
      this.closeRequested ? {} : { error: new McpError('CONNECTION_CLOSED', this.describeEnd(), { server: this.name }) },
    );
  }

  private describeEnd(): string {
    let text: string;
    if (!this.exit) text = this.closeRequested ? 'the connection is closed' : 'the server closed its stdout';
    else if (this.exit.signal) text = `the server was killed by ${this.exit.signal}`;
    else text = `the server exited with code ${this.exit.code}`;
    const tail = this.stderr.tail().slice(-5);
    return tail.length > 0 && !this.closeRequested ? `${text}; last stderr: ${tail.join(' | ')}` : text;
  }

  private waitForExit(ms: number): Promise<boolean> {
    if (this.exit) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.exitWaiters = this.exitWaiters.filter((w) => w !== wake);
        resolve(false);
      }, ms);
      const wake = () => {
        clearTimeout(timer);
        resolve(true);
      };
      this.exitWaiters.push(wake);
    });
  }

  private signalGroup(signal: NodeJS.Signals): void {
    try {
      if (IS_WINDOWS) {
        // No process groups: this reaches the direct child only.
        if (!this.exit) this.child.kill(signal);
      } else {
        process.kill(-this.pid, signal);
      }
    } catch {
      // ESRCH: the group is already gone.
    }
  }
}

function spawnError(command: string, server: string, error: unknown): McpError {
  const code = (error as NodeJS.ErrnoException).code;
  const reason =
    code === 'ENOENT'
      ? 'command not found'
      : code === 'EACCES'
        ? 'permission denied (is it executable?)'
        : code === 'ENOTDIR'
          ? 'a path component is not a directory'
          : error instanceof Error
            ? error.message
            : String(error);
  return new McpError('SPAWN_FAILED', `could not start "${command}": ${reason}${code ? ` (${code})` : ''}`, { server, cause: error });
}
