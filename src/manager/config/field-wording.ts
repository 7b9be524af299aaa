/**
 * A schema complaint about one field of a server entry, said as a person would say it (`must be
 * a whole number, got a string` rather than ajv's `must be integer`). A value is echoed only when it
 * cannot be a secret (numbers, booleans, null, a short word given for a choice); another string is
 * named as "a string", since a misplaced token (`"headers": "Bearer …"`) must not reach an error.
 */

/** What ajv reports for one failed keyword (with `verbose: true`, the value as `data`). */
export interface FieldComplaint {
  keyword: string;
  message?: string;
  params?: Record<string, unknown>;
  data?: unknown;
}

const TYPES: Record<string, string> = {
  integer: 'a whole number',
  number: 'a number',
  string: 'a string',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
};

/** The complaint in words, to follow the field's name (`timeoutMs must be a whole number, got a string`). */
export function inWords(complaint: FieldComplaint): string {
  const params = complaint.params ?? {};
  switch (complaint.keyword) {
    case 'type': {
      const wanted = String(params.type);
      return `must be ${TYPES[wanted] ?? wanted}${wanted === 'array' ? ' of strings' : ''}, got ${shown(complaint.data)}`;
    }
    case 'minimum':
      return `must be at least ${String(params.limit)}, got ${shown(complaint.data)}`;
    case 'maximum':
      return `must be at most ${String(params.limit)}, got ${shown(complaint.data)}`;
    case 'minLength':
      return 'must not be empty';
    case 'pattern':
      return String(params.pattern) === '^https?://' ? 'must be an http:// or https:// URL' : 'has the wrong form';
    case 'enum':
      return `must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}, got ${shownChoice(complaint.data)}`;
    case 'additionalProperties':
      return `has an unknown key "${String(params.additionalProperty)}"`;
    default:
      return complaint.message ?? 'is invalid';
  }
}

/** A value given for a choice of words (`grant: "password"`): a short string is a word, not a secret. */
function shownChoice(value: unknown): string {
  return typeof value === 'string' && value.length <= 40 ? JSON.stringify(value) : shown(value);
}

/** A value as an error may show it: itself when it cannot be a secret, else its kind. */
function shown(value: unknown): string {
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return JSON.stringify(value);
  if (typeof value === 'string') return 'a string';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : typeof value;
}
