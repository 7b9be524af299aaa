/**
 * One entry → a ManagedServer, pure: transport inferred from command/url or mapped from host
 * names, `disabled` and `restart: 'never'` folded into our fields, required fields and wrong
 * types named with file, server and path, unknown keys warned about.
 */
import { describe, expect, it } from 'vitest';
import { toManagedServer } from '../src/manager/config/server-entry.js';
import type { Provenance } from '../src/manager/servers/managed-server.js';

const provenance: Provenance = { file: '/p/.mcp.json', scope: 'project' };
const build = (entry: unknown, warnings: string[] = []) => toManagedServer('s', entry, provenance, warnings, new Set());
const failure = (entry: unknown): string => {
  try {
    build(entry);
  } catch (error) {
    return (error as Error).message;
  }
  return 'no error';
};

describe('toManagedServer', () => {
  it.each([
    [{ command: 'node' }, 'stdio'],
    [{ url: 'https://x.example/mcp' }, 'http'],
    [{ type: 'sse', url: 'https://x.example/sse' }, 'sse'],
    [{ type: 'streamable-http', url: 'https://x.example/mcp' }, 'http'],
    [{ type: 'streamableHttp', url: 'https://x.example/mcp' }, 'http'],
    [{ transport: 'stdio', command: 'node' }, 'stdio'],
    [{ type: 'local', command: 'node' }, 'stdio'],
  ])('%j ⇒ %s', (entry, transport) => {
    expect(build(entry).transport).toBe(transport);
  });

  it('keeps every known field and folds disabled / restart: never', () => {
    // The fields an entry holds as the resolved server holds them.
    const kept = {
      command: 'node',
      args: ['a'],
      env: { A: '1' },
      cwd: '/w',
      autoConnect: false,
      timeoutMs: 1000,
      startupTimeoutMs: 2000,
      toolTimeoutMs: 3000,
      includeTools: ['read_*'],
      excludeTools: ['rm'],
    };
    expect(build({ ...kept, disabled: true, restart: 'never' })).toEqual({
      name: 's',
      transport: 'stdio',
      ...kept,
      enabled: false,
      restart: false,
      provenance,
    });
    expect(build({ url: 'https://x.example/mcp', restart: { maxRestarts: 2, initialDelayMs: 10 } }).restart).toEqual({
      maxRestarts: 2,
      initialDelayMs: 10,
    });
  });

  it.each([
    [{ type: 'stdio' }, '/p/.mcp.json: server "s": a stdio server needs a "command"'],
    [{ type: 'http' }, '/p/.mcp.json: server "s": an http server needs a "url"'],
    [{ type: 'sse', command: 'x' }, '/p/.mcp.json: server "s": an sse server needs a "url"'],
    [{}, '/p/.mcp.json: server "s": needs a "command" (stdio) or a "url" (http, sse)'],
    ['node server.js', '/p/.mcp.json: server "s": must be an object'],
    [{ command: 'node', args: 'a b' }, '/p/.mcp.json: server "s": args must be a list of strings, got a string'],
    [{ command: 'node', env: { PORT: 8080 } }, '/p/.mcp.json: server "s": env.PORT must be a string, got 8080'],
    [
      { command: 'node', timeoutMs: 'soon' },
      '/p/.mcp.json: server "s": timeoutMs must be a whole number, got a string',
    ],
    [
      { command: 'node', restart: { maxRestarts: 1, retries: 2 } },
      '/p/.mcp.json: server "s": restart has an unknown key "retries"',
    ],
    [
      { command: 'node', restart: { maxRestarts: -1 } },
      '/p/.mcp.json: server "s": restart.maxRestarts must be at least 0, got -1',
    ],
    [
      { command: 'node', restart: 'sometimes' },
      '/p/.mcp.json: server "s": restart must be false, "never" or { maxRestarts, initialDelayMs, maxDelayMs, resetAfterMs }',
    ],
    [
      { type: 'websocket', command: 'node' },
      '/p/.mcp.json: server "s": transport must be "stdio", "http" (Streamable HTTP) or "sse", or left out ("command" means stdio, "url" http); got "websocket"',
    ],
  ])('%j is rejected: %s', (entry, message) => {
    expect(failure(entry)).toBe(message);
  });

  it('unknown keys that look like no key of ours warn, naming file, server and key; the server still loads', () => {
    const warnings: string[] = [];
    expect(build({ command: 'node', colour: 'blue', description: 'known to other hosts' }, warnings).command).toBe(
      'node',
    );
    expect(warnings).toEqual(['/p/.mcp.json: server "s": unknown key "colour" (ignored)']);
  });
});
