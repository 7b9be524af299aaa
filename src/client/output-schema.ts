/**
 * Validation of a tool result's `structuredContent` against the tool's `outputSchema`, by the dialect
 * its `$schema` names (`../protocol/schema-dialects.ts`; none: the revision's default).
 * Ajv is loaded on first use (it costs import time nobody should pay for unless a tool has an
 * output schema) and each schema is compiled once. Network `$ref`s are never fetched.
 */
import { McpError, type McpErrorDetails } from '../protocol/errors.js';
import { DialectCompilers, schemaDialect, type AjvValidate } from '../protocol/schema-dialects.js';
import type { JsonSchema } from '../protocol/types.js';
import { peerText } from '../protocol/value-sample.js';

/** One way `structuredContent` breaks the `outputSchema`: the validator's (Ajv's) error object. */
export interface OutputSchemaProblem {
  /** JSON Pointer to the offending value (`''` for the root). */
  instancePath: string;
  /** JSON Pointer into the schema, to the keyword that failed. */
  schemaPath?: string;
  /** The failing keyword: `type`, `required`, `pattern`, … */
  keyword?: string;
  /** The keyword's parameters (`{ missingProperty: 'id' }`). */
  params?: Record<string, unknown>;
  message?: string;
}

/** Problems {@link OutputSchemaError.toJSON} lists; the field holds them all. */
const PROBLEMS_IN_JSON = 20;

/**
 * `OUTPUT_SCHEMA_MISMATCH`: a tool's `structuredContent` does not match its `outputSchema`, or
 * cannot be checked (the schema does not compile, the value is nested too deeply, the tool
 * declares a schema and returned no `structuredContent`); then `problems` is empty.
 */
export class OutputSchemaError extends McpError {
  override readonly name: string = 'OutputSchemaError';
  declare readonly code: 'OUTPUT_SCHEMA_MISMATCH';
  /** The tool's name as the server knows it. */
  readonly tool: string;
  /** Every problem the validator found, in its order (the message quotes the first five). */
  readonly problems: readonly OutputSchemaProblem[];

  constructor(
    reason: string,
    details: Pick<McpErrorDetails, 'cause' | 'server' | 'method'> & {
      tool: string;
      problems?: readonly OutputSchemaProblem[];
    },
  ) {
    super('OUTPUT_SCHEMA_MISMATCH', reason, details);
    this.tool = details.tool;
    this.problems = details.problems ?? [];
  }

  /**
   * Adds `tool` and the first 20 problems, each path and message quoted within bounds (they hold the server's keys and
   * patterns).
   */
  override toJSON(): Record<string, unknown> {
    const out = super.toJSON();
    out.tool = this.tool;
    out.problems = this.problems.slice(0, PROBLEMS_IN_JSON).map((p) => ({
      instancePath: peerText(String(p.instancePath), PROBLEM_CHARS),
      ...(p.keyword !== undefined ? { keyword: peerText(String(p.keyword), PROBLEM_CHARS) } : {}),
      ...(p.message !== undefined ? { message: peerText(String(p.message), PROBLEM_CHARS) } : {}),
    }));
    if (this.problems.length > PROBLEMS_IN_JSON) out.problemCount = this.problems.length;
    return out;
  }
}

type Validate = AjvValidate<OutputSchemaProblem>;

/** Longest quoted problem (path and validator message) of a mismatch. */
const PROBLEM_CHARS = 200;
// What a server sends is checked as leniently as it can be: no meta-schema check, no formats.
const compilers = new DialectCompilers({
  strict: false,
  allErrors: true,
  validateFormats: false,
  validateSchema: false,
});
const compiled = new WeakMap<object, Validate | Error>();

/**
 * Throws an {@link OutputSchemaError} when `value` does not satisfy `schema`, listing the first
 * problems with their paths. A schema that does not compile is reported the same way, once per
 * call, and so is a value the validator cannot walk (nested deeper than the stack allows).
 */
export function checkStructuredContent(
  schema: JsonSchema,
  value: unknown,
  defaultDialect: '2020-12' | 'draft-07',
  server: string,
  tool: string,
): void {
  let validate = compiled.get(schema);
  if (validate === undefined) {
    try {
      // A dialect older than draft-07 (draft-04, draft-06) is checked as draft-07, its nearest kin.
      validate = compilers.compile(schema, schemaDialect(schema, defaultDialect) ?? 'draft-07') as Validate;
    } catch (error) {
      validate = error instanceof Error ? error : new Error(String(error));
    }
    compiled.set(schema, validate);
  }
  if (validate instanceof Error) {
    throw new OutputSchemaError(
      `tool "${tool}" has an outputSchema that does not compile: ${peerText(validate.message)}`,
      { server, method: 'tools/call', tool, cause: validate },
    );
  }
  let valid: boolean;
  try {
    valid = validate(value);
  } catch (error) {
    // Ajv's validators recurse: structuredContent nested some thousands of levels deep overflows
    // the stack. Such a result cannot be shown to match, so it is reported like a mismatch.
    throw new OutputSchemaError(
      `tool "${tool}" returned structuredContent that could not be checked against its outputSchema (${error instanceof RangeError ? 'nested too deeply' : 'the validator failed'}: ${error instanceof Error ? peerText(error.message) : 'not an Error'})`,
      {
        server,
        method: 'tools/call',
        tool,
        cause: error,
      },
    );
  }
  if (valid) return;
  // Paths are the server's keys and messages may quote its schema (a pattern): each is bounded.
  const problems = (validate.errors ?? [])
    .slice(0, 5)
    .map((e) => peerText(`${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}`, PROBLEM_CHARS));
  throw new OutputSchemaError(
    `tool "${tool}" returned structuredContent that does not match its outputSchema: ${problems.join('; ')}`,
    {
      server,
      method: 'tools/call',
      tool,
      problems: validate.errors ?? [],
    },
  );
}
