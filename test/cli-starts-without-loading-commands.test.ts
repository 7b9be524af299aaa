/**
 * A TAB runs the CLI, so `mcpwire --version`, `--help`, a command's `--help` and a completion
 * answer (`mcpwire __complete`) load no command code: not the client, the manager, the
 * transports, nor undici, ajv, yaml, and none of the Node built-ins that cost most of a start
 * (child_process, crypto, http, tls). Each command's code loads on first use
 * (`src/cli/commands/index.ts`). Checked by recording what a real run of the built CLI loads,
 * never by timing it.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { EVERYTHING, requireBuiltCli, runCli } from './support/cli.js';
import { shellWorld } from './support/completion-shells.js';
import { cliLoads, type LoadedModules } from './support/loaded-modules.js';

// Not `net`: writing to process.stdout on a pipe loads it, whatever the command.
const HEAVY_BUILTINS = ['child_process', 'crypto', 'http', 'https', 'tls', 'zlib', 'readline'];
/** Classes whose code must not be among the loaded files (esbuild keeps class names). */
const HEAVY_CLASSES = ['McpClient', 'McpManager', 'ConfigLoader', 'ClientSession'];

/** Whether `code` (a built file) defines class `name`, as esbuild writes it or as written. */
function defines(code: string, name: string): boolean {
  return new RegExp(`\\bclass ${name}\\b|\\b${name} = class\\b`).test(code);
}

function expectLight(loaded: LoadedModules): void {
  expect(loaded.status, loaded.stderr).toBe(0);
  expect(loaded.distFiles.length).toBeGreaterThan(0);
  expect(loaded.packages).toEqual([]);
  for (const builtin of HEAVY_BUILTINS) expect(loaded.builtins).not.toContain(builtin);
  for (const file of loaded.distFiles) {
    const code = readFileSync(file, 'utf8');
    for (const heavy of HEAVY_CLASSES) expect(defines(code, heavy), `${file} holds ${heavy}`).toBe(false);
  }
}

beforeAll(() => requireBuiltCli());

describe('the mcpwire command starting', () => {
  it('prints --version loading no command code, package or heavy built-in', () => {
    const loaded = cliLoads(['--version']);
    expect(loaded.stdout).toMatch(/^mcpwire \d+\.\d+\.\d+/);
    expectLight(loaded);
  });

  it('prints --help and a command --help loading no command code', () => {
    expectLight(cliLoads(['--help']));
    const call = cliLoads(['call', '--help']);
    expect(call.stdout).toContain('Usage: mcpwire call');
    expectLight(call);
  });

  it('answers a completion (servers from the config, tools from the cache) loading no command code', async () => {
    const w = shellWorld({ everything: { command: process.execPath, args: [EVERYTHING] } });
    const listed = await runCli(['tools', '--server', 'everything'], { env: w.env, cwd: w.project });
    expect(listed.code, listed.stderr).toBe(0);
    const servers = cliLoads(['__complete', '3', 'mcpwire', 'call', '--server', ''], w.env, w.project);
    expect(servers.stdout).toMatch(/^everything\t/);
    expectLight(servers);
    const tools = cliLoads(['__complete', '2', 'mcpwire', 'call', 'get-s', '--server', 'everything'], w.env, w.project);
    expect(tools.stdout).toContain('get-sum\t');
    expectLight(tools);
  });

  it('loads the client for a command that talks to a server (the recorder sees what loads)', () => {
    const loaded = cliLoads(['tools', '--url', 'not a url']);
    expect(loaded.status).toBe(1);
    const code = loaded.distFiles.map((file) => readFileSync(file, 'utf8')).join('\n');
    expect(defines(code, 'McpClient')).toBe(true);
  });
});
