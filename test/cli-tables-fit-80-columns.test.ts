/**
 * Tables fit the width they are read at: the terminal's, or off a terminal `COLUMNS` or 80. The
 * last column wraps beside the others, or below its row when they leave too little room; nothing
 * is cut. Checked on the `table` function and on `mcpwire tools` against server-everything, whose
 * descriptions run to 400 characters.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { table, wrap } from '../src/cli/table.js';
import { EVERYTHING, requireBuiltCli, runCli } from './support/cli.js';

const longest = (text: string) => Math.max(...text.split('\n').map((line) => [...line].length));
const words = (text: string) => text.split(/\s+/).filter(Boolean).join(' ');

describe('table', () => {
  const rows = [
    ['echo', 'message*', 'Echoes back the input string'],
    ['get-sum', 'a*, b*', 'Returns the sum of two numbers, which is a longer description than fits'],
  ];

  it('wraps the last column beside the others when they leave room', () => {
    expect(table(['NAME', 'ARGUMENTS', 'DESCRIPTION'], rows, 51)).toBe(
      [
        'NAME     ARGUMENTS  DESCRIPTION',
        'echo     message*   Echoes back the input string',
        'get-sum  a*, b*     Returns the sum of two numbers,',
        '                    which is a longer description',
        '                    than fits',
      ].join('\n'),
    );
  });

  it('puts the last cell below its row when the other columns leave too little room', () => {
    const text = table(['NAME', 'ARGUMENTS', 'DESCRIPTION'], rows, 30);
    expect(text).toBe(
      [
        'NAME     ARGUMENTS',
        '    DESCRIPTION',
        'echo     message*',
        '    Echoes back the input',
        '    string',
        'get-sum  a*, b*',
        '    Returns the sum of two',
        '    numbers, which is a longer',
        '    description than fits',
      ].join('\n'),
    );
    expect(longest(text)).toBeLessThanOrEqual(30);
  });

  it('cuts nothing: an unbroken word longer than the room is split, an unlimited width keeps lines whole', () => {
    expect(wrap('see https://example.com/a/very/long/path/indeed', 20)).toEqual([
      'see',
      'https://example.com/',
      'a/very/long/path/ind',
      'eed',
    ]);
    expect(table(['A', 'B'], [['x', 'y '.repeat(100).trim()]], Number.POSITIVE_INFINITY).split('\n')[1]).toBe(
      `x  ${'y '.repeat(100).trim()}`,
    );
  });
});

describe('mcpwire tools off a terminal', () => {
  let descriptions: Map<string, string>;
  beforeAll(async () => {
    requireBuiltCli();
    const json = await runCli(['tools', '--json', '--', process.execPath, EVERYTHING], { env: { COLUMNS: undefined } });
    descriptions = new Map(
      json
        .json<{ result: Array<{ name: string; description?: string }> }>()
        .result.map((t) => [t.name, (t.description ?? '').trim().split('\n')[0]!]),
    );
    expect(descriptions.size).toBeGreaterThan(5);
  });

  it.each([
    ['no COLUMNS (80)', undefined, 80],
    ['COLUMNS=80', '80', 80],
    ['COLUMNS=120', '120', 120],
  ])('%s: no line is wider, and every name and whole description is there', async (_label, columns, width) => {
    const run = await runCli(['tools', '--', process.execPath, EVERYTHING], { env: { COLUMNS: columns } });
    expect(run.code, run.stderr).toBe(0);
    expect(longest(run.stdout.trimEnd())).toBeLessThanOrEqual(width);
    const flat = words(run.stdout);
    for (const [name, description] of descriptions) {
      expect(run.stdout).toMatch(new RegExp(`^${name}(\\s|$)`, 'm'));
      expect(flat).toContain(words(description));
    }
  });
});
