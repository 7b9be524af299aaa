/**
 * Server definitions a host writes by hand (`McpManager.create({ servers: [...] })`,
 * `setServer`) are read by the rules of a config file entry, so a typo never does nothing: an
 * unknown key is `INVALID_ARGUMENT` naming the server, the key and what was probably meant, and a
 * value of the wrong type or a missing `command`/`url` is `CONFIG_INVALID` naming the server and
 * the field. What the config layer itself produces (its `LoadedServer`s) passes unchanged.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/manager/config/load-config.js';
import { McpManager } from '../src/manager/mcp-manager.js';
import type { ManagedServer } from '../src/manager/servers/managed-server.js';
import { isMcpError, type McpError, type McpErrorCode } from '../src/protocol/errors.js';
import { FIXTURES } from './support/processes.js';
import { endAll } from './support/end-all.js';

const SCRIPTED = path.join(FIXTURES, 'legacy/scripted-server.mjs');
const node = process.execPath;
const server = (name: string, extra: Record<string, unknown> = {}): ManagedServer => ({
  name,
  transport: 'stdio',
  command: node,
  args: [SCRIPTED],
  ...extra,
});

let manager: McpManager | undefined;
afterEach(async () => void ([manager] = await endAll([manager, 'disconnectAll'])));

function refusal(run: () => unknown, code: McpErrorCode): McpError {
  let error: unknown;
  try {
    run();
  } catch (caught) {
    error = caught;
  }
  expect(isMcpError(error, code), String(error)).toBe(true);
  return error as McpError;
}

describe('hand-written servers in McpManager options', () => {
  it('an unknown key is INVALID_ARGUMENT naming the server, the key and the key meant', () => {
    const error = refusal(
      () => McpManager.create({ servers: [server('fs'), server('slow', { toolTimeout: 120_000 })] }),
      'INVALID_ARGUMENT',
    );
    expect(error.server).toBe('slow');
    expect(error.message).toContain(
      'server "slow": McpManager options.servers[1]: unknown option "toolTimeout" (did you mean "toolTimeoutMs"?)',
    );
    // Config-file spellings of other hosts point at this shape's key.
    expect(
      refusal(() => McpManager.create({ servers: [server('a', { type: 'stdio' })] }), 'INVALID_ARGUMENT').message,
    ).toContain('unknown option "type" (did you mean "transport"?)');
    expect(
      refusal(() => McpManager.create({ servers: [server('a', { disabled: true })] }), 'INVALID_ARGUMENT').message,
    ).toContain('unknown option "disabled" (did you mean "enabled: false"?)');
  });

  it('an unknown key in restart is refused the same way', () => {
    const error = refusal(
      () => McpManager.create({ servers: [server('flaky', { restart: { maxRetries: 3 } })] }),
      'INVALID_ARGUMENT',
    );
    expect(error.message).toContain(
      'server "flaky": McpManager options.servers[0].restart: unknown option "maxRetries" (did you mean "maxRestarts"?)',
    );
  });

  it('values follow the config entry rules: wrong types and missing command or url are CONFIG_INVALID naming server and field', () => {
    expect(
      refusal(() => McpManager.create({ servers: [server('fs', { toolTimeoutMs: '2m' })] }), 'CONFIG_INVALID').message,
    ).toBe('server "fs": McpManager options.servers[0]: toolTimeoutMs must be a whole number, got a string');
    expect(
      refusal(() => McpManager.create({ servers: [server('fs', { args: 'a b' })] }), 'CONFIG_INVALID').message,
    ).toContain('server "fs": McpManager options.servers[0]: args must be a list of strings, got a string');
    expect(
      refusal(() => McpManager.create({ servers: [{ name: 'web', transport: 'http' }] }), 'CONFIG_INVALID').message,
    ).toContain('server "web": McpManager options.servers[0]: an http server needs a "url"');
    expect(
      refusal(
        () =>
          McpManager.create({
            servers: [{ name: 'web', transport: 'websocket', url: 'ws://x' } as unknown as ManagedServer],
          }),
        'CONFIG_INVALID',
      ).message,
    ).toContain('transport must be "stdio", "http" (Streamable HTTP) or "sse", or left out');
    expect(
      refusal(
        () => McpManager.create({ servers: [{ transport: 'stdio', command: node } as ManagedServer] }),
        'CONFIG_INVALID',
      ).message,
    ).toContain('McpManager options.servers[0]: "name" must be a non-empty string');
    expect(refusal(() => McpManager.create({ servers: 'fs' as never }), 'INVALID_ARGUMENT').message).toContain(
      'McpManager options: "servers" must be an array of server definitions',
    );
    expect(
      refusal(() => McpManager.create({ servers: [server('fs'), server('fs')] }), 'INVALID_ARGUMENT').message,
    ).toContain('McpManager options.servers[1]: a second server named "fs"');
  });

  it('setServer checks its definition the same way', async () => {
    manager = McpManager.create();
    await expect(manager.setServer(server('late', { startupTimeout: 5 }))).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining(
        'server "late": McpManager.setServer: unknown option "startupTimeout" (did you mean "startupTimeoutMs"?)',
      ),
    });
    expect(manager.listServers()).toEqual([]);
  });

  it("a correct definition, and the config layer's own output, are accepted and work", async () => {
    const loaded = await loadConfig({
      userConfigPath: false,
      project: false,
      inline: [{ mcpServers: { fromConfig: { command: node, args: [SCRIPTED], restart: { maxRestarts: 1 } } } }],
    });
    expect(loaded.errors).toEqual([]);
    manager = McpManager.create({
      servers: [
        ...loaded.servers,
        server('mine', { toolTimeoutMs: 20_000, restart: false, trusted: true, secrets: [] }),
      ],
    });
    expect(await manager.connectAll()).toMatchObject({ connected: ['fromConfig', 'mine'], failed: [] });
    expect((await manager.callTool('mcp__mine__echo', { text: 'hi' })).content).toEqual([{ type: 'text', text: 'hi' }]);
  });
});
