/**
 * loadConfig with `import`: other hosts' servers are the lowest layer (scope `import`), shadowed
 * entries are listed in `provenance.overrides`, servers from files inside the project are
 * untrusted, and an imported file that breaks on reload keeps its last good entries.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigLoader, loadConfig } from '../src/manager/config/load-config.js';
import { useConfigDirs } from './support/config-dirs.js';

const dirs = useConfigDirs('mcpwire-import-layer-', { userConfigDir: false });

function write(file: string, value: unknown): string {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
  return file;
}

describe('imported host servers in loadConfig', () => {
  it('are the lowest layer, record what they shadow, and are trusted only outside the project', async () => {
    const claude = write(path.join(dirs.home, '.claude.json'), {
      mcpServers: { a: { command: 'claude-a' }, c: { command: 'claude-c' } },
    });
    const cursorUser = write(path.join(dirs.home, '.cursor/mcp.json'), { mcpServers: { a: { command: 'cursor-a' } } });
    const cursorProject = write(path.join(dirs.project, '.cursor/mcp.json'), {
      mcpServers: { b: { url: 'https://b.example/mcp' } },
    });
    const user = write(path.join(dirs.home, '.mcpwire/config.json'), { mcpServers: { c: { command: 'mine' } } });
    const loaded = await loadConfig({
      cwd: dirs.project,
      homeDir: dirs.home,
      env: {},
      import: ['claude-code', 'cursor'],
    });
    expect(loaded.errors).toEqual([]);
    expect(loaded.servers).toEqual([
      {
        name: 'a',
        transport: 'stdio',
        command: 'cursor-a',
        provenance: {
          file: cursorUser,
          scope: 'import',
          host: { id: 'cursor', scope: 'user', at: 'mcpServers["a"]' },
          overrides: [{ file: claude, scope: 'import' }],
        },
        trusted: true,
      },
      {
        name: 'c',
        transport: 'stdio',
        command: 'mine',
        provenance: { file: user, scope: 'user', overrides: [{ file: claude, scope: 'import' }] },
        trusted: true,
      },
      {
        name: 'b',
        transport: 'http',
        url: 'https://b.example/mcp',
        provenance: {
          file: cursorProject,
          scope: 'import',
          host: { id: 'cursor', scope: 'project', at: 'mcpServers["b"]' },
        },
        trusted: false,
      },
    ]);
    expect(loaded.files.filter((f) => f.scope === 'import')).toEqual([
      { file: claude, scope: 'import', status: 'loaded' },
      { file: cursorUser, scope: 'import', status: 'loaded' },
      { file: cursorProject, scope: 'import', status: 'loaded' },
    ]);
  });

  it('overrides chain through every layer, lowest first', async () => {
    const claude = write(path.join(dirs.home, '.claude.json'), { mcpServers: { s: { command: '1' } } });
    const user = write(path.join(dirs.home, '.mcpwire/config.json'), { mcpServers: { s: { command: '2' } } });
    const proj = write(path.join(dirs.project, '.mcp.json'), { mcpServers: { s: { command: '3' } } });
    const explicit = write(path.join(dirs.root, 'x.json'), { mcpServers: { s: { command: '4' } } });
    const loaded = await loadConfig({
      cwd: dirs.project,
      homeDir: dirs.home,
      env: {},
      import: ['claude-code'],
      configPaths: [explicit],
      inline: [{ mcpServers: { s: { command: '5' } } }],
    });
    expect(loaded.servers).toEqual([
      {
        name: 's',
        transport: 'stdio',
        command: '5',
        provenance: {
          file: 'inline[0]',
          scope: 'inline',
          overrides: [
            { file: claude, scope: 'import' },
            { file: user, scope: 'user' },
            { file: proj, scope: 'project' },
            { file: explicit, scope: 'explicit' },
          ],
        },
        trusted: true,
      },
    ]);
  });

  it('imported entries are validated and expanded like any other; one using a VS Code input is left out with a warning', async () => {
    const vscode = write(
      path.join(dirs.project, '.vscode/mcp.json'),
      '{ "inputs": [], "servers": { "gh": { "type": "streamableHttp", "url": "${GH_URL}" }, "bad": { "type": "stdio" }, "asks": { "url": "https://a.example/${input:path}" } } }',
    );
    const loaded = await loadConfig({
      cwd: dirs.project,
      homeDir: dirs.home,
      env: { GH_URL: 'https://gh.example/mcp' },
      import: ['vscode'],
    });
    expect(loaded.servers).toEqual([
      {
        name: 'gh',
        transport: 'http',
        url: 'https://gh.example/mcp',
        provenance: { file: vscode, scope: 'import', host: { id: 'vscode', scope: 'project', at: 'servers["gh"]' } },
        trusted: false,
        secrets: ['https://gh.example/mcp'],
        origins: { url: '${GH_URL}' },
      },
    ]);
    expect(loaded.errors.map((e) => e.message)).toEqual([`${vscode}: server "bad": a stdio server needs a "command"`]);
    expect(loaded.warnings).toEqual([
      `${vscode}: server "asks" not imported: url: \${input:path} is a VS Code input prompt ("path"); mcpwire cannot supply it`,
    ]);
  });

  it('an imported file that breaks on reload keeps its last good entries and reports the error', async () => {
    const cursor = write(path.join(dirs.home, '.cursor/mcp.json'), { mcpServers: { a: { command: 'a' } } });
    const loader = new ConfigLoader({
      cwd: dirs.project,
      homeDir: dirs.home,
      env: {},
      userConfigPath: false,
      project: false,
      import: ['cursor'],
    });
    expect((await loader.load()).servers.map((s) => s.command)).toEqual(['a']);
    write(cursor, '{ "mcpServers": { "a": { "command": "b" }');
    const reloaded = await loader.load();
    expect(reloaded.servers.map((s) => s.command)).toEqual(['a']);
    expect(reloaded.files).toEqual([{ file: cursor, scope: 'import', status: 'last-good' }]);
    expect(reloaded.errors).toHaveLength(1);
    expect(reloaded.errors[0]!.message.startsWith(`${cursor}:1:`)).toBe(true);
  });

  it('files() lists the host files for watching, before the own layers', () => {
    const loader = new ConfigLoader({
      cwd: dirs.project,
      homeDir: dirs.home,
      userConfigPath: false,
      project: false,
      import: ['cursor', 'claude-desktop'],
      platform: 'linux',
    });
    expect(loader.files()).toEqual([
      path.join(dirs.home, '.cursor/mcp.json'),
      path.join(dirs.project, '.cursor/mcp.json'),
      path.join(dirs.home, '.config/Claude/claude_desktop_config.json'),
    ]);
  });
});
