/**
 * `mcpwire completion bash|zsh|fish` loaded into the real shell completes commands,
 * subcommands, options and their listed values, the configured servers (user and project
 * config), file names where a file goes, and a server's tools and a tool's arguments once a
 * `tools` run against the real server has listed them: a TAB never connects to a server. Each
 * test has its own HOME, project directory and XDG cache.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { EVERYTHING, requireBuiltCli, runCli } from './support/cli.js';
import {
  bashComplete as bashRun,
  runIn,
  shellQuote as quote,
  shellWorld,
  skipWithout,
  startZsh,
  type ShellWorld,
} from './support/completion-shells.js';
import { hasTmux } from './support/tmux.js';

beforeAll(() => requireBuiltCli());

/** A world with `everything` (the reference server) and `remote` in the user config, `local` in the project's. */
function world(): ShellWorld {
  const w = shellWorld({
    everything: { command: process.execPath, args: [EVERYTHING] },
    remote: { url: 'http://127.0.0.1:9/mcp' },
  });
  writeFileSync(path.join(w.project, '.mcp.json'), JSON.stringify({ mcpServers: { local: { command: 'true' } } }));
  writeFileSync(path.join(w.project, 'session.jsonl'), '');
  return w;
}

/** Lists the everything server's tools through the CLI, as a user would (fills the cache). */
async function listTools(w: ShellWorld): Promise<void> {
  const run = await runCli(['tools', '--server', 'everything'], { env: w.env, cwd: w.project });
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout).toContain('get-sum');
}

/** Completes each line in one bash with the script loaded; the replies by line. */
async function bashComplete(w: ShellWorld, lines: readonly string[]): Promise<Map<string, string[]>> {
  return (await bashRun(w, lines)).replies;
}

describe('mcpwire completion', () => {
  it('prints a script per shell; another shell is a usage error', async () => {
    const w = world();
    for (const shell of ['bash', 'zsh', 'fish']) {
      const run = await runCli(['completion', shell], { env: w.env });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain('__complete');
    }
    const tcsh = await runCli(['completion', 'tcsh'], { env: w.env });
    expect(tcsh.code).toBe(1);
    expect(tcsh.stderr).toContain('mcpwire completion bash|zsh|fish');
  });
});

describe('in bash', () => {
  it('completes commands, options, values, servers and files, and tools after a tools run', async () => {
    const w = world();
    const before = await bashComplete(w, [
      'mcpwire ',
      'mcpwire co',
      'mcpwire tools --ser',
      'mcpwire call --',
      'mcpwire tools --server ',
      'mcpwire tools --transport=',
      'mcpwire tools --era=mo',
      'mcpwire auth ',
      'mcpwire auth login r',
      'mcpwire trace show sess',
      'mcpwire call --server everything get-',
    ]);
    expect(before.get('mcpwire ')).toEqual(expect.arrayContaining(['info', 'tools', 'call', 'completion', 'help']));
    expect(before.get('mcpwire co')!.sort()).toEqual(['complete', 'completion', 'config']);
    expect(before.get('mcpwire tools --ser')).toEqual(['--server']);
    expect(before.get('mcpwire call --')).toEqual(
      expect.arrayContaining(['--arg', '--args-json', '--max-chars', '--server', '--url', '--json']),
    );
    expect(before.get('mcpwire tools --server ')!.sort()).toEqual(['everything', 'local', 'remote']);
    expect(before.get('mcpwire tools --transport=')!.sort()).toEqual(['http', 'sse']);
    expect(before.get('mcpwire tools --era=mo')).toEqual(['modern']);
    expect(before.get('mcpwire auth ')).toEqual(['login', 'status', 'logout']);
    expect(before.get('mcpwire auth login r')).toEqual(['remote']);
    expect(before.get('mcpwire trace show sess')).toEqual(['session.jsonl']);
    // Nothing listed yet, and a TAB never connects: no tool names.
    expect(before.get('mcpwire call --server everything get-')).toEqual([]);

    await listTools(w);
    const resources = await runCli(['resources', '--server', 'everything'], { env: w.env, cwd: w.project });
    expect(resources.code, resources.stderr).toBe(0);
    const after = await bashComplete(w, [
      'mcpwire call --server everything get-s',
      'mcpwire call get-sum --server everything --arg ',
      'mcpwire call --server remote get-',
      // bash splits the URI at ':': the reply is what follows it.
      'mcpwire read --server everything demo://resource/static/document/feat',
    ]);
    expect(after.get('mcpwire call --server everything get-s')!.sort()).toEqual(['get-structured-content', 'get-sum']);
    expect(after.get('mcpwire call get-sum --server everything --arg ')).toEqual(['a=', 'b=']);
    expect(after.get('mcpwire call --server remote get-')).toEqual([]);
    expect(after.get('mcpwire read --server everything demo://resource/static/document/feat')).toEqual([
      '//resource/static/document/features.md',
    ]);
  }, 120_000); // a dozen CLI runs in turn: generous on a loaded machine
});

describe('the list cache', () => {
  it('is filled by a servers run for every server it connected', async () => {
    const w = world();
    const servers = await runCli(['servers'], { env: w.env, cwd: w.project });
    expect(servers.stdout).toMatch(/everything\s+connected/);
    const replies = await bashComplete(w, ['mcpwire call --server everything get-s']);
    expect(replies.get('mcpwire call --server everything get-s')!.sort()).toEqual([
      'get-structured-content',
      'get-sum',
    ]);
  });
});

describe.skipIf(skipWithout('fish'))('in fish', () => {
  it('completes commands with descriptions, servers, values and tools after a tools run', async () => {
    const w = world();
    const complete = async (line: string) => {
      const out = await runIn(w, 'fish', [
        '--no-config',
        '-c',
        `mcpwire completion fish | source; complete -C ${quote(line)}`,
      ]);
      return out.split('\n').filter(Boolean);
    };
    expect(await complete('mcpwire ca')).toEqual(['call\tCalls a tool']);
    expect((await complete('mcpwire tools --server ')).map((l) => l.split('\t')[0]).sort()).toEqual([
      'everything',
      'local',
      'remote',
    ]);
    expect(await complete('mcpwire tools --server r')).toEqual(['remote\thttp://127.0.0.1:9/mcp']);
    expect((await complete('mcpwire tools --era=')).sort()).toEqual(['--era=auto', '--era=legacy', '--era=modern']);
    expect(await complete('mcpwire completion f')).toEqual(['fish']);
    expect(await complete('mcpwire trace show sess')).toEqual(['session.jsonl']);
    await listTools(w);
    expect((await complete('mcpwire call --server everything get-s')).map((l) => l.split('\t')[0]).sort()).toEqual([
      'get-structured-content',
      'get-sum',
    ]);
    expect(await complete('mcpwire call get-sum --server everything --arg ')).toEqual(['a=', 'b=']);
  }, 120_000); // a dozen CLI runs in turn: generous on a loaded machine
});

describe.skipIf(skipWithout('zsh') || (!hasTmux() && !process.env.CI))('in zsh (a real terminal)', () => {
  it('completes a command, lists servers with what they run, and tools after a tools run', async () => {
    const w = world();
    await listTools(w);
    const terminal = await startZsh(w, 'mcpwire');
    terminal.type('mcpwire ca', false);
    terminal.key('Tab');
    await terminal.waitFor(/zsh% mcpwire call\s*$/m, 30_000);
    terminal.key('C-u');
    terminal.type('mcpwire tools --server ', false);
    terminal.key('Tab');
    const servers = await terminal.waitFor(/remote -- http:\/\/127\.0\.0\.1:9\/mcp/, 30_000);
    expect(servers).toMatch(/everything -- \S*node/);
    expect(servers).toMatch(/^local -- true/m);
    terminal.key('C-u');
    terminal.type('mcpwire call --server everything get-s', false);
    terminal.key('Tab');
    const tools = await terminal.waitFor(/get-sum -- Returns the sum of two numbers/, 30_000);
    expect(tools).toContain('get-structured-content');
  });
});
