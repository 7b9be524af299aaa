/**
 * JSON Schema checks of the server kit: tool arguments before a handler runs and structured
 * results before they are sent. Ajv with the 2020-12 dialect (the MCP default since 2025-11-25),
 * one shared instance, each schema compiled once, when its tool is registered.
 */
import Ajv2020Module from 'ajv/dist/2020.js';
import { McpError } from '../protocol/errors.js';
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
interface AjvValidate {
  (value: unknown): boolean;
  errors?: AjvError[] | null;
}
interface AjvInstance {
  compile(schema: object): AjvValidate;
  addFormat(name: string, format: RegExp | ((value: string) => boolean)): unknown;
}

const Ajv2020 =
  (Ajv2020Module as unknown as { default?: new (options: object) => AjvInstance }).default ??
  (Ajv2020Module as unknown as new (options: object) => AjvInstance);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

let shared: AjvInstance | undefined;

function ajv(): AjvInstance {
  if (!shared) {
    // strict: false — tool schemas carry keywords of their own (`x-mcp-header`, vendor notes).
    shared = new Ajv2020({ strict: false, allErrors: true, logger: false });
    shared.addFormat('uuid', UUID);
    shared.addFormat('date-time', (value) => DATE_TIME.test(value) && !Number.isNaN(Date.parse(value)));
  }
  return shared;
}

/** At most this many problems are reported for one value. */
const MAX_PROBLEMS = 20;

/**
 * Compiles `schema` once. Throws `INVALID_ARGUMENT` naming `what` (e.g. `tool "add_task"
 * inputSchema`) when the schema itself is not valid JSON Schema.
 */
export function compileSchema(schema: JsonSchema, what: string): SchemaCheck {
  let validate: AjvValidate;
  try {
    validate = ajv().compile(schema);
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
