/**
 * Unknown keys in options objects are errors, not silence: a JavaScript caller has no compiler to
 * tell them that `{ cwd }` should have been `{ config: { cwd } }` or `timeout` `timeoutMs`. Each
 * public options object declares its keys once ({@link optionKeys}); entry points check what they
 * are given ({@link checkOptions}). Pure (no `node:*`), so every layer can use it; the check is a
 * `for…in` over the given object and allocates nothing unless it fails.
 */
import { McpError } from './errors.js';

/** The accepted keys of one options object, and the names callers are likely to mean. */
export interface OptionKeys {
  /** How errors name the object, e.g. `McpClient.connect options`. */
  readonly what: string;
  readonly keys: ReadonlySet<string>;
  /** Known mistakes → what was meant (`cwd` → `config.cwd`), tried before spelling closeness. */
  readonly hints: Readonly<Record<string, string>>;
}

/**
 * Declares the keys of options type `T`. `keys` must name every key of `T` and nothing else (the
 * compiler checks it), so a key added to the interface cannot be forgotten here.
 */
export function optionKeys<T extends object>(
  what: string,
  keys: { readonly [K in keyof Required<T>]: true },
  hints: Record<string, string> = {},
): OptionKeys {
  return { what, keys: new Set(Object.keys(keys)), hints };
}

/**
 * The `INVALID_ARGUMENT` error for the first key of `options` that `known` does not accept, or
 * undefined when every key is accepted (or `options` is undefined or null). `subject` goes before
 * `known.what` in the message (e.g. the method a request's options belong to: `tools/call request
 * options`); it is only read when there is an error.
 */
export function unknownOptionError(options: unknown, known: OptionKeys, subject?: string): McpError | undefined {
  if (options === undefined || options === null) return undefined;
  if (typeof options !== 'object')
    return new McpError('INVALID_ARGUMENT', `${nameOf(known, subject)} must be an object, got ${typeof options}`);
  for (const key in options) {
    if (!known.keys.has(key)) return describe(key, known, nameOf(known, subject));
  }
  return undefined;
}

/** Throws the error of {@link unknownOptionError}, if any. */
export function checkOptions(options: unknown, known: OptionKeys, subject?: string): void {
  const error = unknownOptionError(options, known, subject);
  if (error) throw error;
}

function nameOf(known: OptionKeys, subject: string | undefined): string {
  return subject === undefined ? known.what : `${subject} ${known.what}`;
}

function describe(key: string, known: OptionKeys, where: string): McpError {
  const meant = Object.hasOwn(known.hints, key) ? known.hints[key] : closest(key, known.keys);
  const hint = meant === undefined ? '' : ` (did you mean "${meant}"?)`;
  return new McpError(
    'INVALID_ARGUMENT',
    `${where}: unknown option "${key}"${hint}; accepted: ${[...known.keys].join(', ')}`,
  );
}

/**
 * The accepted key `key` most likely stands for: same letters in another case, a prefix, or a typo
 * (an edit distance of at most 2, and at most a third of its length); undefined when none is close.
 */
export function closest(key: string, keys: ReadonlySet<string>): string | undefined {
  const lower = key.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of keys) {
    const other = candidate.toLowerCase();
    if (other === lower) return candidate;
    if (lower.length >= 4 && (other.startsWith(lower) || lower.startsWith(other))) return candidate;
    const distance = editDistance(lower, other);
    if (distance < bestDistance) {
      bestDistance = distance;
      best = candidate;
    }
  }
  return bestDistance <= Math.min(2, Math.floor(key.length / 3)) ? best : undefined;
}

/** Levenshtein distance (only on error paths: the names compared are short). */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}
