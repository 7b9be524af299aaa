/**
 * A server's JSON Schema made safe to hand to the type generator: a copy holding only the
 * keywords that shape a TypeScript type, so nothing the server wrote becomes code (the
 * generator's own `tsType` and `tsEnumNames` keywords are never copied), no `$ref` leaves the
 * document (no file or network is ever read), and the 2020-12 shapes MCP servers send are put in
 * the generator's draft-07 terms. Pure.
 */

/** Deeper schema nesting than this is typed `unknown` from there down (a peer may nest without end). */
export const MAX_SCHEMA_DEPTH = 64;

/**
 * The longest array bound that becomes a tuple (the generator writes `minItems: N` as N element
 * types): a larger bound is dropped, so `minItems: 100000` costs nothing (an array type).
 */
export const MAX_TUPLE_ITEMS = 20;

type Schema = Record<string, unknown>;

/** What {@link copySchema} needs to know. */
export interface CopyOptions {
  /**
   * Where the copy will sit in the generator's one document (`#/$defs/GetSumInput`): the server's
   * own `#…` references are rewritten to point below it.
   */
  base: string;
  /** The generator's name rule (its `toSafeString`): a nested title must not become a reserved name. */
  safeName: (text: string) => string;
  /** Type names nested types must not take (the roots' names, the module's own identifiers). */
  reserved: ReadonlySet<string>;
  /** Told each part of the schema that was typed `unknown` instead, and why. */
  note: (message: string) => void;
}

const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions'] as const;
const SCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf'] as const;

function isObject(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isPrimitive(value: unknown): boolean {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}

/**
 * The copy of `schema` (a boolean schema, or anything not an object, becomes `{}`: any value).
 * Kept: `type`, `properties`, `required`, `additionalProperties`, `patternProperties`, `items`,
 * `prefixItems` (as a draft-07 tuple `items` with `additionalItems`), `additionalItems`,
 * `minItems` and `maxItems` up to {@link MAX_TUPLE_ITEMS}, `enum` and `const` of plain values,
 * `anyOf`, `oneOf`, `allOf`, `$defs`, `definitions`, `$ref` (`#` and `#/…` only), `title`,
 * `description`, `deprecated`.
 */
export function copySchema(schema: unknown, options: CopyOptions): Schema {
  const root = copyNode(schema, options, 0);
  nameReferencedTargets(root, options);
  return root;
}

function copyNode(node: unknown, options: CopyOptions, depth: number): Schema {
  if (!isObject(node)) return {};
  if (depth > MAX_SCHEMA_DEPTH) {
    options.note(`a part nested more than ${MAX_SCHEMA_DEPTH} levels deep is typed unknown`);
    return {};
  }
  const child = (value: unknown) => copyNode(value, options, depth + 1);
  const out: Schema = {};
  const type = node.type;
  if (typeof type === 'string' && TYPES.has(type)) out.type = type;
  else if (Array.isArray(type) && type.length > 0 && type.every((t) => typeof t === 'string' && TYPES.has(t)))
    out.type = [...(type as string[])];
  for (const key of SCHEMA_MAPS) {
    const map = node[key];
    if (!isObject(map)) continue;
    const copied: Schema = {};
    for (const [name, value] of Object.entries(map)) {
      // A pattern is a key the generator quotes into a comment: it must not close it.
      copied[key === 'patternProperties' ? name.replace(/\*\//g, '*\\/') : name] = child(value);
    }
    out[key] = copied;
  }
  const required: unknown = node.required;
  if (Array.isArray(required) && required.every((r) => typeof r === 'string')) out.required = [...required];
  if (typeof node.additionalProperties === 'boolean') out.additionalProperties = node.additionalProperties;
  else if (isObject(node.additionalProperties)) out.additionalProperties = child(node.additionalProperties);
  copyItems(node, out, child);
  const bound = (n: unknown) =>
    typeof n === 'number' && Number.isInteger(n) && n >= 0 && n <= MAX_TUPLE_ITEMS ? n : undefined;
  const minItems = bound(node.minItems);
  const maxItems = bound(node.maxItems);
  if (minItems !== undefined) out.minItems = minItems;
  // A maximum below the minimum admits no array: the generator refuses it, so it is left out.
  if (maxItems !== undefined && maxItems >= (minItems ?? 0)) out.maxItems = maxItems;
  const values: unknown = node.enum;
  if (Array.isArray(values) && values.length > 0 && values.every(isPrimitive)) out.enum = [...(values as unknown[])];
  if ('const' in node && isPrimitive(node.const)) out.const = node.const;
  for (const key of SCHEMA_LISTS) {
    const list = node[key];
    if (Array.isArray(list) && list.length > 0) out[key] = list.map(child);
  }
  if (typeof node.$ref === 'string') {
    const ref = localRef(node.$ref, options.base);
    if (ref !== undefined) out.$ref = ref;
    else options.note(`$ref ${JSON.stringify(node.$ref.slice(0, 100))} points outside the schema: typed unknown`);
  }
  if (typeof node.title === 'string') out.title = unreservedTitle(node.title, options);
  if (typeof node.description === 'string') out.description = node.description;
  if (node.deprecated === true) out.deprecated = true;
  return out;
}

/** `items` and `prefixItems`, in the generator's draft-07 terms (`items: [...]` + `additionalItems`). */
function copyItems(node: Schema, out: Schema, child: (value: unknown) => Schema): void {
  const rest = (value: unknown): boolean | Schema => (typeof value === 'boolean' ? value : child(value));
  if (Array.isArray(node.prefixItems)) {
    out.items = node.prefixItems.map(child);
    if (node.items !== undefined) out.additionalItems = rest(node.items);
    return;
  }
  if (Array.isArray(node.items)) {
    out.items = node.items.map(child);
    if (node.additionalItems !== undefined) out.additionalItems = rest(node.additionalItems);
  } else if (isObject(node.items)) out.items = child(node.items);
}

/** A reference inside the schema's own document, moved under `base`; `undefined` for any other. */
function localRef(ref: string, base: string): string | undefined {
  if (ref === '#') return base;
  if (ref.startsWith('#/')) return `${base}${ref.slice(1)}`;
  return undefined;
}

function unreservedTitle(title: string, options: CopyOptions): string {
  let chosen = title;
  while (options.reserved.has(options.safeName(chosen))) chosen = `${chosen} Type`;
  return chosen;
}

/**
 * Each `$ref` is checked against the copy: one that points nowhere is dropped (typed `unknown`,
 * noted) rather than failing the whole schema. A target without a title is named by the
 * generator after the pointer's last segment (`#/$defs/Promise` gives `Promise`): such a target
 * whose name would be reserved gets a title.
 */
function nameReferencedTargets(root: Schema, options: CopyOptions): void {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) stack.push(...(node as unknown[]));
    if (!isObject(node)) continue;
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') {
        if (!nameTarget(root, value, options)) {
          delete node.$ref;
          options.note(
            `$ref ${JSON.stringify(`#${value.slice(options.base.length)}`.slice(0, 100))} points nowhere in the schema: typed unknown`,
          );
        }
      } else if (key !== 'enum' && key !== 'const') stack.push(value);
    }
  }
}

/** Whether `ref` points at a schema of the copy (naming it when its name would be reserved). */
function nameTarget(root: Schema, ref: string, options: CopyOptions): boolean {
  const segments = ref
    .slice(options.base.length)
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  let target: unknown = root;
  for (const segment of segments) {
    let decoded = segment;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      // not percent-encoded: the segment as it is
    }
    target = isObject(target) || Array.isArray(target) ? (target as Record<string, unknown>)[decoded] : undefined;
  }
  if (!isObject(target)) return false;
  const last = segments.at(-1);
  if (target.title === undefined && last !== undefined && options.reserved.has(options.safeName(last)))
    target.title = unreservedTitle(`${last} Type`, options);
  return true;
}
