/**
 * The pure parsers beside the loader: dotenv-style envFile text, and the shape check of a file's
 * `permissions` block (kept with its provenance, never evaluated here).
 */
import { describe, expect, it } from 'vitest';
import { parseEnvFile } from '../src/manager/config/env-file.js';
import { parsePermissions } from '../src/manager/permissions/permission-block.js';

describe('parseEnvFile', () => {
  it.each([
    ['A=1', { A: '1' }],
    ['export A = spaced value  ', { A: 'spaced value' }],
    ['# comment\n\n  # indented comment=1\nB=2', { B: '2' }],
    ['Q="double quoted # not a comment"', { Q: 'double quoted # not a comment' }],
    ["S='single ${NOT_EXPANDED}'", { S: 'single ${NOT_EXPANDED}' }],
    ['M="mismatched\'', { M: '"mismatched\'' }],
    ['E=', { E: '' }],
    ['EQ=a=b=c', { EQ: 'a=b=c' }],
    ['A=1\r\nA=2\r\n', { A: '2' }],
    ['not an assignment\n1BAD=x\nGOOD_1=y', { GOOD_1: 'y' }],
    ['"="', {}],
  ])('%j', (text, expected) => {
    expect(parseEnvFile(text)).toEqual(expected);
  });
});

describe('parsePermissions', () => {
  const file = '/p/.mcp.json';

  it('absent: no block, no error', () => {
    expect(parsePermissions(undefined, file, 'project')).toEqual({ errors: [] });
  });

  it('a full block keeps its lists, mode and provenance', () => {
    expect(
      parsePermissions(
        { allow: ['mcp__fs__read_*'], deny: ['mcp__fs__delete'], ask: ['mcp__*'], defaultMode: 'ask' },
        file,
        'project',
      ),
    ).toEqual({
      block: {
        file,
        scope: 'project',
        allow: ['mcp__fs__read_*'],
        deny: ['mcp__fs__delete'],
        ask: ['mcp__*'],
        defaultMode: 'ask',
      },
      errors: [],
    });
    expect(parsePermissions({}, file, 'user')).toEqual({
      block: { file, scope: 'user', allow: [], deny: [], ask: [] },
      errors: [],
    });
  });

  it('a bad list or mode is an error naming the key; the rest of the block is kept', () => {
    const { block, errors } = parsePermissions(
      { allow: ['a'], deny: 'b', ask: [1], defaultMode: 'sometimes' },
      file,
      'explicit',
    );
    expect(block).toEqual({ file, scope: 'explicit', allow: ['a'], deny: [], ask: [] });
    expect(errors.map((e) => [e.code, e.message])).toEqual([
      ['CONFIG_INVALID', `${file}: permissions.deny must be a list of strings`],
      ['CONFIG_INVALID', `${file}: permissions.ask must be a list of strings`],
      ['CONFIG_INVALID', `${file}: permissions.defaultMode must be "allow", "ask" or "deny"`],
    ]);
  });

  it('not an object: no block and one error', () => {
    expect(parsePermissions(['allow'], file, 'project').block).toBeUndefined();
    expect(parsePermissions('allow', file, 'project').errors.map((e) => e.message)).toEqual([
      `${file}: "permissions" must be an object with allow / deny / ask lists`,
    ]);
  });
});
