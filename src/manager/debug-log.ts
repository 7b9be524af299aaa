/**
 * The manager's debug lines (connection attempts, tool calls): to the host's logger when it gave
 * one, else through Node's `util.debuglog('mcpwire')` (printed to stderr only when
 * `NODE_DEBUG=mcpwire` is set), else nowhere, at no cost: callers test for `undefined` before
 * building a line. Lines never hold secrets: arguments go through `redactValue` first.
 */
import { debuglog } from 'node:util';
import { errorMessage, McpError } from '../protocol/errors.js';
import type { CallToolResult } from '../protocol/types.js';
import { scrubSecrets } from '../util/redact.js';
import { redactValue } from './config/redact.js';

/** Receives one debug line (no trailing newline). A throw is ignored. */
export type DebugLogger = (message: string) => void;

/** Longest argument text in a line; the rest is cut with a marker. */
const MAX_ARGUMENT_CHARS = 1_000;

/** The logger to use: `custom`, else `NODE_DEBUG=mcpwire`'s, else undefined (logging off). */
export function debugLogger(custom?: DebugLogger): DebugLogger | undefined {
  if (custom) {
    return (message) => {
      try {
        custom(message);
      } catch {
        // A broken logger must not break a connect or a call.
      }
    };
  }
  const node = debuglog('mcpwire');
  return node.enabled ? (message) => node('%s', message) : undefined;
}

/** Tool arguments as a log line shows them: redacted JSON, cut at 1000 characters. */
export function argumentsForLog(args: unknown, secrets: readonly string[] = []): string {
  if (args === undefined) return '{}';
  let text: string;
  try {
    text = JSON.stringify(redactValue(args, secrets)) ?? String(args);
  } catch {
    text = '[unserialisable arguments]';
  }
  return text.length > MAX_ARGUMENT_CHARS ? `${text.slice(0, MAX_ARGUMENT_CHARS)}… (${text.length} chars)` : text;
}

/** What a tool-call log line names. */
export interface LoggedCall {
  /** The exposed name. */
  name: string;
  server: string;
  tool: string;
  args: unknown;
  /** The server's secrets, scrubbed from the arguments and from an error message. */
  secrets: readonly string[];
}

/** `call`, with a line before it (arguments redacted) and one with its outcome and duration. */
export async function logCall(
  log: DebugLogger,
  call: Promise<CallToolResult>,
  what: LoggedCall,
): Promise<CallToolResult> {
  const began = Date.now();
  log(
    `call ${what.name} (server "${what.server}", tool "${what.tool}") arguments ${argumentsForLog(what.args, what.secrets)}`,
  );
  try {
    const result = await call;
    log(`call ${what.name} ${result.isError ? 'returned isError' : 'succeeded'} in ${Date.now() - began} ms`);
    return result;
  } catch (error) {
    const message = errorMessage(error);
    log(
      `call ${what.name} failed in ${Date.now() - began} ms: ${error instanceof McpError ? `${error.code} ` : ''}${scrubSecrets(message, what.secrets)}`,
    );
    throw error;
  }
}
