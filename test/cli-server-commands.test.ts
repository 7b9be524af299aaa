/**
 * `mcpwire` against real servers, driven as a user drives it (`node dist/cli.js …`): every
 * command that talks to a server, in text and `--json` form, with the documented exit codes.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { startHttpFixture } from './support/http-fixture.js';
import { everythingOverHttp } from './support/http-servers.js';
import { EVERYTHING, MODERN, requireBuiltCli, runCli, SCRIPTED } from './support/cli.js';

const node = process.execPath;
const legacy = ['--', node, SCRIPTED];
const modern = ['--', node, MODERN];

beforeAll(() => requireBuiltCli());

describe('mcpwire server commands', () => {
  it('info: era, revision, server and capabilities; --json has the same facts', async () => {
    const text = await runCli(['info', ...legacy]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^server\s+scripted-legacy 1\.0\.0$/m);
    expect(text.stdout).toMatch(/^era\s+legacy$/m);
    expect(text.stdout).toMatch(/^protocol\s+2025-11-25$/m);
    expect(text.stdout).toMatch(/^capabilities\s+completions, logging, prompts, resources, tools$/m);
    expect(text.stdout).toContain('A scripted legacy fixture');

    const json = (await runCli(['info', '--json', ...modern])).json<{ ok: boolean; result: Record<string, unknown> }>();
    expect(json.ok).toBe(true);
    expect(json.result).toMatchObject({
      era: 'modern',
      protocolVersion: '2026-07-28',
      serverInfo: { name: 'modern-fixture' },
    });
  });

  it('tools: a table with required arguments starred; --json is the tool list', async () => {
    const text = await runCli(['tools', ...legacy]);
    expect(text.code).toBe(0);
    expect(text.stdout.split('\n')[0]).toMatch(/^NAME\s+ARGUMENTS\s+DESCRIPTION$/);
    expect(text.stdout).toMatch(/^add\s+a\*, b\*/m);
    const json = (await runCli(['tools', '--json', ...legacy])).json<{ result: Array<{ name: string }> }>();
    expect(json.result.map((t) => t.name)).toContain('echo');
  });

  it('call: --arg values are JSON-coerced, --arg wins over --args-json, structured results come back', async () => {
    const echo = await runCli(['call', 'echo', '--arg', 'text=hello world', ...legacy]);
    expect(echo).toMatchObject({ code: 0, stdout: 'hello world\n' });
    const add = await runCli(['call', 'add', '--args-json', '{"a":1,"b":100}', '--arg', 'b=2', '--json', ...legacy]);
    expect(add.code).toBe(0);
    expect(add.json()).toMatchObject({ ok: true, result: { structuredContent: { sum: 3 } } });
  });

  it('call: a tool error exits 5 and prints the tool text; an unknown tool exits 5 before calling', async () => {
    const failed = await runCli(['call', 'fails', ...legacy]);
    expect(failed.code).toBe(5);
    expect(failed.stdout).toContain('this tool always fails');
    const envelope = (await runCli(['call', 'fails', '--json', ...legacy])).json<{
      ok: boolean;
      error: { code: string; exitCode: number };
    }>();
    expect(envelope).toMatchObject({ ok: false, error: { code: 'TOOL_ERROR', exitCode: 5 } });

    const unknown = await runCli(['call', 'nope', '--json', ...legacy]);
    expect(unknown.code).toBe(5);
    expect(unknown.json()).toMatchObject({
      ok: false,
      error: { code: 'TOOL_NOT_FOUND', message: expect.stringContaining('tool not found: nope') },
    });
  });

  it('call: a request that outlives --timeout exits 6 with a message naming the server and method', async () => {
    const run = await runCli(['call', 'never-answer', '--timeout', '3000', ...legacy]);
    expect(run.code).toBe(6);
    expect(run.stderr).toContain('server "scripted-server"');
    expect(run.stderr).toContain('tools/call');
  });

  it('resources, templates, read, prompts, prompt, complete and ping', async () => {
    const resources = await runCli(['resources', ...legacy]);
    expect(resources.code).toBe(0);
    expect(resources.stdout).toContain('test://static/1');
    expect((await runCli(['templates', ...legacy])).stdout).toContain('test://dynamic/{id}');
    const read = await runCli(['read', 'test://static/1', '--json', ...legacy]);
    expect(read.json()).toMatchObject({ ok: true, result: { contents: [{ uri: 'test://static/1' }] } });
    expect((await runCli(['prompts', ...legacy])).stdout).toMatch(/^greet\s+name\*/m);
    const prompt = await runCli(['prompt', 'greet', '--arg', 'name=Ada', ...legacy]);
    expect(prompt.code).toBe(0);
    expect(prompt.stdout).toMatch(/^user: .*Ada/m);
    const complete = await runCli(['complete', '--prompt', 'greet', '--argument', 'name', '--value', 'Al', ...legacy]);
    expect(complete.stdout.trim().split('\n')).toEqual(['Alan', 'Alice']);
    expect((await runCli(['ping', ...legacy])).stdout).toMatch(/^pong from .* in [\d.]+ ms$/m);
    expect((await runCli(['ping', ...modern])).stdout).toContain('server/discover');
  });

  it('works against the reference server-everything', async () => {
    const run = await runCli(['call', 'echo', '--arg', 'message=from the cli', '--', node, EVERYTHING, 'stdio']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('from the cli');
  });
});

describe('mcpwire --url', () => {
  it('finds the shape of a remote server by itself: Streamable HTTP, and 2024-11-05 HTTP+SSE by fallback', async () => {
    for (const mode of ['streamableHttp', 'sse'] as const) {
      const server = await everythingOverHttp(mode);
      try {
        const run = await runCli(['call', 'echo', '--arg', `message=over ${mode}`, '--url', server.url, '--json']);
        expect(run.code, run.stderr).toBe(0);
        expect(run.json()).toMatchObject({
          ok: true,
          result: { content: [{ type: 'text', text: `Echo: over ${mode}` }] },
        });
      } finally {
        await server.stop();
      }
    }
  });
});

describe('mcpwire exit codes and errors', () => {
  it('usage mistakes exit 1 with a hint', async () => {
    const none = await runCli(['tools']);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('no server given');
    const option = await runCli(['tools', '--bogus', ...legacy]);
    expect(option.code).toBe(1);
    expect(option.stderr).toContain('unknown option --bogus');
    const json = await runCli(['call', '--json', ...legacy]);
    expect(json.code).toBe(1);
    expect(json.json()).toMatchObject({ ok: false, error: { code: 'USAGE', exitCode: 1 } });
  });

  it('a server that cannot start exits 4 and names the command', async () => {
    const run = await runCli(['tools', '--', '/nonexistent/mcp-server']);
    expect(run.code).toBe(4);
    expect(run.stderr).toContain('/nonexistent/mcp-server');
  });

  it('an unknown --server exits 2 listing the configured ones', async () => {
    const run = await runCli(['tools', '--server', 'ghost', '--json'], {
      env: { HOME: '/nonexistent-home' },
      cwd: '/',
    });
    expect(run.code).toBe(2);
    expect(run.json()).toMatchObject({
      ok: false,
      error: { code: 'CONFIG_INVALID', message: expect.stringContaining('server "ghost" is not configured') },
    });
  });

  it('a server asking for credentials exits 3, and the header value never appears', async () => {
    const fixture = await startHttpFixture((_seen, res) => {
      res
        .writeHead(401, { 'www-authenticate': 'Bearer realm="test"', 'content-type': 'application/json' })
        .end('{"error":"unauthorized"}');
      return true;
    });
    try {
      const run = await runCli([
        'info',
        '--url',
        fixture.url,
        '--header',
        'Authorization: Bearer sekrit-token-123',
        '--json',
      ]);
      expect(run.code).toBe(3);
      expect(run.json()).toMatchObject({ ok: false, error: { code: 'AUTH_REQUIRED', exitCode: 3 } });
      expect(run.stdout + run.stderr).not.toContain('sekrit-token-123');
    } finally {
      await fixture.close();
    }
  });
});

describe('mcpwire --help', () => {
  // One test per command: each starts a CLI process, and fifteen of them in one test outgrew
  // its timeout on a loaded machine.
  for (const command of [
    'info',
    'tools',
    'call',
    'resources',
    'templates',
    'read',
    'prompts',
    'prompt',
    'complete',
    'ping',
    'servers',
    'config',
    'repl',
    'proxy',
    'trace',
  ]) {
    it(`${command} --help prints its usage and an example`, async () => {
      const run = await runCli([command, '--help']);
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/Usage/);
      expect(run.stdout).toContain('mcpwire');
    });
  }

  it('no command prints the overview and exits 1; --help exits 0; --version names the version; an unknown command exits 1', async () => {
    const overview = await runCli([]);
    expect(overview.code).toBe(1);
    expect(overview.stdout).toContain('Talk to a server:');
    expect((await runCli(['--help'])).code).toBe(0);
    expect((await runCli(['--version'])).stdout).toMatch(/^mcpwire \d+\.\d+\.\d+/);
    const unknown = await runCli(['frobnicate']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('unknown command "frobnicate"');
  });
});
