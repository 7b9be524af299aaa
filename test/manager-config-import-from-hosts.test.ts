/**
 * importFrom reads other hosts' files read-only, from paths derived only from homeDir / cwd /
 * platform: Claude Desktop (mac, linux, windows), Claude Code (user and per-project servers),
 * Cursor (user and project), VS Code (`servers`; an entry using an input is left out with a
 * warning). A malformed file is an error naming file and line while the host's other files still
 * load. Every other host is covered by the discovery tests (`manager-hosts-discovery-*`).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hostConfigFiles, IMPORT_HOSTS, importFrom } from '../src/manager/config/hosts/host-import.js';
import { useConfigDirs } from './support/config-dirs.js';

const dirs = useConfigDirs('mcpwire-import-', { userConfigDir: false });

function write(file: string, text: string): string {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}

describe('importFrom', () => {
  it('claude-desktop: the file under Library/Application Support on mac', async () => {
    const file = write(
      path.join(dirs.home, 'Library/Application Support/Claude/claude_desktop_config.json'),
      JSON.stringify({ mcpServers: { fs: { command: 'npx', args: ['-y', 'server-fs'] } }, globalShortcut: 'x' }),
    );
    const result = await importFrom('claude-desktop', { homeDir: dirs.home, cwd: dirs.project, platform: 'darwin' });
    expect(result).toEqual({
      host: 'claude-desktop',
      servers: [{ name: 'fs', entry: { command: 'npx', args: ['-y', 'server-fs'] }, file, at: 'mcpServers["fs"]' }],
      files: [file],
      errors: [],
      warnings: [],
    });
  });

  it('claude-desktop: ~/.config/Claude on linux and %APPDATA%/Claude on windows', async () => {
    expect(hostConfigFiles('claude-desktop', { homeDir: dirs.home, platform: 'linux' })).toEqual([
      path.join(dirs.home, '.config/Claude/claude_desktop_config.json'),
    ]);
    expect(hostConfigFiles('claude-desktop', { homeDir: dirs.home, platform: 'win32' })).toEqual([
      path.join(dirs.home, 'AppData/Roaming/Claude/claude_desktop_config.json'),
    ]);
    const appData = path.join(dirs.root, 'appdata');
    const file = write(
      path.join(appData, 'Claude/claude_desktop_config.json'),
      JSON.stringify({ mcpServers: { w: { url: 'https://w.example/mcp' } } }),
    );
    const result = await importFrom('claude-desktop', { homeDir: dirs.home, platform: 'win32', appData });
    expect(result.servers).toEqual([
      { name: 'w', entry: { url: 'https://w.example/mcp' }, file, at: 'mcpServers["w"]' },
    ]);
  });

  it('claude-code: user servers, then the servers of this project only, in precedence order', async () => {
    const file = write(
      path.join(dirs.home, '.claude.json'),
      JSON.stringify({
        numStartups: 3,
        mcpServers: { shared: { type: 'stdio', command: 'user' } },
        projects: {
          [dirs.project]: {
            mcpServers: { shared: { command: 'local' }, only: { type: 'http', url: 'https://o.example/mcp' } },
          },
          [path.join(dirs.root, 'other')]: { mcpServers: { elsewhere: { command: 'no' } } },
        },
      }),
    );
    const result = await importFrom('claude-code', { homeDir: dirs.home, cwd: dirs.project });
    const at = `projects[${JSON.stringify(dirs.project)}].mcpServers`;
    expect(result.servers).toEqual([
      { name: 'shared', entry: { type: 'stdio', command: 'user' }, file, at: 'mcpServers["shared"]' },
      { name: 'shared', entry: { command: 'local' }, file, at: `${at}["shared"]` },
      { name: 'only', entry: { type: 'http', url: 'https://o.example/mcp' }, file, at: `${at}["only"]` },
    ]);
    expect(result.errors).toEqual([]);
  });

  it('cursor: ~/.cursor/mcp.json and <cwd>/.cursor/mcp.json (JSONC), user first', async () => {
    const user = write(path.join(dirs.home, '.cursor/mcp.json'), '{ "mcpServers": { "a": { "command": "a" }, }, }');
    const proj = write(
      path.join(dirs.project, '.cursor/mcp.json'),
      '{\n  // dirs.project\n  "mcpServers": { "b": { "url": "https://b.example/sse" } }\n}',
    );
    const result = await importFrom('cursor', { homeDir: dirs.home, cwd: dirs.project });
    expect(result.servers.map((s) => [s.name, s.file])).toEqual([
      ['a', user],
      ['b', proj],
    ]);
    expect(result.files).toEqual([user, proj]);
  });

  it('vscode: <cwd>/.vscode/mcp.json with `servers`; an entry using an input is left out with a warning naming it', async () => {
    const file = write(
      path.join(dirs.project, '.vscode/mcp.json'),
      '{\n  "inputs": [{ "type": "promptString", "id": "key", "password": true }],\n  "servers": {\n    "gh": { "type": "streamable-http", "url": "https://gh.example/mcp", "headers": { "Authorization": "Bearer ${input:key}" } },\n    "env": { "type": "http", "url": "https://e.example/mcp", "headers": { "Authorization": "Bearer ${env:E_TOKEN}" } },\n  },\n}\n',
    );
    const result = await importFrom('vscode', { homeDir: dirs.home, cwd: dirs.project });
    expect(result.servers).toEqual([
      {
        name: 'env',
        entry: { type: 'http', url: 'https://e.example/mcp', headers: { Authorization: 'Bearer ${E_TOKEN}' } },
        file,
        at: 'servers["env"]',
      },
    ]);
    expect(result.warnings).toEqual([
      `${file}: server "gh" not imported: headers.Authorization: \${input:key} is a VS Code input prompt ("key"); mcpwire cannot supply it`,
    ]);
  });

  it("a malformed file is an error with file and line; the host's other file still loads; nothing is written", async () => {
    const broken = write(
      path.join(dirs.home, '.cursor/mcp.json'),
      '{\n  "mcpServers": {\n    "a": { "command": "a" "args": [] }\n  }\n}\n',
    );
    const good = write(path.join(dirs.project, '.cursor/mcp.json'), '{ "mcpServers": { "b": { "command": "b" } } }');
    const result = await importFrom('cursor', { homeDir: dirs.home, cwd: dirs.project });
    expect(result.servers.map((s) => s.name)).toEqual(['b']);
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]!.code).toBe('CONFIG_INVALID');
    expect(result.errors[0]!.message).toBe(`${broken}:3:27: invalid JSON: comma expected`);
    expect(readFileSync(good, 'utf8')).toBe('{ "mcpServers": { "b": { "command": "b" } } }');
  });

  it('no files: nothing found, no errors', async () => {
    for (const host of IMPORT_HOSTS) {
      expect(await importFrom(host, { homeDir: dirs.home, cwd: dirs.project, platform: 'linux' })).toEqual({
        host,
        servers: [],
        files: [],
        errors: [],
        warnings: [],
      });
    }
  });

  it('entries that are not objects are left out with a warning naming file and server; the others are kept', async () => {
    const file = write(
      path.join(dirs.home, '.claude.json'),
      JSON.stringify({ mcpServers: { bad: 'npx thing', good: { command: 'g' } } }),
    );
    const result = await importFrom('claude-code', { homeDir: dirs.home, cwd: dirs.project });
    expect(result.servers.map((s) => s.name)).toEqual(['good']);
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([`${file}: server "bad" not imported: the entry must be an object`]);
  });
});
