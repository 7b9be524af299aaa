import { describe, expect, it } from 'vitest';
import { globMatches } from '../src/manager/glob.js';
import { PermissionPolicy } from '../src/manager/permissions/permission-rules.js';
import { toolAllowed, type ManagedServer } from '../src/manager/servers/managed-server.js';

const server = (globs: Pick<ManagedServer, 'includeTools' | 'excludeTools'>): ManagedServer => ({
  name: 'fs',
  transport: 'stdio',
  command: 'x',
  ...globs,
});

/** [glob, tool name, matches] — `*` is any run of characters, everything else literal. */
const TABLE: Array<[string, string, boolean]> = [
  ['read_*', 'read_file', true],
  ['read_*', 'write_file', false],
  ['*', '', true],
  ['', '', true],
  ['', 'x', false],
  ['a.b', 'a.b', true],
  ['a.b', 'axb', false],
  ['(x)+$', '(x)+$', true],
  ['*_file', 'read_file', true],
  ['*a*a*b', 'aaab', true],
  ['*a*a*b', 'aaaa', false],
  // A server chooses its tool names: a line break is a character like any other.
  ['delete*', 'delete\nall', true],
  ['*all', 'delete\r\nall', true],
  ['delete*', 'delete\u2028all', true],
];

describe('include/exclude globs of a server', () => {
  it.each(TABLE)('%j matches %j: %s', (glob, name, matches) => {
    expect(globMatches(glob, name)).toBe(matches);
    expect(toolAllowed(server({ includeTools: [glob] }), name)).toBe(matches);
    expect(toolAllowed(server({ excludeTools: [glob] }), name)).toBe(!matches);
  });

  it('an exclude glob hides a tool whose name holds a line break, as a deny rule of the same glob refuses it', () => {
    const name = 'delete_files\nquietly';
    expect(toolAllowed(server({ excludeTools: ['delete_*'] }), name)).toBe(false);
    const policy = new PermissionPolicy([
      { file: 'inline', scope: 'inline', allow: [], ask: [], deny: ['mcp__fs__delete_*'] },
    ]);
    expect(policy.decide({ server: 'fs', tool: name }).decision).toBe('deny');
  });
});
