/**
 * A stdio server process driven with raw NDJSON over its pipes, no client involved: the test
 * writes lines and waits for what the server wrote (event-driven, every wait bounded). For
 * fixture servers and kit servers whose wire behaviour a test checks message by message.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { onTestFinished } from 'vitest';
import { hasSchema, validateMessage } from '../kit/spec-schemas.js';

/** A wire message as parsed: free-form JSON, read loosely by the assertions. */
export type Msg = Record<string, any>;

const WAIT_MS = 10_000;

/** A server process on raw pipes: what it wrote (stdout lines, stderr lines) and how it ended. */
export class RawStdioServer {
  /** Each stdout line, parsed (a batch stays an array; blank lines are skipped). */
  readonly lines: unknown[] = [];
  /** Every message from stdout, batch elements one by one. */
  readonly messages: Msg[] = [];
  readonly stderr: string[] = [];
  /** Method of every request sent with {@link req}, by id (to validate the answers). */
  readonly requestMethods = new Map<string | number, string>();
  exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  /**
   * Resolves with how the process ended, once it has; never rejects. Unbounded by itself: await
   * it where the test's own timeout is the bound, or use the bounded {@link exited}.
   */
  readonly ended: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  readonly child: ChildProcessWithoutNullStreams;
  private readonly wakers = new Set<() => void>();
  private nextId = 1;

  /** Spawns `command args` with piped stdio. Prefer {@link startRawStdioServer} inside a test. */
  constructor(command: string, args: readonly string[]) {
    this.child = spawn(command, args, { stdio: 'pipe' });
    onLines(
      this.child.stdout,
      (line) => {
        if (line.trim() === '') return;
        const value = JSON.parse(line) as unknown;
        this.lines.push(value);
        this.messages.push(...((Array.isArray(value) ? value : [value]) as Msg[]));
      },
      () => this.wake(),
    );
    onLines(
      this.child.stderr,
      (line) => this.stderr.push(line),
      () => this.wake(),
    );
    // 'close', not 'exit': by then everything the process wrote has been read.
    this.ended = new Promise((resolve) =>
      this.child.on('close', (code, signal) => {
        this.exit = { code, signal };
        this.wake();
        resolve(this.exit);
      }),
    );
  }

  /** Writes one line: a message, a batch, or raw text. */
  write(value: unknown): void {
    this.child.stdin.write(`${typeof value === 'string' ? value : JSON.stringify(value)}\n`);
  }

  /** Builds a request with the next id (and remembers its method); does not send it. */
  req(method: string, params?: Msg): Msg {
    const id = this.nextId++;
    this.requestMethods.set(id, method);
    return { jsonrpc: '2.0', id, method, ...(params ? { params } : {}) };
  }

  /** Sends a request with the next id; returns the id. */
  send(method: string, params?: Msg): number {
    const message = this.req(method, params);
    this.write(message);
    return message.id as number;
  }

  /** Sends a request and resolves with its answer (result or error). */
  request(method: string, params?: Msg): Promise<Msg> {
    return this.answer(this.send(method, params));
  }

  /** Resolves with the answer (a message without a method) carrying `id`. */
  answer(id: string | number | null): Promise<Msg> {
    return this.waitFor(() => this.messages.find((m) => m.id === id && m.method === undefined));
  }

  /** The first message from the server after the first `skip` that satisfies `match`. */
  next(match: (m: Msg) => boolean, skip = 0): Promise<Msg> {
    return this.waitFor(() => this.messages.slice(skip).find(match));
  }

  /**
   * Resolves with the first value `read` returns that is not undefined, checked whenever the
   * process writes or exits; rejects after `ms` with the tail of what it wrote.
   */
  waitFor<T>(read: () => T | undefined, ms = WAIT_MS): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const check = () => {
        const value = read();
        if (value === undefined) return;
        done();
        resolve(value);
      };
      const timer = setTimeout(() => {
        done();
        reject(
          new Error(
            `nothing matched within ${ms} ms; stdout: ${JSON.stringify(this.lines).slice(-600)}; stderr: ${this.stderr.join(' | ')}`,
          ),
        );
      }, ms);
      const done = () => {
        clearTimeout(timer);
        this.wakers.delete(check);
      };
      this.wakers.add(check);
      check();
    });
  }

  /** Resolves with how the process ended, its output all read (bounded like {@link waitFor}). */
  exited(): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    return this.waitFor(() => this.exit);
  }

  /** Ends stdin and resolves with the exit code once the process exited and its output is read (bounded). */
  async endInput(): Promise<number | null> {
    this.child.stdin.end();
    return (await this.exited()).code;
  }

  /** Ends stdin and waits for the exit; kills the process if it lingers. Idempotent. */
  async close(): Promise<void> {
    if (this.exit) return;
    this.child.stdin.end();
    try {
      await this.exited();
    } catch {
      this.child.kill('SIGKILL');
      await this.waitFor(() => this.exit, 1_000);
    }
  }

  /** Problems with what the server sent, under the official schema of `revision` (none without a schema). */
  invalid(revision: string): string[] {
    if (!hasSchema(revision)) return [];
    return this.messages.flatMap((m) => {
      const outcome = validateMessage(revision, m, 'server', { requestMethods: this.requestMethods });
      return outcome.ok ? [] : [`${JSON.stringify(m).slice(0, 200)}: ${outcome.errors}`];
    });
  }

  private wake(): void {
    for (const check of [...this.wakers]) check();
  }
}

/** Spawns a {@link RawStdioServer} for one test: closed when the test finishes. Call it inside a test. */
export function startRawStdioServer(command: string, args: readonly string[]): RawStdioServer {
  const server = new RawStdioServer(command, args);
  onTestFinished(() => server.close());
  return server;
}

/** Calls `onLine` for each complete line of `stream`, then `after` once per chunk. */
function onLines(stream: NodeJS.ReadableStream, onLine: (line: string) => void, after: () => void): void {
  let buffered = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    buffered += chunk;
    let newline: number;
    while ((newline = buffered.indexOf('\n')) !== -1) {
      onLine(buffered.slice(0, newline));
      buffered = buffered.slice(newline + 1);
    }
    after();
  });
}
