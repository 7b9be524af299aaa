/**
 * Permission rules for tool calls, merged from every config file's `permissions` block:
 * `deny` beats `ask` beats `allow` whatever file each rule is in (a user's deny cannot be undone
 * by a project's allow, nor the other way round); when no rule matches, the `defaultMode` of the
 * highest layer that sets one decides (default `allow`). Pure and synchronous.
 *
 * Patterns: `mcp__<server>` (every tool of that server) or `mcp__<server>__<tool>`, where `*`
 * stands for any run of characters in either part (`mcp__fs__*`, `mcp__*`, `mcp__*__read_*`). A
 * rule matches a tool when it matches the tool's canonical name `mcp__<server>__<tool>` or its
 * exposed (provider-safe) name.
 */
import type { PermissionBlock } from './config/permissions.js';

export type PermissionDecision = 'allow' | 'ask' | 'deny';

/** One rule, with the file that holds it. */
export interface PermissionRule {
  pattern: string;
  list: PermissionDecision;
  file: string;
  scope: string;
}

/** A tool as the rules see it. `name` is its exposed name, when it differs from the canonical one. */
export interface PermissionSubject {
  server: string;
  tool: string;
  name?: string;
}

/** What the rules say about one tool, and why. */
export interface PermissionVerdict {
  decision: PermissionDecision;
  /** The rule that decided; absent when the default mode did. */
  rule?: PermissionRule;
  /** Where the default mode came from (absent: the built-in `allow`). */
  defaultFrom?: { file: string; scope: string };
  /** One sentence: which rule from which file decided, or the default. */
  reason: string;
}

/** A rule that can never decide anything, and why. */
export interface UnreachableRule {
  rule: PermissionRule;
  reason: string;
}

const RANK: Record<PermissionDecision, number> = { deny: 3, ask: 2, allow: 1 };
const PART = /^[A-Za-z0-9_.*-]+$/;

/** `mcp__a__b` ⇒ `{ server: 'a', tool: 'b' }`; `mcp__a` ⇒ `{ server: 'a' }`; anything else ⇒ undefined. */
function parsePattern(pattern: string): { server: string; tool?: string } | undefined {
  if (!pattern.startsWith('mcp__')) return undefined;
  const rest = pattern.slice(5);
  const at = rest.indexOf('__');
  const server = at < 0 ? rest : rest.slice(0, at);
  const tool = at < 0 ? undefined : rest.slice(at + 2);
  if (server === '' || tool === '') return undefined;
  return tool === undefined ? { server } : { server, tool };
}

function globRegExp(glob: string): RegExp {
  return new RegExp(`^${glob.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
}

/** The patterns a rule stands for, as whole-name expressions: `mcp__fs` also covers `mcp__fs__<anything>`. */
function ruleMatcher(pattern: string): (name: string) => boolean {
  const parsed = parsePattern(pattern);
  if (!parsed) {
    const exact = globRegExp(pattern);
    return (name) => exact.test(name);
  }
  const whole = globRegExp(parsed.tool === undefined ? `mcp__${parsed.server}__*` : pattern);
  return (name) => whole.test(name);
}

/** The merged rules of every config file. */
export class PermissionPolicy {
  private readonly list: Array<PermissionRule & { test: (name: string) => boolean }>;
  private readonly defaultMode: PermissionDecision;
  private readonly defaultFrom: { file: string; scope: string } | undefined;

  constructor(blocks: readonly PermissionBlock[]) {
    this.list = [];
    for (const block of blocks) {
      for (const list of ['deny', 'ask', 'allow'] as const) {
        for (const pattern of block[list]) this.list.push({ pattern, list, file: block.file, scope: block.scope, test: ruleMatcher(pattern) });
      }
    }
    const last = [...blocks].reverse().find((block) => block.defaultMode !== undefined);
    this.defaultMode = last?.defaultMode ?? 'allow';
    this.defaultFrom = last ? { file: last.file, scope: last.scope } : undefined;
  }

  /** A policy without rules: everything is allowed. */
  static empty(): PermissionPolicy {
    return new PermissionPolicy([]);
  }

  /** Every rule, deny first, then ask, then allow (file order within each). */
  rules(): PermissionRule[] {
    return this.list.map(({ test: _test, ...rule }) => rule);
  }

  /** The rules that match `subject`, strongest first. */
  matching(subject: PermissionSubject): PermissionRule[] {
    const names = namesOf(subject);
    return this.list
      .filter((rule) => names.some((name) => rule.test(name)))
      .sort((a, b) => RANK[b.list] - RANK[a.list])
      .map(({ test: _test, ...rule }) => rule);
  }

  /** The decision for `subject`: the strongest matching rule, else the default mode. */
  decide(subject: PermissionSubject): PermissionVerdict {
    const [rule] = this.matching(subject);
    const canonical = `mcp__${subject.server}__${subject.tool}`;
    if (rule) return { decision: rule.list, rule, reason: `${canonical}: ${rule.list} by rule "${rule.pattern}" in ${rule.file} (${rule.scope})` };
    const verdict: PermissionVerdict = {
      decision: this.defaultMode,
      reason: this.defaultFrom ? `${canonical}: ${this.defaultMode} by defaultMode in ${this.defaultFrom.file} (${this.defaultFrom.scope}); no rule matches` : `${canonical}: allow by default; no rule matches`,
    };
    if (this.defaultFrom) verdict.defaultFrom = this.defaultFrom;
    return verdict;
  }

  /** Several lines: the verdict, then every matching rule and why the winner won. */
  explain(subject: PermissionSubject): string {
    const verdict = this.decide(subject);
    const matches = this.matching(subject);
    const lines = [verdict.reason];
    if (matches.length > 1) {
      lines.push('matching rules (deny beats ask beats allow, whichever file they are in):');
      for (const rule of matches) lines.push(`  ${rule === matches[0] ? '*' : ' '} ${rule.list.padEnd(5)} ${rule.pattern}  (${rule.file}, ${rule.scope})`);
    } else if (matches.length === 0 && this.list.length > 0) {
      lines.push(`no rule matches ${namesOf(subject).join(' or ')}`);
    }
    return lines.join('\n');
  }

  /**
   * Rules that can never decide: malformed patterns, patterns naming a server that is not
   * configured (when `known.servers` is given), and allow/ask rules that a stronger rule covers
   * whole (e.g. allow `mcp__fs__read` under deny `mcp__fs`). Each reason names the file.
   */
  unreachable(known: { servers?: readonly string[] } = {}): UnreachableRule[] {
    const found: UnreachableRule[] = [];
    for (const entry of this.list) {
      const { test: _test, ...rule } = entry;
      const parsed = parsePattern(rule.pattern);
      if (!parsed || !PART.test(parsed.server) || (parsed.tool !== undefined && !PART.test(parsed.tool))) {
        found.push({ rule, reason: `${rule.file}: ${rule.list} rule "${rule.pattern}" can never match: patterns are mcp__<server> or mcp__<server>__<tool> (letters, digits, _ - . and *)` });
        continue;
      }
      if (known.servers && !parsed.server.includes('*')) {
        const server = parsed.server;
        if (!known.servers.some((name) => name === server || name.replace(/[^A-Za-z0-9_-]/g, '_') === server)) {
          found.push({ rule, reason: `${rule.file}: ${rule.list} rule "${rule.pattern}" names server "${server}", which is not configured (configured: ${known.servers.join(', ') || 'none'})` });
          continue;
        }
      }
      const stronger = this.list.find((other) => RANK[other.list] > RANK[rule.list] && covers(other.pattern, rule.pattern));
      if (stronger) found.push({ rule, reason: `${rule.file}: ${rule.list} rule "${rule.pattern}" can never apply: ${stronger.list} rule "${stronger.pattern}" in ${stronger.file} covers every tool it matches` });
    }
    return found;
  }
}

function namesOf(subject: PermissionSubject): string[] {
  const canonical = `mcp__${subject.server}__${subject.tool}`;
  return subject.name && subject.name !== canonical ? [canonical, subject.name] : [canonical];
}

/** The name-set a pattern stands for, as one glob over whole names. */
function wholeGlob(pattern: string): string | undefined {
  const parsed = parsePattern(pattern);
  if (!parsed) return undefined;
  return parsed.tool === undefined ? `mcp__${parsed.server}__*` : pattern;
}

/**
 * True when every name glob `b` matches, glob `a` matches too. Sound for `*`-only globs: `a`
 * covers `b` exactly when `a`, read as a glob, matches `b` with `b`'s stars taken as literal
 * text standing for any run — checked by matching `a` against `b` where `a`'s `*` may absorb any
 * run of `b` (stars included) and `a`'s literals must meet `b`'s literals.
 */
export function covers(a: string, b: string): boolean {
  const ga = wholeGlob(a);
  const gb = wholeGlob(b);
  if (ga === undefined || gb === undefined) return false;
  return globCoversGlob(ga, gb);
}

function globCoversGlob(a: string, b: string): boolean {
  // Dynamic programming over positions: a[i..] covers b[j..].
  const memo = new Map<string, boolean>();
  const go = (i: number, j: number): boolean => {
    const key = `${i},${j}`;
    const cached = memo.get(key);
    if (cached !== undefined) return cached;
    let result: boolean;
    if (i === a.length) result = j === b.length;
    else if (a[i] === '*') result = go(i + 1, j) || (j < b.length && go(i, j + 1));
    else result = j < b.length && b[j] !== '*' && a[i] === b[j] && go(i + 1, j + 1);
    memo.set(key, result);
    return result;
  };
  return go(0, 0);
}
