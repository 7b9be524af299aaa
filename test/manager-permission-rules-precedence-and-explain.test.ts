/**
 * Permission rules, pure: deny over ask over allow across files, server and wildcard patterns,
 * exposed and canonical names, the default mode, explain, unreachable rules — and a property:
 * the policy agrees with a naive reference evaluator on random rule sets.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PermissionBlock } from '../src/manager/config/permissions.js';
import { covers, PermissionPolicy, type PermissionDecision } from '../src/manager/permission-rules.js';

const block = (file: string, scope: PermissionBlock['scope'], rules: Partial<Pick<PermissionBlock, 'allow' | 'deny' | 'ask' | 'defaultMode'>>): PermissionBlock => ({ file, scope, allow: [], deny: [], ask: [], ...rules });
const USER = '/home/u/.mcpwire/config.json';
const PROJECT = '/p/.mcp.json';

describe('PermissionPolicy.decide', () => {
  const cases: Array<[string, PermissionBlock[], { server: string; tool: string; name?: string }, PermissionDecision, string?]> = [
    ['no rules: allow', [], { server: 'fs', tool: 'read' }, 'allow'],
    ['exact allow', [block(USER, 'user', { allow: ['mcp__fs__read'] })], { server: 'fs', tool: 'read' }, 'allow', 'mcp__fs__read'],
    ['server-level deny covers every tool', [block(USER, 'user', { deny: ['mcp__fs'] })], { server: 'fs', tool: 'write' }, 'deny', 'mcp__fs'],
    ['server-level rule does not cover a server with a longer name', [block(USER, 'user', { deny: ['mcp__fs'] })], { server: 'fsx', tool: 'write' }, 'allow'],
    ['wildcard tool', [block(USER, 'user', { ask: ['mcp__fs__write_*'] })], { server: 'fs', tool: 'write_file' }, 'ask', 'mcp__fs__write_*'],
    ['mcp__* matches everything', [block(USER, 'user', { deny: ['mcp__*'] })], { server: 'any', tool: 'thing' }, 'deny'],
    ['user deny beats project allow', [block(USER, 'user', { deny: ['mcp__fs__write'] }), block(PROJECT, 'project', { allow: ['mcp__fs__write'] })], { server: 'fs', tool: 'write' }, 'deny'],
    ['project deny beats user allow', [block(USER, 'user', { allow: ['mcp__fs'] }), block(PROJECT, 'project', { deny: ['mcp__fs__write'] })], { server: 'fs', tool: 'write' }, 'deny'],
    ['specificity does not beat precedence: broad ask over exact allow', [block(USER, 'user', { allow: ['mcp__fs__read'], ask: ['mcp__fs'] })], { server: 'fs', tool: 'read' }, 'ask', 'mcp__fs'],
    ['exposed name matches too', [block(USER, 'user', { deny: ['mcp__web_search__q'] })], { server: 'web.search', tool: 'q', name: 'mcp__web_search__q' }, 'deny'],
    ['canonical name with odd characters', [block(USER, 'user', { deny: ['mcp__web.search__*'] })], { server: 'web.search', tool: 'q', name: 'mcp__web_search__q' }, 'deny'],
    ['defaultMode of the highest layer', [block(USER, 'user', { defaultMode: 'deny' }), block(PROJECT, 'project', { defaultMode: 'ask' })], { server: 'x', tool: 'y' }, 'ask'],
    ['a rule beats the default', [block(USER, 'user', { defaultMode: 'deny', allow: ['mcp__x__y'] })], { server: 'x', tool: 'y' }, 'allow'],
  ];
  it.each(cases)('%s', (_name, blocks, subject, decision, pattern) => {
    const verdict = new PermissionPolicy(blocks).decide(subject);
    expect(verdict.decision).toBe(decision);
    if (pattern) expect(verdict.rule?.pattern).toBe(pattern);
  });

  it('the default mode names its file; none means the built-in allow', () => {
    expect(new PermissionPolicy([block(PROJECT, 'project', { defaultMode: 'ask' })]).decide({ server: 'a', tool: 'b' })).toMatchObject({ decision: 'ask', defaultFrom: { file: PROJECT }, reason: `mcp__a__b: ask by defaultMode in ${PROJECT} (project); no rule matches` });
    expect(PermissionPolicy.empty().decide({ server: 'a', tool: 'b' }).reason).toBe('mcp__a__b: allow by default; no rule matches');
  });
});

describe('PermissionPolicy.explain', () => {
  it('names the deciding rule and its file, then every matching rule with the winner marked', () => {
    const policy = new PermissionPolicy([block(USER, 'user', { allow: ['mcp__fs__*'] }), block(PROJECT, 'project', { deny: ['mcp__fs__write'] })]);
    const text = policy.explain({ server: 'fs', tool: 'write' });
    expect(text.split('\n')).toEqual([
      `mcp__fs__write: deny by rule "mcp__fs__write" in ${PROJECT} (project)`,
      'matching rules (deny beats ask beats allow, whichever file they are in):',
      `  * deny  mcp__fs__write  (${PROJECT}, project)`,
      `    allow mcp__fs__*  (${USER}, user)`,
    ]);
  });
});

describe('PermissionPolicy.unreachable', () => {
  it('reports malformed patterns, unknown servers and rules a stronger rule covers, each with its file', () => {
    const policy = new PermissionPolicy([
      block(USER, 'user', { allow: ['fs_read', 'mcp__fs__read', 'mcp__ghost__x', 'mcp____x', 'mcp__*__list'], deny: ['mcp__fs'] }),
      block(PROJECT, 'project', { ask: ['mcp__git__push'], allow: ['mcp__git__push', 'mcp__git__status'] }),
    ]);
    const reasons = policy.unreachable({ servers: ['fs', 'git'] }).map((u) => u.reason);
    expect(reasons).toEqual([
      `${USER}: allow rule "fs_read" can never match: patterns are mcp__<server> or mcp__<server>__<tool> (letters, digits, _ - . and *)`,
      `${USER}: allow rule "mcp__fs__read" can never apply: deny rule "mcp__fs" in ${USER} covers every tool it matches`,
      `${USER}: allow rule "mcp__ghost__x" names server "ghost", which is not configured (configured: fs, git)`,
      `${USER}: allow rule "mcp____x" can never match: patterns are mcp__<server> or mcp__<server>__<tool> (letters, digits, _ - . and *)`,
      `${PROJECT}: allow rule "mcp__git__push" can never apply: ask rule "mcp__git__push" in ${PROJECT} covers every tool it matches`,
    ]);
  });

  it('covers() claims coverage only when certain', () => {
    expect(covers('mcp__fs', 'mcp__fs__read')).toBe(true);
    expect(covers('mcp__*', 'mcp__fs__*')).toBe(true);
    expect(covers('mcp__fs__*', 'mcp__fs')).toBe(true);
    expect(covers('mcp__fs__read_*', 'mcp__fs__*')).toBe(false);
    expect(covers('mcp__fs__read', 'mcp__fs__read_*')).toBe(false);
    expect(covers('mcp__*__list', 'mcp__fs__list')).toBe(true);
  });
});

describe('property: the policy agrees with a naive evaluator', () => {
  const servers = ['fs', 'git', 'web'];
  const tools = ['read', 'write', 'list', 'read_all'];
  const pattern = fc.oneof(
    fc.constantFrom(...servers).map((s) => `mcp__${s}`),
    fc.tuple(fc.constantFrom(...servers, '*'), fc.constantFrom(...tools, '*', 'read_*', 'w*')).map(([s, t]) => `mcp__${s}__${t}`),
  );
  const rules = fc.record({ allow: fc.array(pattern, { maxLength: 3 }), deny: fc.array(pattern, { maxLength: 3 }), ask: fc.array(pattern, { maxLength: 3 }), defaultMode: fc.option(fc.constantFrom('allow', 'ask', 'deny') as fc.Arbitrary<PermissionDecision>, { nil: undefined }) });

  function naive(blocks: PermissionBlock[], server: string, tool: string): PermissionDecision {
    const name = `mcp__${server}__${tool}`;
    const hit = (p: string) => {
      const parts = p.slice(5).split('__');
      const glob = parts.length === 1 ? `mcp__${parts[0]}__*` : p;
      return new RegExp(`^${glob.split('*').join('.*')}$`).test(name);
    };
    const all = (list: 'allow' | 'deny' | 'ask') => blocks.flatMap((b) => b[list]);
    if (all('deny').some(hit)) return 'deny';
    if (all('ask').some(hit)) return 'ask';
    if (all('allow').some(hit)) return 'allow';
    return [...blocks].reverse().find((b) => b.defaultMode)?.defaultMode ?? 'allow';
  }

  it('for random rule sets in two files', () => {
    fc.assert(
      fc.property(rules, rules, fc.constantFrom(...servers), fc.constantFrom(...tools), (a, b, server, tool) => {
        const blocks = [block(USER, 'user', a), block(PROJECT, 'project', b)];
        expect(new PermissionPolicy(blocks).decide({ server, tool }).decision).toBe(naive(blocks, server, tool));
      }),
      { numRuns: 500 },
    );
  });
});
