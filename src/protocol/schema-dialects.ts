/**
 * The JSON Schema dialects mcpwire validates, told apart by a schema's `$schema`, and one compiler
 * per dialect: an Ajv instance (its class loaded on first use) or, where Ajv cannot run, the
 * engine without code generation (`schema-engines.ts`). MCP 2025-11-25 makes 2020-12 the dialect
 * of a schema without `$schema`; servers built on SDK v1 (zod-to-json-schema) declare draft-07.
 * Shared by the client (output checks) and the server kit (input and output checks).
 */
import { McpError } from './errors.js';
import {
  noEvalCompiler,
  nodeRequire,
  preferredEngine,
  type AjvValidate,
  type SchemaCompileOptions,
  type SchemaDialect,
  type SchemaEngine,
} from './schema-engines.js';
import type { JsonSchema } from './types.js';

export type { AjvValidate, SchemaDialect } from './schema-engines.js';

/** Each dialect's canonical `$schema` URI and the Ajv module whose default export validates it. */
export const SCHEMA_DIALECTS: Readonly<Record<SchemaDialect, { uri: string; ajvModule: string }>> = {
  'draft-07': { uri: 'http://json-schema.org/draft-07/schema#', ajvModule: 'ajv' },
  '2019-09': { uri: 'https://json-schema.org/draft/2019-09/schema', ajvModule: 'ajv/dist/2019.js' },
  '2020-12': { uri: 'https://json-schema.org/draft/2020-12/schema', ajvModule: 'ajv/dist/2020.js' },
};

/** `draft-07 (http://json-schema.org/draft-07/schema#), 2019-09 (…), 2020-12 (…)`, for messages. */
export const ACCEPTED_DIALECTS = (Object.keys(SCHEMA_DIALECTS) as SchemaDialect[])
  .map((dialect) => `${dialect} (${SCHEMA_DIALECTS[dialect].uri})`)
  .join(', ');

/** Either scheme, an optional empty fragment, nothing else: a draft-04 or a made-up URI is not one of ours. */
const URI_FORMS: ReadonlyArray<[RegExp, SchemaDialect]> = [
  [/^https?:\/\/json-schema\.org\/draft-07\/schema#?$/, 'draft-07'],
  [/^https?:\/\/json-schema\.org\/draft\/2019-09\/schema#?$/, '2019-09'],
  [/^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/, '2020-12'],
];

/**
 * The dialect `schema` declares in its `$schema`, `fallback` when it declares none, and
 * undefined for a `$schema` that is not one of {@link SCHEMA_DIALECTS} (or not a string).
 */
export function schemaDialect(schema: JsonSchema, fallback: SchemaDialect): SchemaDialect | undefined {
  const declared = schema.$schema;
  if (declared === undefined) return fallback;
  if (typeof declared !== 'string') return undefined;
  return URI_FORMS.find(([form]) => form.test(declared))?.[1];
}

/** The part of an Ajv instance mcpwire uses. */
export interface AjvInstance {
  compile(schema: object): AjvValidate;
  addFormat(name: string, format: RegExp | ((value: string) => boolean)): unknown;
}

/**
 * One compiler per dialect, each made with the same options on first use (`setup` adds formats to
 * an Ajv instance; the no-eval engine checks the same formats). `engine` is this runtime's
 * ({@link preferredEngine}) unless given. Compiling drops the root `$schema` (the dialect's own
 * meta-schema checks the schema, whichever URI form named it) and the root `$id` (two tools
 * sharing one must not collide in an instance that every schema passes through).
 */
export class DialectCompilers {
  private readonly instances = new Map<SchemaDialect, AjvInstance>();

  constructor(
    private readonly options: SchemaCompileOptions & Record<string, unknown>,
    private readonly setup: (ajv: AjvInstance) => void = () => undefined,
    private readonly engine?: SchemaEngine,
  ) {}

  /**
   * Compiles `schema` by `dialect`; throws what the engine throws for a schema that is not valid,
   * and `INVALID_STATE` where neither engine can run (no code generation, and no entry installed
   * the engine without it).
   */
  compile(schema: JsonSchema, dialect: SchemaDialect): AjvValidate {
    const { $schema: _dialect, $id: _id, ...rest } = schema;
    if ((this.engine ?? preferredEngine()) === 'ajv') return this.instance(dialect).compile(rest);
    const compile = noEvalCompiler();
    if (!compile)
      throw new McpError(
        'INVALID_STATE',
        'this runtime allows no code generation and the JSON Schema engine without it is not loaded: import mcpwire through its default (runtime-neutral) entry',
      );
    return compile(rest, dialect, this.options);
  }

  private instance(dialect: SchemaDialect): AjvInstance {
    let ajv = this.instances.get(dialect);
    if (!ajv) {
      const load = nodeRequire();
      if (!load) throw new McpError('INVALID_STATE', "Ajv needs Node's require, which this runtime does not have");
      const loaded = load(SCHEMA_DIALECTS[dialect].ajvModule) as { default?: unknown };
      const Ajv = (loaded.default ?? loaded) as new (options: object) => AjvInstance;
      ajv = new Ajv(this.options);
      this.setup(ajv);
      this.instances.set(dialect, ajv);
    }
    return ajv;
  }
}
