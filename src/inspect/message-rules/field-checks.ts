/**
 * Small helpers the rule modules share: type tests on decoded JSON and a short description of a
 * value for messages (`a number 42`, `missing`). Paths are written `result.tools[0].name`.
 */

/** True for a JSON object (not null, not an array). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `base.key`, or `base[3]` for a number. */
export function at(base: string, key: string | number): string {
  return typeof key === 'number' ? `${base}[${key}]` : `${base}.${key}`;
}

/** What a value is, for a message: `missing`, `null`, `an array`, `a string "x"`, `a number 4`, `an object`. */
export function describe(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string':
      return `a string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
    case 'number':
      return `a number ${value}`;
    case 'boolean':
      return `a boolean ${value}`;
    default:
      return 'an object';
  }
}

/** `<path> must be <what> (it is <describe(value)>)`. */
export function mustBe(path: string, what: string, value: unknown): string {
  return `${path} must be ${what} (it is ${describe(value)})`;
}

/**
 * The first problem among the string fields `names` of `object` at `path` that must be
 * present strings, or undefined when all are.
 */
export function firstMissingString(
  object: Record<string, unknown>,
  path: string,
  names: readonly string[],
): string | undefined {
  for (const name of names) {
    if (typeof object[name] !== 'string') return mustBe(at(path, name), 'a string', object[name]);
  }
  return undefined;
}
