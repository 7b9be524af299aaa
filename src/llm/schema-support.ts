/**
 * Small helpers the schema profiles share: the cleaning context and its change log, JSON pointers
 * (RFC 6901), description notes, the shallow merge used for `allOf` and top-level alternatives,
 * and a deep copy of JSON data. Pure; nothing here touches a caller's object.
 */
import type { SchemaChange, SchemaProfile } from './schema-types.js';
import { sameJson } from '../util/same-json.js';

export { sameJson };

/** A plain JSON object (not an array, not null). */
export type JsonObject = Record<string, unknown>;

/** State of one {@link cleanSchema} run. */
export interface CleanContext {
  readonly profile: SchemaProfile;
  /** The caller's schema, read (never written) to resolve local `$ref`s. */
  readonly root: unknown;
  readonly changes: SchemaChange[];
  /** The `$ref`s being inlined on the current path, outermost first. */
  readonly refStack: string[];
  /** How many `$ref`s were inlined so far (a budget against exponential expansion). */
  inlined: number;
}

/**
 * Sets `obj[key] = value` as an own data property, also for the key `__proto__` (a plain
 * assignment would change the prototype instead; a schema may name a property that way).
 */
export function put(obj: JsonObject, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else obj[key] = value;
}

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** One reference token of a JSON pointer, escaped (`~` ⇒ `~0`, `/` ⇒ `~1`). */
export function pointerToken(key: string | number): string {
  return String(key).replaceAll('~', '~0').replaceAll('/', '~1');
}

/** Appends a change for `keyword` of the node at `nodePath` to the run's log. */
export function record(
  ctx: CleanContext,
  nodePath: string,
  keyword: string,
  action: SchemaChange['action'],
  detail?: string,
): void {
  const change: SchemaChange = { path: `${nodePath}/${pointerToken(keyword)}`, action, keyword };
  if (detail !== undefined) change.detail = detail;
  ctx.changes.push(change);
}

/**
 * The value a local reference (`#`, `#/$defs/A`, `#/properties/x`) points at in `document`, or
 * undefined when the reference is not local, not a JSON pointer (`#anchor`), or leads nowhere.
 */
export function resolveLocalRef(document: unknown, ref: string): { value: unknown } | undefined {
  if (!ref.startsWith('#')) return undefined;
  let fragment: string;
  try {
    fragment = decodeURIComponent(ref.slice(1));
  } catch {
    return undefined;
  }
  if (fragment === '') return { value: document };
  if (!fragment.startsWith('/')) return undefined;
  let current: unknown = document;
  for (const raw of fragment.slice(1).split('/')) {
    const token = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (Array.isArray(current) && /^(0|[1-9][0-9]*)$/.test(token) && Number(token) < current.length) {
      current = current[Number(token)];
    } else if (isJsonObject(current) && Object.hasOwn(current, token)) {
      current = current[token];
    } else {
      return undefined;
    }
  }
  return { value: current };
}

/**
 * Adds `note` to the node's `description` in parentheses, or makes it the description. Used
 * where a constraint the provider cannot express is kept as words for the model.
 */
export function addNote(node: JsonObject, note: string): void {
  const description = node.description;
  node.description = typeof description === 'string' && description.trim() !== '' ? `${description} (${note})` : note;
}

/**
 * Merges `member` into `target` (which the caller owns): `properties` united, `required` united,
 * any other keyword taken only where `target` lacks it. Returns the keywords (and
 * `properties/<name>`) whose values differed, where `target` kept its own.
 */
export function mergeInto(target: JsonObject, member: JsonObject): string[] {
  const conflicts: string[] = [];
  for (const [key, value] of Object.entries(member)) {
    if (key === 'properties' && isJsonObject(value)) {
      const properties: JsonObject = isJsonObject(target.properties) ? { ...target.properties } : {};
      for (const [name, schema] of Object.entries(value)) {
        if (!Object.hasOwn(properties, name)) put(properties, name, schema);
        else if (!sameJson(properties[name], schema)) conflicts.push(`properties/${name}`);
      }
      target.properties = properties;
    } else if (key === 'required' && Array.isArray(value)) {
      const required: unknown[] = Array.isArray(target.required) ? [...(target.required as unknown[])] : [];
      for (const name of value) if (!required.includes(name)) required.push(name);
      target.required = required;
    } else if (!Object.hasOwn(target, key)) {
      put(target, key, value);
    } else if (!sameJson(target[key], value)) {
      conflicts.push(key);
    }
  }
  return conflicts;
}

/** A deep copy of JSON data: fresh arrays and objects everywhere, so no two places share one. */
export function cloneJson<T>(value: T): T {
  if (Array.isArray(value)) return (value as unknown[]).map((item) => cloneJson(item)) as T;
  if (isJsonObject(value)) {
    const copy: JsonObject = {};
    for (const [key, item] of Object.entries(value)) put(copy, key, cloneJson(item));
    return copy as T;
  }
  return value;
}

/** A short rendering of a JSON value for change details and notes. */
export function show(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
