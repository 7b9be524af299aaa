/**
 * How a message event ended, in the conventions' terms ({@link OperationOutcome}): read from what
 * the engine put on the event (the result or the error of a request we sent; the answer of one we
 * handled, or why none was sent).
 */
import { McpError } from '../protocol/errors.js';
import type { McpHandleRequestEvent, McpSendRequestEvent } from '../observe/channel-events.js';
import type { OperationOutcome } from '../util/mcp-semconv.js';

/** The outcome of a request or notification we sent. */
export function sentOutcome(event: {
  error?: unknown;
  result?: Record<string, unknown>;
  method: string;
}): OperationOutcome {
  if (event.error !== undefined) return errorOutcome(event.error);
  return { kind: 'result', isError: isToolError(event.method, (event as McpSendRequestEvent).result) };
}

/** The outcome of a request or notification of the peer we handled. */
export function handledOutcome(
  event: Partial<Pick<McpHandleRequestEvent, 'answer' | 'error'>> & { method: string },
): OperationOutcome {
  const answer = event.answer as
    { result?: Record<string, unknown>; error?: { code?: unknown; message?: unknown } } | undefined;
  if (answer?.error) {
    const { code, message } = answer.error;
    return {
      kind: 'rpc-error',
      code: typeof code === 'number' ? code : -32603,
      ...(typeof message === 'string' ? { message } : {}),
    };
  }
  if (answer) return { kind: 'result', isError: isToolError(event.method, answer.result) };
  if (event.error !== undefined) return errorOutcome(event.error);
  return { kind: 'result' };
}

function isToolError(method: string, result: Record<string, unknown> | undefined): boolean {
  return method === 'tools/call' && result?.isError === true;
}

function errorOutcome(error: unknown): OperationOutcome {
  if (error instanceof McpError) {
    const message = error.reason;
    if (error.code === 'TIMEOUT') return { kind: 'timeout', message };
    if (error.code === 'CANCELLED') return { kind: 'cancelled', message };
    // The peer's own message is the status description (bounded: it is the peer's text).
    if (error.rpcCode !== undefined)
      return { kind: 'rpc-error', code: error.rpcCode, message: (error.rpcMessage ?? message).slice(0, 500) };
    return { kind: 'failed', errorType: error.code.toLowerCase(), message };
  }
  const name = error instanceof Error ? error.name : undefined;
  return {
    kind: 'failed',
    errorType: name && name !== 'Error' ? name : '_OTHER',
    ...(error instanceof Error ? { message: error.message } : {}),
  };
}
