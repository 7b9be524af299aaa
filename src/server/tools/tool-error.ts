/**
 * `ToolError`: what a tool handler throws to fail on purpose, with a code of its own
 * (`TASK_NOT_FOUND`) and a message written for the model that called the tool. The kit turns it
 * into an `isError: true` result carrying both (`errorResult` in `tool-call.ts`); nothing else
 * of it (no stack, no cause) leaves the server.
 */
import { McpError } from '../../protocol/errors.js';

/** Details of a {@link ToolError}. */
export interface ToolErrorDetails {
  /** The underlying error: logged on the server, never sent to the client. */
  cause?: unknown;
}

/**
 * A deliberate tool failure. `toolCode` is the application's code (sent to the client as
 * `error.code`); `reason`/`message` is the AI-safe text sent as `error.message`, so it must hold
 * nothing secret. Its `code` as an {@link McpError} is always `TOOL_ERROR`.
 */
export class ToolError extends McpError {
  override readonly name = 'ToolError';
  declare readonly code: 'TOOL_ERROR';
  /** The application's code, e.g. `TASK_NOT_FOUND`. */
  readonly toolCode: string;

  constructor(toolCode: string, message: string, details: ToolErrorDetails = {}) {
    super('TOOL_ERROR', message, details.cause === undefined ? {} : { cause: details.cause });
    this.toolCode = toolCode;
  }
}
