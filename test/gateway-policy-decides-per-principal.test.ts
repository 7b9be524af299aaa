/**
 * Gateway policies decide per request: a rule applies by principal (subject or client id, globs)
 * and scope; deny wins over allow; an allow list anywhere among the applicable rules narrows to
 * what some allow names; only-deny rules let the rest through; no policies allow everything.
 * Patterns are read against the (server, tool) pair, so names containing the separator `__` are
 * never split wrongly. Virtual servers use the same matcher. Bad config is refused naming where
 * and which rule.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError, McpError } from '../src/protocol/errors.js';
import type { AuthInfo } from '../src/server/auth-info.js';
import { globMatches, patternMatches } from '../src/gateway/policy/pattern.js';
import { compilePolicies } from '../src/gateway/policy/policies.js';
import { compileVirtualServers } from '../src/gateway/policy/virtual-servers.js';

const alice: AuthInfo = { subject: 'alice', clientId: 'agent-app', scopes: ['mcp:read'] };
const bob: AuthInfo = { subject: 'bob', clientId: 'ci-bot', scopes: ['mcp:read', 'mcp:admin'] };
const machine: AuthInfo = { clientId: 'svc-backup', scopes: [] };
const WHERE = '/etc/mcpwire/gateway.json';

/** The refusal `fn` throws: a ConfigError (CONFIG_INVALID) whose message starts with WHERE. */
function refusal(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    const config = error as ConfigError;
    expect(config.code).toBe('CONFIG_INVALID');
    expect(config.message.startsWith(`${WHERE}: `)).toBe(true);
    return config;
  }
  throw new Error('expected a refusal');
}

describe('the pattern matcher', () => {
  it('knows * (any run, the separator included) and ? (one character), nothing else', () => {
    expect(globMatches('fs', 'fs')).toBe(true);
    expect(globMatches('fs', 'fsx')).toBe(false);
    expect(globMatches('f?', 'fs')).toBe(true);
    expect(globMatches('f?', 'f')).toBe(false);
    expect(globMatches('*', '')).toBe(true);
    expect(globMatches('a*c', 'a__b__c')).toBe(true);
    expect(globMatches('a.c', 'abc')).toBe(false); // no RegExp: a dot is a dot
    expect(globMatches('[ab]', 'a')).toBe(false);
    expect(globMatches('*a*a*a*a*a*a*a*b', 'a'.repeat(5_000))).toBe(false); // no back-tracking blow-up
  });

  it('reads a pattern against the (server, tool) pair, not a split of the gateway name', () => {
    // `a__b__c` is both (a, b__c) and (a__b, c); each pair is named by its own joined form.
    expect(patternMatches('a__b__c', { server: 'a', tool: 'b__c' }, '__')).toBe(true);
    expect(patternMatches('a__b__c', { server: 'a__b', tool: 'c' }, '__')).toBe(true);
    // The whole server `a` does not name server `a__b`, nor its tools.
    expect(patternMatches('a', { server: 'a__b', tool: 'c' }, '__')).toBe(false);
    expect(patternMatches('a', { server: 'a', tool: 'b__c' }, '__')).toBe(true);
    // A tool pattern never names the whole server.
    expect(patternMatches('a__b', { server: 'a' }, '__')).toBe(false);
    // The exposed name counts too (a shortened or disambiguated name).
    expect(patternMatches('fs__read_2', { server: 'fs', tool: 'read', name: 'fs__read_2' }, '__')).toBe(true);
    // Another separator.
    expect(patternMatches('fs.read', { server: 'fs', tool: 'read' }, '.')).toBe(true);
    expect(patternMatches('fs__read', { server: 'fs', tool: 'read' }, '.')).toBe(false);
  });
});

describe('policies', () => {
  it('allow everything when there are none, for any caller, with no deciding rule', () => {
    for (const policies of [undefined, []]) {
      const set = compilePolicies(policies, WHERE);
      expect(set.size).toBe(0);
      expect(set.decide(undefined, { server: 'fs', tool: 'write' })).toEqual({ allowed: true });
      expect(set.decide(alice, { server: 'fs' })).toEqual({ allowed: true });
    }
  });

  it('let deny win over allow, naming the deny that decided', () => {
    const set = compilePolicies(
      [
        { name: 'everyone', allow: ['fs', 'git'] },
        { name: 'no-writes', deny: ['fs__write*'] },
      ],
      WHERE,
    );
    expect(set.decide(alice, { server: 'fs', tool: 'read_file' })).toEqual({ allowed: true, rule: 'everyone' });
    expect(set.decide(alice, { server: 'fs', tool: 'write_file' })).toEqual({ allowed: false, rule: 'no-writes' });
    // The same rule listing a thing in both: deny wins.
    const both = compilePolicies([{ allow: ['fs'], deny: ['fs__rm'] }], WHERE);
    expect(both.decide(alice, { server: 'fs', tool: 'rm' })).toEqual({ allowed: false, rule: 'policies[0]' });
    expect(both.decide(alice, { server: 'fs', tool: 'ls' })).toEqual({ allowed: true, rule: 'policies[0]' });
  });

  it('narrow to what some applicable allow names once any applicable rule allows', () => {
    const set = compilePolicies([{ name: 'base', allow: ['git__log', 'docs'] }], WHERE);
    expect(set.decide(alice, { server: 'git', tool: 'log' }).allowed).toBe(true);
    expect(set.decide(alice, { server: 'git', tool: 'push' })).toEqual({ allowed: false, rule: 'base' });
    expect(set.decide(alice, { server: 'docs', tool: 'search' }).allowed).toBe(true);
    expect(set.decide(alice, { server: 'fs', tool: 'read' })).toEqual({ allowed: false, rule: 'base' });
  });

  it('let everything else through when the applicable rules only deny', () => {
    const set = compilePolicies([{ deny: ['shell', '*__delete_*'] }], WHERE);
    expect(set.decide(alice, { server: 'shell', tool: 'run' })).toEqual({ allowed: false, rule: 'policies[0]' });
    expect(set.decide(alice, { server: 'db', tool: 'delete_row' }).allowed).toBe(false);
    expect(set.decide(alice, { server: 'db', tool: 'select' })).toEqual({ allowed: true });
    expect(set.decide(undefined, { server: 'fs' })).toEqual({ allowed: true });
  });

  it('add up the allows of every rule that applies, per principal (subject or client id, globs)', () => {
    const set = compilePolicies(
      [
        { name: 'all', allow: ['docs'] },
        { name: 'alice', principal: 'alice', allow: ['git'] },
        { name: 'bots', principal: ['*-bot', 'svc-*'], allow: ['ci__*'] },
      ],
      WHERE,
    );
    const target = { server: 'git', tool: 'log' };
    expect(set.decide(alice, target)).toEqual({ allowed: true, rule: 'alice' });
    expect(set.decide(bob, target)).toEqual({ allowed: false, rule: 'all' });
    expect(set.decide(bob, { server: 'ci', tool: 'run' })).toEqual({ allowed: true, rule: 'bots' }); // by clientId
    expect(set.decide(machine, { server: 'ci', tool: 'run' }).allowed).toBe(true); // no subject, a client id
    expect(set.decide(machine, { server: 'docs', tool: 'x' })).toEqual({ allowed: true, rule: 'all' });
    expect(set.decide(alice, { server: 'ci', tool: 'run' }).allowed).toBe(false);
  });

  it('apply a scoped rule when any of the token scopes matches, and both parts when both are given', () => {
    const set = compilePolicies(
      [
        { name: 'admins', scope: 'mcp:admin', allow: ['*'] },
        { name: 'readers', scope: ['mcp:read', 'mcp:ro*'], allow: ['docs'] },
        { name: 'alice-admin', principal: 'alice', scope: 'mcp:admin', deny: ['docs'] },
      ],
      WHERE,
    );
    expect(set.decide(bob, { server: 'shell', tool: 'run' })).toEqual({ allowed: true, rule: 'admins' });
    expect(set.decide(alice, { server: 'shell', tool: 'run' })).toEqual({ allowed: false, rule: 'readers' });
    expect(set.decide({ subject: 'carol', scopes: ['mcp:rolling'] }, { server: 'docs' }).allowed).toBe(true);
    // alice-admin needs both: alice without the admin scope is not denied docs.
    expect(set.decide(alice, { server: 'docs', tool: 'search' })).toEqual({ allowed: true, rule: 'readers' });
    const aliceAdmin: AuthInfo = { ...alice, scopes: ['mcp:admin'] };
    expect(set.decide(aliceAdmin, { server: 'docs', tool: 'search' })).toEqual({ allowed: false, rule: 'alice-admin' });
    // A token without scopes meets no scoped rule: no applicable rule, so allowed.
    expect(set.decide({ subject: 'dave', scopes: [] }, { server: 'shell', tool: 'run' })).toEqual({ allowed: true });
  });

  it('meet a request without auth only with rules that name neither principal nor scope', () => {
    const set = compilePolicies(
      [
        { name: 'anyone', allow: ['public'] },
        { name: 'alice', principal: '*', allow: ['*'] },
        { name: 'scoped', scope: '*', deny: ['public__secret'] },
      ],
      WHERE,
    );
    expect(set.decide(undefined, { server: 'public', tool: 'secret' })).toEqual({ allowed: true, rule: 'anyone' });
    expect(set.decide(undefined, { server: 'fs', tool: 'read' })).toEqual({ allowed: false, rule: 'anyone' });
    // principal '*' matches any token with a subject or a client id; a token with neither meets it not.
    expect(set.decide({ scopes: [] }, { server: 'fs', tool: 'read' }).allowed).toBe(false);
    expect(set.decide(alice, { server: 'public', tool: 'secret' })).toEqual({ allowed: false, rule: 'scoped' });
  });

  it('match names containing the separator by the pair, in allow and deny', () => {
    const set = compilePolicies([{ allow: ['my__server'], deny: ['my__server__drop__all'] }], WHERE);
    expect(set.decide(alice, { server: 'my__server', tool: 'list' }).allowed).toBe(true);
    expect(set.decide(alice, { server: 'my__server', tool: 'drop__all' }).allowed).toBe(false);
    expect(set.decide(alice, { server: 'my__server', tool: 'drop__some' }).allowed).toBe(true);
    // Server `my`: the whole-server allow of `my__server` is not it, nor its tools, except the one
    // pair whose joined form is the pattern itself (my + server), as the gateway name reads.
    expect(set.decide(alice, { server: 'my', tool: 'server' }).allowed).toBe(true);
    expect(set.decide(alice, { server: 'my', tool: 'other' }).allowed).toBe(false);
    expect(set.decide(alice, { server: 'my' }).allowed).toBe(false);
    // The exposed name may be the one a pattern names.
    const exposed = compilePolicies([{ allow: ['db__q_1a2b'] }], WHERE);
    expect(exposed.decide(alice, { server: 'db', tool: 'q'.repeat(80), name: 'db__q_1a2b' }).allowed).toBe(true);
  });

  it('decide whole-server items only by patterns naming the whole server', () => {
    const set = compilePolicies([{ allow: ['docs', 'fs__read'], deny: ['git__push'] }], WHERE);
    expect(set.decideServer(alice, 'docs')).toEqual({ allowed: true, rule: 'policies[0]' });
    expect(set.decideServer(alice, 'fs')).toEqual({ allowed: false, rule: 'policies[0]' }); // a tool is not the server
    expect(set.decideServer(alice, 'git').allowed).toBe(false); // not allowed; the tool deny is not why
    const denyOnly = compilePolicies([{ deny: ['git__push'] }], WHERE);
    expect(denyOnly.decideServer(alice, 'git')).toEqual({ allowed: true });
    expect(compilePolicies([{ deny: ['g?t'] }], WHERE).decideServer(alice, 'git').allowed).toBe(false);
  });

  it('bind the applicable rules once per request for a list filter', () => {
    const set = compilePolicies([{ principal: 'alice', allow: ['fs__read*'] }], WHERE);
    const request = set.forRequest(alice);
    const names = ['read_file', 'read_dir', 'write_file'].filter(
      (tool) => request.decide({ server: 'fs', tool }).allowed,
    );
    expect(names).toEqual(['read_file', 'read_dir']);
  });

  it('take another separator', () => {
    const set = compilePolicies([{ allow: ['fs.read'] }], WHERE, { separator: '.' });
    expect(set.decide(alice, { server: 'fs', tool: 'read' }).allowed).toBe(true);
    expect(set.decide(alice, { server: 'fs', tool: 'write' }).allowed).toBe(false);
  });

  it('refuse bad config, naming where and the rule by index and name', () => {
    expect(refusal(() => compilePolicies({ allow: ['x'] }, WHERE)).message).toBe(
      `${WHERE}: policies: must be an array of rules ({ principal?, scope?, allow?, deny? })`,
    );
    expect(refusal(() => compilePolicies(['fs'], WHERE)).message).toContain('policies[0]: must be an object');
    const unknown = refusal(() => compilePolicies([{ allow: ['a'] }, { name: 'ops', alow: ['b'] }], WHERE));
    expect(unknown.message).toContain('policies[1] ("ops"): unknown key "alow"');
    expect(unknown.field).toBe('policies[1] ("ops")');
    expect(refusal(() => compilePolicies([{ allow: 'fs' }], WHERE)).message).toBe(
      `${WHERE}: policies[0].allow: must be a non-empty array of non-empty strings`,
    );
    expect(refusal(() => compilePolicies([{ deny: [] }], WHERE)).message).toContain(
      'policies[0].deny: must be a non-empty',
    );
    expect(refusal(() => compilePolicies([{ deny: ['ok', 3] }], WHERE)).message).toContain('policies[0].deny');
    expect(refusal(() => compilePolicies([{ principal: 7, deny: ['x'] }], WHERE)).message).toContain(
      'policies[0].principal: must be a non-empty string or a non-empty array of them',
    );
    expect(refusal(() => compilePolicies([{ scope: [''], deny: ['x'] }], WHERE)).message).toContain(
      'policies[0].scope',
    );
    expect(refusal(() => compilePolicies([{ name: 'ops', principal: 'alice' }], WHERE)).message).toBe(
      `${WHERE}: policies[0] ("ops"): needs "allow" or "deny" (to refuse everything, deny ["*"])`,
    );
    expect(
      refusal(() =>
        compilePolicies(
          [
            { name: 'a', deny: ['x'] },
            { name: 'a', deny: ['y'] },
          ],
          WHERE,
        ),
      ).message,
    ).toContain('policies[1] ("a").name: a second rule named "a"');
    expect(refusal(() => compilePolicies([{ name: '', deny: ['x'] }], WHERE)).message).toContain('policies[0].name');
    expect(refusal(() => compilePolicies([], WHERE, { separator: '' })).message).toContain('separator');
    // The error is the one root's, with the config code.
    expect(refusal(() => compilePolicies(null, WHERE))).toBeInstanceOf(McpError);
  });
});

describe('virtual servers', () => {
  const set = compileVirtualServers(
    {
      readonly: { tools: ['fs__read*', 'git__log'], description: 'read-only tools' },
      docs: { servers: ['docs', 'wiki-*'] },
      'team_a-1': { tools: ['my__server'] },
    },
    WHERE,
  );

  it('list their names and entries in config order', () => {
    expect(set.names()).toEqual(['readonly', 'docs', 'team_a-1']);
    expect(set.get('readonly')).toEqual({
      name: 'readonly',
      tools: ['fs__read*', 'git__log'],
      servers: [],
      description: 'read-only tools',
    });
    expect(set.get('nope')).toBeUndefined();
    expect(compileVirtualServers(undefined, WHERE).names()).toEqual([]);
  });

  it('include by tool pattern or server glob, with the policy matcher', () => {
    expect(set.includes('readonly', { server: 'fs', tool: 'read_file' })).toBe(true);
    expect(set.includes('readonly', { server: 'fs', tool: 'write_file' })).toBe(false);
    expect(set.includes('readonly', { server: 'fs' })).toBe(false);
    expect(set.includes('docs', { server: 'wiki-eng', tool: 'search' })).toBe(true);
    expect(set.includes('docs', { server: 'wiki-eng' })).toBe(true);
    expect(set.includes('docs', { server: 'fs', tool: 'read_file' })).toBe(false);
    expect(set.includes('team_a-1', { server: 'my__server', tool: 'x__y' })).toBe(true);
    expect(set.includes('team_a-1', { server: 'my', tool: 'other' })).toBe(false);
    expect(set.includes('nope', { server: 'fs', tool: 'read_file' })).toBe(false);
  });

  it('refuse names that are no URL path segment and bad entries, naming where and the entry', () => {
    expect(refusal(() => compileVirtualServers({ 'a/b': { tools: ['x'] } }, WHERE)).message).toBe(
      `${WHERE}: virtualServers."a/b": the name must be 1 to 64 of A-Z a-z 0-9 _ - (it is a URL path segment)`,
    );
    expect(refusal(() => compileVirtualServers({ ['x'.repeat(65)]: { tools: ['x'] } }, WHERE)).message).toContain(
      'the name must be',
    );
    expect(refusal(() => compileVirtualServers({ '': { tools: ['x'] } }, WHERE)).message).toContain(
      'virtualServers.""',
    );
    expect(refusal(() => compileVirtualServers([], WHERE)).message).toContain('virtualServers: must be an object');
    expect(refusal(() => compileVirtualServers({ a: 'fs' }, WHERE)).message).toContain(
      'virtualServers."a": must be an object',
    );
    expect(refusal(() => compileVirtualServers({ a: { tool: ['x'] } }, WHERE)).message).toContain('unknown key "tool"');
    expect(refusal(() => compileVirtualServers({ a: { tools: [] } }, WHERE)).message).toContain(
      'virtualServers."a".tools',
    );
    expect(refusal(() => compileVirtualServers({ a: { description: 'x' } }, WHERE)).message).toContain(
      'needs "tools" or "servers"',
    );
    expect(refusal(() => compileVirtualServers({ a: { servers: ['x'], description: 1 } }, WHERE)).message).toContain(
      'virtualServers."a".description: must be a non-empty string',
    );
  });
});
