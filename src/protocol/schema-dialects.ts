/**
 * The JSON Schema dialects mcpwire validates, told apart by a schema's `$schema`, and one Ajv
 * instance per dialect (its class loaded on first use). MCP 2025-11-25 makes 2020-12 the dialect
 * of a schema without `$schema`; servers built on SDK v1 (zod-to-json-schema) declare draft-07.
 * Shared by the client (output checks) and the server kit (input and output checks): each side
 * brings its own loader (`require` is Node's, and this room imports no `node:*`).
 */
import type { JsonSchema } from './types.js';

/** A JSON Schema dialect mcpwire validates. */
export type SchemaDialect = 'draft-07' | '2019-09' | '2020-12';

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

/** A compiled schema as Ajv makes it: true when the value conforms, the problems in `errors`. */
export type AjvValidate<Problem = unknown> = ((value: unknown) => boolean) & { errors?: Problem[] | null };

/** The part of an Ajv instance mcpwire uses. */
export interface AjvInstance {
  compile(schema: object): AjvValidate;
  addFormat(name: string, format: RegExp | ((value: string) => boolean)): unknown;
}

/** Loads a module (Node's `require`): the Ajv class is its default export. */
export type ModuleLoader = (specifier: string) => unknown;

/**
 * One Ajv instance per dialect, each made with the same options on first use (`setup` adds
 * formats). Compiling drops the root `$schema` (the instance's own meta-schema checks the schema,
 * whichever URI form named it) and the root `$id` (two tools sharing one must not collide in an
 * instance that every schema passes through).
 */
export class DialectCompilers {
  private readonly instances = new Map<SchemaDialect, AjvInstance>();

  constructor(
    private readonly load: ModuleLoader,
    private readonly options: Record<string, unknown>,
    private readonly setup: (ajv: AjvInstance) => void = () => undefined,
  ) {}

  /** Compiles `schema` by `dialect`; throws what Ajv throws for a schema that is not valid. */
  compile(schema: JsonSchema, dialect: SchemaDialect): AjvValidate {
    const { $schema: _dialect, $id: _id, ...rest } = schema;
    return this.instance(dialect).compile(rest);
  }

  private instance(dialect: SchemaDialect): AjvInstance {
    let ajv = this.instances.get(dialect);
    if (!ajv) {
      const loaded = this.load(SCHEMA_DIALECTS[dialect].ajvModule) as { default?: unknown };
      const Ajv = (loaded.default ?? loaded) as new (options: object) => AjvInstance;
      ajv = new Ajv(this.options);
      this.setup(ajv);
      this.instances.set(dialect, ajv);
    }
    return ajv;
  }
}
