/**
 * mcpwire's client under Deno: test/runtimes/client-calls.mjs (`McpClient` from the built
 * `mcpwire`, resolved through the package's exports) in a real deno process, over stdio (the
 * server spawned by the client, `--allow-run`) and over Streamable HTTP, against
 * server-everything (legacy era) and the kit (2026-07-28): lists, calls with progress, cancels;
 * exits 0 by itself and leaves no process.
 */
import { callsFromTheRuntime } from './support/runtime-client-checks.js';

callsFromTheRuntime('deno');
