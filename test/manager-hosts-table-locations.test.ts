/**
 * hostFiles: every host's files per OS and scope, derived only from the options (home, cwd,
 * platform, env), lowest precedence first.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HOST_IDS, hostFiles, isHostId, type HostId } from '../src/manager/config/hosts/host-table.js';

const home = '/h';
const cwd = '/p';
const files = (host: HostId, platform: NodeJS.Platform, env: Record<string, string> = {}) =>
  hostFiles(host, { homeDir: home, cwd, platform, env }).map(
    (f) => `${f.scope} ${f.format} ${f.file} ${f.at.join('.')}`,
  );

describe('hostFiles', () => {
  it('knows thirteen hosts; isHostId tells them', () => {
    expect(HOST_IDS).toHaveLength(13);
    expect(isHostId('codex')).toBe(true);
    expect(isHostId('claude')).toBe(false);
  });

  it('claude-desktop: ~/.config, Application Support, %APPDATA% (and XDG_CONFIG_HOME on linux)', () => {
    expect(files('claude-desktop', 'linux')).toEqual([
      'user json /h/.config/Claude/claude_desktop_config.json mcpServers',
    ]);
    expect(files('claude-desktop', 'linux', { XDG_CONFIG_HOME: '/x' })).toEqual([
      'user json /x/Claude/claude_desktop_config.json mcpServers',
    ]);
    expect(files('claude-desktop', 'darwin')).toEqual([
      'user json /h/Library/Application Support/Claude/claude_desktop_config.json mcpServers',
    ]);
    expect(files('claude-desktop', 'win32')).toEqual([
      'user json /h/AppData/Roaming/Claude/claude_desktop_config.json mcpServers',
    ]);
    expect(files('claude-desktop', 'win32', { APPDATA: '/a' })).toEqual([
      'user json /a/Claude/claude_desktop_config.json mcpServers',
    ]);
  });

  it('claude-code: settings, ~/.claude.json root, .mcp.json, project settings, then this project in ~/.claude.json', () => {
    expect(files('claude-code', 'linux')).toEqual([
      'user json /h/.claude/settings.json mcpServers',
      'user json /h/.claude.json mcpServers',
      'project json /p/.mcp.json mcpServers',
      'project json /p/.claude/settings.json mcpServers',
      'project json /p/.claude/settings.local.json mcpServers',
      'project json /h/.claude.json projects./p.mcpServers',
    ]);
    expect(files('claude-code', 'linux', { CLAUDE_CONFIG_DIR: '/c' })[1]).toBe('user json /c/.claude.json mcpServers');
  });

  it('codex: $CODEX_HOME/config.toml and the project .codex/config.toml, [mcp_servers]', () => {
    expect(files('codex', 'win32', { CODEX_HOME: '/ch' })).toEqual([
      'user toml /ch/config.toml mcp_servers',
      'project toml /p/.codex/config.toml mcp_servers',
    ]);
  });

  it('goose, zed, vscode, cline and roo-code follow each OS layout', () => {
    expect(files('goose', 'darwin')).toEqual(['user yaml /h/.config/goose/config.yaml extensions']);
    expect(files('goose', 'win32')).toEqual(['user yaml /h/AppData/Roaming/Block/goose/config/config.yaml extensions']);
    expect(files('zed', 'win32')[0]).toBe('user jsonc /h/AppData/Roaming/Zed/settings.json context_servers');
    expect(files('zed', 'linux', { XDG_CONFIG_HOME: '/x' })[0]).toBe('user jsonc /x/zed/settings.json context_servers');
    expect(files('vscode', 'darwin')).toEqual([
      'user jsonc /h/Library/Application Support/Code/User/mcp.json servers',
      'user jsonc /h/Library/Application Support/Code - Insiders/User/mcp.json servers',
      'project jsonc /p/.vscode/mcp.json servers',
    ]);
    expect(files('cline', 'linux')).toEqual([
      'user json /h/.config/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json mcpServers',
    ]);
    expect(files('roo-code', 'win32')).toEqual([
      'user json /h/AppData/Roaming/Code/User/globalStorage/rooveterinaryinc.roo-cline/settings/mcp_settings.json mcpServers',
      'project json /p/.roo/mcp.json mcpServers',
    ]);
  });

  it('continue: a list in ~/.continue/config.yaml and a directory of files in the project', () => {
    const found = hostFiles('continue', { homeDir: home, cwd, platform: 'linux' });
    expect(found.map((f) => [f.file, f.container, f.directory])).toEqual([
      [path.join(home, '.continue/config.yaml'), 'list', undefined],
      [path.join(cwd, '.continue/mcpServers'), 'list', ['.yaml', '.yml', '.json']],
    ]);
  });

  it('every host has at least one user file and only absolute paths', () => {
    for (const host of HOST_IDS) {
      const found = hostFiles(host, { homeDir: home, cwd, platform: 'linux' });
      expect(found.some((f) => f.scope === 'user')).toBe(true);
      for (const f of found) expect(path.isAbsolute(f.file)).toBe(true);
    }
  });
});
