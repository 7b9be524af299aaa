/**
 * Short JSON renderings of values a peer sent, for diagnostics and error messages.
 *
 * `JSON.stringify` and `String` recurse: a 100 KB line holding a 10,000-level nested array makes
 * both throw `RangeError`, and a 16 MiB message costs 16 MiB of text to show 200 characters of it.
 * {@link sampleValue} walks with its own stack and stops at its budget, so what it costs depends
 * on the sample's size, not on the value's depth or size.
 */

/** Default length of a sample, in characters (the ellipsis not counted). */
export const SAMPLE_CHARS = 200;
/** Default length of a peer's text quoted in one of our messages, in characters. */
export const PEER_TEXT_CHARS = 500;

/**
 * A peer's free text (an error message, a stderr line) as our messages quote it: whole up to
 * `maxChars` characters; longer, its first `maxChars` (never half a surrogate pair), an ellipsis
 * and the original length — `…(1048576 characters)`. Costs `maxChars`, whatever the length.
 */
export function peerText(text: string, maxChars: number = PEER_TEXT_CHARS): string {
  if (text.length <= maxChars) return text;
  let end = maxChars;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--; // a high surrogate whose pair is past the cut
  return `${text.slice(0, end)}…(${text.length} characters)`;
}

/** One open array or object of the walk. */
type Open =
  | { items: readonly unknown[]; at: number }
  | { object: Record<string, unknown>; keys: string[]; at: number; wrote: boolean };

/**
 * The first `maxChars` characters of the JSON text of `value` (an ellipsis marks a cut), built
 * without recursion: depth costs nothing, and the work is bounded by `maxChars` plus the key
 * count of the objects the sample opens. Close to `JSON.stringify` (undefined members left out
 * of objects and `null` in arrays, non-finite numbers as `null`), except that `toJSON` is not
 * called and a top-level `undefined`, function or symbol is written as `String` would. Never
 * throws: whatever was rendered before a throwing getter or proxy is returned, cut.
 */
export function sampleValue(value: unknown, maxChars: number = SAMPLE_CHARS): string {
  let out = '';
  const stack: Open[] = [];
  let next: unknown = value;
  let pending = true;
  try {
    while (out.length <= maxChars) {
      if (pending) {
        pending = false;
        if (Array.isArray(next)) {
          out += '[';
          stack.push({ items: next, at: 0 });
        } else if (typeof next === 'object' && next !== null) {
          out += '{';
          stack.push({ object: next as Record<string, unknown>, keys: Object.keys(next), at: 0, wrote: false });
        } else {
          out += scalar(next, stack.length === 0, maxChars);
        }
        continue;
      }
      const open = stack[stack.length - 1];
      if (open === undefined) break;
      if ('items' in open) {
        if (open.at === open.items.length) {
          out += ']';
          stack.pop();
          continue;
        }
        if (open.at > 0) out += ',';
        const item = open.items[open.at++];
        if (isOmitted(item)) out += 'null';
        else {
          next = item;
          pending = true;
        }
        continue;
      }
      if (open.at === open.keys.length) {
        out += '}';
        stack.pop();
        continue;
      }
      const key = open.keys[open.at++]!;
      const member = open.object[key];
      if (isOmitted(member)) continue;
      out += `${open.wrote ? ',' : ''}${JSON.stringify(cut(key, maxChars))}:`;
      open.wrote = true;
      next = member;
      pending = true;
    }
  } catch {
    // A getter or proxy that throws: keep what was rendered and mark the cut.
    return `${out.slice(0, maxChars)}…`;
  }
  return out.length > maxChars ? `${out.slice(0, maxChars)}…` : out;
}

function isOmitted(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

function scalar(value: unknown, topLevel: boolean, maxChars: number): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      // Only the part that can show is quoted: a 16 MiB string costs what its sample does.
      return JSON.stringify(cut(value, maxChars));
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
    case 'bigint':
      return String(value);
    default:
      return topLevel ? String(value) : 'null';
  }
}

function cut(text: string, maxChars: number): string {
  return text.length > maxChars ? text.slice(0, maxChars + 1) : text;
}
