/**
 * Server definitions, as the manager takes them, for the fixture servers the manager tests start.
 */
import path from 'node:path';
import type { ManagedServer } from '../../src/manager/servers/managed-server.js';
import { FIXTURES } from './processes.js';

/** The scripted legacy fixture server (`spec-fixtures/servers/legacy/scripted-server.mjs`). */
export const SCRIPTED_SERVER = path.join(FIXTURES, 'legacy/scripted-server.mjs');

/**
 * The scripted server named `name` over stdio on this Node, started with `flags`; with
 * `provenance` when given (the definition has no provenance key otherwise).
 */
export function scriptedServer(
  name: string,
  flags: readonly string[] = [],
  provenance?: ManagedServer['provenance'],
): ManagedServer {
  return {
    name,
    transport: 'stdio',
    command: process.execPath,
    args: [SCRIPTED_SERVER, ...flags],
    ...(provenance ? { provenance } : {}),
  };
}

/** The script `script` run by this Node over stdio as the server named `name`, with `args` after it. */
export function nodeServer(name: string, script: string, ...args: string[]): ManagedServer {
  return { name, transport: 'stdio', command: process.execPath, args: [script, ...args] };
}
