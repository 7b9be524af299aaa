/**
 * Permission rules for tool calls, merged from every config file's `permissions` block:
 * `deny` beats `ask` beats `allow` whatever file each rule is in (a user's deny cannot be undone
 * by a project's allow, nor the other way round) and however specific each pattern is; when no
 * rule matches, the `defaultMode` of the highest layer that sets one decides (default `allow`).
 * Pure and synchronous, except {@link authorize}, which may wait for the host's ask hook.
 *
 * Patterns: `mcp__<server>` (every tool of that server) or `mcp__<server>__<tool>`, where `*`
 * stands for any run of characters in either part (`mcp__fs__*`, `mcp__*`, `mcp__*__read_*`);
 * see permission-patterns.ts. A rule matches a tool when it matches the tool's canonical name
 * `mcp__<server>__<tool>` or its exposed (provider-safe) name, each read as a whole string: a
 * server whose own name holds `__` shares names with others (`a__b`/`c` and `a`/`b__c`), and a
 * rule for one of them matches the other too. A malformed pattern matches nothing; it is
 * reported by {@link PermissionPolicy.unreachable}. A call the rules (or the user, asked) refused
 * fails with {@link PermissionError}: nothing was sent.
 */
import { errorMessage, McpError, type McpErrorDetails } from '../../protocol/errors.js';
import type { PermissionBlock } from './permission-block.js';
import { globMatches } from '../glob.js';
import { couldMatchServer, parsePattern, patternCovers, type ParsedPattern } from './permission-patterns.js';

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
  /** Where the default mode came from (absent: the built-in `allow`, or a rule decided). */
  defaultFrom?: { file: string; scope: string };
  /** One sentence: which rule from which file decided, or the default. */
  reason: string;
}

/** A rule that can never decide anything, and why (the reason starts with the rule's file). */
export interface UnreachableRule {
  rule: PermissionRule;
  reason: string;
}

/** What is known when the config loads, for {@link PermissionPolicy.unreachable}. */
export interface KnownTools {
  /** The configured server names. */
  servers?: readonly string[];
  /** Tools seen so far; a rule that matches one of them is never reported as naming an unknown server. */
  tools?: readonly PermissionSubject[];
}

const RANK: Record<PermissionDecision, number> = { deny: 3, ask: 2, allow: 1 };

interface Entry {
  rule: PermissionRule;
  parsed: ParsedPattern | undefined;
  problem: string | undefined;
}

/** The merged rules of every config file. Immutable once built. */
export class PermissionPolicy {
  private readonly entries: Entry[] = [];
  private readonly defaultMode: PermissionDecision;
  private readonly defaultFrom: { file: string; scope: string } | undefined;

  /** `blocks` in layer order, lowest first (user → project → explicit → inline → host). */
  constructor(blocks: readonly PermissionBlock[]) {
    for (const block of blocks) {
      for (const list of ['deny', 'ask', 'allow'] as const) {
        for (const pattern of block[list]) {
          const parsed = parsePattern(pattern);
          const rule = { pattern, list, file: block.file, scope: block.scope };
          this.entries.push(
            'problem' in parsed
              ? { rule, parsed: undefined, problem: parsed.problem }
              : { rule, parsed, problem: undefined },
          );
        }
      }
    }
    const last = blocks.findLast((block) => block.defaultMode !== undefined);
    this.defaultMode = last?.defaultMode ?? 'allow';
    this.defaultFrom = last ? { file: last.file, scope: last.scope } : undefined;
  }

  /** A policy without rules: everything is allowed. */
  static empty(): PermissionPolicy {
    return new PermissionPolicy([]);
  }

  /** Every rule (malformed ones included), file by file in layer order; deny, ask, allow within a file. */
  rules(): PermissionRule[] {
    return this.entries.map((entry) => ({ ...entry.rule }));
  }

  /** The rules that match `subject`, strongest first; within one list, in layer order. */
  matching(subject: PermissionSubject): PermissionRule[] {
    const names = namesOf(subject);
    return this.entries
      .filter((entry) => entry.parsed !== undefined && names.some((name) => globMatches(entry.parsed!.glob, name)))
      .sort((a, b) => RANK[b.rule.list] - RANK[a.rule.list])
      .map((entry) => ({ ...entry.rule }));
  }

  /** The decision for `subject`: the strongest matching rule, else the default mode. */
  decide(subject: PermissionSubject): PermissionVerdict {
    return this.verdictFor(subject, this.matching(subject));
  }

  /**
   * Several lines: the verdict, then every matching rule (list, pattern, file, scope) with the
   * deciding one marked and why it won, or, when none matches, the names that were tried and
   * where the default came from. When exactly one rule matches, the verdict line (which names it
   * and its file) is all there is to say.
   */
  explain(subject: PermissionSubject): string {
    const matches = this.matching(subject);
    const verdict = this.verdictFor(subject, matches);
    const lines = [verdict.reason];
    if (matches.length > 1) {
      const winner = matches[0]!;
      lines.push('matching rules (deny beats ask beats allow, whichever file they are in):');
      for (const rule of matches)
        lines.push(
          `  ${rule === winner ? '*' : ' '} ${rule.list.padEnd(5)} ${rule.pattern}  (${rule.file}, ${rule.scope})`,
        );
      const beaten = matches.filter((rule) => rule.list !== winner.list);
      if (beaten.length > 0)
        lines.push(
          `"${winner.pattern}" wins: a ${winner.list} rule beats ${[...new Set(beaten.map((rule) => rule.list))].join(' and ')} rules, however specific`,
        );
      else
        lines.push(
          `"${winner.pattern}" is shown as the first ${winner.list} rule in layer order; all of them say ${winner.list}`,
        );
    } else if (matches.length === 0) {
      if (this.entries.length > 0) lines.push(`no rule matches ${namesOf(subject).join(' or ')}`);
      lines.push(
        this.defaultFrom
          ? `the default mode ${this.defaultMode} is set in ${this.defaultFrom.file} (${this.defaultFrom.scope}), the highest layer that sets one`
          : 'no file sets a defaultMode, so the built-in default allow applies',
      );
    }
    return lines.join('\n');
  }

  /**
   * Rules that can never decide anything, each with a reason that names its file: malformed
   * patterns (no `mcp__` prefix, an empty part, a character outside letters, digits, `_ - . *`);
   * patterns that cannot match a tool of any server in `known.servers` (when given; a `*` in the
   * server part is taken as meant for servers to come and not checked; a rule matching one of
   * `known.tools` is never reported so); and allow/ask rules that a single stronger rule covers
   * whole (allow `mcp__fs__read` under deny `mcp__fs`, `mcp__fs__*` or `mcp__*`). Only what is
   * certain is reported. Each rule is reported at most once, in {@link rules} order.
   */
  unreachable(known: KnownTools = {}): UnreachableRule[] {
    const found: UnreachableRule[] = [];
    const seenTools = known.tools ?? [];
    for (const entry of this.entries) {
      const rule = { ...entry.rule };
      const what = `${rule.file}: ${rule.list} rule "${rule.pattern}"`;
      const parsed = entry.parsed;
      if (!parsed) {
        found.push({
          rule,
          reason: `${what} can never match: ${entry.problem} (patterns are mcp__<server> or mcp__<server>__<tool>)`,
        });
        continue;
      }
      if (known.servers && !parsed.server.includes('*')) {
        const servers = known.servers;
        const reachable =
          servers.some((server) => couldMatchServer(parsed, server)) ||
          seenTools.some((tool) => namesOf(tool).some((name) => globMatches(parsed.glob, name)));
        if (!reachable) {
          found.push({
            rule,
            reason: `${what} names server "${parsed.server}", which is not configured (configured: ${servers.join(', ') || 'none'})`,
          });
          continue;
        }
      }
      const stronger = this.entries.find(
        (other) =>
          other.parsed !== undefined && RANK[other.rule.list] > RANK[rule.list] && patternCovers(other.parsed, parsed),
      );
      if (stronger) {
        found.push({
          rule,
          reason: `${what} can never apply: ${stronger.rule.list} rule "${stronger.rule.pattern}" in ${stronger.rule.file} covers every tool it matches`,
        });
      }
    }
    return found;
  }

  private verdictFor(subject: PermissionSubject, matches: readonly PermissionRule[]): PermissionVerdict {
    const canonical = canonicalOf(subject);
    const rule = matches[0];
    if (rule)
      return {
        decision: rule.list,
        rule,
        reason: `${canonical}: ${rule.list} by rule "${rule.pattern}" in ${rule.file} (${rule.scope})`,
      };
    if (!this.defaultFrom)
      return { decision: this.defaultMode, reason: `${canonical}: allow by default; no rule matches` };
    return {
      decision: this.defaultMode,
      defaultFrom: { ...this.defaultFrom },
      reason: `${canonical}: ${this.defaultMode} by defaultMode in ${this.defaultFrom.file} (${this.defaultFrom.scope}); no rule matches`,
    };
  }
}

function canonicalOf(subject: PermissionSubject): string {
  return `mcp__${subject.server}__${subject.tool}`;
}

function namesOf(subject: PermissionSubject): string[] {
  const canonical = canonicalOf(subject);
  return subject.name !== undefined && subject.name !== canonical ? [canonical, subject.name] : [canonical];
}

/** What the ask hook is asked about: the tool, the arguments of the call, and the verdict. */
export interface PermissionAskRequest {
  server: string;
  tool: string;
  /** The exposed name the call used. */
  name: string;
  arguments: Record<string, unknown> | undefined;
  verdict: PermissionVerdict;
}

/**
 * The host's answer to an `ask` verdict: `true` approves; anything else (false, a truthy
 * non-boolean) refuses; a throw or rejection refuses too. `options.signal` aborts when the call
 * is no longer wanted (the host may close its prompt).
 */
export type PermissionAskHook = (
  request: PermissionAskRequest,
  options: { signal: AbortSignal },
) => boolean | Promise<boolean>;

/**
 * Turns a verdict into go or no-go for one call. Resolves when the call may go ahead: the
 * verdict allows it, or it asks and `ask` answers `true`. Rejects with a {@link PermissionError}
 * (`PERMISSION_DENIED` with the `verdict`; the message names the tool, the deciding rule and its
 * file, or the default) when the verdict denies, when it asks and no hook is given, when the hook
 * refuses, and when the hook throws (kept as `cause`). While the hook is pending, an abort of `options.signal` rejects
 * with the signal's reason and `options.timeoutMs` rejects with `TIMEOUT`; either way the hook's signal aborts and its
 * late answer is ignored. Nothing is left running once it settles.
 */
export async function authorize(
  verdict: PermissionVerdict,
  ask: PermissionAskHook | undefined,
  call: Omit<PermissionAskRequest, 'verdict'>,
  options: { signal?: AbortSignal; timeoutMs?: number } = {},
): Promise<void> {
  const refuse = (why: string, cause?: unknown) =>
    new PermissionError(`${call.name} ${why}`, {
      server: call.server,
      method: 'tools/call',
      verdict,
      ...(cause === undefined ? {} : { cause }),
    });
  const ms = options.timeoutMs;
  if (ms !== undefined && !(Number.isFinite(ms) && ms >= 0))
    throw new McpError('INVALID_ARGUMENT', `timeoutMs must be a finite number >= 0, got ${ms}`);
  if (verdict.decision === 'allow') return;
  if (verdict.decision === 'deny') throw refuse(`is denied (${verdict.reason})`);
  if (!ask) throw refuse(`needs the user's approval (${verdict.reason}), and no ask hook is configured`);
  options.signal?.throwIfAborted();

  const local = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const stopped = new Promise<never>((_, reject) => {
    onAbort = () => {
      reject(options.signal!.reason);
      local.abort(options.signal!.reason);
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    if (ms !== undefined) {
      timer = setTimeout(() => {
        const error = new McpError('TIMEOUT', `${call.name}: the ask hook gave no answer within ${ms} ms`, {
          server: call.server,
          method: 'tools/call',
        });
        reject(error);
        local.abort(error);
      }, ms);
    }
  });
  let answer: unknown;
  try {
    const asking = (async () => ask({ ...call, verdict }, { signal: local.signal }))().catch((error: unknown) => {
      throw refuse(`was not approved: the ask hook failed (${errorMessage(error)})`, error);
    });
    answer = await Promise.race([asking, stopped]);
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    if (onAbort) options.signal?.removeEventListener('abort', onAbort);
  }
  if (answer !== true) throw refuse(`was refused by the user (${verdict.reason})`);
}

/** The fields of a {@link PermissionError}. */
export interface PermissionErrorDetails extends Pick<McpErrorDetails, 'cause' | 'server' | 'method'> {
  verdict: PermissionVerdict;
}

/**
 * `PERMISSION_DENIED`: the call was refused before anything was sent. `verdict` says which rule
 * from which file decided (or the default mode); the message names the tool and repeats it.
 */
export class PermissionError extends McpError {
  override readonly name: string = 'PermissionError';
  declare readonly code: 'PERMISSION_DENIED';
  /** What the rules said about the tool, and why; an `ask` verdict when the user refused or no one could be asked. */
  readonly verdict: PermissionVerdict;

  constructor(reason: string, details: PermissionErrorDetails) {
    super('PERMISSION_DENIED', reason, details);
    this.verdict = details.verdict;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), verdict: this.verdict };
  }
}
