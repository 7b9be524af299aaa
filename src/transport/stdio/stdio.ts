/**
 * The stdio transport: a server as a child process, one JSON-RPC message per line on its
 * stdin/stdout, stderr as free-form log lines (never protocol).
 *
 * The child leads its own process group (POSIX), so closing stops its whole tree — `npx` and the
 * node it starts, and whatever helpers the server spawned, also once the server itself has
 * exited — and on Linux the descendants that left the group (a detached browser) too. Close is
 * graceful and bounded: stdin EOF, wait, SIGTERM, wait, SIGKILL. On macOS descendants outside the
 * group are not found; on Windows only the direct child is signalled (see `process-tree.ts`).
 */
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { McpError } from '../../protocol/errors.js';
import { checkOptions } from '../../protocol/option-keys.js';
import type { JsonRpcMessage } from '../../protocol/jsonrpc.js';
import { peerText, sampleValue } from '../../protocol/value-sample.js';
import type { CloseInfo, Disposer, Transport, TransportDiagnostic } from '../../protocol/transport.js';
import { commandDisplayName } from '../command-name.js';
import { Inbox } from '../inbox.js';
import { Latch } from './latch.js';
import { Listeners } from '../listeners.js';
import { NdjsonDecoder } from '../ndjson-framer.js';
import { killTreeOnExit, ProcessTree } from './process-tree.js';
import { StderrLines } from './stderr-lines.js';
import type { ChildFacts, ExitStatus, Grace, State } from './stdio-state.js';
import { StdinWriter } from './stdin-writer.js';
import { expandServerEnv } from './stdio-env.js';
import { spawnServer, type StdioServerSpec } from './stdio-spawn.js';
import { STDIO_SPEC_KEYS, STDIO_TRANSPORT_KEYS, type StdioTransportOptions } from '../transport-options.js';

export type { StdioServerSpec } from './stdio-spawn.js';
export type { StdioTransportOptions } from '../transport-options.js';

/** Default of `closeTimeouts.stdinEndMs`: how long the server may take to exit after stdin EOF. */
const DEFAULT_STDIN_END_MS = 2_000;
/** Default of `closeTimeouts.sigtermMs`: how long the tree may take to end after SIGTERM. */
const DEFAULT_SIGTERM_MS = 2_000;
/** How long the pipes may stay open after the server exited (a grandchild holding them) before we stop waiting. */
const PIPE_GRACE_MS = 100;
/** How long a server that closed stdout gets to exit by itself before it is called broken and stopped. */
const STDOUT_EOF_GRACE_MS = 500;
/** How long to wait for the exit after SIGKILL, and for the pipes to close after the exit. */
const KILL_WAIT_MS = 5_000;
/** How often a close looks whether the rest of the tree is gone (no process outside our children sends an event). */
const TREE_POLL_MS = 25;

/** A child-process transport. Create with {@link StdioTransport.spawn}. */
export class StdioTransport implements Transport {
  /** Tells this kind of transport apart from the others where the client holds one (see `transport/kinds.ts`). */
  readonly kind = 'stdio';
  /** The server's process id (on POSIX also its process group id). */
  readonly pid: number;
  readonly closed: Promise<CloseInfo>;
  private readonly name: string;
  private readonly options: StdioTransportOptions;
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly tree: ProcessTree;
  private readonly decoder: NdjsonDecoder;
  private readonly stderr: StderrLines;
  /** Runs inside the stdout 'data' handler: a listener's throw becomes a diagnostic, never an uncaught exception. */
  private readonly inbox = new Inbox<unknown>((error, value) =>
    this.diagnose({
      kind: 'listener-failed',
      message: `a message listener threw: ${error instanceof Error ? error.message : sampleValue(error)}`,
      sample: sampleValue(value),
    }),
  );
  private readonly diagnosticListeners = new Listeners<TransportDiagnostic>();
  private readonly writer: StdinWriter;
  private readonly untrack: () => void;
  private resolveClosed!: (info: CloseInfo) => void;
  private state: State = { name: 'open', grace: undefined };
  private readonly seen: ChildFacts = {
    exit: undefined,
    stdoutEnded: false,
    stderrEnded: false,
    writeError: undefined,
  };
  /** Opens at the server's exit. */
  private readonly exited = new Latch();
  /** Opens once the process and every pipe of it are closed (the child's 'close'). */
  private readonly pipesClosed = new Latch();

  // Handlers as fields, so that detach() removes exactly these and nothing of Node's own.
  private readonly onStdout = (chunk: Buffer): void => this.decoder.push(chunk);
  private readonly onStdoutEnd = (): void => {
    if (this.seen.stdoutEnded) return;
    this.seen.stdoutEnded = true;
    this.decoder.end();
    this.endProgressed();
  };
  private readonly onStderr = (chunk: Buffer): void => this.stderr.push(chunk);
  private readonly onStderrEnd = (): void => {
    if (this.seen.stderrEnded) return;
    this.seen.stderrEnded = true;
    this.endProgressed();
  };
  private readonly onStdinError = (error: Error): void => {
    // EPIPE once the server is gone: reported through send(), never as an uncaught error.
    this.seen.writeError ??= error;
  };
  private readonly onExit = (code: number | null, signal: NodeJS.Signals | null): void => {
    this.seen.exit = { code, signal };
    // Still tracked: the server's group (a helper, the node `npx` started) may outlive it.
    this.exited.open();
    // An exit ends the longer stdout-EOF grace: from now on only the pipes are awaited.
    if (this.grace?.awaiting === 'exit') this.setGrace(undefined);
    this.endProgressed();
  };
  private readonly onChildClose = (): void => {
    this.pipesClosed.open();
    this.settle();
    this.detach();
  };
  private readonly ignoreError = (): void => undefined;

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
    this.writer = new StdinWriter(child.stdin, () => this.sendError());
    child.on('exit', this.onExit);
    child.on('close', this.onChildClose);
    // After 'spawn', a ChildProcess emits 'error' only when signalling fails (Windows); never fatal.
    child.on('error', this.ignoreError);
    this.tree = new ProcessTree(child);
    this.untrack = killTreeOnExit(this.tree);
  }

  /**
   * Starts the server. `${VAR}` references in `spec.env` values are expanded from this process's
   * environment first (`expandServerEnv`: `${NAME}`, `${NAME:-default}`, `$${…}` for a literal).
   * Resolves once the process is running; rejects with `CONFIG_INVALID` naming the key and the
   * variable when one is unset and has no default (nothing is started), with `SPAWN_FAILED`
   * naming the command and the reason (command not found, permission denied, missing cwd, …),
   * and with `CANCELLED` when `options.signal` aborts first (the process, if one was started,
   * has exited).
   */
  static async spawn(spec: StdioServerSpec, options: StdioTransportOptions = {}): Promise<StdioTransport> {
    checkOptions(spec, STDIO_SPEC_KEYS);
    checkOptions(options, STDIO_TRANSPORT_KEYS);
    const name = options.name ?? commandDisplayName(spec.command, spec.args);
    const env = expandServerEnv(spec.env, name);
    const child = await spawnServer(
      env === undefined ? spec : { ...spec, env },
      name,
      options.inheritEnv ?? spec.inheritEnv ?? false,
      options.signal,
    );
    return new StdioTransport(child, options, name);
  }

  /** How the server process ended, once it has (`code`, or the `signal` that killed it); undefined while it runs. */
  get exitStatus(): ExitStatus | undefined {
    return this.seen.exit;
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
    if (this.state.name !== 'open' || this.seen.writeError !== undefined) return Promise.reject(this.sendError());
    let line: string;
    try {
      line = `${JSON.stringify(message)}\n`;
    } catch (error) {
      return Promise.reject(
        new McpError('TRANSPORT', `cannot send: the message is not serialisable as JSON`, {
          server: this.name,
          cause: error,
        }),
      );
    }
    // Everything sent in this tick leaves in one writev: 64 calls in flight cost one syscall, not 64.
    // Back-pressure: the promise resolves when the pipe drains, or rejects if it goes away first.
    return this.writer.write(line);
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
   * Graceful close: (Linux) note the server's descendants outside its process group, end stdin,
   * wait `stdinEndMs` (default 2 s) for the server to exit; then, while anything of its tree still
   * runs — the server, a member of its group (also once the server itself is gone: the helper an
   * `npx` wrapper leaves behind), a descendant found outside the group (a browser in a session
   * of its own) — SIGTERM all of it, wait up to `sigtermMs` (default 2 s) for all of it to end,
   * SIGKILL it; finally SIGKILL it once more so nothing that came back survives. What each
   * platform covers is listed in `process-tree.ts`: on macOS descendants outside the group are
   * not found, on Windows only the server itself is signalled. Resolves when the process has
   * exited and its pipes are closed, with every listener and timer of this transport removed.
   * Idempotent: every call returns the same promise. Never rejects.
   */
  close(): Promise<void> {
    const { state } = this;
    if (state.name === 'open') {
      const stopping: State = { name: 'stopping', error: undefined, sequence: undefined, grace: state.grace };
      this.state = stopping;
      return (stopping.sequence = this.shutDown(true));
    }
    if (state.name === 'closed') state.stopped = true;
    return (state.sequence ??= this.shutDown(true));
  }

  /**
   * Immediate stop: SIGKILL to the whole process group and (Linux, while the server runs) to its
   * descendants outside the group, found synchronously. `closed` then resolves with `error` (or
   * with no error when none is given). Synchronous; safe to call at any time, also after close().
   */
  destroy(error?: McpError): void {
    const { state } = this;
    if (state.name === 'open') this.state = { name: 'stopping', error, sequence: undefined, grace: state.grace };
    else if (state.name === 'closed') state.stopped = true;
    this.tree.surveySync();
    this.tree.signal('SIGKILL');
    this.untrack();
    // Nothing more is wanted from the server; the exit follows at once and settles `closed`.
    this.child.stdin.destroy();
    if (this.seen.exit) this.settle();
  }

  // ---- internals ----

  /** The close sequence; `politely` starts it with stdin EOF and a wait, else with SIGTERM. */
  private async shutDown(politely: boolean): Promise<void> {
    const { stdinEndMs = DEFAULT_STDIN_END_MS, sigtermMs = DEFAULT_SIGTERM_MS } = this.options.closeTimeouts ?? {};
    // Before stdin EOF: a server that exits at EOF takes its children's parent links with it.
    await this.tree.survey();
    if (!this.seen.exit) {
      this.child.stdin.end();
      if (politely) await this.exited.wait(stdinEndMs);
    }
    // Whether or not the server is gone, the rest of its tree gets the same two steps.
    if (this.tree.running) {
      this.tree.signal('SIGTERM');
      if (!(await this.waitForTree(sigtermMs))) {
        this.tree.signal('SIGKILL');
        await this.exited.wait(KILL_WAIT_MS);
      }
    }
    // Anything that ignored both, or was started meanwhile inside the group.
    this.tree.signal('SIGKILL');
    this.untrack();
    this.settle();
    await this.pipesClosed.wait(KILL_WAIT_MS);
    this.detach();
    // The process handle and stdin are closed asynchronously by libuv, in the close phase of
    // this loop turn; two check phases later they are gone, so close() leaves no handle behind.
    await nextCheckPhase();
    await nextCheckPhase();
  }

  private diagnose(diagnostic: TransportDiagnostic): void {
    this.diagnosticListeners.emit(diagnostic);
  }

  /** The grace of the current state (none once `closed` settled). */
  private get grace(): Grace | undefined {
    return this.state.name === 'closed' ? undefined : this.state.grace;
  }

  /** Replaces the grace of the current state (clearing the old timer); no-op once closed. */
  private setGrace(awaiting: Grace['awaiting'] | undefined): void {
    const { state } = this;
    if (state.name === 'closed') return;
    if (state.grace) clearTimeout(state.grace.timer);
    state.grace = undefined;
    if (awaiting === 'pipes') state.grace = { awaiting, timer: setTimeout(() => this.settle(), PIPE_GRACE_MS) };
    else if (awaiting === 'exit')
      state.grace = { awaiting, timer: setTimeout(() => this.exitGraceOver(), STDOUT_EOF_GRACE_MS) };
  }

  /** A part of the server's end arrived (stdout or stderr EOF, the exit): settle `closed` now, or soon. */
  private endProgressed(): void {
    if (this.state.name === 'closed') return;
    const { exit, stdoutEnded, stderrEnded } = this.seen;
    if (exit && stdoutEnded && stderrEnded) return this.settle();
    if (this.grace !== undefined) return;
    // Exited: let the last output in the pipes arrive, but do not wait for a grandchild holding them.
    if (exit) this.setGrace('pipes');
    // Stdout usually ends a moment before the exit is reported; wait for it so the error can
    // carry the exit code. Only while nobody asked for the end: a close sequence handles it.
    else if (stdoutEnded && this.state.name === 'open') this.setGrace('exit');
  }

  /** The server closed stdout and did not exit within STDOUT_EOF_GRACE_MS. */
  private exitGraceOver(): void {
    const broken = this.state.name === 'open' && this.seen.exit === undefined;
    this.settle();
    // A server that closed stdout but keeps running is broken: stop it, without the stdin EOF
    // step (it is not going to shut down politely).
    if (broken && this.state.name === 'closed') {
      this.state.stopped = true;
      this.state.sequence = this.shutDown(false);
    }
  }

  /** Settles `closed` once: with a crash error unless the client asked for the end. */
  private settle(): void {
    const { state } = this;
    if (state.name === 'closed') return;
    if (state.grace) clearTimeout(state.grace.timer);
    this.state =
      state.name === 'stopping'
        ? { name: 'closed', stopped: true, sequence: state.sequence }
        : { name: 'closed', stopped: false, sequence: undefined };
    this.stderr.flush();
    if (this.seen.exit) {
      // A crashed server's own children would otherwise outlive it.
      if (state.name === 'open') {
        this.tree.signal('SIGKILL');
        this.untrack();
      }
      this.child.stdin.destroy();
      this.child.stderr.destroy();
    }
    this.child.stdout.destroy();
    // After the flush: a crash error quotes the server's last stderr line even without its newline.
    if (state.name === 'open')
      this.resolveClosed({ error: new McpError('CONNECTION_CLOSED', this.describeEnd(), { server: this.name }) });
    else this.resolveClosed(state.error ? { error: state.error } : {});
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
    this.writer.dispose();
    // The 'error' listeners stay: a late EPIPE on a closing pipe must not become an uncaught error.
  }

  private sendError(): McpError {
    return new McpError('CONNECTION_CLOSED', `cannot send: ${this.describeEnd()}`, {
      server: this.name,
      cause: this.seen.writeError,
    });
  }

  private describeEnd(): string {
    if (this.state.name === 'stopping') return 'the connection is closing';
    if (this.state.name === 'closed' && this.state.stopped) return 'the connection is closed';
    const { exit, writeError } = this.seen;
    let text: string;
    if (exit?.signal) text = `the server was killed by ${exit.signal}`;
    else if (exit) text = `the server exited with code ${exit.code}`;
    else if (writeError) text = `writing to the server failed (${writeError.message})`;
    else text = 'the server closed its stdout';
    // At most 5 lines of at most 500 characters each: the server decides what they hold.
    const tail = this.stderr
      .tail()
      .slice(-5)
      .map((line) => peerText(line));
    return tail.length > 0 ? `${text}; last stderr: ${tail.join(' | ')}` : text;
  }

  /**
   * Resolves true once nothing of the server's tree runs, false after `ms`. The server's exit
   * wakes it; the rest of the tree sends no event, so it is looked at every TREE_POLL_MS.
   */
  private waitForTree(ms: number): Promise<boolean> {
    if (!this.tree.running) return Promise.resolve(true);
    const deadline = performance.now() + ms;
    return new Promise((resolve) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      let done = false;
      const check = () => {
        if (done) return;
        clearTimeout(timer);
        const left = deadline - performance.now();
        if (!this.tree.running || left <= 0) {
          done = true;
          resolve(!this.tree.running);
          return;
        }
        timer = setTimeout(check, Math.min(TREE_POLL_MS, left));
      };
      this.exited.onOpen(check);
      timer = setTimeout(check, Math.min(TREE_POLL_MS, ms));
    });
  }
}

function nextCheckPhase(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
