/**
 * The config layer reads the shapes workflow files use (seed 001): `mcp_servers:` as the servers
 * key, `command` as an array. Shapes it does not accept are errors naming the file and the key,
 * never a silently empty server list.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/manager/config/load-config.js';
import { FIXTURES } from './support/processes.js';

const WORKFLOW = path.resolve(FIXTURES, '../configs/workflow-mcp-servers.yaml');

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('the servers of a workflow file', () => {
  it('are read from mcp_servers, an array command becoming command and args, variables expanded', async () => {
    const env = {
      NODE: '/usr/bin/node',
      SERVER_SCRIPT: '/srv/db_server.mjs',
      API_URL: 'https://api.example.com/mcp',
      GITHUB_TOKEN: 'ghp-x1y2z3',
    };
    const loaded = await loadConfig({ configPaths: [WORKFLOW], userConfigPath: false, project: false, env });
    expect(loaded.errors).toEqual([]);
    expect(loaded.servers.map((s) => [s.name, s.transport, s.command ?? s.url, s.args ?? s.headers])).toEqual([
      ['db', 'stdio', '/usr/bin/node', ['/srv/db_server.mjs', '--version', '2025-06-18']],
      ['github', 'http', 'https://api.example.com/mcp', { Authorization: 'Bearer ghp-x1y2z3' }],
    ]);
    expect(loaded.servers[1]!.secrets).toContain('ghp-x1y2z3');
    expect(loaded.servers[0]!.origins).toMatchObject({ 'command[0]': '${NODE}', 'command[1]': '${SERVER_SCRIPT}' });
  });
});

describe('config shapes the loader does not accept', () => {
  it('are errors naming the file and the key', async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'mcpwire-shapes-'));
    const write = (name: string, text: string): string => {
      const file = path.join(dir!, name);
      writeFileSync(file, text);
      return file;
    };
    const listed = write('listed.yaml', 'mcp_servers:\n  - name: db\n    command: python\n');
    const dashed = write('dashed.yaml', 'mcp-servers:\n  db:\n    command: python\n');
    const none = write('none.yaml', 'name: nightly\nsteps: []\n');
    const both = write(
      'both.json',
      JSON.stringify({ mcpServers: { a: { command: 'a' } }, mcp_servers: { b: { command: 'b' } } }),
    );
    const badCommand = write(
      'bad-command.json',
      JSON.stringify({
        mcpServers: {
          empty: { command: [] },
          numbers: { command: ['python', 3] },
          ok: { command: ['python', 'db_server.py'] },
        },
      }),
    );
    const loaded = await loadConfig({
      configPaths: [listed, dashed, none, both, badCommand],
      userConfigPath: false,
      project: false,
      env: {},
    });
    const messages = loaded.errors.map((e) => e.message);
    expect(messages).toContain(`${listed}: "mcp_servers" must be an object of servers by name`);
    expect(messages).toContain(
      `${dashed}: unknown key "mcp-servers" (did you mean "mcpServers" or "mcp_servers"?); no servers were read from this file`,
    );
    expect(messages).toContain(
      `${none}: no servers: expected "mcpServers", "mcp_servers" or "servers" (top-level keys: name, steps)`,
    );
    expect(messages).toContain(
      `${both}: servers under both "mcpServers" and "mcp_servers"; only "mcpServers" is read (keep one)`,
    );
    expect(messages).toContain(
      `${badCommand}: server "empty": command must be a string or a non-empty array of non-empty strings (["python", "server.py"])`,
    );
    expect(messages).toContain(
      `${badCommand}: server "numbers": command must be a string or a non-empty array of non-empty strings (["python", "server.py"])`,
    );
    expect(loaded.errors.every((e) => e.code === 'CONFIG_INVALID')).toBe(true);
    expect(loaded.servers.map((s) => [s.name, s.command, s.args])).toEqual([
      ['a', 'a', undefined],
      ['ok', 'python', ['db_server.py']],
    ]);
  });
});
