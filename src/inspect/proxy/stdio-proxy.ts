/**
 * The stdio recording proxy behind `mcpwire proxy -- <server command>`: a host runs the proxy in
 * place of the server, and must not notice. The proxy spawns the server and copies bytes both
 * ways unchanged — the exact chunks, never re-serialised — passes stderr through, forwards the
 * signals a host uses to stop a server, and ends the way the server ended. Recording is a side
 * tap on copies of the streams: lines are parsed after each chunk has been written on, and a
 * failing recorder never stops the forwarding.
 *
 * The server's whole process tree goes with it, as with the stdio transport (`process-tree.ts`:
 * its process group, and on Linux the descendants that left the group): the proxy notes the tree
 * when the end is asked for (the host's EOF, a signal, an abort) and stops what is left of it
 * once the server has exited, and kills all of it if the proxy itself exits first.
 */
import type { Readable, Writable } from 'node:stream';
import { commandDisplayName } from '../../transport/command-name.js';
import { killTreeOnExit, ProcessTree } from '../../transport/stdio/process-tree.js';
import { spawnServer } from '../../transport/stdio/stdio-spawn.js';
import { StderrLines } from '../../transport/stdio/stderr-lines.js';
import { TraceBuilder } from '../../observe/trace-builder.js';
import type { TraceDirection, TraceRecord } from '../../observe/trace-record.js';
import { LineTap } from './line-tap.js';
import { guardedRecorder } from './record-sink.js';
import { errorMessage } from '../../protocol/errors.js';

/** Options of {@link runStdioProxy}. */
export interface StdioProxyOptions {
  /** The server's executable (a path, or a name looked up in `PATH`); no shell is involved. */
  command: string;
  args?: string[];
  /** Added to this process's environment, which the server inherits whole (as it would from the host). */
  env?: Record<string, string>;
  /** The server's working directory (default: this process's). */
  cwd?: string;
  /** What the host writes (default `process.stdin`). Paused, not destroyed, when the proxy finishes. */
  input?: Readable;
  /** Where the server's stdout goes (default `process.stdout`). Never ended by the proxy. */
  output?: Writable;
  /**
   * Where the server's stderr goes, and the one report of a failing `onRecord` (default `process.stderr`). Never ended.
   */
  errorOutput?: Writable;
  /** The display name in records (default: {@link commandDisplayName} of the command line). */
  server?: string;
  /** Receives every record, synchronously, in wire order. A throw is caught and reported once. */
  onRecord: (record: TraceRecord) => void;
  /** Values replaced by `***` in records; the values of `env` are added to them. */
  secrets?: Iterable<string>;
  /**
   * Before the server started: rejects with the signal's reason and starts nothing. Afterwards:
   * stops the server (SIGTERM to its tree, SIGKILL 3 s later) and resolves with how it ended.
   */
  signal?: AbortSignal;
  /**
   * Signals of this process forwarded to the server's tree while it runs (default SIGINT, SIGTERM, SIGHUP; `[]` for
   * none).
   */
  forwardSignals?: NodeJS.Signals[];
}

/** How the server ended: exactly one of the two is non-null. */
export interface StdioProxyResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
}

/**
 * How long the server's pipes may stay open after it exited (a grandchild holding them) before the proxy stops waiting.
 */
const PIPE_GRACE_MS = 1_000;
/** After an abort: how long the server gets between SIGTERM and SIGKILL. */
const ABORT_KILL_MS = 3_000;
/**
 * After the server exited on request: how long the rest of its tree gets between SIGTERM and SIGKILL (as the
 * transport's `sigtermMs`).
 */
const TREE_STOP_MS = 2_000;
/**
 * How often the rest of the tree is looked at while it is given time to end (no process outside our child sends an
 * event).
 */
const TREE_POLL_MS = 25;
const DEFAULT_SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/**
 * Runs `command` behind a recording tap until it exits, and resolves with its exit code or the
 * signal that ended it; the caller (the CLI) then ends the same way: `process.exit(exitCode)`,
 * or the signal re-raised on itself — see {@link exitLikeServer}.
 *
 * Forwarding contract:
 * - host → server and server → host: each chunk is written as it arrived, with backpressure
 *   (the source is paused while its destination is full). Nothing is parsed before it is sent.
 * - the host's EOF on `input` ends the server's stdin; the server decides when to exit.
 * - stderr is copied to `errorOutput` unchanged; its lines are also recorded as `stderr` events.
 * - SIGINT, SIGTERM and SIGHUP received by this process while the server runs go to the server's
 *   tree (its process group, and on Linux its descendants outside the group) instead of ending
 *   the proxy; the handlers are removed before this resolves.
 * - the server's tree: when the end is asked for (the host's EOF on `input`, a forwarded signal,
 *   `signal` aborting) the proxy notes the server's descendants (Linux: `/proc`, while the server
 *   still runs); once the server has exited, whatever is left of its tree gets SIGTERM and
 *   2 s to end, then SIGKILL. A server that exited unasked (a crash) has the rest of its
 *   tree SIGKILLed at once, as the stdio transport does. Should this process exit first, its
 *   'exit' hook kills the whole tree. What each platform covers is listed in `process-tree.ts`
 *   (not covered: descendants outside the group of a server that exited unasked).
 * - resolves once the server exited, its tree is stopped, and its stdout and stderr ended (every
 *   byte of them has been handed to `output` / `errorOutput` by then), or 1 s after the exit
 *   when a grandchild holds the pipes open.
 *
 * Records: a `spawn` event (pid, command, args), one record per non-blank line each way —
 * `builder.frame` for JSON (the byte count is the line's, without its `\n`) and `invalid` for
 * anything else — `stderr` and `signal` events, and an `exit` event (code, signal).
 *
 * Rejects with `SPAWN_FAILED` naming the command when it cannot be started (ENOENT, EACCES, a
 * bad `cwd`); a `spawn-failed` event is recorded first.
 */
export async function runStdioProxy(options: StdioProxyOptions): Promise<StdioProxyResult> {
  const { command, args = [], env, cwd } = options;
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const errorOutput = options.errorOutput ?? process.stderr;
  const server = options.server ?? commandDisplayName(command, args);
  const builder = new TraceBuilder({ server, secrets: [...(options.secrets ?? []), ...Object.values(env ?? {})] });
  const record = guardedRecorder(options.onRecord, errorOutput, 'mcpwire proxy');
  options.signal?.throwIfAborted();

  let child;
  try {
    child = await spawnServer(
      { command, args, ...(env ? { env } : {}), ...(cwd !== undefined ? { cwd } : {}) },
      server,
      true,
    );
  } catch (error) {
    record(builder.event('spawn-failed', { command, args, error: errorMessage(error) }));
    throw error;
  }
  record(builder.event('spawn', { pid: child.pid, command, args }));
  const tree = new ProcessTree(child);
  const untrack = killTreeOnExit(tree);
  /** The end was asked for (host EOF, a signal, an abort): the server's exit is not a crash. */
  let endAsked = false;
  /** Notes the tree while the server runs (its outsiders' links to it die with it), once the end is asked for. */
  const askEnd = () => {
    endAsked = true;
    tree.surveySync();
  };

  // ---- the side taps: copies of the chunks become records; nothing here may throw ----
  const frameSink = (dir: TraceDirection) => ({
    line(bytes: Buffer) {
      const text = bytes.toString('utf8', 0, bytes[bytes.length - 1] === 0x0d ? bytes.length - 1 : bytes.length);
      if (text.trim() === '') return;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        record(builder.invalid(dir, text));
        return;
      }
      record(builder.frame(dir, value, bytes.length));
    },
    oversize(bytes: number) {
      record(builder.event('oversize', { bytes, note: 'a line too large to record; it was forwarded unchanged' }, dir));
    },
  });
  const outTap = new LineTap(frameSink('out'));
  const inTap = new LineTap(frameSink('in'));
  const errTap = new StderrLines(0, (line) => {
    if (line !== '') record(builder.event('stderr', { line }));
  });
  const tap = (feed: () => void) => {
    try {
      feed();
    } catch {
      // The builder promises not to throw and the recorder is guarded; this is the last fence.
    }
  };

  // ---- forwarding: write first, then tap ----
  const stdin = child.stdin;
  const onInput = (chunk: Buffer | string) => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    if (stdin.writable && !stdin.write(bytes)) input.pause();
    tap(() => outTap.push(bytes));
  };
  const onInputEnd = () => {
    tap(() => outTap.end());
    // The host went away: what the server started must be known before the server goes.
    askEnd();
    if (stdin.writable) stdin.end();
  };
  const onStdinDrain = () => input.resume();
  // EPIPE once the server closed its stdin or exited; later input is dropped, as the host's writes would be.
  const ignore = () => {};
  stdin.on('error', ignore);
  stdin.on('drain', onStdinDrain);
  input.on('data', onInput);
  input.once('end', onInputEnd);
  input.once('error', onInputEnd);

  const pump = (source: Readable, sink: Writable, feed: (chunk: Buffer) => void) => {
    let waiting = false;
    const resume = () => {
      waiting = false;
      source.resume();
    };
    source.on('data', (chunk: Buffer) => {
      if (sink.writable && !sink.write(chunk) && !waiting) {
        waiting = true;
        source.pause();
        sink.once('drain', resume);
      }
      tap(() => feed(chunk));
    });
    return () => sink.off('drain', resume);
  };
  // A host that went away makes writes fail (EPIPE); the server's stdin EOF follows from its side.
  output.on('error', ignore);
  errorOutput.on('error', ignore);
  const unpumpOut = pump(child.stdout, output, (chunk) => inTap.push(chunk));
  const unpumpErr = pump(child.stderr, errorOutput, (chunk) => errTap.push(chunk));

  // ---- signals and abort ----
  const handlers = (options.forwardSignals ?? DEFAULT_SIGNALS).map((name) => {
    const handler = () => {
      record(builder.event('signal', { signal: name }, 'out'));
      askEnd();
      tree.signal(name);
    };
    process.on(name, handler);
    return [name, handler] as const;
  });
  let killTimer: ReturnType<typeof setTimeout> | undefined;
  const onAbort = () => {
    record(builder.event('abort', { reason: String(options.signal?.reason) }, 'out'));
    askEnd();
    tree.signal('SIGTERM');
    killTimer ??= setTimeout(() => tree.signal('SIGKILL'), ABORT_KILL_MS);
  };
  options.signal?.addEventListener('abort', onAbort, { once: true });
  if (options.signal?.aborted) onAbort();

  /** Resolves once nothing of the tree runs, or after `ms` (false). Polls: the rest of a tree sends no event. */
  let pollTimer: ReturnType<typeof setTimeout> | undefined;
  const treeGone = (ms: number) =>
    new Promise<boolean>((resolve) => {
      const until = performance.now() + ms;
      const look = () => {
        const left = until - performance.now();
        if (!tree.running || left <= 0) resolve(!tree.running);
        else pollTimer = setTimeout(look, Math.min(TREE_POLL_MS, left));
      };
      look();
    });
  /** After the server's exit: the rest of its tree, politely when the end was asked for. */
  const stopRest = async () => {
    if (endAsked && tree.running) {
      tree.signal('SIGTERM');
      await treeGone(TREE_STOP_MS);
    }
    // A crash, a member that ignored SIGTERM, or one started after the survey inside the group.
    tree.signal('SIGKILL');
  };

  return new Promise<StdioProxyResult>((resolve) => {
    let graceTimer: ReturnType<typeof setTimeout> | undefined;
    let done = false;
    let pipesDone = false;
    let treeDone = false;
    const finish = () => {
      if (done || !pipesDone || !treeDone) return;
      done = true;
      clearTimeout(graceTimer);
      clearTimeout(pollTimer);
      clearTimeout(killTimer);
      for (const [name, handler] of handlers) process.off(name, handler);
      options.signal?.removeEventListener('abort', onAbort);
      untrack();
      input.off('data', onInput);
      input.off('end', onInputEnd);
      input.off('error', onInputEnd);
      input.pause();
      stdin.off('drain', onStdinDrain);
      unpumpOut();
      unpumpErr();
      output.off('error', ignore);
      errorOutput.off('error', ignore);
      // Pipes a grandchild still holds: stop reading them, so nothing keeps this process alive.
      if (!child.stdout.readableEnded) child.stdout.destroy();
      if (!child.stderr.readableEnded) child.stderr.destroy();
      tap(() => inTap.end());
      tap(() => errTap.flush());
      const result: StdioProxyResult = { exitCode: child.exitCode, signal: child.signalCode };
      record(builder.event('exit', { code: result.exitCode, signal: result.signal }));
      resolve(result);
    };
    const pipesClosed = () => {
      pipesDone = true;
      finish();
    };
    child.once('exit', () => {
      graceTimer = setTimeout(pipesClosed, PIPE_GRACE_MS);
      void stopRest().then(() => {
        treeDone = true;
        finish();
      });
    });
    child.once('close', pipesClosed);
  });
}
