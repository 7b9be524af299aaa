/**
 * A call to a tool of a configured server that is down is refused before anything is sent with
 * an `INVALID_STATE` error that names the server, says what state it is in (circuit open, in
 * error, not connected) and quotes its last error, instead of "tool not found" (its tools left
 * the catalogue when it went down). A name no server accounts for is still "tool not found".
 */
import { afterEach, describe, expect, it } from 'vitest';
import { McpManager } from '../src/manager/mcp-manager.js';
import type { ManagedServer } from '../src/manager/servers/managed-server.js';
import { McpError } from '../src/protocol/errors.js';
import { failureOf } from './support/failure.js';
import { eventually } from './support/processes.js';
import { scriptedServer } from './support/managed-servers.js';
import { endAll } from './support/end-all.js';

const scripted = (name: string, ...flags: string[]): ManagedServer => scriptedServer(name, flags);

let manager: McpManager | undefined;
afterEach(async () => void ([manager] = await endAll([manager, 'disconnectAll'])));

function callError(name: string): Promise<McpError> {
  return failureOf(manager!.callTool(name, { text: 'x' }), McpError, {});
}

describe('calling a tool of a server that is down', () => {
  it('with the circuit breaker open: the server is in error, with its last error', async () => {
    manager = McpManager.create({
      servers: [{ ...scripted('crashy', '--die-before-initialize'), restart: { initialDelayMs: 10, maxRestarts: 1 } }],
    });
    await manager.connect('crashy').catch(() => undefined);
    await eventually(() => (manager!.getStatus().servers[0]!.circuitOpen ? true : undefined), 10_000);

    const error = await callError('mcp__crashy__echo');
    expect(error.code).toBe('INVALID_STATE');
    expect(error.server).toBe('crashy');
    expect(error.message).toMatch(
      /^server "crashy": tools\/call cannot call mcp__crashy__echo: the server is in error: its circuit breaker opened after 1 restart \(connect\("crashy"\) tries again\); last error: /,
    );
    expect(error.message).toContain('fatal: config file missing'); // the server's own last words
    expect(error.message).not.toContain('tool not found');
  });

  it('after a crash without restarts: in error, with the crash as the last error', async () => {
    manager = McpManager.create({ servers: [{ ...scripted('once'), restart: false }] });
    await manager.connect('once');
    const errors: string[] = [];
    manager.on('status', (change) => change.status === 'error' && errors.push(change.server));
    await manager.callTool('mcp__once__crash', {}).catch(() => undefined);
    await eventually(() => (errors.length > 0 ? true : undefined));

    const error = await callError('mcp__once__echo');
    expect(error.code).toBe('INVALID_STATE');
    expect(error.message).toContain('cannot call mcp__once__echo: the server is in error; last error: ');
    expect(error.cause).toMatchObject({ code: 'CONNECTION_CLOSED' });
  });

  it('a server never connected, under its provider-safe name: "is not connected"; an unknown tool of a live server: "tool not found"', async () => {
    manager = McpManager.create({ servers: [scripted('web.search'), scripted('live')] });
    const idle = await callError('mcp__web_search__echo');
    expect(idle.code).toBe('INVALID_STATE');
    expect(idle.message).toBe(
      'server "web.search": tools/call cannot call mcp__web_search__echo: the server is not connected',
    );

    await manager.connect('live');
    const missing = await callError('mcp__live__nope');
    expect(missing.code).toBe('INVALID_ARGUMENT');
    expect(missing.message).toMatch(/^tools\/call tool not found: mcp__live__nope on server "live" \(/);
    expect((await callError('mcp__ghost__echo')).message).toBe(
      'tools/call unknown server "ghost" in tool name mcp__ghost__echo (configured: web.search, live)',
    );
  });
});
