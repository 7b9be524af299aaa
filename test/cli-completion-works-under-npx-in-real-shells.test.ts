/**
 * mcpwire installed in a project only (no `mcpwire` on PATH, npm offline): the completion script
 * loaded with `source <(npx mcpwire completion bash)` (zsh, fish alike) completes `npx mcpwire …`
 * — commands, options, servers, and a server's tools after `npx mcpwire tools` listed them —
 * by the project's `node_modules/.bin/mcpwire`, from the project or a directory below it; any
 * other `npx` line is left alone; and where no mcpwire is installed, a TAB after `npx mcpwire`
 * says so (once) instead of completing nothing silently.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { EVERYTHING, requireBuiltCli } from './support/cli.js';
import {
  bashComplete,
  runIn,
  runInWithStderr,
  shellQuote,
  shellWorld,
  skipWithout,
  startZsh,
  type ShellWorld,
} from './support/completion-shells.js';
import { hasTmux } from './support/tmux.js';

beforeAll(() => requireBuiltCli());

/** A project install with `everything` (the reference server) and `remote` configured. */
function world(): ShellWorld {
  const w = shellWorld(
    { everything: { command: process.execPath, args: [EVERYTHING] }, remote: { url: 'http://127.0.0.1:9/mcp' } },
    { install: 'project' },
  );
  mkdirSync(path.join(w.project, 'src/deep'), { recursive: true });
  mkdirSync(path.join(w.root, 'elsewhere'));
  return w;
}

/** `npx mcpwire tools --server everything` as a user runs it in the project (fills the list cache). */
async function listToolsThroughNpx(w: ShellWorld): Promise<void> {
  const out = await runIn(w, 'npx', ['mcpwire', 'tools', '--server', 'everything']);
  expect(out).toContain('get-sum');
}

const LOAD = 'source <(npx mcpwire completion bash)';
const MISSING = /mcpwire: not installed here \(no node_modules\/\.bin\/mcpwire in \S+ or above, and none on PATH\)/;

describe('under npx, in bash', () => {
  it('completes npx mcpwire lines by the project’s mcpwire, and leaves other npx lines alone', async () => {
    const w = world();
    // The world means what it says: nothing named mcpwire on PATH; npx finds the project's.
    await expect(runIn(w, 'bash', ['-c', 'command -v mcpwire'])).rejects.toThrow();
    const { replies, stderr } = await bashComplete(
      w,
      [
        'npx mcpwire ',
        'npx mcpwire co',
        'npx -y mcpwire tools --ser',
        'npx mcpwire tools --server ',
        'npx mcpwire tools --era=mo',
        'npx mcpwire auth login r',
        'npx some-other-tool --ver',
      ],
      { load: LOAD },
    );
    expect(replies.get('npx mcpwire ')).toEqual(expect.arrayContaining(['info', 'tools', 'call', 'completion']));
    expect(replies.get('npx mcpwire co')!.sort()).toEqual(['complete', 'completion', 'config']);
    expect(replies.get('npx -y mcpwire tools --ser')).toEqual(['--server']);
    expect(replies.get('npx mcpwire tools --server ')!.sort()).toEqual(['everything', 'remote']);
    expect(replies.get('npx mcpwire tools --era=mo')).toEqual(['modern']);
    expect(replies.get('npx mcpwire auth login r')).toEqual(['remote']);
    expect(replies.get('npx some-other-tool --ver')).toEqual([]);
    expect(stderr).toBe('');

    await listToolsThroughNpx(w);
    const after = await bashComplete(
      w,
      ['npx mcpwire call --server everything get-s', 'npx mcpwire call get-sum --server everything --arg '],
      { load: LOAD, cwd: path.join(w.project, 'src/deep') },
    );
    expect(after.replies.get('npx mcpwire call --server everything get-s')!.sort()).toEqual([
      'get-structured-content',
      'get-sum',
    ]);
    expect(after.replies.get('npx mcpwire call get-sum --server everything --arg ')).toEqual(['a=', 'b=']);
  }, 120_000); // npx and a dozen CLI runs in turn: generous on a loaded machine

  it('says, once, that mcpwire is not installed where a TAB finds none', async () => {
    const w = world();
    const elsewhere = path.join(w.root, 'elsewhere');
    const { replies, stderr } = await bashComplete(w, ['npx mcpwire ', 'npx mcpwire to'], {
      load: LOAD,
      cwd: elsewhere,
    });
    expect(replies.get('npx mcpwire ')).toEqual([]);
    expect(stderr).toMatch(MISSING);
    expect(stderr).toContain(`in ${elsewhere} or above`);
    expect(stderr).toContain('npm install --save-dev mcpwire');
    expect(stderr.match(/not installed here/g)).toHaveLength(1);
  });
});

describe.skipIf(skipWithout('fish'))('under npx, in fish', () => {
  it('completes npx mcpwire lines, tools after a tools run, and says when mcpwire is missing', async () => {
    const w = world();
    const complete = async (line: string, cwd = w.project) => {
      const out = await runIn(w, 'fish', [
        '--no-config',
        '-c',
        `npx mcpwire completion fish | source; cd ${shellQuote(cwd)}; complete -C ${shellQuote(line)}`,
      ]);
      return out.split('\n').filter(Boolean);
    };
    expect(await complete('npx mcpwire ca')).toEqual(['call\tCalls a tool']);
    expect((await complete('npx -y mcpwire tools --server ')).map((l) => l.split('\t')[0]).sort()).toEqual([
      'everything',
      'remote',
    ]);
    await listToolsThroughNpx(w);
    expect(
      (await complete('npx mcpwire call --server everything get-s', path.join(w.project, 'src/deep')))
        .map((l) => l.split('\t')[0])
        .sort(),
    ).toEqual(['get-structured-content', 'get-sum']);
    const { stderr } = await runInWithStderr(w, 'fish', [
      '--no-config',
      '-c',
      `npx mcpwire completion fish | source; cd ${shellQuote(path.join(w.root, 'elsewhere'))}; complete -C 'npx mcpwire ca'`,
    ]);
    expect(stderr).toMatch(MISSING);
  }, 120_000);
});

describe.skipIf(skipWithout('zsh') || (!hasTmux() && !process.env.CI))('under npx, in zsh (a real terminal)', () => {
  it('completes npx mcpwire lines and a server’s tools after a tools run', async () => {
    const w = world();
    await listToolsThroughNpx(w);
    const terminal = await startZsh(w, 'npx mcpwire');
    terminal.type('npx mcpwire ca', false);
    terminal.key('Tab');
    await terminal.waitFor(/zsh% npx mcpwire call\s*$/m, 30_000);
    terminal.key('C-u');
    terminal.type('npx mcpwire call --server everything get-s', false);
    terminal.key('Tab');
    const tools = await terminal.waitFor(/get-sum -- Returns the sum of two numbers/, 30_000);
    expect(tools).toContain('get-structured-content');
    terminal.key('C-u');
    terminal.type(`cd ${shellQuote(path.join(w.root, 'elsewhere'))}`);
    terminal.type('npx mcpwire ', false);
    terminal.key('Tab');
    await terminal.waitFor(MISSING, 30_000);
  });
});
