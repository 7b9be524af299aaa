/**
 * The connect timeout is counted from the call to `connect`, and nothing the connect does escapes
 * it: the start of a stdio server counts (a start that takes the whole budget fails the connect
 * with nothing started), and the `logging/setLevel` sent after the handshake spends from the same
 * deadline and stops at the connect's signal, like the handshake itself.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { McpClient } from '../src/client/mcp-client.js';
import { isMcpError } from '../src/protocol/errors.js';
import { FIXTURES } from './support/processes.js';
import { NO_REPLY, scriptedPair } from './support/scripted-peer.js';

const INITIALIZED = {
  protocolVersion: '2025-11-25',
  capabilities: { logging: {} },
  serverInfo: { name: 'logs', version: '1' },
};

/**
 * Keeps this thread busy for `ms`. Starting a process is synchronous in Node (fork and exec
 * happen inside `spawn()`): on a loaded machine, or from a large parent process, it holds the
 * event loop exactly like this. Not a wait for anything: it is the slow start under test.
 */
function holdEventLoop(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // busy on purpose
  }
}

describe('the connect timeout covers the start of a stdio server', () => {
  it('a start that takes the whole connect timeout fails the connect with one TIMEOUT saying so, and starts no server', async () => {
    const lines: string[] = [];
    const connecting = McpClient.connect(
      { command: process.execPath, args: [path.join(FIXTURES, 'stdio', 'never-answers.mjs')] },
      { name: 'slow-start', connectTimeoutMs: 300, onStderr: (line) => lines.push(line) },
    ).catch((error: unknown) => error);
    holdEventLoop(600);
    const error = await connecting;
    expect(isMcpError(error, 'TIMEOUT')).toBe(true);
    expect((error as Error).message).toBe(
      'server "slow-start": the connect timeout of 300 ms ran out before the server was started',
    );
    // The server never ran: it prints `running <pid>` first thing.
    expect(lines).toEqual([]);
  });
});

describe('a connect that runs out of time', () => {
  it('kills the server it started with its tree instead of closing it politely, so the close adds no waits', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'mcpwire-connect-timeout-'));
    try {
      const seen = path.join(dir, 'seen');
      // Deaf to stdin EOF and SIGTERM (a polite close waits 2 s for each), and says when it got them.
      const script = `const { appendFileSync } = require('node:fs');
        process.on('SIGTERM', () => appendFileSync(${JSON.stringify(seen)}, 'SIGTERM\\n'));
        process.stdin.on('end', () => appendFileSync(${JSON.stringify(seen)}, 'EOF\\n'));
        process.stdin.resume();
        setInterval(() => {}, 1000);
        process.stderr.write('running\\n');`;
      let running = false;
      const started = performance.now();
      const error = await McpClient.connect(
        { command: process.execPath, args: ['-e', script] },
        { name: 'deaf', connectTimeoutMs: 800, onStderr: () => (running = true) },
      ).catch((e: unknown) => e);
      const elapsedMs = performance.now() - started;
      expect(error).toMatchObject({ code: 'TIMEOUT', server: 'deaf', method: 'initialize' });
      expect(running).toBe(true);
      // Killed outright: neither EOF nor SIGTERM reached it, and no close budget was spent.
      expect(existsSync(seen) ? readFileSync(seen, 'utf8') : '').toBe('');
      expect(elapsedMs).toBeLessThan(800 + 3_000);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('logging/setLevel after the handshake is part of the connect', () => {
  it('a server that never answers it fails the connect within the connect timeout, not the request timeout', async () => {
    const { clientTransport, peer } = scriptedPair();
    peer.on('initialize', () => INITIALIZED).on('logging/setLevel', () => NO_REPLY);
    const started = performance.now();
    const error = await McpClient.connect(clientTransport, {
      name: 'quiet-log',
      era: 'legacy',
      logLevel: 'debug',
      connectTimeoutMs: 500,
      requestTimeoutMs: 15_000,
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'TIMEOUT', server: 'quiet-log', method: 'logging/setLevel' });
    expect((error as Error).message).toBe(
      'server "quiet-log": logging/setLevel got no answer within the connect timeout of 500 ms',
    );
    // Far below the 15 s request timeout the request would otherwise have waited for.
    expect(performance.now() - started).toBeLessThan(7_500);
    // (A cancel notice for the abandoned request may follow; the connect does not wait for it.)
    expect(peer.methods().slice(0, 3)).toEqual(['initialize', 'notifications/initialized', 'logging/setLevel']);
  });

  it('the connect signal aborts it: CANCELLED at once with the reason', async () => {
    const { clientTransport, peer } = scriptedPair();
    const controller = new AbortController();
    const reason = new Error('user gave up');
    peer
      .on('initialize', () => INITIALIZED)
      .on('logging/setLevel', () => {
        controller.abort(reason);
        return NO_REPLY;
      });
    const error = await McpClient.connect(clientTransport, {
      name: 'quiet-log',
      era: 'legacy',
      logLevel: 'debug',
      signal: controller.signal,
      requestTimeoutMs: 15_000,
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'CANCELLED', server: 'quiet-log', method: 'logging/setLevel', cause: reason });
  });
});
