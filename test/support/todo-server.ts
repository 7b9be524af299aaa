/**
 * The todo example (examples/todo-server/) as tests reach it: its modules loaded from the
 * example folder (they import `mcpwire/server` from dist/: run `npm run build` first), a temp
 * directory per test for the SQLite file, the command line that serves it, and that server
 * started over HTTP.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { onTestFinished } from 'vitest';
import { waitUntilGone } from './processes.js';
import { eventually } from './wait.js';

export const TODO_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../examples/todo-server');
export const TODO_SERVER = path.join(TODO_DIR, 'server.mjs');

/** The example's modules, untyped (plain .mjs). */
export async function loadTodo(): Promise<{ app: any; store: any; schemas: any }> {
  const load = (file: string) => import(pathToFileURL(path.join(TODO_DIR, file)).href);
  const [app, store, schemas] = await Promise.all([load('app.mjs'), load('sqlite-store.mjs'), load('schemas.mjs')]);
  return { app, store, schemas };
}

/** A fresh temp directory and its removal. */
export function tempDir(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'mcpwire-todo-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export const ALICE = '0f8fad5b-d9cb-469f-a165-70867728950e';
export const BOB = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
export const NOBODYS_TASK = '3b241101-e2bb-4255-8caf-4136c566a962';

/** The todo server as a process serving Streamable HTTP, as {@link startTodoHttp} started it. */
export interface TodoHttp {
  /** The endpoint its `listening` log line names. */
  url: string;
  child: ChildProcess;
  /** Its stderr, line by line, so far. */
  stderr: string[];
  /** Resolves with its exit code once it has exited. */
  exited: Promise<number | null>;
}

/**
 * Starts `node server.mjs ...args` (args include `--http 127.0.0.1:0`) for one test (call it
 * inside a test) and resolves once it logged `listening` (bounded, 30 s). When the test
 * finishes, a process still running is killed (SIGKILL) and waited for.
 */
export async function startTodoHttp(args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<TodoHttp> {
  const child = spawn(process.execPath, [TODO_SERVER, ...args], { stdio: ['ignore', 'ignore', 'pipe'], env });
  onTestFinished(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await waitUntilGone(child.pid!);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const stderr: string[] = [];
  let partial = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop()!;
    stderr.push(...lines);
  });
  const listening = await eventually(() => stderr.find((line) => line.includes('"listening"')), {
    what: 'the listening line',
    timeoutMs: 30_000,
  });
  return { url: JSON.parse(listening).url as string, child, stderr, exited };
}
