/**
 * Permission rules, pure: deny over ask over allow across files (and over specificity), server
 * and wildcard patterns, exposed and canonical names, the default mode, verdict reasons and
 * explain, the ask hook (authorize), rules that can never apply — and properties: decide()
 * agrees with a naive evaluator on random rule sets; dropping the rules unreachable() reports
 * changes no decision; glob coverage is sound.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PermissionBlock } from '../src/manager/permissions/permission-block.js';
import { globCovers, globMatches } from '../src/manager/glob.js';
import {
  authorize,
  PermissionPolicy,
  type PermissionAskRequest,
  type PermissionDecision,
  type PermissionSubject,
  type PermissionVerdict,
} from '../src/manager/permissions/permission-rules.js';
import { PermissionError } from '../src/manager/permissions/permission-rules.js';
import { assignToolNames } from '../src/manager/catalogue/tool-names.js';
import { failureOf } from './support/failure.js';

type Lists = Partial<Pick<PermissionBlock, 'allow' | 'deny' | 'ask' | 'defaultMode'>>;
const block = (file: string, scope: PermissionBlock['scope'], rules: Lists): PermissionBlock => ({
  file,
  scope,
  allow: [],
  deny: [],
  ask: [],
  ...rules,
});
const USER = '/home/u/.mcpwire/config.json';
const PROJECT = '/p/.mcp.json';
const EXPLICIT = '/etc/team.yaml';
const user = (rules: Lists) => block(USER, 'user', rules);
const project = (rules: Lists) => block(PROJECT, 'project', rules);
const explicit = (rules: Lists) => block(EXPLICIT, 'explicit', rules);

describe('PermissionPolicy.decide', () => {
  type Case = [string, PermissionBlock[], PermissionSubject, PermissionDecision, { pattern?: string; file?: string }?];
  const cases: Case[] = [
    // precedence across files, both ways
    ['no rules: allow', [], { server: 'fs', tool: 'read' }, 'allow'],
    [
      'user deny beats project allow',
      [user({ deny: ['mcp__fs__write'] }), project({ allow: ['mcp__fs__write'] })],
      { server: 'fs', tool: 'write' },
      'deny',
      { file: USER },
    ],
    [
      'project deny beats user allow',
      [user({ allow: ['mcp__fs__write'] }), project({ deny: ['mcp__fs__write'] })],
      { server: 'fs', tool: 'write' },
      'deny',
      { file: PROJECT },
    ],
    [
      'user ask beats explicit allow',
      [user({ ask: ['mcp__fs__write'] }), explicit({ allow: ['mcp__fs__write'] })],
      { server: 'fs', tool: 'write' },
      'ask',
      { file: USER },
    ],
    [
      'explicit deny beats project ask',
      [project({ ask: ['mcp__fs'] }), explicit({ deny: ['mcp__fs'] })],
      { server: 'fs', tool: 'x' },
      'deny',
      { file: EXPLICIT },
    ],
    [
      'of two deny rules, the first in layer order is named',
      [user({ deny: ['mcp__fs__*'] }), project({ deny: ['mcp__fs__write'] })],
      { server: 'fs', tool: 'write' },
      'deny',
      { pattern: 'mcp__fs__*', file: USER },
    ],
    // specificity does not override precedence
    [
      'broad ask beats exact allow in one file',
      [user({ allow: ['mcp__fs__read'], ask: ['mcp__fs'] })],
      { server: 'fs', tool: 'read' },
      'ask',
      { pattern: 'mcp__fs' },
    ],
    [
      'mcp__* deny beats an exact allow in a higher layer',
      [user({ deny: ['mcp__*'] }), project({ allow: ['mcp__fs__read'] })],
      { server: 'fs', tool: 'read' },
      'deny',
      { pattern: 'mcp__*' },
    ],
    [
      'exact deny beats broad allow',
      [user({ allow: ['mcp__*'] }), project({ deny: ['mcp__fs__rm'] })],
      { server: 'fs', tool: 'rm' },
      'deny',
    ],
    // server-level and wildcard patterns
    [
      'exact allow',
      [user({ allow: ['mcp__fs__read'] })],
      { server: 'fs', tool: 'read' },
      'allow',
      { pattern: 'mcp__fs__read' },
    ],
    [
      'server-level deny covers every tool',
      [user({ deny: ['mcp__fs'] })],
      { server: 'fs', tool: 'write' },
      'deny',
      { pattern: 'mcp__fs' },
    ],
    [
      'server-level rule leaves a longer server name alone',
      [user({ deny: ['mcp__fs'] })],
      { server: 'fsx', tool: 'write' },
      'allow',
    ],
    [
      'a star in the server part reaches longer names',
      [user({ deny: ['mcp__fs*'] })],
      { server: 'fsx', tool: 'write' },
      'deny',
    ],
    ['mcp__fs__* is the same as mcp__fs', [user({ deny: ['mcp__fs__*'] })], { server: 'fs', tool: 'anything' }, 'deny'],
    [
      'wildcard tool prefix',
      [user({ ask: ['mcp__fs__write_*'] })],
      { server: 'fs', tool: 'write_file' },
      'ask',
      { pattern: 'mcp__fs__write_*' },
    ],
    [
      'wildcard tool prefix does not match the bare word',
      [user({ ask: ['mcp__fs__write_*'] })],
      { server: 'fs', tool: 'write' },
      'allow',
    ],
    ['star in the middle', [user({ deny: ['mcp__fs__*_file'] })], { server: 'fs', tool: 'read_text_file' }, 'deny'],
    [
      'star for the server, literal tool',
      [user({ deny: ['mcp__*__delete'] })],
      { server: 'git', tool: 'delete' },
      'deny',
    ],
    ['star for the server, other tool', [user({ deny: ['mcp__*__delete'] })], { server: 'git', tool: 'list' }, 'allow'],
    ['mcp__* matches everything', [user({ deny: ['mcp__*'] })], { server: 'any', tool: 'thing' }, 'deny'],
    ['a dot in a pattern is literal', [user({ deny: ['mcp__fs__a.c'] })], { server: 'fs', tool: 'abc' }, 'allow'],
    // exposed and canonical names
    [
      'a rule on the exposed name',
      [user({ deny: ['mcp__web_search__q'] })],
      { server: 'web.search', tool: 'q', name: 'mcp__web_search__q' },
      'deny',
    ],
    [
      'a rule on the canonical name when the exposed one differs',
      [user({ deny: ['mcp__web.search__*'] })],
      { server: 'web.search', tool: 'q', name: 'mcp__web_search__q' },
      'deny',
    ],
    ['a rule on neither name', [user({ deny: ['mcp__web_search__q'] })], { server: 'web.search', tool: 'q' }, 'allow'],
    [
      'a hashed exposed name',
      [user({ ask: ['mcp__big_*'] })],
      { server: 'big.server', tool: 'x', name: 'mcp__big_server__x_0123abcd' },
      'ask',
    ],
    // malformed patterns match nothing (and are reported by unreachable())
    [
      'a pattern with a space is inert',
      [user({ deny: ['mcp__fs__read file'] })],
      { server: 'fs', tool: 'read file' },
      'allow',
    ],
    ['a pattern without mcp__ is inert', [user({ deny: ['fs__read'] })], { server: 'fs', tool: 'read' }, 'allow'],
    ['a pattern with an empty server is inert', [user({ deny: ['mcp____x'] })], { server: '', tool: 'x' }, 'allow'],
    // the default mode
    [
      'defaultMode of the highest layer',
      [user({ defaultMode: 'deny' }), project({ defaultMode: 'ask' })],
      { server: 'x', tool: 'y' },
      'ask',
    ],
    [
      'a lower layer default stands when higher ones set none',
      [user({ defaultMode: 'deny' }), project({ allow: ['mcp__other'] })],
      { server: 'x', tool: 'y' },
      'deny',
    ],
    [
      'a rule beats the default',
      [user({ defaultMode: 'deny', allow: ['mcp__x__y'] })],
      { server: 'x', tool: 'y' },
      'allow',
    ],
    [
      'an allow rule beats a stricter default in a higher layer',
      [user({ allow: ['mcp__x'] }), project({ defaultMode: 'deny' })],
      { server: 'x', tool: 'y' },
      'allow',
    ],
  ];
  it.each(cases)('%s', (_name, blocks, subject, decision, expected) => {
    const verdict = new PermissionPolicy(blocks).decide(subject);
    expect(verdict.decision).toBe(decision);
    if (expected?.pattern) expect(verdict.rule?.pattern).toBe(expected.pattern);
    if (expected?.file) expect(verdict.rule?.file).toBe(expected.file);
    if (!verdict.rule) expect(verdict.reason).toMatch(/no rule matches$/);
  });

  it('the reason names the rule, its file and scope; the default names its file; none means the built-in allow', () => {
    expect(
      new PermissionPolicy([user({ allow: ['mcp__fs__*'] }), project({ deny: ['mcp__fs__write'] })]).decide({
        server: 'fs',
        tool: 'write',
      }),
    ).toEqual({
      decision: 'deny',
      rule: { pattern: 'mcp__fs__write', list: 'deny', file: PROJECT, scope: 'project' },
      reason: `mcp__fs__write: deny by rule "mcp__fs__write" in ${PROJECT} (project)`,
    });
    expect(new PermissionPolicy([project({ defaultMode: 'ask' })]).decide({ server: 'a', tool: 'b' })).toEqual({
      decision: 'ask',
      defaultFrom: { file: PROJECT, scope: 'project' },
      reason: `mcp__a__b: ask by defaultMode in ${PROJECT} (project); no rule matches`,
    });
    expect(PermissionPolicy.empty().decide({ server: 'a', tool: 'b' })).toEqual({
      decision: 'allow',
      reason: 'mcp__a__b: allow by default; no rule matches',
    });
  });

  it('rules() lists every rule file by file, malformed ones included', () => {
    const policy = new PermissionPolicy([user({ allow: ['mcp__a'], deny: ['bad'] }), project({ ask: ['mcp__b'] })]);
    expect(policy.rules()).toEqual([
      { pattern: 'bad', list: 'deny', file: USER, scope: 'user' },
      { pattern: 'mcp__a', list: 'allow', file: USER, scope: 'user' },
      { pattern: 'mcp__b', list: 'ask', file: PROJECT, scope: 'project' },
    ]);
  });
});

describe('PermissionPolicy.explain', () => {
  it('names the deciding rule and its file, lists every matching rule with the winner marked, and says why it won', () => {
    const policy = new PermissionPolicy([
      user({ allow: ['mcp__fs__*'] }),
      project({ deny: ['mcp__fs__write'], ask: ['mcp__fs'] }),
    ]);
    expect(policy.explain({ server: 'fs', tool: 'write' }).split('\n')).toEqual([
      `mcp__fs__write: deny by rule "mcp__fs__write" in ${PROJECT} (project)`,
      'matching rules (deny beats ask beats allow, whichever file they are in):',
      `  * deny  mcp__fs__write  (${PROJECT}, project)`,
      `    ask   mcp__fs  (${PROJECT}, project)`,
      `    allow mcp__fs__*  (${USER}, user)`,
      '"mcp__fs__write" wins: a deny rule beats ask and allow rules, however specific',
    ]);
  });

  it('rules of one list: the first in layer order is named', () => {
    const policy = new PermissionPolicy([user({ allow: ['mcp__fs'] }), project({ allow: ['mcp__fs__read'] })]);
    expect(policy.explain({ server: 'fs', tool: 'read' }).split('\n').at(-1)).toBe(
      '"mcp__fs" is shown as the first allow rule in layer order; all of them say allow',
    );
  });

  it('one matching rule: the verdict line says it all', () => {
    expect(new PermissionPolicy([user({ ask: ['mcp__fs'] })]).explain({ server: 'fs', tool: 'x' })).toBe(
      `mcp__fs__x: ask by rule "mcp__fs" in ${USER} (user)`,
    );
  });

  it('no matching rule: the names tried and where the default comes from', () => {
    const policy = new PermissionPolicy([user({ deny: ['mcp__git'], defaultMode: 'ask' })]);
    expect(policy.explain({ server: 'web.search', tool: 'q', name: 'mcp__web_search__q' }).split('\n')).toEqual([
      `mcp__web.search__q: ask by defaultMode in ${USER} (user); no rule matches`,
      'no rule matches mcp__web.search__q or mcp__web_search__q',
      `the default mode ask is set in ${USER} (user), the highest layer that sets one`,
    ]);
    expect(PermissionPolicy.empty().explain({ server: 'a', tool: 'b' }).split('\n')).toEqual([
      'mcp__a__b: allow by default; no rule matches',
      'no file sets a defaultMode, so the built-in default allow applies',
    ]);
  });
});

describe('authorize', () => {
  const policy = new PermissionPolicy([
    user({ deny: ['mcp__fs__rm'], ask: ['mcp__fs__write'], allow: ['mcp__fs__read'] }),
    project({ defaultMode: 'ask' }),
  ]);
  const call = (tool: string) => ({ server: 'fs', tool, name: `mcp__fs__${tool}`, arguments: { path: 'a.txt' } });
  const verdict = (tool: string): PermissionVerdict => policy.decide({ server: 'fs', tool });
  const never = () => {
    throw new Error('the hook must not be asked');
  };

  it('allow resolves without asking', async () => {
    await expect(authorize(verdict('read'), never, call('read'))).resolves.toBeUndefined();
  });

  it('deny rejects without asking, naming the tool, the rule and its file', async () => {
    const error = await failureOf(authorize(verdict('rm'), never, call('rm')), PermissionError, {
      code: 'PERMISSION_DENIED',
      server: 'fs',
      method: 'tools/call',
      verdict: { decision: 'deny' },
      data: undefined,
    });
    expect((error as Error).message).toBe(
      `server "fs": tools/call mcp__fs__rm is denied (mcp__fs__rm: deny by rule "mcp__fs__rm" in ${USER} (user))`,
    );
  });

  type HookCase = [string, ((request: PermissionAskRequest) => unknown) | undefined, RegExp | undefined];
  const hooks: HookCase[] = [
    ['a hook answering true allows', () => true, undefined],
    ['an async hook answering true allows', async () => true, undefined],
    [
      'a hook answering false refuses',
      () => false,
      /mcp__fs__write was refused by the user \(.*rule "mcp__fs__write" in \/home\/u\/\.mcpwire\/config\.json/,
    ],
    ['a truthy non-boolean is not approval', () => 'yes', /was refused by the user/],
    [
      'a throwing hook refuses and keeps the cause',
      () => {
        throw new Error('prompt crashed');
      },
      /mcp__fs__write was not approved: the ask hook failed \(prompt crashed\)/,
    ],
    [
      'a rejecting hook refuses',
      async () => Promise.reject(new Error('tty closed')),
      /the ask hook failed \(tty closed\)/,
    ],
    [
      'no hook: denied, saying none is configured',
      undefined,
      /mcp__fs__write needs the user's approval \(.*config\.json \(user\)\), and no ask hook is configured/,
    ],
  ];
  it.each(hooks)('%s', async (_name, hook, refused) => {
    const asked: PermissionAskRequest[] = [];
    const promise = authorize(
      verdict('write'),
      hook && ((request) => (asked.push(request), hook(request)) as boolean),
      call('write'),
    );
    if (!refused) await expect(promise).resolves.toBeUndefined();
    else {
      const error = await promise.catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'PERMISSION_DENIED', server: 'fs' });
      expect((error as Error).message).toMatch(refused);
      if (/fail/.test(_name) || /reject/.test(_name)) expect((error as Error).cause).toBeInstanceOf(Error);
    }
    if (hook) expect(asked).toEqual([{ ...call('write'), verdict: verdict('write') }]);
  });

  it('an ask by the default mode names the file of the default', async () => {
    await expect(authorize(verdict('stat'), undefined, call('stat'))).rejects.toThrow(
      `mcp__fs__stat needs the user's approval (mcp__fs__stat: ask by defaultMode in ${PROJECT} (project); no rule matches)`,
    );
  });

  it('an abort while the hook is pending rejects with the reason, aborts the hook and ignores its late answer', async () => {
    const controller = new AbortController();
    let hookSignal: AbortSignal | undefined;
    const pending = authorize(
      verdict('write'),
      (_request, { signal }) => {
        hookSignal = signal;
        return new Promise<boolean>((resolve) => signal.addEventListener('abort', () => resolve(true), { once: true }));
      },
      call('write'),
      { signal: controller.signal },
    );
    const reason = new Error('caller gave up');
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    expect(hookSignal?.aborted).toBe(true);
  });

  it('an already aborted signal rejects before asking', async () => {
    const reason = new Error('too late');
    await expect(authorize(verdict('write'), never, call('write'), { signal: AbortSignal.abort(reason) })).rejects.toBe(
      reason,
    );
  });

  it('timeoutMs rejects with TIMEOUT and aborts the hook; a bad timeoutMs is INVALID_ARGUMENT', async () => {
    let hookSignal: AbortSignal | undefined;
    const pending = authorize(
      verdict('write'),
      (_request, { signal }) => {
        hookSignal = signal;
        return new Promise<boolean>((resolve) => signal.addEventListener('abort', () => resolve(true), { once: true }));
      },
      call('write'),
      { timeoutMs: 5 },
    );
    await expect(pending).rejects.toMatchObject({
      code: 'TIMEOUT',
      message: 'server "fs": tools/call mcp__fs__write: the ask hook gave no answer within 5 ms',
    });
    expect(hookSignal?.aborted).toBe(true);
    await expect(authorize(verdict('write'), () => true, call('write'), { timeoutMs: -1 })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
  });
});

describe('PermissionPolicy.unreachable', () => {
  const reasonsOf = (blocks: PermissionBlock[], servers?: string[], tools?: PermissionSubject[]) =>
    new PermissionPolicy(blocks)
      .unreachable(servers ? { servers, ...(tools ? { tools } : {}) } : {})
      .map((u) => u.reason);

  const unconfigured = (list: string, rule: string, server: string, configured: string) =>
    `${USER}: ${list} rule "${rule}" names server "${server}", which is not configured (configured: ${configured})`;

  type Case = [string, Lists, string[] | undefined, string | undefined];
  const cases: Case[] = [
    // unknown servers
    [
      'a server not configured',
      { allow: ['mcp__ghost__x'] },
      ['fs', 'git'],
      unconfigured('allow', 'mcp__ghost__x', 'ghost', 'fs, git'),
    ],
    [
      'a server-level rule for a server not configured',
      { deny: ['mcp__ghost'] },
      [],
      unconfigured('deny', 'mcp__ghost', 'ghost', 'none'),
    ],
    [
      'a prefix of a configured name is not that server',
      { deny: ['mcp__f'] },
      ['fs'],
      unconfigured('deny', 'mcp__f', 'f', 'fs'),
    ],
    [
      'known server, unknown server',
      { deny: ['mcp__fs__x', 'mcp__gti__push'] },
      ['fs', 'git'],
      unconfigured('deny', 'mcp__gti__push', 'gti', 'fs, git'),
    ],
    ['servers unknown: no check', { allow: ['mcp__ghost__x'] }, undefined, undefined],
    ['a star in the server part is not checked', { allow: ['mcp__gh*__x', 'mcp__*'] }, ['fs'], undefined],
    ['the exposed form of a server name', { deny: ['mcp__web_search__q'] }, ['web.search'], undefined],
    ['a server name holding __', { deny: ['mcp__a__b__c'] }, ['a__b'], undefined],
    [
      'a cut exposed name of a long server',
      { deny: [`mcp__p__${'x'.repeat(47)}_*`] },
      [`p__${'x'.repeat(60)}.z`],
      undefined,
    ],
    // reachable: no report
    ['deny narrower than allow', { allow: ['mcp__fs__*'], deny: ['mcp__fs__write_*'] }, ['fs'], undefined],
    [
      'allow over other servers than the deny',
      { allow: ['mcp__*__list'], deny: ['mcp__fs'] },
      ['fs', 'git'],
      undefined,
    ],
    ['ask partly covered', { ask: ['mcp__fs__*'], deny: ['mcp__fs__rm', 'mcp__fs__mv'] }, ['fs'], undefined],
    ['allow beside a weaker ask', { allow: ['mcp__fs'], ask: ['mcp__fs__write'] }, ['fs'], undefined],
    ['two equal allow rules', { allow: ['mcp__fs', 'mcp__fs'] }, ['fs'], undefined],
    ['a deny is never shadowed', { deny: ['mcp__fs__rm', 'mcp__fs'] }, ['fs'], undefined],
    [
      'an allow not covered by the stronger rule',
      { allow: ['mcp__fs__read'], deny: ['mcp__fs__read_*'] },
      ['fs'],
      undefined,
    ],
  ];
  it.each(cases)('%s', (_name, lists, servers, reason) => {
    expect(reasonsOf([user(lists)], servers)).toEqual(reason ? [reason] : []);
  });

  type List = 'allow' | 'deny' | 'ask';
  const malformedCases: Array<[string, List, string, string]> = [
    ['no mcp__ prefix', 'allow', 'fs_read', 'it does not start with mcp__'],
    ['bare mcp__', 'deny', 'mcp__', 'its server part is empty'],
    ['empty server part', 'allow', 'mcp____x', 'its server part is empty'],
    ['empty tool part', 'ask', 'mcp__fs__', 'its tool part is empty'],
    ['a space', 'deny', 'mcp__fs__read file', 'it has characters other than letters, digits, _ - . and *'],
    ['regex syntax', 'deny', 'mcp__fs__(read|write)', 'it has characters other than letters, digits, _ - . and *'],
  ];
  it.each(malformedCases)('malformed: %s', (_name, list, rule, why) => {
    expect(reasonsOf([user({ [list]: [rule] })])).toEqual([
      `${USER}: ${list} rule "${rule}" can never match: ${why} (patterns are mcp__<server> or mcp__<server>__<tool>)`,
    ]);
  });

  /** A rule, and the stronger rule that covers all it could match. */
  const shadowCases: Array<[string, [List, string], [List, string]]> = [
    ['allow under deny mcp__fs', ['allow', 'mcp__fs__read'], ['deny', 'mcp__fs']],
    ['allow under deny mcp__fs__*', ['allow', 'mcp__fs__read'], ['deny', 'mcp__fs__*']],
    ['allow under deny mcp__*', ['allow', 'mcp__fs__read'], ['deny', 'mcp__*']],
    ['server-level allow under deny mcp__fs__*', ['allow', 'mcp__fs'], ['deny', 'mcp__fs__*']],
    ['ask under deny', ['ask', 'mcp__fs__write_*'], ['deny', 'mcp__fs__write*']],
    ['allow under ask', ['allow', 'mcp__git__push'], ['ask', 'mcp__git__push']],
    ['wildcard allow under wildcard deny', ['allow', 'mcp__*__list'], ['deny', 'mcp__*']],
  ];
  it.each(shadowCases)('shadowed: %s', (_name, [list, rule], [byList, byRule]) => {
    expect(reasonsOf([user({ [list]: [rule], [byList]: [byRule] })])).toEqual([
      `${USER}: ${list} rule "${rule}" can never apply: ${byList} rule "${byRule}" in ${USER} covers every tool it matches`,
    ]);
  });

  it('a stronger rule in another file shadows too, and the reason names both files', () => {
    expect(reasonsOf([user({ deny: ['mcp__s__crash'] }), project({ allow: ['mcp__s__crash'] })], ['s'])).toEqual([
      `${PROJECT}: allow rule "mcp__s__crash" can never apply: deny rule "mcp__s__crash" in ${USER} covers every tool it matches`,
    ]);
  });

  it('a rule matching a tool already seen is not reported as naming an unknown server', () => {
    const blocks = [user({ deny: ['mcp__renamed__q'] })];
    expect(reasonsOf(blocks, ['odd'])).toHaveLength(1);
    expect(reasonsOf(blocks, ['odd'], [{ server: 'odd', tool: 'q', name: 'mcp__renamed__q' }])).toEqual([]);
  });

  it("the cut name above is real: the long server's tools get it, and only it matches", () => {
    const [tool] = universe([`p__${'x'.repeat(60)}.z`]);
    expect(tool!.name).toMatch(new RegExp(`^mcp__p__x{47}_[0-9a-f]{8}$`));
    expect(new PermissionPolicy([user({ deny: [`mcp__p__${'x'.repeat(47)}_*`] })]).decide(tool!).decision).toBe('deny');
  });

  it('reports each rule once, in rules() order', () => {
    const policy = new PermissionPolicy([
      user({ allow: ['bad', 'mcp__ghost', 'mcp__fs__read'], deny: ['mcp__fs'] }),
      project({ ask: ['mcp__fs__x'] }),
    ]);
    expect(policy.unreachable({ servers: ['fs'] }).map((u) => u.rule.pattern)).toEqual([
      'bad',
      'mcp__ghost',
      'mcp__fs__read',
      'mcp__fs__x',
    ]);
  });
});

describe('glob coverage claims only what is certain', () => {
  const cases: Array<[string, string, boolean]> = [
    ['mcp__fs__*', 'mcp__fs__read', true],
    ['mcp__*', 'mcp__fs__*', true],
    ['mcp__*__*', 'mcp__fs__*', true],
    ['mcp__*__list', 'mcp__fs__list', true],
    ['mcp__fs__read*', 'mcp__fs__read_*', true],
    ['*a*', '*a*', true],
    ['*', '', true],
    ['mcp__fs__read_*', 'mcp__fs__*', false],
    ['mcp__fs__read', 'mcp__fs__read_*', false],
    ['mcp__fs__*', 'mcp__*__read', false],
    ['a*b', 'a*', false],
    ['a', '', false],
  ];
  it.each(cases)('%s covers %s: %s', (a, b, expected) => {
    expect(globCovers(a, b)).toBe(expected);
  });
});

// ---------------------------------------------------------------------------------------------
// Properties

const SERVERS = ['fs', 'git', 'web.search', 'a', 'a__b', `p__${'x'.repeat(60)}.z`, 'odd server'];
const TOOLS = ['read', 'write', 'read_all', 'b__c', 'c', 'do it', 'q'];
const FILES: Array<[string, PermissionBlock['scope']]> = [
  [USER, 'user'],
  [PROJECT, 'project'],
  [EXPLICIT, 'explicit'],
  ['<inline>', 'inline'],
];

function universe(servers: readonly string[]): Array<PermissionSubject & { name: string }> {
  const pairs = servers.flatMap((server) => TOOLS.map((tool) => ({ server, tool })));
  const names = assignToolNames(pairs);
  return pairs.map((pair, i) => ({ ...pair, name: names[i]!.name }));
}
const ALL = universe(SERVERS);

/**
 * Patterns that hit real names often: names with a stretch starred out, exact names, server-level rules, a few
 * malformed ones.
 */
const patternArb: fc.Arbitrary<string> = fc.oneof(
  fc.tuple(fc.constantFrom(...ALL), fc.boolean(), fc.nat(), fc.nat()).map(([subject, exposed, x, y]) => {
    const name = exposed ? subject.name : `mcp__${subject.server}__${subject.tool}`;
    const [from, to] = [x % (name.length + 1), y % (name.length + 1)].sort((p, q) => p - q);
    return `${name.slice(0, from)}*${name.slice(to)}`;
  }),
  fc.constantFrom(...ALL).chain((s) => fc.constantFrom(s.name, `mcp__${s.server}__${s.tool}`, `mcp__${s.server}`)),
  fc.constantFrom(
    'mcp__*',
    'mcp__*__read',
    'mcp__a',
    'mcp__a__b',
    'mcp__ghost',
    'mcp__ghost__q',
    'mcp__web_search__*',
    'mcp__*__*_all',
    'fs_read',
    'mcp__',
    'mcp____c',
    'mcp__fs__',
    'mcp__odd server__q',
  ),
);
const listsArb = fc.record({
  allow: fc.array(patternArb, { maxLength: 3 }),
  deny: fc.array(patternArb, { maxLength: 2 }),
  ask: fc.array(patternArb, { maxLength: 2 }),
  defaultMode: fc.option(fc.constantFrom<PermissionDecision>('allow', 'ask', 'deny'), { nil: undefined }),
});
const blocksArb = fc
  .array(listsArb, { minLength: 1, maxLength: 4 })
  .map((all) => all.map((lists, i) => block(FILES[i]![0], FILES[i]![1], lists)));

/** The reference: the rules as the issue states them, with RegExp and no shortcuts. */
function naive(
  blocks: readonly PermissionBlock[],
  subject: PermissionSubject & { name: string },
): { decision: PermissionDecision; pattern?: string; file?: string } {
  const names = [`mcp__${subject.server}__${subject.tool}`, subject.name];
  const hit = (pattern: string): boolean => {
    const parts = /^mcp__(.*?)(?:__(.*))?$/s.exec(pattern);
    if (!parts) return false;
    const [, server, tool] = parts;
    const ok = (part: string | undefined) => part !== undefined && /^[A-Za-z0-9_.*-]+$/.test(part);
    if (!ok(server) || (tool !== undefined && !ok(tool))) return false;
    const glob = tool === undefined ? `mcp__${server}__*` : pattern;
    const regex = new RegExp(
      `^${glob
        .split('*')
        .map((s) => s.replace(/[.\\^$+?()[\]{}|-]/g, '\\$&'))
        .join('[\\s\\S]*')}$`,
    );
    return names.some((name) => regex.test(name));
  };
  for (const list of ['deny', 'ask', 'allow'] as const) {
    for (const b of blocks) {
      const pattern = b[list].find(hit);
      if (pattern !== undefined) return { decision: list, pattern, file: b.file };
    }
  }
  return { decision: [...blocks].reverse().find((b) => b.defaultMode)?.defaultMode ?? 'allow' };
}

describe('properties', () => {
  it('decide() agrees with the naive evaluator on random rule sets in up to four files', () => {
    fc.assert(
      fc.property(blocksArb, (blocks) => {
        const policy = new PermissionPolicy(blocks);
        for (const subject of ALL) {
          const verdict = policy.decide(subject);
          expect({ decision: verdict.decision, pattern: verdict.rule?.pattern, file: verdict.rule?.file }).toEqual({
            pattern: undefined,
            file: undefined,
            ...naive(blocks, subject),
          });
        }
      }),
      { numRuns: 300 },
    );
  });

  it('dropping the rules unreachable() reports changes no decision, and no reported rule ever decides', () => {
    fc.assert(
      fc.property(blocksArb, fc.subarray(SERVERS, { minLength: 1 }), (blocks, servers) => {
        const subjects = universe(servers);
        const reported = new PermissionPolicy(blocks)
          .unreachable({ servers })
          .map((u) => `${u.rule.file}|${u.rule.list}|${u.rule.pattern}`);
        const keep = (b: PermissionBlock, list: 'allow' | 'deny' | 'ask') =>
          b[list].filter((p) => !reported.includes(`${b.file}|${list}|${p}`));
        const pruned = blocks.map((b) => ({
          ...b,
          allow: keep(b, 'allow'),
          deny: keep(b, 'deny'),
          ask: keep(b, 'ask'),
        }));
        const full = new PermissionPolicy(blocks);
        const lean = new PermissionPolicy(pruned);
        for (const subject of subjects) {
          const verdict = full.decide(subject);
          expect(lean.decide(subject).decision).toBe(verdict.decision);
          if (verdict.rule)
            expect(reported).not.toContain(`${verdict.rule.file}|${verdict.rule.list}|${verdict.rule.pattern}`);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('globMatches agrees with a RegExp, and a covering glob matches every instance of the covered one', () => {
    const glob = fc.array(fc.constantFrom('a', 'b', '_', '*'), { maxLength: 6 }).map((cs) => cs.join(''));
    const text = fc.array(fc.constantFrom('a', 'b', '_'), { maxLength: 8 }).map((cs) => cs.join(''));
    fc.assert(
      fc.property(glob, glob, fc.array(text, { minLength: 6, maxLength: 6 }), (a, b, fills) => {
        const regex = (g: string) => new RegExp(`^${g.split('*').join('.*')}$`);
        for (const fill of fills) expect(globMatches(a, fill)).toBe(regex(a).test(fill));
        if (!globCovers(a, b)) return;
        let k = 0;
        const instance = b.replace(/\*/g, () => fills[k++ % fills.length]!);
        expect(globMatches(a, instance)).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });
});
