/**
 * Kit servers in a child process on their own stdin/stdout (the fixtures in this folder import
 * `mcpwire/server` from dist/: run `npm run build` first), driven with raw NDJSON.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type RawStdioServer, startRawStdioServer } from './raw-stdio-server.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** `echo {text}` and `crash`; exits when stdin ends (kit-stdio-server.mjs). */
export const KIT_STDIO_SERVER = path.join(HERE, 'kit-stdio-server.mjs');
/** The 2026 change feed: `add_tool`, `touch`, `shutdown`, resource `test://doc` (kit-listen-server.mjs). */
export const KIT_LISTEN_SERVER = path.join(HERE, 'kit-listen-server.mjs');
/** Calls that finish when the test says (`hold`, `ask`); argv: the input-end grace (kit-stdio-finishing-server.mjs). */
export const KIT_FINISHING_SERVER = path.join(HERE, 'kit-stdio-finishing-server.mjs');

/**
 * Starts `node <fixture> ...args` on raw pipes for one test (call it inside a test): closed when
 * the test finishes (stdin ended, then SIGKILL if it lingers).
 */
export function startKitStdio(fixture: string, args: readonly string[] = []): RawStdioServer {
  return startRawStdioServer(process.execPath, [fixture, ...args]);
}
