/**
 * The layered config on real files in temp dirs: both host formats, JSONC and YAML, merge order
 * and provenance, every variable form and its error, envFile, transport inference, validation
 * messages, malformed files with line numbers (the rest still loads), last-good on reload,
 * redaction, and a manager started from the files.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigLoader, loadConfig } from '../src/manager/config/load-config.js';
import { redactServer } from '../src/manager/config/redact.js';
import { stripJsonComments } from '../src/manager/config/text-formats.js';
import { McpManager } from '../src/manager/mcp-manager.js';
import { FIXTURES } from './support/processes.js';
import { useConfigDirs } from './support/config-dirs.js';

const dirs = useConfigDirs('mcpwire-config-');

const write = (file: string, text: string): string => {
  writeFileSync(file, text);
  return file;
};
const options = (extra: object = {}) => ({ cwd: dirs.project, homeDir: dirs.home, env: {}, ...extra });

describe('loadConfig', () => {
  it('merges user < dirs.project < explicit < inline by server name (whole entry) and records provenance', async () => {
    const user = write(
      path.join(dirs.home, '.mcpwire/config.json'),
      JSON.stringify({ mcpServers: { shared: { command: 'user-cmd' }, mine: { command: 'u' } } }),
    );
    const proj = write(
      path.join(dirs.project, '.mcp.json'),
      JSON.stringify({
        mcpServers: { shared: { command: 'project-cmd', args: ['x'] }, proj: { url: 'https://p.example/mcp' } },
      }),
    );
    const explicit = write(
      path.join(dirs.root, 'extra.yaml'),
      'servers:\n  proj:\n    type: sse\n    url: https://e.example/sse\n',
    );
    const loaded = await loadConfig(
      options({ configPaths: [explicit], inline: [{ servers: { mem: { command: 'node', args: ['m.js'] } } }] }),
    );
    expect(loaded.errors).toEqual([]);
    const byName = Object.fromEntries(loaded.servers.map((s) => [s.name, s]));
    expect(byName.shared).toEqual({
      name: 'shared',
      transport: 'stdio',
      command: 'project-cmd',
      args: ['x'],
      provenance: { file: proj, scope: 'project', overrides: [{ file: user, scope: 'user' }] },
      trusted: false,
    });
    expect(byName.mine!.provenance).toEqual({ file: user, scope: 'user' });
    expect(byName.mine!.trusted).toBe(true);
    expect(byName.proj).toMatchObject({
      transport: 'sse',
      url: 'https://e.example/sse',
      provenance: { file: explicit, scope: 'explicit', overrides: [{ file: proj, scope: 'project' }] },
      trusted: true,
    });
    expect(byName.mem!.provenance).toEqual({ file: 'inline[0]', scope: 'inline' });
  });

  it('reads JSON with comments and trailing commas, and VS Code transport names', async () => {
    write(
      path.join(dirs.project, '.mcp.json'),
      '{\n  // a comment\n  "servers": {\n    "api": { "type": "streamable-http", "url": "https://a.example/mcp", /* inline */ },\n  },\n}\n',
    );
    const loaded = await loadConfig(options());
    expect(loaded.errors).toEqual([]);
    expect(loaded.servers).toEqual([
      { name: 'api', transport: 'http', url: 'https://a.example/mcp', provenance: expect.any(Object), trusted: false },
    ]);
    expect(stripJsonComments('{"a": "// not a comment", }')).toBe('{"a": "// not a comment"  }');
  });

  it('expands ${VAR}, ${VAR:-default} and ${env:VAR} in command, args, env, cwd, url and headers', async () => {
    write(
      path.join(dirs.project, '.mcp.json'),
      JSON.stringify({
        mcpServers: {
          s: {
            command: '${BIN}',
            args: ['--root', '${ROOT:-/srv}', '$${LITERAL}'],
            env: { KEY: '${env:API_KEY}' },
            cwd: '${HOME_DIR}',
          },
          h: { url: 'https://${HOST}/mcp', headers: { Authorization: 'Bearer ${TOKEN}' } },
        },
      }),
    );
    const loaded = await loadConfig(
      options({
        env: { BIN: 'node', API_KEY: 'sk-123456', HOME_DIR: '/home/u', HOST: 'h.example', TOKEN: 'tok-abcdef' },
      }),
    );
    expect(loaded.errors).toEqual([]);
    const [s, h] = loaded.servers;
    expect(s).toMatchObject({
      command: 'node',
      args: ['--root', '/srv', '${LITERAL}'],
      env: { KEY: 'sk-123456' },
      cwd: '/home/u',
    });
    expect(h).toMatchObject({ url: 'https://h.example/mcp', headers: { Authorization: 'Bearer tok-abcdef' } });
    expect(h!.secrets).toEqual(expect.arrayContaining(['tok-abcdef', 'h.example']));
  });

  it('an unset variable without a default names file, server, field and variable; the other servers load', async () => {
    const file = write(
      path.join(dirs.project, '.mcp.json'),
      JSON.stringify({
        mcpServers: {
          bad: { url: 'https://x/mcp', headers: { Authorization: 'Bearer ${TOKEN}' } },
          good: { command: 'node' },
        },
      }),
    );
    const loaded = await loadConfig(options());
    expect(loaded.errors.map((e) => e.message)).toEqual([
      `${file}: server "bad": headers.Authorization: variable TOKEN is not set (write \${TOKEN:-default} for a default)`,
    ]);
    expect(loaded.servers.map((s) => s.name)).toEqual(['good']);
  });

  it('reads envFile next to the config (explicit env wins) and treats its values as secrets', async () => {
    write(path.join(dirs.project, 'server.env'), '# comment\nexport DB_URL="postgres://u:pw@db/x"\nLEVEL=debug\n');
    write(
      path.join(dirs.project, '.mcp.json'),
      JSON.stringify({ mcpServers: { db: { command: 'node', envFile: 'server.env', env: { LEVEL: 'info' } } } }),
    );
    const [db] = (await loadConfig(options())).servers;
    expect(db!.env).toEqual({ DB_URL: 'postgres://u:pw@db/x', LEVEL: 'info' });
    expect(JSON.stringify(redactServer(db!))).not.toContain('pw@db');
  });

  it('validation: a stdio server without command and an http server without url are named; wrong types name the field; unknown keys warn', async () => {
    const file = write(
      path.join(dirs.project, '.mcp.json'),
      JSON.stringify({
        mcpServers: {
          a: { type: 'stdio', args: [] },
          b: { type: 'http' },
          c: { command: 'node', args: 'not-a-list' },
          d: { command: 'node', colour: 'blue' },
        },
      }),
    );
    const loaded = await loadConfig(options());
    const messages = loaded.errors.map((e) => e.message);
    expect(messages[0]).toBe(`${file}: server "a": a stdio server needs a "command"`);
    expect(messages[1]).toBe(`${file}: server "b": an http server needs a "url"`);
    expect(messages[2]).toBe(`${file}: server "c": args must be a list of strings, got a string`);
    expect(loaded.servers.map((s) => s.name)).toEqual(['d']);
    expect(loaded.warnings).toEqual([`${file}: server "d": unknown key "colour" (ignored)`]);
  });

  it('a malformed JSON or YAML file is reported with file and line; the other files still load', async () => {
    const json = write(
      path.join(dirs.project, '.mcp.json'),
      '{\n  "mcpServers": {\n    "x": { "command": "node" },,\n  }\n}\n',
    );
    const yaml = write(path.join(dirs.project, 'mcp.yaml'), 'servers:\n  y:\n    command: [unclosed\n');
    write(path.join(dirs.home, '.mcpwire/config.yaml'), 'mcpServers:\n  fine:\n    command: node\n');
    const loaded = await loadConfig(options());
    expect(loaded.servers.map((s) => s.name)).toEqual(['fine']);
    expect(loaded.errors[0]!.message).toMatch(
      new RegExp(`^${json.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:4:3: invalid JSON`),
    );
    expect(loaded.errors[1]!.message).toMatch(
      new RegExp(`^${yaml.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+:\\d+: invalid YAML`),
    );
  });

  it('permissions blocks are collected per file with provenance', async () => {
    const file = write(
      path.join(dirs.project, '.mcp.json'),
      JSON.stringify({
        permissions: { allow: ['mcp__fs__*'], deny: ['mcp__fs__write_file'], defaultMode: 'ask' },
        mcpServers: {},
      }),
    );
    const loaded = await loadConfig(options());
    expect(loaded.permissions).toEqual([
      { file, scope: 'project', allow: ['mcp__fs__*'], deny: ['mcp__fs__write_file'], ask: [], defaultMode: 'ask' },
    ]);
  });

  it('on reload, a file that broke keeps its last good contents and the error is reported', async () => {
    const file = write(
      path.join(dirs.project, '.mcp.json'),
      JSON.stringify({ mcpServers: { keep: { command: 'node' } } }),
    );
    const loader = new ConfigLoader(options());
    expect((await loader.load()).servers.map((s) => s.name)).toEqual(['keep']);
    write(file, '{ "mcpServers": ');
    const again = await loader.load();
    expect(again.servers.map((s) => s.name)).toEqual(['keep']);
    expect(again.errors).toHaveLength(1);
    expect(again.files).toContainEqual({ file, scope: 'project', status: 'last-good' });
  });

  it('redaction: no expanded secret appears in a display copy', async () => {
    write(
      path.join(dirs.project, '.mcp.json'),
      JSON.stringify({
        mcpServers: {
          h: {
            url: 'https://x.example/mcp?key=${KEY}',
            headers: { Authorization: 'Bearer ${TOKEN}', 'X-Plain': 'ok' },
            env: {},
          },
          s: { command: 'node', args: ['--token=${TOKEN}'], env: { GITHUB_TOKEN: 'literal-in-file', MODE: 'dev' } },
        },
      }),
    );
    const loaded = await loadConfig(options({ env: { TOKEN: 'tok-supersecret', KEY: 'k-99999999' } }));
    const shown = JSON.stringify(loaded.servers.map(redactServer));
    expect(shown).not.toContain('tok-supersecret');
    expect(shown).not.toContain('k-99999999');
    expect(shown).not.toContain('literal-in-file');
    expect(shown).toContain('"Authorization":"Bearer ***"');
    expect(shown).toContain('"X-Plain":"ok"');
    expect(shown).toContain('"MODE":"dev"');
  });
});

describe('a manager started from config files', () => {
  it('loads on connectAll, connects what it can, and reports broken files in its status', async () => {
    const file = write(
      path.join(dirs.project, '.mcp.json'),
      JSON.stringify({
        mcpServers: {
          legacy: { command: process.execPath, args: [path.join(FIXTURES, 'legacy/scripted-server.mjs')] },
          broken: { type: 'stdio' },
        },
      }),
    );
    write(path.join(dirs.home, '.mcpwire/config.yaml'), 'mcpServers: [not, an, object]\n');
    const manager = McpManager.create({ config: options(), requireApproval: false });
    try {
      expect(manager.configFiles()).toContain(file);
      const { connected } = await manager.connectAll();
      expect(connected).toEqual(['legacy']);
      const status = manager.getStatus();
      expect(status.servers.map((s) => [s.name, s.provenance?.scope])).toEqual([['legacy', 'project']]);
      expect(status.configErrors).toEqual([
        `${path.join(dirs.home, '.mcpwire/config.yaml')}: "mcpServers" must be an object of servers by name`,
        `${file}: server "broken": a stdio server needs a "command"`,
      ]);
      expect(manager.getAllTools().some((t) => t.name === 'mcp__legacy__echo')).toBe(true);
    } finally {
      await manager.disconnectAll();
    }
  });
});
