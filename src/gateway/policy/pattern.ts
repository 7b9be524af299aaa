/**
 * The pattern matcher of gateway policies and virtual servers. A pattern names a whole server
 * (`fs`) or one of its tools in the gateway's form (`fs__read_file`), with `*` for any run of
 * characters (the separator included) and `?` for exactly one; every other character stands for
 * itself. Pure; no RegExp: a pattern is run as a set of positions (an NFA without back-tracking),
 * O(|pattern| · |text|), so a long name cannot make a many-star pattern slow.
 *
 * A pattern is read against the (server, tool) pair, never by splitting a gateway name: server
 * and tool names may themselves contain the separator (`a__b` + `c` and `a` + `b__c` are both
 * `a__b__c` when joined), so a split would guess. See {@link patternMatches}.
 */

/** What a request reaches: a server's tool (`tool` given), or the server as a whole (its resources, prompts). */
export interface PolicyTarget {
  /** The upstream server's name as configured. */
  readonly server: string;
  /** The tool's (or prompt's) name upstream; absent for a whole-server item. */
  readonly tool?: string;
  /** The name the gateway exposes downstream (may differ from `server + separator + tool` when shortened). */
  readonly name?: string;
}

/** Whether `pattern` (`*`, `?`) matches the whole of `text`. */
export function globMatches(pattern: string, text: string): boolean {
  let states = closure(pattern, start(pattern.length));
  for (let at = 0; at < text.length; at++) {
    const next = new Array<boolean>(pattern.length + 1).fill(false);
    let any = false;
    for (let i = 0; i < pattern.length; i++) {
      if (!states[i]) continue;
      const p = pattern[i];
      if (p === '*') next[i] = any = true;
      else if (p === '?' || p === text[at]) next[i + 1] = any = true;
    }
    if (!any) return false;
    states = closure(pattern, next);
  }
  return states[pattern.length] === true;
}

function start(length: number): boolean[] {
  const states = new Array<boolean>(length + 1).fill(false);
  states[0] = true;
  return states;
}

/** A star may also stand for nothing: whoever stands on a star stands after it too. */
function closure(pattern: string, states: boolean[]): boolean[] {
  for (let i = 0; i < pattern.length; i++) if (states[i] && pattern[i] === '*') states[i + 1] = true;
  return states;
}

/**
 * Whether `pattern` names `target`: it matches the server's name (the whole server, so every tool
 * of it too); or, for a tool, `server + separator + tool` (the pair joined, whatever either part
 * contains) or the exposed `name`. A pattern naming one tool never names the whole server.
 */
export function patternMatches(pattern: string, target: PolicyTarget, separator: string): boolean {
  if (globMatches(pattern, target.server)) return true;
  if (target.tool === undefined) return false;
  if (globMatches(pattern, `${target.server}${separator}${target.tool}`)) return true;
  return target.name !== undefined && globMatches(pattern, target.name);
}

/** Whether any of `patterns` names `target` ({@link patternMatches}). */
export function anyPatternMatches(patterns: readonly string[], target: PolicyTarget, separator: string): boolean {
  return patterns.some((pattern) => patternMatches(pattern, target, separator));
}
