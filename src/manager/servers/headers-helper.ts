/**
 * A server's `headersHelper`: a command line, run through the shell, whose stdout is the headers
 * that authorize the server's HTTP requests (a JSON object, or `Name: value` lines). It runs
 * before the first request and again when the server answers 401/403; between those its last
 * headers are reused. What it prints is a secret: no error, log line or status ever shows it.
 */
import { McpError } from '../../protocol/errors.js';
import type { AuthorizeHook } from '../../transport/http/authorize-hook.js';
import { HeadersHelperError } from './headers-helper-error.js';
import type { ManagedServer } from './managed-server.js';

/** How long a helper may run before it is killed (a token command may ask a network service). */
export const HEADERS_HELPER_TIMEOUT_MS = 30_000;

/** The most stdout a helper may print; more is an error (headers are small). */
const MAX_OUTPUT_BYTES = 64 * 1024;

/** An HTTP header name (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Options of {@link runHeadersHelper} and {@link headersHelperHook}. */
export interface HeadersHelperOptions {
  /** Time bound of one run (default {@link HEADERS_HELPER_TIMEOUT_MS}). */
  timeoutMs?: number;
  /** Aborting kills the helper; the run rejects with `CANCELLED`. */
  signal?: AbortSignal | undefined;
  /** Told the header values of each successful run, so the caller can keep them out of everything it shows. */
  onHeaders?: (headers: Record<string, string>) => void;
}

/**
 * Runs `spec.headersHelper` once and resolves with its headers. The command runs through the
 * shell with this process's environment plus the server's `env`, `MCPWIRE_SERVER_NAME` and
 * `MCPWIRE_SERVER_URL`, in the server's `cwd` when it has one; its stdin is empty and its stderr
 * is read and dropped. Rejects with {@link HeadersHelperError} (naming the server and the exit
 * status or timeout, never the output) when it fails, runs too long (its process group is
 * killed), prints too much or prints no valid headers; with `CANCELLED` on abort. Nothing is
 * left running once it settles.
 */
export function runHeadersHelper(
  spec: ManagedServer,
  options: HeadersHelperOptions = {},
): Promise<Record<string, string>> {
  const command = spec.headersHelper;
  const server = spec.name;
  if (!command) return Promise.reject(new McpError('CONFIG_INVALID', 'has no "headersHelper"', { server }));
  const timeoutMs = options.timeoutMs ?? HEADERS_HELPER_TIMEOUT_MS;
  const signal = options.signal;
  if (signal?.aborted)
    return Promise.reject(
      new McpError('CANCELLED', 'the headersHelper run was cancelled', { server, cause: signal.reason }),
    );
  const posix = process.platform !== 'win32';
  return new Promise((resolve, reject) => {
    const child = process.getBuiltinModule('node:child_process').spawn(command, {
      shell: true,
      cwd: spec.cwd,
      env: { ...process.env, ...spec.env, MCPWIRE_SERVER_NAME: server, MCPWIRE_SERVER_URL: spec.url ?? '' },
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group, so a timeout stops whatever the shell started too.
      detached: posix,
      windowsHide: true,
    });
    const chunks: Buffer[] = [];
    let size = 0;
    let failure: McpError | undefined;
    const stop = (error: McpError): void => {
      failure ??= error;
      kill(child.pid, posix);
    };
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_OUTPUT_BYTES)
        stop(new HeadersHelperError(`the headersHelper printed more than ${MAX_OUTPUT_BYTES} bytes`, { server }));
      else chunks.push(chunk);
    });
    child.stderr.resume();
    const timer = setTimeout(
      () =>
        stop(
          new HeadersHelperError(`the headersHelper did not finish within ${timeoutMs} ms (killed)`, {
            server,
            timeoutMs,
          }),
        ),
      timeoutMs,
    );
    const onAbort = (): void =>
      stop(new McpError('CANCELLED', 'the headersHelper run was cancelled', { server, cause: signal?.reason }));
    signal?.addEventListener('abort', onAbort, { once: true });
    const settle = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    child.on('error', (error) => {
      settle();
      kill(child.pid, posix);
      reject(
        failure ??
          new HeadersHelperError(
            `the headersHelper could not be started (${(error as NodeJS.ErrnoException).code ?? 'spawn error'})`,
            { server },
          ),
      );
    });
    // 'close': the process exited and its output pipes ended, so everything it printed is here.
    child.on('close', (exitCode, exitSignal) => {
      settle();
      if (failure) return reject(failure);
      if (exitCode !== 0) {
        const how = exitCode === null ? `was killed by ${exitSignal}` : `exited with status ${exitCode}`;
        return reject(new HeadersHelperError(`the headersHelper ${how}`, { server, exitCode, signal: exitSignal }));
      }
      try {
        const headers = parseHelperOutput(Buffer.concat(chunks).toString('utf8'));
        options.onHeaders?.(headers);
        resolve(headers);
      } catch (error) {
        reject(
          new HeadersHelperError(`the headersHelper exited with status 0 but ${(error as Error).message}`, {
            server,
            exitCode: 0,
          }),
        );
      }
    });
  });
}

/**
 * The headers in a helper's stdout: a JSON object of string values, or one `Name: value` per
 * line (blank lines skipped). Throws an `Error` whose message says what is wrong by position or
 * header name, never quoting a value.
 */
export function parseHelperOutput(text: string): Record<string, string> {
  const trimmed = text.trim();
  if (trimmed === '') throw new Error('printed nothing (expected a JSON object or "Name: value" lines)');
  const headers: Record<string, string> = {};
  if (trimmed.startsWith('{')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch {
      throw new Error('printed a JSON object that does not parse');
    }
    for (const [name, value] of Object.entries(parsed as Record<string, unknown>)) {
      if (!HEADER_NAME.test(name))
        throw new Error(`printed an invalid header name (key ${Object.keys(headers).length + 1})`);
      if (typeof value !== 'string' || /[\r\n\0]/.test(value))
        throw new Error(`printed a value for "${name}" that is not a one-line string`);
      headers[name] = value;
    }
  } else {
    const lines = trimmed.split(/\r?\n/);
    lines.forEach((line, index) => {
      if (line.trim() === '') return;
      const colon = line.indexOf(':');
      const name = colon > 0 ? line.slice(0, colon).trim() : '';
      if (!HEADER_NAME.test(name)) throw new Error(`printed line ${index + 1} that is not "Name: value"`);
      headers[name] = line.slice(colon + 1).trim();
    });
  }
  if (Object.keys(headers).length === 0) throw new Error('printed no headers');
  return headers;
}

/**
 * The HTTP transports' authorize hook for a server with a `headersHelper`: the helper runs on the
 * first request (concurrent first requests share the run) and its headers are reused; after a
 * 401/403 it runs again (refusals that arrive together share one run) and the request is sent
 * once more with what it printed. A failed run is not kept: the next request runs it again. A
 * run is killed when every request waiting for it has been abandoned (their signals: a closed
 * client, a connect timeout, a caller's abort), so nothing outlives them; a waiter without a
 * signal keeps it to its own time bound. The hook's rejection ({@link HeadersHelperError},
 * `CANCELLED`) becomes the request's error.
 */
export function headersHelperHook(
  spec: ManagedServer,
  options: Omit<HeadersHelperOptions, 'signal'> = {},
): AuthorizeHook {
  /** The run whose headers are in use, or the one under way. */
  let current: SharedRun | undefined;
  const start = (): SharedRun => {
    const controller = new AbortController();
    const run: SharedRun = {
      controller,
      done: false,
      abandoned: false,
      waiters: 0,
      held: false,
      result: runHeadersHelper(spec, { ...options, signal: controller.signal }),
    };
    run.result.then(
      () => {
        run.done = true;
      },
      () => {
        run.done = true;
        if (current === run) current = undefined;
      },
    );
    current = run;
    return run;
  };
  return (request) => {
    // A refusal while a run is under way waits for it (the request was sent with the old headers).
    const live = current && !current.abandoned ? current : undefined;
    const run = request.rejected === undefined ? (live ?? start()) : live && !live.done ? live : start();
    return waitFor(run, request.signal, spec.name);
  };
}

/** One run of a helper and who waits for it. */
interface SharedRun {
  result: Promise<Record<string, string>>;
  controller: AbortController;
  /** Settled, either way. */
  done: boolean;
  /** Killed because every waiter gave up: not joined any more (it is about to reject). */
  abandoned: boolean;
  /** Requests with a signal waiting for it. */
  waiters: number;
  /** A request without a signal waits: the run goes on to its end. */
  held: boolean;
}

/** `run`'s headers for one request; the run is killed when the last waiter is abandoned. */
function waitFor(run: SharedRun, signal: AbortSignal | undefined, server: string): Promise<Record<string, string>> {
  if (run.done) return run.result;
  if (!signal) {
    run.held = true;
    return run.result;
  }
  const cancelled = (): McpError =>
    new McpError('CANCELLED', 'the request waiting for the headersHelper was abandoned', {
      server,
      cause: signal.reason,
    });
  if (signal.aborted) return Promise.reject(cancelled());
  run.waiters++;
  return new Promise((resolve, reject) => {
    let left = false;
    const leave = (): void => {
      if (left) return;
      left = true;
      signal.removeEventListener('abort', onAbort);
      run.waiters--;
    };
    const onAbort = (): void => {
      leave();
      if (run.waiters === 0 && !run.held && !run.done) {
        run.abandoned = true;
        run.controller.abort(signal.reason);
      }
      reject(cancelled());
    };
    signal.addEventListener('abort', onAbort, { once: true });
    run.result.then(
      (headers) => {
        leave();
        resolve(headers);
      },
      (error: unknown) => {
        leave();
        reject(error);
      },
    );
  });
}

/** Kills the helper's process group (POSIX) or the process; quiet when it is already gone. */
function kill(pid: number | undefined, group: boolean): void {
  if (pid === undefined) return;
  try {
    process.kill(group ? -pid : pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}
