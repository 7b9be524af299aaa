/**
 * One rule names a server started from a command line (src/transport/command-name.ts), and the
 * library, the CLI and the proxy all use it: the table of command lines and the names they get,
 * then the same server named the same by `McpClient.connect` and by `mcpwire`, and a server that
 * dies at once named by its interpreter, not by its inline code.
 */
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { McpClient } from '../src/client/mcp-client.js';
import { commandDisplayName } from '../src/transport/command-name.js';
import { EVERYTHING, requireBuiltCli, runCli, SCRIPTED } from './support/cli.js';

const NODE = process.execPath;

describe('commandDisplayName', () => {
  it.each([
    // package runners: the package, without scope, version or extras
    ['npx', ['-y', '@modelcontextprotocol/server-everything'], 'server-everything'],
    ['npx', ['-y', '@modelcontextprotocol/server-filesystem@2026.8.31', '/tmp'], 'server-filesystem'],
    ['npx', ['--yes', '--package', '@scope/tools', 'tools-mcp', '--port', '3'], 'tools-mcp'],
    ['/usr/local/bin/npx', ['mcp-remote', 'https://example.com/sse'], 'mcp-remote'],
    ['npx.cmd', ['-y', '@upstash/context7-mcp@latest'], 'context7-mcp'],
    ['pnpm', ['dlx', '@scope/server-x'], 'server-x'],
    ['npm', ['exec', '--', '@scope/server-x@1'], 'server-x'],
    ['bunx', ['server-y'], 'server-y'],
    ['uvx', ['mcp-server-fetch'], 'mcp-server-fetch'],
    ['uvx', ['mcp-server-fetch==0.6.2'], 'mcp-server-fetch'],
    ['uvx', ['--from', 'git+https://github.com/acme/tools', 'acme-mcp'], 'acme-mcp'],
    ['uvx', ['mcp-server-git[extra]', '--repository', '.'], 'mcp-server-git'],
    ['uv', ['tool', 'run', 'mcp-server-time'], 'mcp-server-time'],
    ['pipx', ['run', 'mcp-server-sqlite'], 'mcp-server-sqlite'],
    // interpreters: the script by the file rule; inline code or no script: the interpreter
    ['node', ['server.js'], 'server'],
    ['node', ['weather.mjs'], 'weather'],
    [NODE, [EVERYTHING], 'server-everything'],
    ['node', ['/srv/acme-mcp/dist/index.js', '--stdio'], 'acme-mcp'],
    ['node', ['/srv/acme-mcp/build/src/main.js'], 'acme-mcp'],
    ['node', ['--import', 'tsx', 'src/weather-server.ts'], 'weather-server'],
    ['node', ['-e', 'process.exit(3)'], 'node'],
    ['node', ['--eval', 'require("x")', 'extra.js'], 'node'],
    ['node', ['-p', '1+1'], 'node'],
    ['node', [], 'node'],
    ['/opt/node-22/bin/node', ['C:\\mcp\\notes\\index.js'], 'notes'],
    ['tsx', ['src/index.ts'], 'index'],
    ['deno', ['run', '-A', 'server.ts'], 'server'],
    ['bun', ['run', 'mcp/tools.ts'], 'tools'],
    ['python', ['-m', 'mcp_server_time'], 'mcp_server_time'],
    ['python3.12', ['-m', 'acme.mcp.server'], 'server'],
    ['python3', ['/srv/notes/server.py'], 'notes'],
    ['python', ['-c', 'import x'], 'python'],
    ['uv', ['run', '--with', 'mcp', 'weather.py'], 'weather'],
    // containers: the image without registry, tag or digest
    [
      'docker',
      ['run', '-i', '--rm', '-e', 'GITHUB_TOKEN', 'ghcr.io/github/github-mcp-server:latest'],
      'github-mcp-server',
    ],
    ['docker', ['run', '-i', '-v', '/data:/data', 'mcp/filesystem@sha256:abc'], 'filesystem'],
    // anything else: the command by the file rule
    ['mcp-server-git', [], 'mcp-server-git'],
    ['/usr/local/bin/mcp-server-git', ['--repository', '.'], 'mcp-server-git'],
    ['C:\\Tools\\acme\\server.exe', [], 'acme'],
    ['./server.py', [], 'server'],
  ])('%s %j → %s', (command, args, expected) => {
    expect(commandDisplayName(command, args)).toBe(expected);
  });
});

describe('the library and the CLI name a command the same', () => {
  let client: McpClient | undefined;
  beforeAll(() => requireBuiltCli());
  afterEach(async () => {
    await client?.close();
    client = undefined;
  });

  it('McpClient.connect and mcpwire both call node …/server-everything/dist/index.js "server-everything"', async () => {
    client = await McpClient.connect({ command: NODE, args: [EVERYTHING] });
    expect(client.name).toBe('server-everything');
    const run = await runCli(['ping', '--', NODE, EVERYTHING]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^pong from server-everything in /);
  });

  it('McpClient.connect names a node script by the file rule, as the CLI does', async () => {
    client = await McpClient.connect({ command: NODE, args: [SCRIPTED] });
    expect(client.name).toBe(commandDisplayName(NODE, [SCRIPTED]));
    expect(client.name).toBe(path.basename(SCRIPTED, '.mjs'));
  });

  it('a server given as node -e "process.exit(3)" is reported as server "node"', async () => {
    const run = await runCli(['info', '--', NODE, '-e', 'process.exit(3)']);
    expect(run.code).toBe(4);
    expect(run.stderr).toContain('server "node"');
    expect(run.stderr).not.toContain('server "process.exit(3)"');
    const error = await McpClient.connect({ command: NODE, args: ['-e', 'process.exit(3)'] }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toMatch(/^server "node": /);
  });
});
