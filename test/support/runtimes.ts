/**
 * One harness for every runtime the server kit is served from: a fetch-handler app under `node`,
 * `deno` or `bun` (through `test/runtimes/serve.mjs`, each runtime's own server on 127.0.0.1,
 * port 0), or a Worker under `workerd` (bundled with esbuild as a Workers build would be, on a
 * port workerd picks itself and reports on its control pipe). Each start resolves once the server
 * answers; `stop()` ends it and everything it started and resolves with how it exited. Start a
 * runtime once per test file (`beforeAll`) and stop it in `afterAll`: a failing test leaves no
 * process behind either way. A script that is not a server (a client run, `runScript`) runs to its
 * own end under node, deno or bun, and what of its group outlived it is reported, then killed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build, stop as stopEsbuild } from 'esbuild';
import { ROOT, runtimeBinary, runtimeCommand, type Runtime, type ServeRuntime } from '../../scripts/runtimes.mjs';
import { isAlive, waitUntilGone } from './processes.js';
import { within } from './wait.js';

export { ROOT, runtimeBinary, type Runtime, type ServeRuntime };
export const RUNTIME_APPS = path.join(ROOT, 'test/runtimes');

/** How a served process ended. */
export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** One server process of a runtime. */
export interface RuntimeServer {
  readonly runtime: Runtime;
  /** The endpoint, `http://127.0.0.1:PORT/mcp`. */
  readonly url: string;
  readonly pid: number;
  /** Its stdout and stderr so far (the last 64 kB), for failure messages. */
  output(): string;
  /** Resolves once the process exited. */
  readonly exited: Promise<Exit>;
  /**
   * `signal` (default SIGTERM: the server closes its app, then its listener, and ends; workerd
   * drains its open requests first, SIGINT stops it at once) to the server, SIGKILL to its whole
   * process group after `graceMs` (default 10 s); resolves with how the server exited once every
   * process of the group is gone. Idempotent (the first call's signal counts).
   */
  stop(graceMs?: number, signal?: NodeJS.Signals): Promise<Exit>;
}

export interface StartOptions {
  /** Variables added to this process's environment. */
  env?: NodeJS.ProcessEnv;
  /** How long the server may take to answer (default 30 s). */
  readyTimeoutMs?: number;
}

const LISTENING = /listening on (http:\/\/127\.0\.0\.1:\d+\/\S*)/;

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // The group is gone already.
  }
}

interface Spawned {
  child: ChildProcess;
  exited: Promise<Exit>;
  output: () => string;
  stop: (graceMs?: number, signal?: NodeJS.Signals) => Promise<Exit>;
}

/** Spawns `command` as the leader of its own process group, with its output kept and a group-wide stop. */
function spawnGroup(
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  extraFds: number,
  cleanup: () => void,
): Spawned {
  const stdio: ('ignore' | 'pipe')[] = ['ignore', 'pipe', 'pipe', ...Array<'pipe'>(extraFds).fill('pipe')];
  const child = spawn(command, args, { stdio, env: { ...process.env, ...env }, detached: true });
  let output = '';
  const keep = (chunk: string) => void (output = (output + chunk).slice(-64_000));
  child.stdout!.setEncoding('utf8').on('data', keep);
  child.stderr!.setEncoding('utf8').on('data', keep);
  const exited = new Promise<Exit>((resolve) => {
    child.once('error', (error) => {
      keep(`\n[spawn failed: ${error.message}]\n`);
      resolve({ code: null, signal: null });
    });
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  let stopping: Promise<Exit> | undefined;
  const stop = (graceMs = 10_000, signal: NodeJS.Signals = 'SIGTERM') =>
    (stopping ??= (async () => {
      if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
        try {
          process.kill(child.pid, signal);
        } catch {
          // Gone meanwhile.
        }
      }
      const exit = await within(exited, { timeoutMs: graceMs, what: `${command} to exit on ${signal}` }).catch(
        async () => {
          killGroup(child, 'SIGKILL');
          return exited;
        },
      );
      // Whatever the server left in its group goes with it.
      killGroup(child, 'SIGKILL');
      if (child.pid !== undefined) await waitUntilGone(child.pid, 10_000);
      cleanup();
      return exit;
    })());
  return { child, exited, output: () => output, stop };
}

/** Resolves with the first match of `pattern` in the process's stdout; rejects if it exits or the bound passes. */
function firstLine(spawned: Spawned, pattern: RegExp, timeoutMs: number, what: string): Promise<RegExpExecArray> {
  return within(
    new Promise<RegExpExecArray>((resolve, reject) => {
      let text = '';
      spawned.child.stdout!.on('data', (chunk: string) => {
        text += chunk;
        const match = pattern.exec(text);
        if (match) resolve(match);
      });
      void spawned.exited.then((exit) =>
        reject(new Error(`${what}: exited (${exit.signal ?? exit.code}) first: ${spawned.output().slice(-2_000)}`)),
      );
    }),
    { timeoutMs, what },
  );
}

/**
 * Serves `app` (a module in `test/runtimes/`, or an absolute path, exporting `createApp(env)`)
 * under `runtime` with `test/runtimes/serve.mjs`; resolves once it printed its listening line.
 * Deno gets a cache directory of its own (removed on stop) and no network for modules.
 */
export async function startRuntime(
  runtime: ServeRuntime,
  app: string,
  options: StartOptions = {},
): Promise<RuntimeServer> {
  const denoDir = runtime === 'deno' ? mkdtempSync(path.join(tmpdir(), 'mcpwire-deno-')) : undefined;
  const cleanup = () => denoDir && rmSync(denoDir, { recursive: true, force: true });
  let spawned: Spawned;
  try {
    const line = runtimeCommand(runtime, path.join(RUNTIME_APPS, 'serve.mjs'), [app], { denoDir });
    spawned = spawnGroup(line.command, line.args, { ...options.env, ...line.env }, 0, cleanup);
  } catch (error) {
    cleanup();
    throw error;
  }
  const what = `${runtime} serving ${app} to print its listening line`;
  try {
    const [, url] = await firstLine(spawned, LISTENING, options.readyTimeoutMs ?? 30_000, what);
    return served(runtime, url!, spawned);
  } catch (error) {
    await spawned.stop(0);
    throw error;
  }
}

/** Options of a script run to its end ({@link runScript}). */
export interface RunOptions {
  /** Variables added to this process's environment. */
  env?: NodeJS.ProcessEnv;
  /** Deno permissions beyond net, read and env (e.g. `['run']` to spawn stdio servers). */
  allow?: readonly string[];
  /** How long the script may run (default 45 s); past it its group is killed and the run rejects. */
  timeoutMs?: number;
}

/** How a script run ended. */
export interface ScriptRun {
  readonly runtime: ServeRuntime;
  readonly exit: Exit;
  /** Its stdout and stderr (the last 64 kB). */
  readonly output: string;
  /** Whether a process of its group was still alive the moment it exited (then killed). */
  readonly leftProcesses: boolean;
  /** The JSON of its last `RESULT {json}` line; throws with the output when it printed none. */
  result<T = unknown>(): T;
}

/**
 * Runs `script` (a module in `test/runtimes/`, or an absolute path) under `runtime` to its end,
 * as the leader of its own process group (Deno: a cache directory of its own, no network for
 * modules). Resolves once it exited by itself, with whether anything of its group outlived it
 * (whatever did is killed then); rejects, after killing the group, when it runs past the bound.
 */
export async function runScript(
  runtime: ServeRuntime,
  script: string,
  args: readonly string[],
  options: RunOptions = {},
): Promise<ScriptRun> {
  const denoDir = runtime === 'deno' ? mkdtempSync(path.join(tmpdir(), 'mcpwire-deno-')) : undefined;
  const cleanup = () => denoDir && rmSync(denoDir, { recursive: true, force: true });
  let spawned: Spawned;
  try {
    const file = path.isAbsolute(script) ? script : path.join(RUNTIME_APPS, script);
    const line = runtimeCommand(runtime, file, args, { denoDir, allow: options.allow });
    spawned = spawnGroup(line.command, line.args, { ...options.env, ...line.env }, 0, cleanup);
  } catch (error) {
    cleanup();
    throw error;
  }
  const timeoutMs = options.timeoutMs ?? 45_000;
  const exit = await within(spawned.exited, { timeoutMs, what: `${runtime} ${script} to end by itself` }).catch(
    async (error: unknown) => {
      await spawned.stop(0, 'SIGKILL');
      throw new Error(`${(error as Error).message}: ${spawned.output().slice(-4_000)}`);
    },
  );
  const leftProcesses = groupPidAlive(spawned.child.pid!);
  await spawned.stop(0, 'SIGKILL');
  const output = spawned.output();
  return {
    runtime,
    exit,
    output,
    leftProcesses,
    result<T>(): T {
      const lines = [...output.matchAll(/^RESULT (.*)$/gm)];
      if (lines.length === 0) throw new Error(`${runtime} ${script} printed no RESULT line: ${output.slice(-4_000)}`);
      return JSON.parse(lines.at(-1)![1]!) as T;
    },
  };
}

function served(runtime: Runtime, url: string, spawned: Spawned): RuntimeServer {
  return {
    runtime,
    url,
    pid: spawned.child.pid!,
    output: spawned.output,
    exited: spawned.exited,
    stop: spawned.stop,
  };
}

/**
 * Bundles `entry` (a module in `test/runtimes/` or an absolute path) into one ES module, as an
 * app's build would for `target`: `workerd` (platform neutral, conditions workerd/worker/browser,
 * as Wrangler does) or `browser` (platform browser, esbuild's browser conditions). `mcpwire` and
 * its subpaths resolve through the package's exports to the built `dist/`. Resolves with the
 * bundle's text; rejects with esbuild's errors when it cannot be built (e.g. a `node:*` import).
 */
export async function bundle(entry: string, target: 'workerd' | 'browser'): Promise<string> {
  const built = await build({
    entryPoints: [path.isAbsolute(entry) ? entry : path.join(RUNTIME_APPS, entry)],
    write: false,
    outdir: 'out',
    bundle: true,
    format: 'esm',
    ...(target === 'workerd'
      ? { platform: 'neutral', conditions: ['workerd', 'worker', 'browser'], mainFields: ['browser', 'module', 'main'] }
      : { platform: 'browser' }),
    logLevel: 'silent',
  }).finally(() => stopEsbuild()); // esbuild's service process would outlive the test file
  return built.outputFiles[0]!.text;
}

/** Options of a Worker under workerd. */
export interface WorkerdOptions extends StartOptions {
  /** The endpoint's path (default `/mcp`). */
  path?: string;
  /** The compatibility date (default 2026-09-01, within the pinned workerd's range). */
  compatibilityDate?: string;
  /** Text bindings: the Worker's `env.NAME` (e.g. the URL of a loopback server it calls). */
  bindings?: Record<string, string>;
  /**
   * Where the Worker's `fetch()` may go: `none` (default: workerd's own default, public addresses
   * only, so nothing on this machine) or `loopback` (127.0.0.0/8 and nothing else, through a
   * network service that is the Worker's `globalOutbound`).
   */
  outbound?: 'none' | 'loopback';
}

/**
 * Bundles `entry` (a module in `test/runtimes/` or an absolute path, `export default { fetch }`)
 * as a Workers build does (esbuild, `platform: 'neutral'`, conditions `workerd, worker, browser`),
 * so `mcpwire/server` resolves through the package's exports to the built `dist/`; writes a
 * workerd config for it into a temporary directory and serves it on 127.0.0.1 at a port workerd
 * picks (port 0, reported on its control pipe). Resolves once the Worker answered a request.
 * Rejects with esbuild's errors when the bundle cannot be built.
 */
export async function startWorkerd(entry: string, options: WorkerdOptions = {}): Promise<RuntimeServer> {
  const dir = mkdtempSync(path.join(tmpdir(), 'mcpwire-workerd-'));
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  let spawned: Spawned;
  try {
    writeFileSync(path.join(dir, 'worker.js'), await bundle(entry, 'workerd'));
    writeFileSync(path.join(dir, 'config.capnp'), workerdConfig(options));
    const args = ['serve', path.join(dir, 'config.capnp'), '--control-fd=3'];
    spawned = spawnGroup(runtimeBinary('workerd'), args, options.env ?? {}, 1, cleanup);
  } catch (error) {
    cleanup();
    throw error;
  }
  const what = `workerd serving ${entry} to report its port`;
  try {
    const port = await controlPort(spawned, options.readyTimeoutMs ?? 30_000, what);
    const url = `http://127.0.0.1:${port}${options.path ?? '/mcp'}`;
    // Listening is not yet serving: the first request proves the Worker loaded.
    const answer = await within(fetch(`http://127.0.0.1:${port}/.well-known/ready`), {
      timeoutMs: options.readyTimeoutMs ?? 30_000,
      what: 'the Worker to answer',
    });
    await answer.body?.cancel();
    return served('workerd', url, spawned);
  } catch (error) {
    await spawned.stop(0);
    throw error;
  }
}

/**
 * A workerd config: one Worker (the bundle beside it, ES module) behind one HTTP socket on
 * 127.0.0.1:0, with its text bindings and, for `outbound: 'loopback'`, a network service allowing
 * only "local" addresses as its global outbound.
 */
function workerdConfig(options: WorkerdOptions): string {
  const loopback = options.outbound === 'loopback';
  const bindings = Object.entries(options.bindings ?? {}).map(
    ([name, text]) => `(name = ${JSON.stringify(name)}, text = ${JSON.stringify(text)})`,
  );
  return `using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [
    (name = "main", worker = .worker),${loopback ? '\n    (name = "loopback", network = (allow = ["local"])),' : ''}
  ],
  sockets = [(name = "http", address = "127.0.0.1:0", http = (), service = "main")],
);

const worker :Workerd.Worker = (
  modules = [(name = "worker.js", esModule = embed "worker.js")],
  compatibilityDate = "${options.compatibilityDate ?? '2026-09-01'}",
  bindings = [${bindings.join(', ')}],${loopback ? '\n  globalOutbound = "loopback",' : ''}
);
`;
}

/** The port of the `http` socket from workerd's control pipe (`{"event":"listen","socket":"http","port":N}`). */
function controlPort(spawned: Spawned, timeoutMs: number, what: string): Promise<number> {
  const control = spawned.child.stdio[3] as NodeJS.ReadableStream;
  return within(
    new Promise<number>((resolve, reject) => {
      let text = '';
      control.setEncoding('utf8');
      control.on('data', (chunk: string) => {
        text += chunk;
        for (const line of text.split('\n')) {
          try {
            const event = JSON.parse(line) as { event?: string; socket?: string; port?: number };
            if (event.event === 'listen' && event.socket === 'http' && typeof event.port === 'number')
              resolve(event.port);
          } catch {
            // A partial line: more is coming.
          }
        }
      });
      void spawned.exited.then((exit) =>
        reject(new Error(`${what}: exited (${exit.signal ?? exit.code}) first: ${spawned.output().slice(-2_000)}`)),
      );
    }),
    { timeoutMs, what },
  );
}

/** True while any process of the server's group (the server or what it started) is alive. */
export function groupAlive(server: RuntimeServer): boolean {
  return groupPidAlive(server.pid);
}

/** True while any process of the group `leader` leads is alive. */
function groupPidAlive(leader: number): boolean {
  try {
    process.kill(-leader, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM' || isAlive(leader);
  }
}
