/**
 * One `tools/call` of a registered tool: arguments checked against the `inputSchema` before the
 * handler runs, the handler run, and every way it can end turned into a `CallToolResult`:
 * - success: `structuredContent` checked against the `outputSchema` before it is sent;
 * - invalid arguments (`VALIDATION_ERROR`, with the failing paths), a thrown `ToolError` (its
 *   own code), an input request the client cannot take left uncaught (`INPUT_UNSUPPORTED`) and
 *   an unexpected exception (`INTERNAL_ERROR`, logged with its stack on the server, never sent)
 *   all become `isError: true` results carrying the error envelope
 *   `{ success: false, error: { code, message, paths? } }` as text and as `structuredContent`;
 * - a 2026 input request the round cannot answer (`InputRequiredSignal`) passes through: the
 *   method answers `input_required` for it.
 */
import { McpError } from '../../protocol/errors.js';
import type { CallToolResult, ContentBlock } from '../../protocol/types.js';
import { describeProblems, type SchemaProblem } from '../schema-validator.js';
import type { ServerLogger, ToolCallObserver, ToolCallRecord, ToolContext, ToolResult } from '../server-types.js';
import { ToolError } from './tool-error.js';
import { InputRequiredSignal } from '../input/input-round.js';
import type { RegisteredTool } from './tool-set.js';

/** The `error` member of the kit's error envelope. */
export interface ToolErrorBody {
  code: string;
  /** AI-safe: written for the model, never a stack or an internal detail. */
  message: string;
  /** Validation only: JSON Pointers of the failing arguments. */
  paths?: string[];
}

/** The codes the kit itself produces. */
export const KIT_ERROR_CODES = {
  validation: 'VALIDATION_ERROR',
  internal: 'INTERNAL_ERROR',
  cancelled: 'CANCELLED',
  /** The handler asked for input the client did not declare it can give, and did not catch the refusal. */
  inputUnsupported: 'INPUT_UNSUPPORTED',
} as const;

/**
 * Runs the tool and reports the call to `onToolCall` (when given). Every failure of the handler
 * is an `isError` result; rejects only with `InputRequiredSignal` (reported as a call that did
 * not fail) or, under `throwUnexpected`, the handler's unexpected throw.
 */
export async function callTool(
  tool: RegisteredTool,
  args: unknown,
  context: ToolContext,
  logger: ServerLogger,
  onToolCall?: ToolCallObserver,
  options: CallToolOptions = {},
): Promise<CallToolResult> {
  const started = performance.now();
  let result: CallToolResult;
  try {
    result = await run(tool, args, context, logger, options);
  } catch (error) {
    if (error instanceof InputRequiredSignal) report(tool, args, { content: [] }, started, logger, onToolCall);
    throw error;
  }
  report(tool, args, result, started, logger, onToolCall);
  return result;
}

/** Tells `onToolCall` of one finished call; its throw is logged. */
function report(
  tool: RegisteredTool,
  args: unknown,
  result: CallToolResult,
  started: number,
  logger: ServerLogger,
  onToolCall: ToolCallObserver | undefined,
): void {
  if (onToolCall) {
    const envelope = result.isError ? errorOf(result) : undefined;
    const record: ToolCallRecord = {
      tool: tool.definition.name,
      arguments: args,
      durationMs: performance.now() - started,
      isError: result.isError === true,
    };
    if (envelope) record.errorCode = envelope.code;
    try {
      onToolCall(record);
    } catch (error) {
      logger({ level: 'warning', msg: 'onToolCall threw', tool: tool.definition.name, ...describeThrown(error) });
    }
  }
}

/** The kit's error body of an error result (from its text: `structuredContent` may be withheld). */
function errorOf(result: CallToolResult): ToolErrorBody | undefined {
  const first = result.content[0];
  if (first?.type !== 'text') return undefined;
  try {
    const parsed = JSON.parse(first.text) as { error?: ToolErrorBody };
    return typeof parsed?.error?.code === 'string' ? parsed.error : undefined;
  } catch {
    return undefined;
  }
}

/** Options of {@link callTool}. */
export interface CallToolOptions {
  /**
   * Asked when the handler throws something other than a `ToolError`: true rejects with it (a
   * task records a failure, not a tool error) instead of making an `INTERNAL_ERROR` result.
   */
  throwUnexpected?: () => boolean;
}

async function run(
  tool: RegisteredTool,
  args: unknown,
  context: ToolContext,
  logger: ServerLogger,
  options: CallToolOptions,
): Promise<CallToolResult> {
  const name = tool.definition.name;
  const problems = tool.checkInput(args ?? {});
  if (problems.length > 0) return validationFailure(tool, problems);

  let output: ToolResult;
  try {
    output = await tool.definition.handler((args ?? {}) as Record<string, unknown>, context);
  } catch (error) {
    // A 2026 input request this round cannot answer: the method answers `input_required`.
    if (error instanceof InputRequiredSignal) throw error;
    if (error instanceof ToolError) {
      if (error.cause !== undefined)
        logger({
          level: 'warning',
          msg: 'tool failed',
          tool: name,
          code: error.toolCode,
          ...describeThrown(error.cause),
        });
      return errorResult(tool, { code: error.toolCode, message: error.reason });
    }
    if (context.signal.aborted)
      return errorResult(tool, { code: KIT_ERROR_CODES.cancelled, message: 'The request was cancelled.' });
    // The kit's own refusal, before anything was sent: its text names the missing capability only.
    if (error instanceof McpError && error.code === 'INPUT_UNSUPPORTED')
      return errorResult(tool, { code: KIT_ERROR_CODES.inputUnsupported, message: error.message });
    if (options.throwUnexpected?.()) throw error;
    logger({ level: 'error', msg: 'tool handler threw', tool: name, ...describeThrown(error) });
    return errorResult(tool, {
      code: KIT_ERROR_CODES.internal,
      message: `The tool "${name}" failed unexpectedly. The error was logged on the server.`,
    });
  }
  return finish(tool, output, logger);
}

function validationFailure(tool: RegisteredTool, problems: SchemaProblem[]): CallToolResult {
  return errorResult(tool, {
    code: KIT_ERROR_CODES.validation,
    message: `Invalid arguments for tool "${tool.definition.name}": ${describeProblems(problems)}`,
    paths: [...new Set(problems.map((p) => p.path))],
  });
}

/** A successful handler's output as a result: content defaulted, structured content checked. */
function finish(tool: RegisteredTool, output: ToolResult, logger: ServerLogger): CallToolResult {
  const name = tool.definition.name;
  if (!output || typeof output !== 'object') {
    logger({ level: 'error', msg: 'tool handler returned no result object', tool: name });
    return errorResult(tool, {
      code: KIT_ERROR_CODES.internal,
      message: `The tool "${name}" failed unexpectedly. The error was logged on the server.`,
    });
  }
  const hasStructured = output.structuredContent !== undefined;
  if (tool.checkOutput && !output.isError) {
    const problems = hasStructured
      ? tool.checkOutput(output.structuredContent)
      : [{ path: '', message: 'is missing (the tool has an outputSchema)' }];
    if (problems.length > 0) {
      logger({
        level: 'error',
        msg: 'tool result does not match its outputSchema',
        tool: name,
        problems: describeProblems(problems),
      });
      return errorResult(tool, {
        code: KIT_ERROR_CODES.internal,
        message: `The tool "${name}" produced an invalid result. The error was logged on the server.`,
      });
    }
  }
  const result: CallToolResult = {
    content: output.content ?? (hasStructured ? [textBlock(output.structuredContent)] : []),
  };
  if (hasStructured) result.structuredContent = output.structuredContent;
  if (output.isError) result.isError = true;
  if (output._meta !== undefined) result._meta = output._meta;
  return result;
}

/**
 * An `isError` result with the envelope in text, and in `structuredContent` unless the tool's
 * `outputSchema` rejects it (SDK clients check error results against it too).
 */
export function errorResult(tool: RegisteredTool | undefined, error: ToolErrorBody): CallToolResult {
  const envelope = { success: false, error };
  const result: CallToolResult = { content: [textBlock(envelope)], isError: true };
  if (!tool?.checkOutput || tool.checkOutput(envelope).length === 0) result.structuredContent = envelope;
  return result;
}

function textBlock(value: unknown): ContentBlock {
  let text: string;
  try {
    text = JSON.stringify(value) ?? 'null';
  } catch {
    text = '(a value that is not JSON)';
  }
  return { type: 'text', text };
}

function describeThrown(error: unknown): { error: string; stack?: string } {
  if (error instanceof Error)
    return error.stack ? { error: error.message, stack: error.stack } : { error: error.message };
  try {
    return { error: String(error) };
  } catch {
    return { error: 'a value that cannot be printed' };
  }
}
