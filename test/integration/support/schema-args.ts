/**
 * Tool arguments derived from a tool's `inputSchema`, and a check that they are valid for it,
 * so "every tool is called with valid arguments" is proven rather than assumed.
 */
import { createRequire } from 'node:module';
import { Ajv, type Options } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';

type Schema = Record<string, unknown>;

const nodeRequire = createRequire(import.meta.url);

/** Sample strings for the formats the reference servers use. */
const STRING_FORMATS: Record<string, string> = {
  uri: 'https://example.com/mcpwire',
  email: 'ada@example.com',
  date: '1815-12-10',
  'date-time': '1815-12-10T12:00:00Z',
};

/**
 * A value for one schema: its `default`, else the first `enum` / `const` / `oneOf` choice, else a
 * plain value of its type (objects get every property, required or not).
 */
export function sampleFor(schema: Schema): unknown {
  if ('default' in schema) return schema.default;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if ('const' in schema) return schema.const;
  for (const key of ['oneOf', 'anyOf'] as const) {
    const choices = schema[key];
    if (Array.isArray(choices) && choices.length > 0) return sampleFor(choices[0] as Schema);
  }
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      return STRING_FORMATS[String(schema.format)] ?? 'mcpwire';
    case 'number':
    case 'integer':
      return typeof schema.minimum === 'number' ? schema.minimum : 2;
    case 'boolean':
      return true;
    case 'array': {
      const min = typeof schema.minItems === 'number' ? schema.minItems : 1;
      return Array.from({ length: min }, () => sampleFor((schema.items ?? {}) as Schema));
    }
    case 'object':
    default: {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      return Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, sampleFor(property)]));
    }
  }
}

/** Arguments for a tool: {@link sampleFor} its input schema, with `overrides` on top. */
export function argumentsFor(inputSchema: Schema, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...(sampleFor(inputSchema) as Record<string, unknown>), ...overrides };
}

const validators = new Map<string, Ajv>();

function ajvFor(schema: Schema): Ajv {
  const dialect = typeof schema.$schema === 'string' && schema.$schema.includes('2020-12') ? '2020' : '07';
  let ajv = validators.get(dialect);
  if (!ajv) {
    const options: Options = { strict: false, allErrors: true, validateSchema: false };
    ajv = dialect === '2020' ? new Ajv2020(options) : new Ajv(options);
    const loaded = nodeRequire('ajv-formats') as { default?: (ajv: Ajv) => unknown };
    (loaded.default ?? (loaded as unknown as (ajv: Ajv) => unknown))(ajv);
    validators.set(dialect, ajv);
  }
  return ajv;
}

/** The problems of `value` against `schema` (empty when valid); formats are checked. */
export function schemaProblems(schema: Schema, value: unknown): string[] {
  const { $id: _id, ...rest } = schema;
  const validate = ajvFor(schema).compile(rest);
  if (validate(value)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}`);
}
