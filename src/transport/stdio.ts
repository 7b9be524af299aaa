/**
 * The stdio transport: a server as a child process, one JSON-RPC message per line on its
 * stdin/stdout, stderr as free-form log lines (never protocol).
 *
 * The child leads its own process group (POSIX), so closing stops its whole tree — `npx` and the
 * node it starts, and whatever helpers the server spawned. Close is graceful and bounded:
 * stdin EOF, wait, SIGTERM, wait, SIGKILL. On Windows only the direct child is signalled.
 */
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { McpError } from '../protocol/errors.js';
import type { JsonRpcMessage } from '../protocol/jsonrpc.js';
import type { CloseInfo, Disposer, Transport, TransportDiagnostic } from '../protocol/transport.js';
import { commandDisplayName } from './command-name.js';
import { Inbox } from './inbox.js';
import { Listeners } from './listeners.js';
import { NdjsonDecoder } from './ndjson-framer.js';
import { killTreeOnExit, signalTree } from './process-tree.js';
import { StderrLines } from './stderr-lines.js';
import { spawnServer, type StdioServerSpec } from './stdio-spawn.js';

export type { StdioServerSpec } from './stdio-spawn.js';

/** Options of {@link StdioTransport.spawn}. */
export interface StdioTransportOptions {
  /** Display name in errors (default: {@link commandDisplayName} of the command line). */
  name?: string;
  /** Largest accepted message in bytes (default 16 MiB); larger lines are reported and skipped. */
  maxMessageBytes?: number;
  /** Lines of stderr kept for {@link StdioTransport.stderrTail} and error messages (default 50). */
  stderrLines?: number;
  /** Receives each stderr line as it arrives. A throw is ignored. */
  onStderr?: (line: string) => void;
  /** Overrides `spec.inheritEnv`. */
  inheritEnv?: boolean;
  /** Bounds of the graceful close. */
  closeTimeouts?: {
    /** How long the server may take to exit after stdin EOF before SIGTERM (default 2000 ms). */
    stdinEndMs?: number;
    /** How long it may take after SIGTERM before SIGKILL (default 2000 ms). */
    sigtermMs?: number;
  };
}

/** How long the pipes may stay open after the server exited (a grandchild holding them) before we stop waiting. */
const PIPE_GRACE_MS = 100;
/** How long a server that closed stdout gets to exit by itself before it is called broken and stopped. */
const STDOUT_EOF_GRACE_MS = 500;
/** How long to wait for the exit after SIGKILL, and for the pipes to close after the exit. */
const KILL_WAIT_MS = 5_000;

/** A child-process transport. Create with {@link StdioTransport.spawn}. */
export class StdioTransport implements Transport {
  /** The server's process id (on POSIX also its process group id). */
  readonly pid: number;
  readonly closed: Promise<CloseInfo>;
  private readonly name: string;
  private readonly options: StdioTransportOptions;
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly decoder: NdjsonDecoder;
  private readonly stderr: StderrLines;
  private readonly inbox = new Inbox<unknown>();
  private readonly diagnosticListeners = new Listeners<TransportDiagnostic>();
  private readonly untrack: () => void;
  private resolveClosed!: (info: CloseInfo) => void;
  private exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  private exitWaiters: Array<() => void> = [];
  private pipesClosed = false;
  private pipesWaiters: Array<() => void> = [];
  private stdoutEnded = false;
  private stderrEnded = false;
  /** `closed` has settled. */
  private finished = false;
  /** The client asked for the end (close or destroy): `closed` carries no crash error. */
  private closeRequested = false;
  private destroyError: McpError | undefined;
  private closing: Promise<void> | undefined;
  private graceTimer: ReturnType<typeof setTimeout> | undefined;
  private writeError: Error | undefined;
  private corked = false;

  // Handlers as fields, so that detach() removes exactly these and nothing of Node's own.
  private readonly onStdout = (chunk: Buffer): void => this.decoder.push(chunk);
  private readonly onStdoutEnd = (): void => {
    if (this.stdoutEnded) return;
    this.stdoutEnded = true;
    this.decoder.end();
    this.settleSoon();
  };
  private readonly onStderr = (chunk: Buffer): void => this.stderr.push(chunk);
  private readonly onStderrEnd = (): void => {
    if (this.stderrEnded) return;
    this.stderrEnded = true;
    this.settleSoon();
  };
  private readonly onStdinError = (error: Error): void => {
    // EPIPE once the server is gone: reported through send(), never as an uncaught error.
    this.writeError ??= error;
  };
  private readonly onExit = (code: number | null, signal: NodeJS.Signals | null): void => {
    this.exit = { code, signal };
    this.untrack();
    for (const wake of this.exitWaiters.splice(0)) wake();
    // An exit overrides the longer stdout-EOF grace: from now on only the pipes are awaited.
    this.clearGrace();
    this.settleSoon();
  };
  private readonly onChildClose = (): void => {
    this.pipesClosed = true;
    for (const wake of this.pipesWaiters.splice(0)) wake();
    this.finish();
    this.detach();
  };
  private readonly ignoreError = (): void => undefined;
  private readonly uncork = (): void => {
    this.corked = false;
    this.child.stdin.uncork();
  };

  private constructor(child: ChildProcessWithoutNullStreams, options: StdioTransportOptions, name: string) {
    this.child = child;
    this.options = options;
    this.pid = child.pid!;
    this.name = name;
    this.closed = new Promise((resolve) => (this.resolveClosed = resolve));
    this.stderr = new StderrLines(options.stderrLines ?? 50, options.onStderr);
    this.decoder = new NdjsonDecoder(
      { message: (value) => this.inbox.deliver(value), diagnostic: (d) => this.diagnose(d) },
      options.maxMessageBytes === undefined ? {} : { maxMessageBytes: options.maxMessageBytes },
    );
    child.stdout.on('data', this.onStdout);
    child.stdout.on('end', this.onStdoutEnd);
    child.stdout.on('close', this.onStdoutEnd);
    child.stdout.on('error', this.ignoreError);
    child.stderr.on('data', this.onStderr);
    child.stderr.on('end', this.onStderrEnd);
    child.stderr.on('close', this.onStderrEnd);
    child.stderr.on('error', this.ignoreError);
    child.stdin.on('error', this.onStdinError);
    child.on('exit', this.onExit);
    child.on('close', this.onChildClose);
    // After 'spawn', a ChildProcess emits 'error' only when signalling fails (Windows); never fatal.
    child.on('error', this.ignoreError);
    this.untrack = killTreeOnExit(child);
  }

  /**
   * Starts the server. Resolves once the process is running; rejects with `SPAWN_FAILED` naming
   * the command and the reason (command not found, permission denied, missing cwd, …).
   */
  static async spawn(spec: StdioServerSpec, options: StdioTransportOptions = {}): Promise<StdioTransport> {
    const name = options.name ?? commandDisplayName(spec.command, spec.args);
    const child = await spawnServer(spec, name, options.inheritEnv ?? spec.inheritEnv ?? false);
    return new StdioTransport(child, options, name);
  }

  /** How the server process ended, once it has (`code`, or the `signal` that killed it); undefined while it runs. */
  get exitStatus(): { code: number | null; signal: NodeJS.Signals | null } | undefined {
    return this.exit;
  }

  /** The last lines the server wrote to stderr (at most `stderrLines`), oldest first. */
  stderrTail(): string[] {
    return this.stderr.tail();
  }

  /**
   * Writes one message. Returns nothing when the pipe took it (the usual case: no promise per
   * message); a promise when the pipe is full, resolved on drain. Messages sent in one tick leave
   * in one write. Rejects with `CONNECTION_CLOSED` once the transport is closing or the server is
   * gone, and with `TRANSPORT` for a message JSON cannot serialise; never throws.
   */
  send(message: JsonRpcMessage): Promise<void> | undefined {
    if (this.finished || this.closeRequested || this.writeError !== undefined) return Promise.reject(this.sendError());
    let line: string;
    try {
      line = `${JSON.stringify(message)}\n`;
    } catch (error) {
      return Promise.reject(new McpError('TRANSPORT', `cannot send: the message is not serialisable as JSON`, { server: this.name, cause: error }));
    }
    const stdin = this.child.stdin;
    if (!this.corked) {
      // Everything sent in this tick leaves in one writev: 64 calls in flight cost one syscall, not 64.
      this.corked = true;
      stdin.cork();
      process.nextTick(this.uncork);
    }
    if (stdin.write(line)) return undefined;
    if (stdin.destroyed) return Promise.reject(this.sendError());
    // Back-pressure: resolve when the pipe drains, or fail if it goes away first.
    return new Promise((resolve, reject) => {
      const onDrain = () => {
        cleanup();
        resolve();
      };
      const onGone = () => {
        cleanup();
        reject(this.sendError());
      };
      const cleanup = () => {
        stdin.off('drain', onDrain);
        stdin.off('close', onGone);
      };
      stdin.once('drain', onDrain);
      stdin.once('close', onGone);
    });
  }

  /** Registers the receiver of inbound values; the first one also gets what arrived before it. */
  onMessage(listener: (value: unknown) => void): Disposer {
    return this.inbox.listen(listener);
  }

  /** Registers a receiver of framing diagnostics (junk and oversized stdout lines). */
  onDiagnostic(listener: (d: TransportDiagnostic) => void): Disposer {
    return this.diagnosticListeners.add(listener);
  }

  /**
   * Graceful close: end stdin, wait `stdinEndMs` (default 2 s) for the server to exit, SIGTERM the
   * process group, wait `sigtermMs` (default 2 s), SIGKILL it; once the server has exited, SIGKILL
   * the group once more so no grandchild survives. Resolves when the process has exited and its
   * pipes are closed, with every listener and timer of this transport removed. Idempotent: every
   * call returns the same promise. Never rejects.
   */
  close(): Promise<void> {
    if (this.closing) return this.closing;
    this.closeRequested = true;
    this.closing = this.shutDown(true);
    return this.closing;
  }

  /**
   * Immediate stop: SIGKILL to the whole process group. `closed` then resolves with `error` (or
   * with no error when none is given). Synchronous; safe to call at any time, also after close().
   */
  destroy(error?: McpError): void {
    if (!this.closeRequested) {
      this.closeRequested = true;
      this.destroyError = error;
    }
    signalTree(this.child, 'SIGKILL');
    // Nothing more is wanted from the server; the exit follows at once and settles `closed`.
    this.child.stdin.destroy();
    if (this.exit) this.finish();
  }

  // ---- internals ----

  /** The close sequence; `politely` starts it with stdin EOF and a wait, else with SIGTERM. */
  private async shutDown(politely: boolean): Promise<void> {
    const { stdinEndMs = 2_000, sigtermMs = 2_000 } = this.options.closeTimeouts ?? {};
    if (!this.exit) {
      this.child.stdin.end();
      if (!politely || !(await this.waitFor(this.exitWaiters, () => this.exit !== undefined, stdinEndMs))) {
        signalTree(this.child, 'SIGTERM');
        if (!(await this.waitFor(this.exitWaiters, () => this.exit !== undefined, sigtermMs))) {
          signalTree(this.child, 'SIGKILL');
          await this.waitFor(this.exitWaiters, () => this.exit !== undefined, KILL_WAIT_MS);
        }
      }
    }
    // The leader is gone; helpers in its group that ignored stdin EOF or SIGTERM may not be.
    signalTree(this.child, 'SIGKILL');
    this.finish();
    await this.waitFor(this.pipesWaiters, () => this.pipesClosed, KILL_WAIT_MS);
    this.detach();
    // The process handle and stdin are closed asynchronously by libuv, in the close phase of
    // this loop turn; two check phases later they are gone, so close() leaves no handle behind.
    await nextCheckPhase();
    await nextCheckPhase();
  }

  private diagnose(diagnostic: TransportDiagnostic): void {
    this.diagnosticListeners.emit(diagnostic);
  }

  /** Settles `closed` once the exit and both pipe ends are in, or after a short grace. */
  private settleSoon(): void {
    if (this.finished) return;
    if (this.exit && this.stdoutEnded && this.stderrEnded) return this.finish();
    if (this.graceTimer !== undefined) return;
    if (this.exit) {
      // Let the last output in the pipes arrive, but do not wait for a grandchild holding them.
      this.graceTimer = setTimeout(() => this.finish(), PIPE_GRACE_MS);
    } else if (this.stdoutEnded && !this.closeRequested) {
      // Stdout usually ends a moment before the exit is reported; wait for it so the error can
      // carry the exit code. A server that closed stdout but keeps running is broken: stop it.
      this.graceTimer = setTimeout(() => {
        this.graceTimer = undefined;
        this.finish();
        if (this.exit || this.closing) return;
        // No stdin EOF step: a server without stdout is not going to shut down politely.
        this.closeRequested = true;
        this.closing = this.shutDown(false);
      }, STDOUT_EOF_GRACE_MS);
    }
  }

  private clearGrace(): void {
    if (this.graceTimer !== undefined) clearTimeout(this.graceTimer);
    this.graceTimer = undefined;
  }

  /** Settles `closed` once: with a crash error unless the client asked for the end. */
  private finish(): void {
    if (this.finished) return;
    this.finished = true;
    this.clearGrace();
    this.stderr.flush();
    if (this.exit) {
      // A crashed server's own children would otherwise outlive it.
      if (!this.closeRequested) signalTree(this.child, 'SIGKILL');
      this.child.stdin.destroy();
      this.child.stderr.destroy();
    }
    this.child.stdout.destroy();
    let info: CloseInfo;
    if (!this.closeRequested) info = { error: new McpError('CONNECTION_CLOSED', this.describeEnd(), { server: this.name }) };
    else info = this.destroyError ? { error: this.destroyError } : {};
    this.resolveClosed(info);
  }

  /** Removes every listener this transport added; runs once the child and its pipes are closed. */
  private detach(): void {
    const { child } = this;
    child.stdout.off('data', this.onStdout);
    child.stdout.off('end', this.onStdoutEnd);
    child.stdout.off('close', this.onStdoutEnd);
    child.stderr.off('data', this.onStderr);
    child.stderr.off('end', this.onStderrEnd);
    child.stderr.off('close', this.onStderrEnd);
    child.off('exit', this.onExit);
    child.off('close', this.onChildClose);
    // The 'error' listeners stay: a late EPIPE on a closing pipe must not become an uncaught error.
  }

  private sendError(): McpError {
    return new McpError('CONNECTION_CLOSED', `cannot send: ${this.describeEnd()}`, { server: this.name, cause: this.writeError });
  }

  private describeEnd(): string {
    if (this.closeRequested) return this.finished ? 'the connection is closed' : 'the connection is closing';
    let text: string;
    if (this.exit?.signal) text = `the server was killed by ${this.exit.signal}`;
    else if (this.exit) text = `the server exited with code ${this.exit.code}`;
    else if (this.writeError) text = `writing to the server failed (${this.writeError.message})`;
    else text = 'the server closed its stdout';
    const tail = this.stderr.tail().slice(-5);
    return tail.length > 0 ? `${text}; last stderr: ${tail.join(' | ')}` : text;
  }

  /** Resolves true once `done()` holds (woken through `waiters`), false after `ms`. */
  private waitFor(waiters: Array<() => void>, done: () => boolean, ms: number): Promise<boolean> {
    if (done()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        const at = waiters.indexOf(wake);
        if (at !== -1) waiters.splice(at, 1);
        resolve(false);
      }, ms);
      const wake = () => {
        clearTimeout(timer);
        resolve(true);
      };
      waiters.push(wake);
    });
  }
}

function nextCheckPhase(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
