/**
 * `mcpwire servers` and `servers --all` at 80 columns against real servers that fail (one exits
 * with a long stderr line, one is a command that does not exist, one is a refused port) beside a
 * good one: every error is one line in the table, cut with `… [N]`, and note `[N]` below the table
 * holds its whole text (as `--json` has it); nothing is wider than 80 columns; an error that fits
 * is shown whole with no note. The `notedTable` layout is checked on its own too.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { notedTable } from '../src/cli/table.js';
import { EVERYTHING, requireBuiltCli, runCli } from './support/cli.js';
import { startHostHome, type HostHome } from './support/host-homes.js';
import { freePort } from './support/ports.js';

beforeAll(() => requireBuiltCli());

const widest = (text: string) => Math.max(...text.split('\n').map((line) => [...line].length));
const words = (text: string) => text.split(/\s+/).filter(Boolean).join(' ');

async function failingHome(): Promise<HostHome> {
  const h = startHostHome({ hosts: [] });
  const stderr = 'boom: the database at db.internal refused the connection because the pool is exhausted';
  h.write(
    '.mcpwire/config.json',
    JSON.stringify({
      mcpServers: {
        quits: { command: process.execPath, args: ['-e', `console.error(${JSON.stringify(stderr)}); process.exit(3)`] },
        missing: { command: '/no/such/dir/mcp-server-that-is-not-installed' },
        refused: { url: `http://127.0.0.1:${await freePort()}/mcp` },
        everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] },
      },
    }),
  );
  return h;
}

function envOf(h: HostHome): Record<string, string | undefined> {
  return { ...h.env, CODEX_HOME: undefined, CLAUDE_CONFIG_DIR: undefined, APPDATA: undefined, COLUMNS: '80' };
}

/** Each note `[N] text…` below the table, its wrapped lines joined. */
function notesOf(stdout: string): Map<string, string> {
  const notes = new Map<string, string>();
  let current: string | undefined;
  for (const line of stdout.split('\n')) {
    const start = /^\[(\d+)\] (.*)$/.exec(line);
    if (start) notes.set((current = start[1]!), start[2]!);
    else if (current !== undefined && /^ +\S/.test(line)) notes.set(current, `${notes.get(current)!} ${line.trim()}`);
    else current = undefined;
  }
  return notes;
}

describe('mcpwire servers at 80 columns', () => {
  it('gives each error one cut line and its whole text as a numbered note below the table', async () => {
    const h = await failingHome();
    const env = envOf(h);
    const json = await runCli(['servers', '--json'], { env, cwd: h.project });
    const errors = new Map(
      json
        .json<{ result: { servers: Array<{ name: string; lastError?: string }> } }>()
        .result.servers.map((s) => [s.name, s.lastError]),
    );
    expect(errors.get('quits')).toContain('pool is exhausted');

    for (const command of [['servers'], ['servers', '--all']]) {
      const run = await runCli(command, { env, cwd: h.project });
      expect(run.code, run.stderr).toBe(0);
      expect(widest(run.stdout.trimEnd()), run.stdout).toBeLessThanOrEqual(80);
      const table = run.stdout.split('\n\n')[0]!;
      const notes = notesOf(run.stdout);
      for (const name of ['quits', 'missing', 'refused']) {
        // The row (and, for `servers`, its error line below it) ends with its note's number.
        const row = new RegExp(`^${name}\\s.*?(?:\\n {4}\\S.*?)?(?:…)? \\[(\\d+)\\]$`, 'm').exec(table);
        expect(row, `${command.join(' ')}: ${name}\n${run.stdout}`).not.toBeNull();
        expect(words(notes.get(row![1]!) ?? '')).toBe(words(errors.get(name)!));
      }
      // Every line of the table is a row or an error line of one: no error folded over several lines.
      const lines = table.split('\n').slice(1);
      expect(lines.filter((line) => !/^ {4}\S/.test(line)).map((line) => line.split(/\s+/)[0])).toEqual([
        'quits',
        'missing',
        'refused',
        'everything',
      ]);
      // `servers`: the ERROR header and each error on one line below its row; `--all`: one line a server.
      expect(lines.length).toBe(command.includes('--all') ? 4 : 1 + 3 * 2 + 1);
      expect(table).toMatch(/^everything\s+connected\s/m);
      expect(notes.size).toBe(3);
    }
  });
});

describe('notedTable', () => {
  const rows = [
    ['a', 'error', 'server "a": could not start "/opt/x": command not found (ENOENT)'],
    ['b', 'ok', 'short'],
  ];

  it('cuts a long last cell with … [N] and prints its whole text as note N; a cell that fits has no note', () => {
    expect(notedTable(['NAME', 'STATUS', 'ERROR'], rows, 50)).toBe(
      [
        'NAME  STATUS  ERROR',
        'a     error   server "a": could not start "/o… [1]',
        'b     ok      short',
        '',
        '[1] server "a": could not start "/opt/x": command',
        '    not found (ENOENT)',
      ].join('\n'),
    );
  });

  it('keeps a location whole before the reason, and with no width limit cuts nothing', () => {
    const cell = 'user ~/.mcpwire/config.json: server "a": command not found';
    const text = notedTable(['NAME', 'DEFINED IN'], [['a', cell]], 40, {
      keep: ['user ~/.mcpwire/config.json: '],
      notes: ['server "a": command not found'],
    });
    expect(text).toBe(
      ['NAME  DEFINED IN', 'a     user ~/.mcpwire/config.json [1]', '', '[1] server "a": command not found'].join('\n'),
    );
    expect(notedTable(['NAME', 'ERROR'], rows, Number.POSITIVE_INFINITY)).not.toContain('[1]');
  });
});
