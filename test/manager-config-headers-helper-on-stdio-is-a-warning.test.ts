/**
 * A `headersHelper` on a stdio server means nothing (a child process gets no HTTP headers): the
 * entry loads with a warning naming file and server, and the helper is dropped so nothing ever
 * runs it. On a URL server it stays, with no warning.
 */
import { describe, expect, it } from 'vitest';
import { toManagedServer } from '../src/manager/config/server-entry.js';
import type { Provenance } from '../src/manager/servers/managed-server.js';

const provenance: Provenance = { scope: 'project', file: '/p/.mcp.json' };

/** Loads entry `name` from the project's `.mcp.json`: the server, and the warnings the load gave. */
function load(name: string, entry: Parameters<typeof toManagedServer>[1]) {
  const warnings: string[] = [];
  const server = toManagedServer(name, entry, provenance, warnings, new Set());
  return { server, warnings };
}

describe('headersHelper on a stdio server', () => {
  it('is a config warning and is dropped', () => {
    const { server, warnings } = load('fs', { command: 'fs-server', headersHelper: 'print-token' });
    expect(warnings).toEqual([
      '/p/.mcp.json: server "fs": "headersHelper" applies to URL servers only; a stdio server takes its credentials from "env" (ignored)',
    ]);
    expect(server.headersHelper).toBeUndefined();
  });

  it('on a URL server is kept without a warning', () => {
    const { server, warnings } = load('api', { url: 'https://api.example/mcp', headersHelper: 'print-token' });
    expect(warnings).toEqual([]);
    expect(server.headersHelper).toBe('print-token');
  });
});
