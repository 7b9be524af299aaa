/**
 * The todo example (examples/todo-server/) as tests reach it: its modules loaded from the
 * example folder (they import `mcpwire/server` from dist/: run `npm run build` first), a temp
 * directory per test for the SQLite file, and the command line that serves it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

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
