/**
 * Provider-safe names for namespaced tools. LLM providers accept tool names matching
 * `^[A-Za-z0-9_-]{1,64}$`; the manager exposes a server's tool as `mcp__<server>__<tool>`, which
 * may break that pattern. The rules, applied to the whole set of (server, tool) pairs at once:
 *
 * 1. The canonical name is `mcp__<server>__<tool>`, verbatim. Each code point outside
 *    `[A-Za-z0-9_-]` becomes `_` (reason `characters`).
 * 2. A name longer than 64 keeps a prefix and ends in `_` + the first 8 hex digits of the SHA-256
 *    of the canonical name (UTF-8), exactly 64 long (reason `length`). The same pair always gets
 *    the same name, in any process.
 * 3. When several pairs end up with one name, the result does not depend on registration order:
 *    a pair whose canonical name is already safe keeps it; every other pair of the clash takes
 *    the hash suffix of its own canonical name (reason `collision`). A name that still clashes
 *    takes a longer hash (16, 24, … up to 58 hex digits), again for everyone but the keeper.
 * 4. Two pairs can share a canonical name (`a__b`/`c` and `a`/`b__c`; or lone surrogates, which
 *    UTF-8 cannot tell apart). Of such twins the one with the shortest server name (then the
 *    smaller by code units) counts as the owner of the canonical name; the others hash
 *    `JSON.stringify([server, tool])` instead, so their suffixes differ.
 *
 * The prefix `mcp__` survives every rule, so empty server or tool names still give valid names.
 * A {@link ToolNaming} other than the manager's (a gateway's `SERVER__TOOL`) follows the same rules.
 */
import { McpError } from '../../protocol/errors.js';
import { sha256Hex } from '../hashing.js';

/** The longest tool name providers accept. */
export const MAX_TOOL_NAME_LENGTH = 64;

/** What providers accept as a tool name. */
export const PROVIDER_TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** Why an exposed name differs from the canonical one. */
export type ToolRenameReason = 'characters' | 'length' | 'collision';

/** One (server, tool) pair to name. */
export interface ToolPair {
  server: string;
  tool: string;
}

/** The exposed name of one pair and why it differs from the canonical name (empty if it does not). */
export interface ToolNameAssignment {
  canonical: string;
  name: string;
  reasons: ToolRenameReason[];
}

/**
 * How a pair is joined into a canonical name: `<prefix><server><separator><tool>`. The manager's
 * is `mcp__` and `__`; a gateway's is no prefix and a separator of its choosing. Both parts are
 * provider-safe characters, the separator non-empty, so even empty names give valid names.
 */
export interface ToolNaming {
  prefix: string;
  separator: string;
}

/** The manager's naming: `mcp__<server>__<tool>`. */
export const MANAGER_TOOL_NAMING: ToolNaming = Object.freeze({ prefix: 'mcp__', separator: '__' });

const SAFE_PART = /^[A-Za-z0-9_-]*$/;
const UNSAFE = /[^A-Za-z0-9_-]/gu;
const HEX_STEP = 8;
const REASON_ORDER: readonly ToolRenameReason[] = ['characters', 'length', 'collision'];

/** `mcp__<server>__<tool>` (or `naming`'s form), unchanged: the name before any provider rule is applied. */
export function canonicalToolName(server: string, tool: string, naming: ToolNaming = MANAGER_TOOL_NAMING): string {
  return `${naming.prefix}${server}${naming.separator}${tool}`;
}

/** Throws `INVALID_ARGUMENT` unless `naming` has a non-empty separator and both parts are provider-safe and short. */
export function checkToolNaming(naming: ToolNaming): void {
  const { prefix, separator } = naming;
  if (typeof separator !== 'string' || separator === '' || separator.length > 8 || !SAFE_PART.test(separator))
    throw new McpError(
      'INVALID_ARGUMENT',
      `tool name separator ${JSON.stringify(separator)} must be 1–8 of A–Z, a–z, 0–9, "_" or "-"`,
    );
  if (typeof prefix !== 'string' || prefix.length > 16 || !SAFE_PART.test(prefix))
    throw new McpError(
      'INVALID_ARGUMENT',
      `tool name prefix ${JSON.stringify(prefix)} must be at most 16 of A–Z, a–z, 0–9, "_" or "-"`,
    );
}

/** Whether providers accept `name` as it is. */
export function isProviderSafeToolName(name: string): boolean {
  return PROVIDER_TOOL_NAME.test(name);
}

/**
 * Orders pairs that share a canonical name: shorter server first, then by code units. The first
 * of such twins owns the canonical name (rule 4). A total order on distinct pairs.
 */
export function compareToolPairs(a: ToolPair, b: ToolPair): number {
  if (a.server.length !== b.server.length) return a.server.length - b.server.length;
  if (a.server !== b.server) return a.server < b.server ? -1 : 1;
  if (a.tool !== b.tool) return a.tool < b.tool ? -1 : 1;
  return 0;
}

interface Work {
  pair: ToolPair;
  canonical: string;
  /** The canonical name with unsafe code points replaced. */
  base: string;
  /** Hex digest the suffix is cut from. */
  digest: string;
  /** May keep its name in a clash: a safe canonical name that no twin owns before it. */
  keeper: boolean;
  /** 0: no suffix; n: a suffix of min(8n, 58) hex digits. */
  level: number;
  reasons: Set<ToolRenameReason>;
}

/**
 * Names every pair by the rules above. The result is index-aligned with `pairs` and depends only
 * on the set of pairs, never on their order. Throws `INVALID_ARGUMENT` when a pair occurs twice
 * (callers drop duplicates first), and `INVALID_STATE` if names still clash with the longest
 * suffix (a SHA-256 collision).
 */
export function assignToolNames(
  pairs: readonly ToolPair[],
  naming: ToolNaming = MANAGER_TOOL_NAMING,
): ToolNameAssignment[] {
  // The longest suffix that still leaves the prefix in front of it.
  const maxHex = MAX_TOOL_NAME_LENGTH - naming.prefix.length - 1;
  const work = pairs.map((pair) => prepare(pair, naming));
  markTwins(work);
  resolveClashes(work, maxHex);
  return work.map((w) => ({
    canonical: w.canonical,
    name: nameAt(w, w.level, maxHex),
    reasons: REASON_ORDER.filter((reason) => w.reasons.has(reason)),
  }));
}

function prepare(pair: ToolPair, naming: ToolNaming): Work {
  const canonical = canonicalToolName(pair.server, pair.tool, naming);
  const base = canonical.replace(UNSAFE, '_');
  const reasons = new Set<ToolRenameReason>();
  if (base !== canonical) reasons.add('characters');
  if (base.length > MAX_TOOL_NAME_LENGTH) reasons.add('length');
  return {
    pair,
    canonical,
    base,
    digest: sha256(canonical),
    keeper: reasons.size === 0,
    level: reasons.has('length') ? 1 : 0,
    reasons,
  };
}

/** Rule 4: pairs whose canonical names hash alike; all but the first hash their pair instead. */
function markTwins(work: Work[]): void {
  for (const group of groupBy(work, (w) => w.digest)) {
    if (group.length < 2) continue;
    group.sort((a, b) => compareToolPairs(a.pair, b.pair));
    for (let i = 1; i < group.length; i++) {
      const twin = group[i]!;
      if (compareToolPairs(twin.pair, group[i - 1]!.pair) === 0) {
        throw new McpError(
          'INVALID_ARGUMENT',
          `tool "${twin.pair.tool}" of server "${twin.pair.server}" is listed twice`,
        );
      }
      twin.digest = sha256(JSON.stringify([twin.pair.server, twin.pair.tool]));
      twin.keeper = false;
    }
  }
}

/** Rule 3: until every name is unique, everyone in a clash but its keeper takes a longer suffix. */
function resolveClashes(work: Work[], maxHex: number): void {
  const maxLevel = Math.ceil(maxHex / HEX_STEP);
  for (;;) {
    let clashed = false;
    for (const group of groupBy(work, (w) => nameAt(w, w.level, maxHex))) {
      if (group.length < 2) continue;
      clashed = true;
      const movers = group.filter((w) => !(w.level === 0 && w.keeper));
      // At most one keeper per name (rule 4 leaves one owner per canonical name); the check
      // keeps a broken invariant from looping forever.
      if (movers.length < group.length - 1)
        throw new McpError('INVALID_STATE', `two tools claim the name "${group[0]!.base}"`);
      for (const w of movers) {
        w.reasons.add('collision');
        w.level += 1;
        if (w.level > maxLevel) {
          throw new McpError('INVALID_STATE', `no unique tool name for "${w.canonical}": hash suffixes collide`);
        }
      }
    }
    if (!clashed) return;
  }
}

function nameAt(w: Work, level: number, maxHex: number): string {
  if (level === 0) return w.base;
  const hex = w.digest.slice(0, Math.min(level * HEX_STEP, maxHex));
  const room = MAX_TOOL_NAME_LENGTH - 1 - hex.length;
  return `${w.base.length > room ? w.base.slice(0, room) : w.base}_${hex}`;
}

function sha256(text: string): string {
  return sha256Hex(text);
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Iterable<T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups.values();
}
