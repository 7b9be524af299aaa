/**
 * Cleans an MCP tool's `inputSchema` into what one LLM provider accepts as function parameters.
 * Pure: the input is never written to; the result shares no object with it. Every edit is
 * reported as a {@link SchemaChange} so a caller can log or show what the model will not see.
 *
 * What each profile does (from the providers' documented schema subsets and the 400 errors MCP
 * hosts keep reporting):
 *
 * - every profile: removes `$schema`, `$id`, `$comment`; replaces `exclusiveMinimum` /
 *   `exclusiveMaximum` (rejected by Gemini, and dropped everywhere per our issue) by `minimum` /
 *   `maximum` — exact for integers (`> n` ⇒ `>= n + 1`), otherwise widened to the inclusive bound
 *   with the strict bound stated in `description`; gives the top level `type: "object"` with no
 *   `anyOf`/`oneOf`/`allOf` (Anthropic: "input_schema does not support oneOf, allOf, or anyOf at
 *   the top level"; OpenAI: "schema must have type 'object' and not have 'oneOf'/'anyOf'/'allOf'/
 *   'enum'/'not' at the top level"; Gemini: parameters must be an OBJECT) — see
 *   `schema-top-level.ts`.
 * - `openai` (non-strict function calling): top-level `properties` (an empty one added), no
 *   top-level `enum`/`not`, and `items` on every array ("array schema missing items").
 * - `anthropic`: nothing beyond the common rules; JSON Schema is otherwise accepted as is.
 * - `gemini` (the OpenAPI 3.0 subset of `FunctionDeclaration.parameters`): local `$ref`s inlined
 *   and `$defs`/`definitions` dropped, plus the rewrites in `schema-gemini.ts` and an allow-list
 *   of the `Schema` fields Gemini knows.
 *
 * Local `$ref`s resolve against the root document (an `$id` does not move the base). A `$ref`
 * that is already being inlined {@link REF_RECURSION_LIMIT} times on the current path (a
 * recursive schema) becomes `{ type: "object" }`, as does any `$ref` past the
 * {@link INLINE_BUDGET}. A schema nested more than `MAX_JSON_DEPTH` (1000) levels deep (a peer
 * can send any depth; the walk recurses) becomes an empty object schema, reported as a change.
 */
import { MAX_JSON_DEPTH, nestedDeeperThan } from '../protocol/json-text.js';
import { applyExclusiveBounds } from './schema-bounds.js';
import { applyGemini, ensureArrayItems } from './schema-gemini.js';
import {
  type CleanContext,
  cloneJson,
  isJsonObject,
  type JsonObject,
  pointerToken,
  put,
  record,
  resolveLocalRef,
  show,
} from './schema-support.js';
import { shapeTopLevel } from './schema-top-level.js';
import type { SchemaChange, SchemaProfile } from './schema-types.js';

export type { SchemaChange, SchemaProfile } from './schema-types.js';

/** How many times one `$ref` may be inlined within itself before it is cut to `{ type: "object" }`. */
export const REF_RECURSION_LIMIT = 2;
/** How many `$ref`s one schema may inline in all; the rest become `{ type: "object" }`. */
export const INLINE_BUDGET = 500;

/** Keywords no provider needs: dialect and identity markers, comments. */
const META_KEYWORDS = ['$schema', '$id', '$comment'];

/** Keywords whose value maps names to subschemas. */
const MAP_POSITIONS = ['properties', 'patternProperties', 'dependentSchemas', '$defs', 'definitions'];
/** Keywords whose value is one subschema (`items` may also be a draft-4 tuple array). */
const SINGLE_POSITIONS = [
  'items',
  'additionalProperties',
  'additionalItems',
  'contains',
  'not',
  'if',
  'then',
  'else',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
];
/** Keywords whose value is an array of subschemas. */
const LIST_POSITIONS = ['prefixItems', 'anyOf', 'oneOf', 'allOf'];
/** Gemini keeps (or rewrites) only these subschema positions; the rest are dropped unread. */
const GEMINI_POSITIONS = new Set(['properties', 'items', 'prefixItems', 'anyOf', 'oneOf', 'allOf']);

/**
 * `schema` cleaned for `profile`, and the list of edits. Never throws and never mutates `schema`;
 * anything that is not an object schema becomes `{ type: "object", properties: {} }`.
 */
export function cleanSchema(
  schema: unknown,
  profile: SchemaProfile,
): { schema: Record<string, unknown>; changes: SchemaChange[] } {
  // The top level is one expansion of `#` already, so a `$ref: "#"` counts from there.
  const ctx: CleanContext = { profile, root: schema, changes: [], refStack: ['#'], inlined: 0 };
  if (!isJsonObject(schema)) {
    record(
      ctx,
      '',
      'type',
      'rewritten',
      `the schema is ${show(schema)}, not an object schema; replaced by an empty object schema`,
    );
    return { schema: { type: 'object', properties: {} }, changes: ctx.changes };
  }
  // The cleaning walk recurses: a schema a peer nested 100,000 levels deep would overflow the stack.
  if (nestedDeeperThan(schema, MAX_JSON_DEPTH)) {
    record(
      ctx,
      '',
      'type',
      'rewritten',
      `the schema is nested more than ${MAX_JSON_DEPTH} levels deep; replaced by an empty object schema`,
    );
    return { schema: { type: 'object', properties: {} }, changes: ctx.changes };
  }
  const cleaned = shapeTopLevel(cleanObject(schema, '', ctx, true), ctx);
  return { schema: cloneJson(cleaned), changes: ctx.changes };
}

/** A subschema cleaned; boolean and malformed schemas pass through except for Gemini. */
function cleanNode(value: unknown, path: string, ctx: CleanContext): unknown {
  if (isJsonObject(value)) return cleanObject(value, path, ctx, false);
  if (ctx.profile !== 'gemini') return value;
  // Gemini's Schema is always an object; `true` (anything) is the empty schema.
  const note = value === true ? 'true (any value) ⇒ {}' : `${show(value)} cannot be expressed; replaced by {}`;
  ctx.changes.push({ path, action: 'rewritten', keyword: 'schema', detail: note });
  return {};
}

/** One object schema cleaned: a fresh object whose subschemas are cleaned first. */
function cleanObject(input: JsonObject, path: string, ctx: CleanContext, isRoot: boolean): JsonObject {
  if (ctx.profile === 'gemini' && Object.hasOwn(input, '$ref')) return inlineRef(input, path, ctx, isRoot);
  const node: JsonObject = { ...input };
  for (const keyword of META_KEYWORDS) {
    if (!Object.hasOwn(node, keyword)) continue;
    delete node[keyword];
    record(ctx, path, keyword, 'removed');
  }
  cleanChildren(node, path, ctx);
  applyExclusiveBounds(node, path, ctx);
  if (ctx.profile === 'gemini') applyGemini(node, path, ctx, isRoot);
  else if (ctx.profile === 'openai') ensureArrayItems(node, path, ctx);
  return node;
}

/** Replaces every subschema of `node` (a fresh copy) by its cleaned form. */
function cleanChildren(node: JsonObject, path: string, ctx: CleanContext): void {
  const visits = (keyword: string) =>
    Object.hasOwn(node, keyword) && (ctx.profile !== 'gemini' || GEMINI_POSITIONS.has(keyword));
  for (const keyword of MAP_POSITIONS) {
    const map = node[keyword];
    if (!visits(keyword) || !isJsonObject(map)) continue;
    const cleaned: JsonObject = {};
    for (const [name, schema] of Object.entries(map))
      put(cleaned, name, cleanNode(schema, `${path}/${keyword}/${pointerToken(name)}`, ctx));
    node[keyword] = cleaned;
  }
  for (const keyword of SINGLE_POSITIONS) {
    if (!visits(keyword)) continue;
    const value = node[keyword];
    node[keyword] = Array.isArray(value)
      ? value.map((schema, i) => cleanNode(schema, `${path}/${keyword}/${i}`, ctx))
      : cleanNode(value, `${path}/${keyword}`, ctx);
  }
  for (const keyword of LIST_POSITIONS) {
    const list = node[keyword];
    if (!visits(keyword) || !Array.isArray(list)) continue;
    node[keyword] = list.map((schema, i) => cleanNode(schema, `${path}/${keyword}/${i}`, ctx));
  }
}

/**
 * Gemini: the node with its `$ref` replaced by the target (sibling keywords win over the
 * target's), cleaned at the use site. Remote, unresolvable, recursive and over-budget refs are
 * cut and recorded.
 */
function inlineRef(input: JsonObject, path: string, ctx: CleanContext, isRoot: boolean): JsonObject {
  const { $ref: ref, ...siblings } = input;
  const target = typeof ref === 'string' ? resolveLocalRef(ctx.root, ref) : undefined;
  if (target === undefined) {
    const why =
      typeof ref === 'string' && !ref.startsWith('#')
        ? 'a remote reference is not fetched'
        : 'it resolves to nothing in this schema';
    record(ctx, path, '$ref', 'removed', `${show(ref)}: ${why}`);
    return cleanObject(siblings, path, ctx, isRoot);
  }
  const refName = ref as string;
  const depth = ctx.refStack.filter((seen) => seen === refName).length;
  if (depth >= REF_RECURSION_LIMIT || ctx.inlined >= INLINE_BUDGET) {
    const why =
      depth >= REF_RECURSION_LIMIT
        ? `recursive, cut after ${REF_RECURSION_LIMIT} levels`
        : `over the budget of ${INLINE_BUDGET} inlined references`;
    record(ctx, path, '$ref', 'rewritten', `${refName} is ${why}; replaced by { type: "object" }`);
    const cut: JsonObject = { type: 'object' };
    const description = siblings.description ?? (isJsonObject(target.value) ? target.value.description : undefined);
    if (typeof description === 'string') cut.description = description;
    return cut;
  }
  ctx.inlined += 1;
  record(ctx, path, '$ref', 'inlined', refName);
  const merged: JsonObject = { ...(isJsonObject(target.value) ? target.value : {}), ...siblings };
  ctx.refStack.push(refName);
  try {
    return cleanObject(merged, path, ctx, isRoot);
  } finally {
    ctx.refStack.pop();
  }
}
