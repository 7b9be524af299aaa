/**
 * The one glob matcher of the manager: `*` stands for any run of characters (line breaks and
 * `__` included), every other character for itself. Used by permission rules
 * (`permissions/permission-patterns.ts`) and by a server's `includeTools` / `excludeTools`. Pure; no RegExp:
 * a glob is run over a text as a set of positions in the glob (an NFA without back-tracking),
 * O(|glob| · |text|), so a long tool name from a server cannot make a many-star glob slow.
 * Characters are compared as UTF-16 code units.
 */

/** The positions of `glob` a run can stand on: `states[i]` = before `glob[i]`; `glob.length` = at the end. */
export type GlobStates = boolean[];

/** Where a run of `glob` stands before reading anything. */
export function globStart(glob: string): GlobStates {
  const states = new Array<boolean>(glob.length + 1).fill(false);
  states[0] = true;
  return closure(glob, states);
}

/** Where the run stands after reading `char` from `states`; all false when no text can match any more. */
export function globStep(glob: string, states: GlobStates, char: string): GlobStates {
  const next = new Array<boolean>(glob.length + 1).fill(false);
  for (let i = 0; i < glob.length; i++) {
    if (!states[i]) continue;
    if (glob[i] === '*') next[i] = true;
    else if (glob[i] === char) next[i + 1] = true;
  }
  return closure(glob, next);
}

/** A star may also stand for nothing: whoever stands on a star stands after it too. */
function closure(glob: string, states: GlobStates): GlobStates {
  for (let i = 0; i < glob.length; i++) if (states[i] && glob[i] === '*') states[i + 1] = true;
  return states;
}

/** Runs `glob` over all of `text`; stops early once nothing is reachable. */
function run(glob: string, text: string): GlobStates {
  let states = globStart(glob);
  for (let at = 0; at < text.length; at++) {
    states = globStep(glob, states, text[at]!);
    if (!states.includes(true)) break;
  }
  return states;
}

/** Whether `glob` matches the whole of `text`. */
export function globMatches(glob: string, text: string): boolean {
  return run(glob, text)[glob.length] === true;
}

/** Whether some text that starts with `prefix` matches `glob`. */
export function globAllowsPrefix(glob: string, prefix: string): boolean {
  return run(glob, prefix).includes(true);
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
