/**
 * JSON Schema checks of the server kit: tool arguments before a handler runs and structured
 * results before they are sent. Each schema is compiled once, when its tool is registered, by
 * the dialect its `$schema` names: draft-07, 2019-09 or 2020-12 (the MCP default since 2025-11-25,
 * for a schema without `$schema`). Ajv is loaded on first use, one instance per dialect; where
 * code generation is forbidden (Workers, strict CSP) the engine without it checks the same way
 * (`protocol/schema-engines.ts`).
 */
import { McpError } from '../protocol/errors.js';
import { ACCEPTED_DIALECTS, DialectCompilers, schemaDialect, type AjvValidate } from '../protocol/schema-dialects.js';
import type { SchemaEngine } from '../protocol/schema-engines.js';
import { addSchemaFormats } from '../protocol/schema-formats.js';
import type { JsonSchema } from '../protocol/types.js';

/** One way a value breaks a schema: where (a JSON Pointer into the value) and what. */
export interface SchemaProblem {
  /** JSON Pointer of the failing value (`/title`; `''` for the value itself). */
  path: string;
  /** What is wrong, without the value itself (values may be secrets or huge). */
  message: string;
}

/** A compiled schema: the problems of a value, an empty list when it conforms. */
export type SchemaCheck = (value: unknown) => SchemaProblem[];

interface AjvError {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

// strict: false — tool schemas carry keywords of their own (`x-mcp-header`, vendor notes).
const OPTIONS = { strict: false, allErrors: true, logger: false };
// The common formats (`email`, `uri`, `date`, …: SCHEMA_FORMATS) are checked; any other passes.
const compilers = new DialectCompilers(OPTIONS, addSchemaFormats);
const forced = new Map<SchemaEngine, DialectCompilers>();

/** At most this many problems are reported for one value. */
const MAX_PROBLEMS = 20;

/**
 * Compiles `schema` once, by the dialect its `$schema` declares (2020-12 when none). Throws
 * `INVALID_ARGUMENT` naming `what` (e.g. `tool "add_task" inputSchema`) for a `$schema` that is
 * not draft-07, 2019-09 or 2020-12 (the message names it and those), and for a schema that is not
 * valid in its dialect. `engine` forces one engine (tests compare them); this runtime's by default.
 */
export function compileSchema(schema: JsonSchema, what: string, engine?: SchemaEngine): SchemaCheck {
  const dialect = schemaDialect(schema, '2020-12');
  if (dialect === undefined)
    throw new McpError(
      'INVALID_ARGUMENT',
      `${what} declares "$schema": ${declaredText(schema.$schema)}, a JSON Schema dialect the kit does not validate; it accepts ${ACCEPTED_DIALECTS}, and 2020-12 when "$schema" is absent`,
    );
  let validate: AjvValidate<AjvError>;
  try {
    validate = compilersOf(engine).compile(schema, dialect) as AjvValidate<AjvError>;
  } catch (error) {
    throw new McpError(
      'INVALID_ARGUMENT',
      `${what} is not a valid JSON Schema: ${error instanceof Error ? error.message : 'compile failed'}`,
      { cause: error },
    );
  }
  return (value) => {
    try {
      if (validate(value)) return [];
    } catch (error) {
      // Ajv's validators recurse: a value nested thousands of levels deep overflows the stack.
      return [
        { path: '', message: error instanceof RangeError ? 'is nested too deeply to check' : 'could not be checked' },
      ];
    }
    return (validate.errors ?? []).slice(0, MAX_PROBLEMS).map(problemOf);
  };
}

function compilersOf(engine: SchemaEngine | undefined): DialectCompilers {
  if (engine === undefined) return compilers;
  let chosen = forced.get(engine);
  if (!chosen) forced.set(engine, (chosen = new DialectCompilers(OPTIONS, addSchemaFormats, engine)));
  return chosen;
}

function declaredText(declared: unknown): string {
  return typeof declared === 'string' ? JSON.stringify(declared.slice(0, 200)) : `a ${typeof declared}`;
}

function problemOf(error: AjvError): SchemaProblem {
  const missing = error.keyword === 'required' ? error.params.missingProperty : undefined;
  if (typeof missing === 'string')
    return { path: `${error.instancePath}/${escapePointer(missing)}`, message: 'is required' };
  const extra = error.keyword === 'additionalProperties' ? error.params.additionalProperty : undefined;
  if (typeof extra === 'string')
    return { path: `${error.instancePath}/${escapePointer(extra)}`, message: 'is not an accepted property' };
  return { path: error.instancePath, message: error.message ?? `fails "${error.keyword}"` };
}

function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** The problems as one line: `/title must NOT have more than 200 characters; /user_id is required`. */
export function describeProblems(problems: readonly SchemaProblem[]): string {
  return problems.map((p) => `${p.path === '' ? '(the value)' : p.path} ${p.message}`).join('; ');
}
