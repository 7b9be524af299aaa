/**
 * The JSON Schema engine without code generation (for Workers and strict-CSP pages, where Ajv
 * cannot run): `@cfworker/json-schema` walks the schema, and its findings are reported as Ajv
 * reports them (`instancePath`, `keyword`, `params`, and Ajv's message wording), so the kit and the
 * client describe a problem the same way on every runtime. Its summary entries (a property or an
 * item "does not match", a `$ref` "had errors") are dropped: Ajv reports only the failing keywords.
 */
import { Validator, type OutputUnit } from '@cfworker/json-schema';
import type { AjvValidate, SchemaDialect } from './schema-dialects.js';
import type { SchemaCompileOptions } from './schema-engines.js';
import { schemaShapeProblem } from './schema-shape.js';
import type { JsonSchema } from './types.js';

/** A problem as Ajv reports it. */
export interface AjvShapedProblem {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
  message: string;
}

const DRAFTS = { 'draft-07': '7', '2019-09': '2019-09', '2020-12': '2020-12' } as const;
/** cfworker's entries that only say a subschema failed (its own failures follow them). */
const SUMMARIES = new Set([
  'properties',
  'patternProperties',
  'items',
  'prefixItems',
  'additionalItems',
  '$ref',
  '$recursiveRef',
  'allOf',
  'dependentSchemas',
  'dependencies',
  'propertyNames',
  'unevaluatedItems',
]);

/**
 * Compiles `schema` by `dialect` without code generation. Throws an `Error` for a schema that is
 * not well formed (unless `validateSchema` is false). `validateFormats: false` ignores `format`
 * failures (a value failing only by a format conforms).
 */
export function compileWithoutEval(
  schema: JsonSchema,
  dialect: SchemaDialect,
  options: SchemaCompileOptions,
): AjvValidate<AjvShapedProblem> {
  if (options.validateSchema !== false) {
    const problem = schemaShapeProblem(schema, dialect);
    if (problem !== undefined) throw new Error(`schema is invalid: ${problem}`);
  }
  const validator = new Validator(schema, DRAFTS[dialect], options.allErrors !== true);
  const formats = options.validateFormats !== false;
  const validate: AjvValidate<AjvShapedProblem> = (value) => {
    const units = validator.validate(value).errors;
    const problems = ajvProblems(units, schema, formats);
    validate.errors = problems.length > 0 ? problems : null;
    return problems.length === 0;
  };
  return validate;
}

/** Ajv's words for a keyword that bounds a value, by keyword, from the bound. */
const LIMITS: Readonly<Record<string, (limit: string) => string>> = {
  maxLength: (n) => `must NOT have more than ${n} characters`,
  minLength: (n) => `must NOT have fewer than ${n} characters`,
  maxItems: (n) => `must NOT have more than ${n} items`,
  minItems: (n) => `must NOT have fewer than ${n} items`,
  maxProperties: (n) => `must NOT have more than ${n} properties`,
  minProperties: (n) => `must NOT have fewer than ${n} properties`,
  minimum: (n) => `must be >= ${n}`,
  maximum: (n) => `must be <= ${n}`,
  exclusiveMinimum: (n) => `must be > ${n}`,
  exclusiveMaximum: (n) => `must be < ${n}`,
  multipleOf: (n) => `must be multiple of ${n}`,
};

function ajvProblems(units: readonly OutputUnit[], root: JsonSchema, formats: boolean): AjvShapedProblem[] {
  const problems: AjvShapedProblem[] = [];
  for (const [i, unit] of units.entries()) {
    const keyword = unit.keyword;
    if (SUMMARIES.has(keyword) || (keyword === 'format' && !formats)) continue;
    // `additionalProperties: false` is reported once, as Ajv does, not again as the false schema.
    const previous = units[i - 1]?.keyword;
    if (keyword === 'false' && (previous === 'additionalProperties' || previous === 'unevaluatedProperties')) continue;
    const problem = ajvProblem(unit, root);
    if (problem) problems.push(problem);
  }
  return problems;
}

function ajvProblem(unit: OutputUnit, root: JsonSchema): AjvShapedProblem | undefined {
  const instancePath = pointerOf(unit.instanceLocation);
  const schemaPath = unit.keywordLocation;
  const value = valueAt(root, schemaPath);
  const problem = (keyword: string, message: string, params: Record<string, unknown> = {}): AjvShapedProblem => ({
    instancePath,
    schemaPath,
    keyword,
    params,
    message,
  });
  const limit = LIMITS[unit.keyword];
  if (limit) return problem(unit.keyword, limit(String(value)), { limit: value });
  switch (unit.keyword) {
    case 'type': {
      const types = Array.isArray(value) ? value.join(',') : String(value);
      return problem('type', `must be ${types}`, { type: types });
    }
    case 'required': {
      const missing = quoted(unit.error, 'Instance does not have required property "');
      return problem('required', `must have required property '${missing}'`, { missingProperty: missing });
    }
    case 'additionalProperties':
    case 'unevaluatedProperties': {
      // A schema (not `false`) for the extra properties reports its own failures.
      if (value !== false) return undefined;
      const extra = quoted(unit.error, 'Property "');
      return unit.keyword === 'additionalProperties'
        ? problem('additionalProperties', 'must NOT have additional properties', { additionalProperty: extra })
        : problem('unevaluatedProperties', 'must NOT have unevaluated properties', { unevaluatedProperty: extra });
    }
    case 'false':
      return problem('false schema', 'boolean schema is false');
    case 'pattern':
      return problem('pattern', `must match pattern "${String(value)}"`, { pattern: value });
    case 'format':
      return problem('format', `must match format "${String(value)}"`, { format: value });
    case 'enum':
      return problem('enum', 'must be equal to one of the allowed values', { allowedValues: value });
    case 'const':
      return problem('const', 'must be equal to constant', { allowedValue: value });
    case 'uniqueItems': {
      const [j, k] = (/(\d+) and (\d+)/.exec(unit.error) ?? []).slice(1).map(Number);
      return problem('uniqueItems', `must NOT have duplicate items (items ## ${k} and ${j} are identical)`, {
        i: k,
        j,
      });
    }
    case 'anyOf':
      return problem('anyOf', 'must match a schema in anyOf');
    case 'oneOf':
      return problem('oneOf', 'must match exactly one schema in oneOf');
    case 'not':
      return problem('not', 'must NOT be valid');
    case 'if':
      return problem('if', `must match "${unit.error.includes('"else"') ? 'else' : 'then'}" schema`);
    case 'contains':
      return problem('contains', 'must contain at least 1 valid item(s)');
    case 'dependentRequired': {
      const [, key, missing] = /^Instance has "(.*)" but does not have "(.*)"\.$/.exec(unit.error) ?? [];
      return problem('dependentRequired', `must have property ${missing} when property ${key} is present`, {
        property: key,
        missingProperty: missing,
      });
    }
    default:
      return problem(unit.keyword, `must pass "${unit.keyword}" keyword validation`);
  }
}

/** cfworker's `#/a/b%20c` (a URI fragment) as the plain JSON Pointer Ajv reports (`/a/b c`). */
function pointerOf(location: string): string {
  const fragment = location.startsWith('#') ? location.slice(1) : location;
  try {
    return decodeURIComponent(fragment);
  } catch {
    return fragment;
  }
}

/** The text between `prefix` and the last `"` of `message` (a key cfworker quotes). */
function quoted(message: string, prefix: string): string {
  const start = message.indexOf(prefix);
  const end = message.lastIndexOf('"');
  return start >= 0 && end > start + prefix.length - 1 ? message.slice(start + prefix.length, end) : '';
}

/** The value `location` points at in `root`, through local `$ref`s (cfworker's keyword locations pass them). */
function valueAt(root: JsonSchema, location: string): unknown {
  let node: unknown = root;
  for (const raw of pointerOf(location).split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (key === '$ref' && node !== null && typeof node === 'object') {
      const ref = (node as Record<string, unknown>).$ref;
      node = typeof ref === 'string' && ref.startsWith('#') ? valueAt(root, ref) : undefined;
      continue;
    }
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}
