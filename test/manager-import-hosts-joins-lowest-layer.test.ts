/**
 * McpManager's importHosts: off by default; `true` or a list of host ids adds other hosts' usable
 * servers to the lowest config layer as HOST:NAME (their host in the provenance), leaves the
 * others out with a warning naming file, server and reason, and a discovered stdio server is
 * connected and called like any other; an unknown host id is refused.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { McpManager } from '../src/manager/mcp-manager.js';
import { KIT_STDIO_SERVER } from './support/kit-stdio.js';
import { startHostHome } from './support/host-homes.js';
import { endAll } from './support/end-all.js';

let manager: McpManager | undefined;
afterEach(async () => void ([manager] = await endAll([manager, 'disconnectAll'])));

describe('McpManager importHosts', () => {
  it('is off by default: no other host is read', async () => {
    const h = startHostHome({ hosts: ['cursor', 'codex'] });
    manager = McpManager.create({ config: { homeDir: h.home, cwd: h.project, env: h.env } });
    await manager.init();
    expect(manager.listServers()).toEqual([]);
  });

  it('a list of hosts: their usable servers as HOST:NAME, the others warned about by file, server and reason', async () => {
    const h = startHostHome({
      hosts: ['cursor', 'codex', 'vscode'],
      stdio: { command: process.execPath, args: [KIT_STDIO_SERVER] },
    });
    manager = McpManager.create({
      importHosts: ['codex', 'vscode'],
      config: { homeDir: h.home, cwd: h.project, env: { ...h.env, DOCS_ORG: 'o', DOCS_TOKEN: 't' } },
    });
    await manager.init();
    expect(manager.listServers()).toEqual(['codex:files', 'codex:docs', 'codex:project-tool', 'vscode:fetch']);
    const status = manager.getStatus();
    const files = status.servers.find((s) => s.name === 'codex:files')!;
    expect(files.provenance).toEqual({
      file: h.files.codex[0]!.file,
      scope: 'import',
      host: { id: 'codex', scope: 'user', at: 'mcp_servers["files"]' },
    });
    expect(status.configErrors).toEqual([]);
    expect(status.configWarnings).toEqual([
      `${h.files.codex[0]!.file}: server "codex:figma" not imported: env.FIGMA_API_KEY needs variable FIGMA_API_KEY, which is not set`,
      `${h.files.vscode[0]!.file}: server "vscode:perplexity" not imported: env.PERPLEXITY_API_KEY: \${input:perplexity-key} is a VS Code input prompt ("perplexity-key"); mcpwire cannot supply it`,
      `${h.files.vscode[1]!.file}: server "vscode:github" not imported: headers.Authorization needs variable GITHUB_TOKEN, which is not set`,
      `${h.files.vscode[1]!.file}: server "vscode:sandboxed" not imported: VS Code runs it sandboxed ("sandboxEnabled"); mcpwire has no sandbox and will not run it unconfined`,
    ]);
  });

  it('true: every host; a discovered stdio server connects and answers a tool call', async () => {
    const h = startHostHome({ stdio: { command: process.execPath, args: [KIT_STDIO_SERVER] } });
    manager = McpManager.create({ importHosts: true, config: { homeDir: h.home, cwd: h.project, env: h.env } });
    await manager.init();
    const names = manager.listServers();
    for (const id of [
      'claude-desktop:files',
      'cursor:files',
      'windsurf:files',
      'codex:files',
      'zed:files',
      'goose:remote',
    ])
      expect(names).toContain(id);
    // The project's .mcp.json is mcpwire's own file: its server keeps its own name.
    expect(names).toContain('sentry');
    expect(names).not.toContain('claude-code:sentry');
    const client = await manager.connect('zed:files');
    const result = await client.callTool('echo', { text: 'through zed' });
    expect(result.content).toEqual([{ type: 'text', text: 'through zed' }]);
  });

  it('a host file that does not parse is a warning naming its position; the other hosts still join; a reload keeps its last good servers', async () => {
    const h = startHostHome({ hosts: ['cursor', 'codex'] });
    manager = McpManager.create({
      importHosts: ['codex', 'cursor'],
      config: { homeDir: h.home, cwd: h.project, env: h.env },
    });
    await manager.init();
    expect(manager.listServers()).toContain('codex:files');
    const codex = h.write('.codex/config.toml', '[mcp_servers.files]\ncommand = "node"\nargs = [\n');
    await manager.reloadConfig();
    const status = manager.getStatus();
    expect(status.configErrors).toEqual([]);
    expect(status.configWarnings.filter((w) => w.startsWith('host file skipped'))).toEqual([
      expect.stringMatching(
        new RegExp(`^host file skipped: ${codex.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:4:1: invalid TOML`),
      ),
    ]);
    expect(manager.listServers()).toEqual(expect.arrayContaining(['codex:files', 'cursor:files', 'cursor:docs']));
  });

  it('an unknown host id is refused, naming it and the known ones', () => {
    expect(() => McpManager.create({ importHosts: ['cursor', 'sublime' as 'cursor'] })).toThrow(
      /importHosts": unknown host "sublime" \(hosts: claude-desktop, claude-code, cursor,/,
    );
  });
});
