/**
 * The node-level rewrites for Gemini's `FunctionDeclaration.parameters`, a "select subset of an
 * OpenAPI 3.0 schema object". Runs on a fresh copy whose subschemas are already cleaned (and
 * whose `$ref`s are inlined). Each rewrite answers an error Gemini returns for MCP schemas:
 *
 * - `type: [t, "null"]` ⇒ `type: t, nullable: true` (Gemini's `type` is one enum value);
 *   several non-null types ⇒ `anyOf` of one `{ type }` each.
 * - `const: v` ⇒ `enum: [v]`; `enum` keeps only non-empty strings ("enum[0]: cannot be empty",
 *   `TYPE_STRING` errors for numbers); `null` in an enum ⇒ `nullable: true`; an enum of other
 *   values is removed and its values written into `description`.
 * - `oneOf` ⇒ `anyOf` (at-least-one instead of exactly-one); `allOf` merged into the node;
 *   `anyOf` branches of type null ⇒ `nullable: true`, a single remaining branch merged in;
 *   `type` beside `anyOf` pushed into the branches ("type and anyOf cannot be both populated").
 * - `prefixItems` (tuples) ⇒ `items: { anyOf: [...] }`; arrays without `items` get `items: {}`
 *   ("items: missing field").
 * - `format` other than `date-time`/`enum` (string), `float`/`double` (number), `int32`/`int64`
 *   (integer) is removed ("only 'enum' and 'date-time' are supported for STRING type").
 * - `required` names without a property are removed; every keyword outside
 *   {@link GEMINI_KEYWORDS} (`additionalProperties`, `$defs`, `not`, `uniqueItems`, …) too.
 */
import {
  addNote,
  type CleanContext,
  isJsonObject,
  type JsonObject,
  mergeInto,
  record,
  show,
} from './schema-support.js';

/** The fields of Gemini's `Schema` message. */
export const GEMINI_KEYWORDS = new Set([
  'type',
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'default',
  'example',
  'items',
  'minItems',
  'maxItems',
  'minLength',
  'maxLength',
  'pattern',
  'minimum',
  'maximum',
  'minProperties',
  'maxProperties',
  'properties',
  'propertyOrdering',
  'required',
  'anyOf',
]);

const FORMATS: Record<string, readonly string[]> = {
  string: ['date-time', 'enum'],
  number: ['float', 'double'],
  integer: ['int32', 'int64'],
};

/** Rewrites `node` (a fresh copy with cleaned subschemas) into Gemini's subset, in place. */
export function applyGemini(node: JsonObject, path: string, ctx: CleanContext, isRoot: boolean): void {
  typeList(node, path, ctx);
  constToEnum(node, path, ctx);
  enumValues(node, path, ctx);
  oneOfToAnyOf(node, path, ctx);
  mergeAllOf(node, path, ctx);
  nullBranches(node, path, ctx);
  // At the top level the alternatives are flattened into one object later (schema-top-level.ts).
  if (!isRoot) typeBesideAnyOf(node, path, ctx);
  tupleItems(node, path, ctx);
  ensureArrayItems(node, path, ctx);
  formats(node, path, ctx);
  requiredNames(node, path, ctx);
  for (const keyword of Object.keys(node)) {
    if (GEMINI_KEYWORDS.has(keyword)) continue;
    delete node[keyword];
    record(ctx, path, keyword, 'removed', "not a field of Gemini's Schema");
  }
}

/** Gives an array node without `items` the empty schema (OpenAI and Gemini reject a bare array). */
export function ensureArrayItems(node: JsonObject, path: string, ctx: CleanContext): void {
  const isArray = node.type === 'array' || (Array.isArray(node.type) && node.type.includes('array'));
  if (!isArray || Object.hasOwn(node, 'items') || Object.hasOwn(node, 'prefixItems')) return;
  node.items = {};
  record(ctx, path, 'items', 'rewritten', 'added items: {} (an array needs an items schema)');
}

function typeList(node: JsonObject, path: string, ctx: CleanContext): void {
  if (!Array.isArray(node.type)) return;
  const types = (node.type as unknown[]).filter((type, i, all) => all.indexOf(type) === i);
  const kinds = types.filter((type) => type !== 'null');
  if (kinds.length < types.length) node.nullable = true;
  if (kinds.length === 1) node.type = kinds[0];
  else if (kinds.length === 0) delete node.type;
  else if (!Object.hasOwn(node, 'anyOf')) {
    delete node.type;
    node.anyOf = kinds.map((type) => ({ type }));
  } else node.type = kinds[0];
  const now = node.type === undefined ? (Object.hasOwn(node, 'anyOf') ? 'anyOf' : 'no type') : show(node.type);
  record(ctx, path, 'type', 'rewritten', `${show(types)} ⇒ ${now}${node.nullable === true ? ' + nullable' : ''}`);
}

function constToEnum(node: JsonObject, path: string, ctx: CleanContext): void {
  if (!Object.hasOwn(node, 'const')) return;
  const value = node.const;
  delete node.const;
  if (Object.hasOwn(node, 'enum')) record(ctx, path, 'const', 'removed', 'enum is already present');
  else {
    node.enum = [value];
    record(ctx, path, 'const', 'rewritten', `const ${show(value)} ⇒ enum [${show(value)}]`);
  }
}

function enumValues(node: JsonObject, path: string, ctx: CleanContext): void {
  if (!Object.hasOwn(node, 'enum')) return;
  const values = Array.isArray(node.enum) ? node.enum : [];
  if (values.includes(null)) node.nullable = true;
  const rest = values.filter((value) => value !== null);
  if (rest.some((value) => typeof value !== 'string')) {
    delete node.enum;
    addNote(node, `one of: ${rest.map(show).join(', ')}`);
    record(ctx, path, 'enum', 'removed', `non-string values ${show(rest)} are written into description`);
    return;
  }
  const kept = rest.filter((value) => value !== '');
  if (kept.length === values.length) return;
  if (kept.length > 0) node.enum = kept;
  else delete node.enum;
  const dropped = values.filter((value) => value === null || value === '');
  record(
    ctx,
    path,
    'enum',
    kept.length > 0 ? 'rewritten' : 'removed',
    `${show(dropped)} dropped${values.includes(null) ? '; null ⇒ nullable' : ''}`,
  );
}

function oneOfToAnyOf(node: JsonObject, path: string, ctx: CleanContext): void {
  if (!Object.hasOwn(node, 'oneOf')) return;
  const branches = node.oneOf;
  delete node.oneOf;
  if (Object.hasOwn(node, 'anyOf') || !Array.isArray(branches)) {
    record(ctx, path, 'oneOf', 'removed', 'anyOf is already present');
    return;
  }
  node.anyOf = branches;
  record(ctx, path, 'oneOf', 'rewritten', 'as anyOf ("exactly one" loosened to "at least one")');
}

function mergeAllOf(node: JsonObject, path: string, ctx: CleanContext): void {
  if (!Object.hasOwn(node, 'allOf')) return;
  const members = Array.isArray(node.allOf) ? node.allOf : [];
  delete node.allOf;
  const conflicts = members.filter(isJsonObject).flatMap((member) => mergeInto(node, member));
  const kept = conflicts.length > 0 ? `; kept the node's own ${conflicts.join(', ')}` : '';
  record(ctx, path, 'allOf', 'inlined', `${members.length} member(s) merged into the node${kept}`);
}

function isNullBranch(branch: unknown): boolean {
  if (!isJsonObject(branch)) return false;
  if (branch.type === 'null') return true;
  return (
    branch.nullable === true &&
    branch.type === undefined &&
    Object.keys(branch).every((key) => ['nullable', 'description', 'title'].includes(key))
  );
}

function nullBranches(node: JsonObject, path: string, ctx: CleanContext): void {
  if (!Array.isArray(node.anyOf)) return;
  const rest = (node.anyOf as unknown[]).filter((branch) => !isNullBranch(branch));
  const only = rest[0];
  if (rest.length === node.anyOf.length && !(rest.length === 1 && isJsonObject(only))) return;
  if (rest.length < node.anyOf.length) node.nullable = true;
  const nullable = rest.length < node.anyOf.length ? 'null branch ⇒ nullable' : '';
  if (rest.length === 1 && isJsonObject(only)) {
    delete node.anyOf;
    const conflicts = mergeInto(node, only);
    const kept = conflicts.length > 0 ? `; kept the node's own ${conflicts.join(', ')}` : '';
    record(
      ctx,
      path,
      'anyOf',
      'rewritten',
      `${[nullable, 'the one remaining branch merged into the node'].filter(Boolean).join('; ')}${kept}`,
    );
  } else if (rest.length === 0) {
    delete node.anyOf;
    record(ctx, path, 'anyOf', 'rewritten', nullable);
  } else {
    node.anyOf = rest;
    record(ctx, path, 'anyOf', 'rewritten', nullable);
  }
}

function typeBesideAnyOf(node: JsonObject, path: string, ctx: CleanContext): void {
  if (!Object.hasOwn(node, 'type') || !Array.isArray(node.anyOf)) return;
  const type = node.type;
  delete node.type;
  node.anyOf = (node.anyOf as unknown[]).map((branch) =>
    isJsonObject(branch) && !Object.hasOwn(branch, 'type') ? { type, ...branch } : branch,
  );
  record(ctx, path, 'type', 'rewritten', `type ${show(type)} moved into the anyOf branches that had none`);
}

function tupleItems(node: JsonObject, path: string, ctx: CleanContext): void {
  const tuple: unknown[] | undefined = Array.isArray(node.prefixItems)
    ? node.prefixItems
    : Array.isArray(node.items)
      ? node.items
      : undefined;
  const keyword = Array.isArray(node.prefixItems) ? 'prefixItems' : 'items';
  if (tuple === undefined) return;
  const rest = keyword === 'prefixItems' && isJsonObject(node.items) ? [node.items] : [];
  delete node.prefixItems;
  const schemas = [...tuple, ...rest];
  node.items = schemas.length === 1 ? schemas[0] : schemas.length === 0 ? {} : { anyOf: schemas };
  record(
    ctx,
    path,
    keyword,
    'rewritten',
    `tuple of ${tuple.length} position(s) ⇒ items ${schemas.length > 1 ? "anyOf the positions' schemas" : 'schema'}; positions are not enforced`,
  );
}

function formats(node: JsonObject, path: string, ctx: CleanContext): void {
  if (!Object.hasOwn(node, 'format')) return;
  const allowed = typeof node.type === 'string' ? FORMATS[node.type] : undefined;
  if (typeof node.format === 'string' && allowed?.includes(node.format)) return;
  const format = node.format;
  delete node.format;
  record(ctx, path, 'format', 'removed', `${show(format)} is not supported for type ${show(node.type)}`);
}

function requiredNames(node: JsonObject, path: string, ctx: CleanContext): void {
  if (!Object.hasOwn(node, 'required')) return;
  const properties = isJsonObject(node.properties) ? node.properties : {};
  const required = Array.isArray(node.required) ? node.required : [];
  const kept = required.filter(
    (name, i) => typeof name === 'string' && Object.hasOwn(properties, name) && required.indexOf(name) === i,
  );
  if (kept.length === required.length && Array.isArray(node.required)) return;
  const dropped = required.filter((name) => !kept.includes(name));
  if (kept.length > 0) node.required = kept;
  else delete node.required;
  record(ctx, path, 'required', kept.length > 0 ? 'rewritten' : 'removed', `${show(dropped)} name no property`);
}
