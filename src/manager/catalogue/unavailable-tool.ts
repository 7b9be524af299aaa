/**
 * Why a tool of a known server cannot be called now: a call to `mcp__crashy__echo` while
 * `crashy` is in error (restarting, or with its circuit open), connecting, refused by the
 * approval step or disconnected gets an `INVALID_STATE` error that says so, with the server's
 * last error, instead of "tool not found" (its tools left the catalogue when it went down).
 */
import { McpError } from '../../protocol/errors.js';
import { scrubSecrets } from '../../util/redact.js';
import { loginHint } from '../login-hint.js';
import type { ServerSlot } from '../servers/server-slot.js';
import { serverOfToolName } from './tool-name-owner.js';

/**
 * The slot a tool name belongs to when the catalogue does not hold it: `lastOwner` (the server
 * whose catalogue last held that exposed name), else the server whose canonical or
 * provider-safe `mcp__<server>__` prefix the name starts with (the longest such server name).
 */
export function slotOfName(
  name: string,
  slots: ReadonlyMap<string, ServerSlot>,
  lastOwner: string | undefined,
): ServerSlot | undefined {
  const owner = lastOwner === undefined ? undefined : slots.get(lastOwner);
  if (owner) return owner;
  const server = serverOfToolName(name, slots.keys());
  return server === undefined ? undefined : slots.get(server);
}

/**
 * The error for calling `name` on `slot`, which is not connected: what state it is in, what
 * happens next, and its last error (secrets scrubbed; the error itself is the `cause`).
 */
export function unavailableToolError(name: string, slot: ServerSlot): McpError {
  const server = slot.spec.name;
  const now = slot.snapshot();
  const last = now.lastError ? `; last error: ${scrubSecrets(now.lastError.message, slot.secrets)}` : '';
  let state: string;
  switch (now.status) {
    case 'error':
      state = now.circuitOpen
        ? `is in error: its circuit breaker opened after ${plural(now.restarts, 'restart')} (connect("${server}") tries again)`
        : now.restartPending
          ? `is in error and will be restarted (${plural(now.restarts, 'restart')} so far)`
          : 'is in error';
      break;
    case 'connecting':
      state = now.restarts > 0 ? `is restarting (restart ${now.restarts})` : 'is connecting';
      break;
    case 'needs-auth':
      state = `needs a login: ${loginHint(slot.spec)}`;
      break;
    case 'not-approved':
      state = 'was not approved to start';
      break;
    default:
      state = slot.spec.enabled === false ? 'is disabled in its config (enabled: false)' : 'is not connected';
  }
  return new McpError('INVALID_STATE', `cannot call ${name}: the server ${state}${last}`, {
    server,
    method: 'tools/call',
    ...(now.lastError ? { cause: now.lastError } : {}),
  });
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
