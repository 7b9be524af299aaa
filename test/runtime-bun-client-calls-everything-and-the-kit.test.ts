/**
 * mcpwire's client under Bun: test/runtimes/client-calls.mjs (`McpClient` from the built
 * `mcpwire`, resolved through the package's exports) in a real bun process, over stdio and over
 * Streamable HTTP, against server-everything (legacy era) and the kit (2026-07-28): lists, calls
 * with progress, cancels; exits 0 by itself and leaves no process.
 */
import { callsFromTheRuntime } from './support/runtime-client-checks.js';

// Under Bun the HTTP rows go through the fetch engine (undici's Bun shim, used before, has no
// dispatcher.close(): close() threw `TypeError: this.dispatcher.close is not a function`).
callsFromTheRuntime('bun');
