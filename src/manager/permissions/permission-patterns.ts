/**
 * The pattern language of permission rules, pure: `mcp__<server>` or `mcp__<server>__<tool>`,
 * each part made of letters, digits, `_`, `-`, `.` and `*` (any run of characters, `__`
 * included). A pattern stands for a glob over whole tool names: `mcp__fs__*` for `mcp__fs`, the
 * pattern itself otherwise. Globs are matched by `glob.ts` (linear, no RegExp).
 */
import { globAllowsPrefix, globCovers, globStart, globStep, type GlobStates } from '../glob.js';

const PREFIX = 'mcp__';
const PART = /^[A-Za-z0-9_.*-]+$/;
/** Tool-names rule 1: each code point outside `[A-Za-z0-9_-]` becomes `_` in the exposed name. */
const UNSAFE = /[^A-Za-z0-9_-]/gu;

/** A well-formed pattern, split at its first `__` after `mcp__`. */
export interface ParsedPattern {
  server: string;
  /** Absent for a server-level pattern (`mcp__fs`). */
  tool?: string;
  /** The glob over whole tool names the pattern stands for. */
  glob: string;
}

/**
 * Parses `pattern`, or says in a few words what is wrong with it (no `mcp__` prefix, an empty
 * part, a character outside the pattern alphabet). Never throws.
 */
export function parsePattern(pattern: string): ParsedPattern | { problem: string } {
  if (!pattern.startsWith(PREFIX)) return { problem: 'it does not start with mcp__' };
  const rest = pattern.slice(PREFIX.length);
  const at = rest.indexOf('__');
  const server = at < 0 ? rest : rest.slice(0, at);
  const tool = at < 0 ? undefined : rest.slice(at + 2);
  if (server === '') return { problem: 'its server part is empty' };
  if (tool === '') return { problem: 'its tool part is empty' };
  if (!PART.test(server) || (tool !== undefined && !PART.test(tool))) {
    return { problem: 'it has characters other than letters, digits, _ - . and *' };
  }
  if (tool === undefined) return { server, glob: `${PREFIX}${server}__*` };
  return { server, tool, glob: pattern };
}

/** Whether the rule `a` matches every tool name the rule `b` matches (both well-formed). */
export function patternCovers(a: ParsedPattern, b: ParsedPattern): boolean {
  return globCovers(a.glob, b.glob);
}

/** The provider-safe form of a name, as the tool registry builds exposed names. */
export function providerSafe(name: string): string {
  return name.replace(UNSAFE, '_');
}

/**
 * Whether `pattern` could match any tool of a server named `server`, whatever its tools are:
 * their canonical names all start with `mcp__<server>__`; their exposed names (tool-names.ts)
 * either start with the provider-safe form of that, or keep a prefix of it (at least `mcp__`)
 * followed by `_` and hex digits. Errs towards true.
 */
export function couldMatchServer(pattern: ParsedPattern, server: string): boolean {
  if (globAllowsPrefix(pattern.glob, `${PREFIX}${server}__`)) return true;
  const safe = `${PREFIX}${providerSafe(server)}__`;
  if (globAllowsPrefix(pattern.glob, safe)) return true;
  // A cut name: some prefix of `safe`, then `_`. One scan over `safe` tries every cut.
  const glob = pattern.glob;
  let states = globStart(glob);
  for (let at = 0; at < safe.length; at++) {
    if (at >= PREFIX.length && hashCanFollow(glob, states)) return true;
    states = globStep(glob, states, safe[at]!);
  }
  return false;
}

/** Whether, from `states`, the glob can take `_` and then end on hex digits only. */
function hashCanFollow(glob: string, states: GlobStates): boolean {
  for (let i = 0; i < glob.length; i++) {
    if (!states[i]) continue;
    const from = glob[i] === '*' ? i : glob[i] === '_' ? i + 1 : -1;
    if (from >= 0 && /^[0-9a-f*]*$/.test(glob.slice(from))) return true;
  }
  return false;
}
