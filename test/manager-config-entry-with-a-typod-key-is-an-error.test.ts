/**
 * A config entry with a key that looks like one of ours (`argz`) is a config error at once,
 * naming the file, the server, the key and the key meant: the server is left out, never started
 * without its arguments (which would leave `node` waiting for a handshake until the connect
 * timed out). Asking for that server gets that error; the CLI shows it at once. A key like none
 * of ours (another host's field) stays a warning.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/manager/config/load-config.js';
import { McpManager } from '../src/manager/mcp-manager.js';
import { isMcpError } from '../src/protocol/errors.js';
import { requireBuiltCli, runCli } from './support/cli.js';
import { FIXTURES } from './support/processes.js';
import { endAll } from './support/end-all.js';
import { useTempDir } from './support/temp-dir.js';

const SCRIPTED = path.join(FIXTURES, 'legacy/scripted-server.mjs');
const tmp = useTempDir('mcpwire-typo-');
let file: string;
let manager: McpManager | undefined;

beforeEach(() => {
  file = path.join(tmp.dir, '.mcp.json');
  writeFileSync(
    file,
    JSON.stringify({
      mcpServers: {
        typo: { command: process.execPath, argz: [SCRIPTED] },
        fine: { command: process.execPath, args: [SCRIPTED], colour: 'blue' },
      },
    }),
  );
});
afterEach(async () => void ([manager] = await endAll([manager, 'close'])));

const MESSAGE = () =>
  `${file}: server "typo": unknown key "argz" (did you mean "args"?); the server is left out until this is fixed`;

describe('a config entry with a typo in a key', () => {
  it('is a config error naming file, server, key and the key meant; a key like none of ours warns', async () => {
    const loaded = await loadConfig({ cwd: tmp.dir, homeDir: tmp.dir, userConfigPath: false });
    expect(loaded.errors.map((e) => e.message)).toEqual([MESSAGE()]);
    expect(loaded.errors[0]).toMatchObject({ code: 'CONFIG_INVALID', file, server: 'typo', field: 'argz' });
    expect(loaded.servers.map((s) => s.name)).toEqual(['fine']);
    expect(loaded.warnings).toEqual([`${file}: server "fine": unknown key "colour" (ignored)`]);
  });

  it('the manager never starts it: connecting it, or calling its tool, is that config error', async () => {
    manager = McpManager.create({
      config: { cwd: tmp.dir, homeDir: tmp.dir, userConfigPath: false },
      requireApproval: false,
    });
    expect(await manager.connectAll()).toEqual({ connected: ['fine'], failed: [] });
    expect(manager.getStatus().configErrors).toEqual([MESSAGE()]);
    const refused = await manager.connect('typo').catch((error: unknown) => error);
    expect(isMcpError(refused, 'CONFIG_INVALID')).toBe(true);
    expect((refused as Error).message).toBe(MESSAGE());
    await expect(manager.callTool('mcp__typo__echo', {})).rejects.toThrow(MESSAGE());
  });

  it('the CLI says so at once: servers lists the error, call --server fails with it', async () => {
    requireBuiltCli();
    const env = { HOME: tmp.dir, XDG_CONFIG_HOME: path.join(tmp.dir, '.config') };
    const servers = await runCli(['servers'], { cwd: tmp.dir, env });
    expect(servers.stdout + servers.stderr).toContain(MESSAGE());
    const call = await runCli(['call', 'echo', '--arg', 'text=hi', '--server', 'typo', '--trust-project'], {
      cwd: tmp.dir,
      env,
    });
    expect(call.code).not.toBe(0);
    expect(call.stderr).toContain(MESSAGE());
  });
});
