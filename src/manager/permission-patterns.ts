/**
 * The pattern language of permission rules, pure: `mcp__<server>` or `mcp__<server>__<tool>`,
 * each part made of letters, digits, `_`, `-`, `.` and `*` (any run of characters, `__`
 * included). A pattern stands for a glob over whole tool names: `mcp__fs__*` for `mcp__fs`, the
 * pattern itself otherwise. Matching is a linear scan per character (no RegExp), so a long tool
 * name from a server cannot make a many-star pattern slow.
 */

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

/**
 * Runs `glob` over `text` as a set of positions in `glob` (an NFA without back-tracking):
 * O(|glob| · |text|). Returns the positions reachable after all of `text`; `glob.length` among
 * them means a whole match, an empty set means no extension of `text` can match.
 */
function run(glob: string, text: string): boolean[] {
  let states = closure(glob, seed(glob.length, 0));
  for (const char of text) {
    const next = new Array<boolean>(glob.length + 1).fill(false);
    let any = false;
    for (let i = 0; i < glob.length; i++) {
      if (!states[i]) continue;
      if (glob[i] === '*') next[i] = any = true;
      else if (glob[i] === char) next[i + 1] = any = true;
    }
    if (!any) return next;
    states = closure(glob, next);
  }
  return states;
}

function seed(length: number, at: number): boolean[] {
  const states = new Array<boolean>(length + 1).fill(false);
  states[at] = true;
  return states;
}

/** A star may also stand for nothing: whoever stands on a star stands after it too. */
function closure(glob: string, states: boolean[]): boolean[] {
  for (let i = 0; i < glob.length; i++) if (states[i] && glob[i] === '*') states[i + 1] = true;
  return states;
}

/** Whether `glob` (`*` = any run of characters) matches the whole of `text`. */
export function globMatches(glob: string, text: string): boolean {
  return run(glob, text)[glob.length] === true;
}

/** Whether some text that starts with `prefix` matches `glob`. */
export function globAllowsPrefix(glob: string, prefix: string): boolean {
  return run(glob, prefix).some(Boolean);
}

/**
 * Whether every text glob `b` matches is matched by glob `a`. Sound (never true wrongly): it
 * holds when `a`'s literals meet `b`'s literals in order and each of `b`'s stars falls inside a
 * star of `a`, since that star can then absorb whatever `b`'s star stands for. It can miss
 * exotic cases (so an answer of false means "not certain").
 */
export function globCovers(a: string, b: string): boolean {
  // ok[j]: a[..i] can be aligned with b[..j]; rows over i, built in place.
  let ok = new Array<boolean>(b.length + 1).fill(false);
  ok[0] = true;
  for (let i = 0; i < a.length; i++) {
    const next = new Array<boolean>(b.length + 1).fill(false);
    if (a[i] === '*') {
      // A star of a absorbs any run of b, stars of b included.
      let reached = false;
      for (let j = 0; j <= b.length; j++) {
        reached ||= ok[j] === true;
        next[j] = reached;
      }
    } else {
      for (let j = 0; j < b.length; j++) if (ok[j] && b[j] !== '*' && b[j] === a[i]) next[j + 1] = true;
    }
    ok = next;
  }
  return ok[b.length] === true;
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
  let states = closure(glob, seed(glob.length, 0));
  for (let at = 0; at < safe.length; at++) {
    if (at >= PREFIX.length && hashCanFollow(glob, states)) return true;
    const next = new Array<boolean>(glob.length + 1).fill(false);
    for (let i = 0; i < glob.length; i++) {
      if (!states[i]) continue;
      if (glob[i] === '*') next[i] = true;
      else if (glob[i] === safe[at]) next[i + 1] = true;
    }
    states = closure(glob, next);
  }
  return false;
}

/** Whether, from `states`, the glob can take `_` and then end on hex digits only. */
function hashCanFollow(glob: string, states: boolean[]): boolean {
  for (let i = 0; i < glob.length; i++) {
    if (!states[i]) continue;
    const from = glob[i] === '*' ? i : glob[i] === '_' ? i + 1 : -1;
    if (from >= 0 && /^[0-9a-f*]*$/.test(glob.slice(from))) return true;
  }
  return false;
}
