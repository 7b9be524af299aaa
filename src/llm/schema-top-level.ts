/**
 * The top level of a cleaned schema, for every profile: one object with `type: "object"` and no
 * alternatives, since all three providers require it (see `schema-profiles.ts`).
 *
 * - A top-level local `$ref` (OpenAI, Anthropic; Gemini has inlined it already) is inlined once.
 * - `allOf` members are merged into the top level.
 * - `anyOf` / `oneOf` whose alternatives are all objects become one object: the alternatives'
 *   properties united, and required only what every alternative requires (null alternatives are
 *   skipped). Alternatives that are not objects cannot be expressed; the keyword is removed.
 * - OpenAI: a top-level `enum` or `not` is removed; `properties: {}` is added when absent.
 * - `type`: absent ⇒ `"object"`; a list holding `"object"` ⇒ `"object"`; anything else (a
 *   string or array schema, which MCP forbids for `inputSchema`) ⇒ the whole schema is replaced
 *   by `{ type: "object", properties: {} }`, keeping only its description. The schema is not
 *   wrapped in a property, since the tool would then receive arguments of another shape.
 */
import {
  type CleanContext,
  isJsonObject,
  type JsonObject,
  mergeInto,
  put,
  record,
  resolveLocalRef,
  sameJson,
  show,
} from './schema-support.js';

/** `node` (the cleaned top level, a fresh copy) shaped into an object schema. */
export function shapeTopLevel(node: JsonObject, ctx: CleanContext): JsonObject {
  let root = node;
  if (typeof root.$ref === 'string' && root.$ref !== '#') {
    const target = resolveLocalRef(root, root.$ref);
    if (target !== undefined && isJsonObject(target.value)) {
      const { $ref: ref, ...siblings } = root;
      root = { ...target.value, ...siblings };
      record(ctx, '', '$ref', 'inlined', `${show(ref)} (a reference cannot stand for the top level)`);
    }
  }
  if (Object.hasOwn(root, 'allOf')) {
    const members = Array.isArray(root.allOf) ? root.allOf : [];
    delete root.allOf;
    const conflicts = members
      .map((member) => resolved(member, root))
      .filter(isJsonObject)
      .flatMap((member) => mergeInto(root, member));
    const kept = conflicts.length > 0 ? `; kept the top level's own ${conflicts.join(', ')}` : '';
    record(ctx, '', 'allOf', 'inlined', `${members.length} member(s) merged into the top level${kept}`);
  }
  for (const keyword of ['anyOf', 'oneOf']) if (Object.hasOwn(root, keyword)) flattenAlternatives(root, keyword, ctx);
  if (ctx.profile === 'openai') {
    for (const keyword of ['enum', 'not']) {
      if (!Object.hasOwn(root, keyword)) continue;
      delete root[keyword];
      record(ctx, '', keyword, 'removed', 'not allowed at the top level');
    }
  }
  root = objectType(root, ctx);
  if (ctx.profile === 'openai' && !isJsonObject(root.properties)) {
    root.properties = {};
    record(ctx, '', 'properties', 'rewritten', 'added properties: {} (required at the top level)');
  }
  return root;
}

/** A branch with a local `$ref` replaced by its target (siblings win); anything else as is. */
function resolved(branch: unknown, root: JsonObject): unknown {
  if (!isJsonObject(branch) || typeof branch.$ref !== 'string') return branch;
  const target = resolveLocalRef(root, branch.$ref);
  if (target === undefined || !isJsonObject(target.value)) return branch;
  const { $ref: _ref, ...siblings } = branch;
  return { ...target.value, ...siblings };
}

function isObjectShape(schema: JsonObject): boolean {
  if (schema.type === 'object') return true;
  return schema.type === undefined && (isJsonObject(schema.properties) || Object.hasOwn(schema, 'required'));
}

function isNull(schema: unknown): boolean {
  return isJsonObject(schema) && schema.type === 'null';
}

function flattenAlternatives(root: JsonObject, keyword: string, ctx: CleanContext): void {
  const list = root[keyword];
  delete root[keyword];
  const branches = (Array.isArray(list) ? list : [])
    .map((branch) => resolved(branch, root))
    .filter((branch) => !isNull(branch));
  if (branches.length === 0 || !branches.every((branch) => isJsonObject(branch) && isObjectShape(branch))) {
    record(ctx, '', keyword, 'removed', 'alternatives that are not all objects cannot be expressed at the top level');
    return;
  }
  const objects = branches as JsonObject[];
  const properties: JsonObject = isJsonObject(root.properties) ? { ...root.properties } : {};
  const conflicts: string[] = [];
  for (const branch of objects) {
    if (!isJsonObject(branch.properties)) continue;
    for (const [name, schema] of Object.entries(branch.properties)) {
      if (!Object.hasOwn(properties, name)) put(properties, name, schema);
      else if (!sameJson(properties[name], schema) && !conflicts.includes(name)) conflicts.push(name);
    }
  }
  root.properties = properties;
  const requiredByAll = objects
    .map((branch): unknown[] => (Array.isArray(branch.required) ? branch.required : []))
    .reduce((common, names) => common.filter((name) => names.includes(name)));
  const required: unknown[] = [...(Array.isArray(root.required) ? (root.required as unknown[]) : [])];
  for (const name of requiredByAll) if (!required.includes(name)) required.push(name);
  if (required.length > 0) root.required = required;
  const kept = conflicts.length > 0 ? `; kept the first definition of ${conflicts.join(', ')}` : '';
  record(
    ctx,
    '',
    keyword,
    'rewritten',
    `${objects.length} object alternative(s) merged into one: properties united, required only where every alternative requires${kept}`,
  );
}

function objectType(root: JsonObject, ctx: CleanContext): JsonObject {
  const type = root.type;
  if (type === 'object') return root;
  if (type === undefined || (Array.isArray(type) && type.includes('object'))) {
    record(
      ctx,
      '',
      'type',
      'rewritten',
      type === undefined ? 'added type "object" (required at the top level)' : `${show(type)} ⇒ "object"`,
    );
    const shaped: JsonObject = { type: 'object', ...root }; // type first, for readers
    shaped.type = 'object';
    return shaped;
  }
  record(
    ctx,
    '',
    'type',
    'rewritten',
    `top-level type ${show(type)} is not "object"; replaced by an empty object schema`,
  );
  const replacement: JsonObject = { type: 'object', properties: {} };
  if (typeof root.description === 'string') replacement.description = root.description;
  return replacement;
}
