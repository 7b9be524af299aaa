/**
 * Whether a JSON Schema is well formed in its dialect, for the engine without code generation
 * (Ajv checks a schema against the dialect's meta-schema; this checks the same keyword shapes):
 * each keyword mcpwire validates holds a value of its kind (a schema, a list of schemas, a
 * non-negative integer, a pattern that compiles, …), walked through every subschema.
 */
import type { SchemaDialect } from './schema-dialects.js';

const TYPES = new Set(['array', 'boolean', 'integer', 'null', 'number', 'object', 'string']);
const COUNTS = [
  'maxLength',
  'minLength',
  'maxItems',
  'minItems',
  'maxProperties',
  'minProperties',
  'maxContains',
  'minContains',
];
const NUMBERS = ['minimum', 'maximum'];
const ONE_SCHEMA = [
  'additionalItems',
  'additionalProperties',
  'contains',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
  'unevaluatedItems',
  'unevaluatedProperties',
];
const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf'];

type Node = Record<string, unknown>;

/** The first way `schema` is malformed (`/properties/n/minimum must be a number`), undefined when it is well formed. */
export function schemaShapeProblem(schema: unknown, dialect: SchemaDialect): string | undefined {
  return problemAt(schema, dialect, '', 0);
}

function problemAt(schema: unknown, dialect: SchemaDialect, at: string, depth: number): string | undefined {
  if (typeof schema === 'boolean') return undefined;
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema))
    return `${at || '(the schema)'} must be an object or a boolean`;
  if (depth > 200) return `${at} is nested too deeply`;
  const node = schema as Node;
  const sub = (value: unknown, path: string) => problemAt(value, dialect, `${at}/${path}`, depth + 1);
  const type = node.type;
  if (type !== undefined) {
    const types = Array.isArray(type) ? type : [type];
    if (types.length === 0 || !types.every((t) => typeof t === 'string' && TYPES.has(t)))
      return `${at}/type must name JSON Schema types`;
  }
  for (const key of COUNTS)
    if (key in node && !(Number.isInteger(node[key]) && (node[key] as number) >= 0))
      return `${at}/${key} must be a non-negative integer`;
  for (const key of NUMBERS) if (key in node && typeof node[key] !== 'number') return `${at}/${key} must be a number`;
  for (const key of ['exclusiveMinimum', 'exclusiveMaximum'])
    if (key in node && typeof node[key] !== 'number') return `${at}/${key} must be a number`;
  if ('multipleOf' in node && !(typeof node.multipleOf === 'number' && node.multipleOf > 0))
    return `${at}/multipleOf must be a number above 0`;
  if ('pattern' in node && !compiles(node.pattern)) return `${at}/pattern must be a regular expression`;
  if ('format' in node && typeof node.format !== 'string') return `${at}/format must be a string`;
  if ('$ref' in node && typeof node.$ref !== 'string') return `${at}/$ref must be a string`;
  if ('required' in node && !isStringList(node.required)) return `${at}/required must be a list of strings`;
  if ('enum' in node && !Array.isArray(node.enum)) return `${at}/enum must be a list`;
  if ('dependentRequired' in node) {
    const map = node.dependentRequired;
    if (!isMap(map) || !Object.values(map).every(isStringList))
      return `${at}/dependentRequired must map names to lists of strings`;
  }
  return subschemaProblem(node, dialect, at, sub);
}

/** The first problem in the keywords holding schemas, maps and lists of them, `items`/`prefixItems` by dialect. */
function subschemaProblem(
  node: Node,
  dialect: SchemaDialect,
  at: string,
  sub: (value: unknown, path: string) => string | undefined,
): string | undefined {
  for (const key of ONE_SCHEMA) {
    if (!(key in node)) continue;
    const problem = sub(node[key], key);
    if (problem) return problem;
  }
  for (const key of SCHEMA_MAPS) {
    if (!(key in node)) continue;
    const map = node[key];
    if (!isMap(map)) return `${at}/${key} must be an object of schemas`;
    for (const [name, value] of Object.entries(map)) {
      if (key === 'patternProperties' && !compiles(name)) return `${at}/${key} names a pattern that is not valid`;
      const problem = sub(value, `${key}/${escape(name)}`);
      if (problem) return problem;
    }
  }
  for (const key of SCHEMA_LISTS) {
    if (!(key in node)) continue;
    const list = node[key];
    if (!Array.isArray(list) || list.length === 0) return `${at}/${key} must be a non-empty list of schemas`;
    for (const [i, value] of list.entries()) {
      const problem = sub(value, `${key}/${i}`);
      if (problem) return problem;
    }
  }
  if ('prefixItems' in node && dialect === '2020-12') {
    if (!Array.isArray(node.prefixItems)) return `${at}/prefixItems must be a list of schemas`;
    for (const [i, value] of node.prefixItems.entries()) {
      const problem = sub(value, `prefixItems/${i}`);
      if (problem) return problem;
    }
  }
  if ('items' in node) {
    const items = node.items;
    // A list of schemas is the tuple form of draft-07 and 2019-09; 2020-12 has prefixItems for it.
    if (Array.isArray(items)) {
      if (dialect === '2020-12') return `${at}/items must be a schema (a tuple is prefixItems in 2020-12)`;
      for (const [i, value] of items.entries()) {
        const problem = sub(value, `items/${i}`);
        if (problem) return problem;
      }
    } else return sub(items, 'items');
  }
  return undefined;
}

function compiles(pattern: unknown): boolean {
  if (typeof pattern !== 'string') return false;
  try {
    new RegExp(pattern, 'u');
    return true;
  } catch {
    return false;
  }
}

function isMap(value: unknown): value is Node {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function isStringList(value: unknown): boolean {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

function escape(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}
