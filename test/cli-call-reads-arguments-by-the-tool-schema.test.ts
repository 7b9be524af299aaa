/**
 * `mcpwire call` reads each `--arg k=v` by the type the tool's `inputSchema` gives `k` (a string
 * stays the text, numbers, integers, booleans and null are parsed, arrays and objects are JSON,
 * enums are checked, `$ref` and unions followed); a value that does not fit is a usage error
 * naming the parameter and its type; with no type, a value is JSON when it is JSON. Words after
 * the tool name are a usage error saying `--arg`. The manager's `mcp__server__tool` names (and
 * their provider-safe form) pick the configured server; one naming another server than
 * `--server` is a usage error. Against the reference server and a server that answers with the
 * call it got.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVERYTHING, requireBuiltCli, ROOT, runCli } from './support/cli.js';

const LISTER = path.join(ROOT, 'test/support/listed-tools-server.mjs');
let root: string;
let home: string;
let lister: string[];

const TOOLS = [
  {
    name: 'typed',
    inputSchema: {
      type: 'object',
      $defs: { small: { type: 'integer' } },
      properties: {
        id: { type: 'string' },
        count: { type: 'integer' },
        ratio: { type: 'number' },
        on: { type: 'boolean' },
        nothing: { type: 'null' },
        tags: { type: 'array', items: {} },
        opts: { type: 'object' },
        level: { enum: ['low', 'high', 3] },
        maybe: { anyOf: [{ type: 'integer' }, { type: 'string' }] },
        either: { type: ['boolean', 'string'] },
        ref: { $ref: '#/$defs/small' },
        untyped: { description: 'no type' },
      },
    },
  },
  {
    name: 'strict',
    inputSchema: { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false },
  },
  { name: 'loose', inputSchema: { type: 'object' } },
];

beforeAll(() => {
  requireBuiltCli();
  root = mkdtempSync(path.join(os.tmpdir(), 'mcpwire-call-args-'));
  home = path.join(root, 'home');
  mkdirSync(path.join(home, '.mcpwire'), { recursive: true });
  const tools = path.join(root, 'tools.json');
  writeFileSync(tools, JSON.stringify(TOOLS));
  lister = [process.execPath, LISTER, tools];
  writeFileSync(
    path.join(home, '.mcpwire/config.json'),
    JSON.stringify({
      mcpServers: {
        everything: { command: process.execPath, args: [EVERYTHING] },
        'my.lister': { command: lister[0], args: lister.slice(1) },
      },
    }),
  );
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const cli = (args: string[]) => runCli(args, { env: { HOME: home }, cwd: root });

/** The arguments the server got for a `call` of `tool` with `args`. */
async function sent(tool: string, args: string[]): Promise<Record<string, unknown>> {
  const run = await cli(['call', tool, ...args, '--json', '--', ...lister]);
  expect(run.code, run.stdout + run.stderr).toBe(0);
  return run.json<{ result: { structuredContent: { arguments: Record<string, unknown> } } }>().result.structuredContent
    .arguments;
}

async function usageError(args: string[]): Promise<string> {
  const run = await cli(args);
  expect(run.code, run.stdout + run.stderr).toBe(1);
  expect(run.stdout).toBe('');
  return run.stderr;
}

describe('call --arg', () => {
  it('sends each value as the type its parameter declares', async () => {
    const args = await sent('typed', [
      ...['--arg', 'id=1', '--arg', 'count=2', '--arg', 'ratio=2.5', '--arg', 'on=false', '--arg', 'nothing=null'],
      ...['--arg', 'tags=["a",1]', '--arg', 'opts={"k":{"n":1}}', '--arg', 'level=3', '--arg', 'maybe=7'],
      ...['--arg', 'either=yes', '--arg', 'ref=4', '--arg', 'untyped=5', '--arg', 'extra=true'],
    ]);
    expect(args).toEqual({
      id: '1',
      count: 2,
      ratio: 2.5,
      on: false,
      nothing: null,
      tags: ['a', 1],
      opts: { k: { n: 1 } },
      level: 3,
      maybe: 7,
      either: 'yes',
      ref: 4,
      untyped: 5,
      extra: true,
    });
    expect(await sent('typed', ['--arg', 'id="quoted"', '--arg', 'level=low', '--arg', 'either=true'])).toEqual({
      id: '"quoted"',
      level: 'low',
      either: true,
    });
    // No type for the parameter: JSON when it is JSON, as before.
    expect(await sent('loose', ['--arg', 'id=1', '--arg', 's=text'])).toEqual({ id: 1, s: 'text' });
  });

  it('refuses a value its parameter cannot take, naming the parameter and the type', async () => {
    const target = ['--', ...lister];
    expect(await usageError(['call', 'typed', '--arg', 'count=2.5', ...target])).toContain(
      '--arg count: "2.5" is not an integer (tool "typed" declares count as integer)',
    );
    expect(await usageError(['call', 'typed', '--arg', 'on=yes', ...target])).toContain(
      '--arg on: "yes" is not a boolean',
    );
    expect(await usageError(['call', 'typed', '--arg', 'tags={}', ...target])).toContain('is not an array');
    expect(await usageError(['call', 'typed', '--arg', 'ref=x', ...target])).toContain('declares ref as integer');
    expect(await usageError(['call', 'typed', '--arg', 'level=mid', ...target])).toContain(
      '--arg level: "mid" is not one of "low", "high", 3',
    );
    expect(await usageError(['call', 'strict', '--arg', 'b=1', ...target])).toContain(
      'tool "strict" has no parameter "b" (its parameters: a)',
    );
  });

  it('sends the text 1 to the reference server’s string parameter', async () => {
    const run = await cli(['call', 'echo', '--arg', 'message=1', '--', process.execPath, EVERYTHING]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('Echo: 1');
    const sum = await cli(['call', 'get-sum', '--arg', 'a=x', '--arg', 'b=2', '--', process.execPath, EVERYTHING]);
    expect(sum.code).toBe(1);
    expect(sum.stderr).toContain('--arg a: "x" is not a number (tool "get-sum" declares a as number)');
  });
});

describe('call TOOL', () => {
  it('refuses words after the tool name, suggesting --arg', async () => {
    const stderr = await usageError(['call', 'get-sum', 'a=1', 'b=2', '--', process.execPath, EVERYTHING]);
    expect(stderr).toContain(
      'unexpected "a=1" "b=2" after the tool name get-sum; tool arguments go in --arg: --arg a=1 --arg b=2',
    );
    expect(await usageError(['call', 'get-sum', 'extra', '--server', 'everything'])).toContain(
      'unexpected "extra" after the tool name get-sum',
    );
  });

  it('takes the manager’s mcp__server__tool names, picking the configured server', async () => {
    const sum = await cli(['call', 'mcp__everything__get-sum', '--arg', 'a=2', '--arg', 'b=3']);
    expect(sum.code, sum.stderr).toBe(0);
    expect(sum.stdout).toContain('The sum of 2 and 3 is 5');
    const named = await cli(['call', 'mcp__everything__echo', '--server', 'everything', '--arg', 'message=1']);
    expect(named.code, named.stderr).toBe(0);
    expect(named.stdout).toContain('Echo: 1');
    // The provider-safe form (the "." of my.lister is "_" in the manager's exposed names).
    const safe = await cli(['call', 'mcp__my_lister__typed', '--arg', 'id=1', '--json']);
    expect(safe.code, safe.stderr).toBe(0);
    expect(safe.json<{ result: { structuredContent: unknown } }>().result.structuredContent).toEqual({
      tool: 'typed',
      arguments: { id: '1' },
    });
  });

  it('refuses a namespaced name of another server than --server, or of no configured server', async () => {
    expect(
      await usageError(['call', 'mcp__everything__echo', '--server', 'my.lister', '--arg', 'message=hi']),
    ).toContain('mcp__everything__echo is a tool of server "everything", not of --server my.lister');
    expect(await usageError(['call', 'mcp__nobody__echo'])).toContain(
      'mcp__nobody__echo names no configured server (configured: everything, my.lister); give --server NAME',
    );
  });
});

describe('repl call', () => {
  it('reads k=v by the tool schema too', async () => {
    const run = await runCli(['repl'], {
      env: { HOME: home },
      cwd: root,
      input: 'call mcp__everything__echo message=1\ncall mcp__everything__get-sum a=1 b=x\n',
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('Echo: 1');
    expect(run.stdout).toContain('b: "x" is not a number (tool "get-sum" declares b as number)');
  });
});
