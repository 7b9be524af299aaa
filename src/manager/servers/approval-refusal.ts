/**
 * The approval step's answer for a server about to start, as the error its connect rejects
 * with: `was not approved to start (defined in FILE)` and the step's reason, or the failure of
 * the approval hook itself (a refusal too: a project server starts only when approved).
 */
import { errorMessage, McpError } from '../../protocol/errors.js';
import type { ManagedServer } from './managed-server.js';
import type { SlotHooks } from './slot-hooks.js';

/**
 * The `INVALID_STATE` refusal for `spec`, or undefined when it may start. Never rejects: a failed
 * hook's error, passed through `redact` (the server's secrets scrubbed), is the refusal's `cause`.
 */
export async function approvalRefusal(
  spec: ManagedServer,
  refusal: SlotHooks['refusal'],
  redact: (error: unknown) => unknown,
): Promise<McpError | undefined> {
  let reason: unknown;
  let why: string | undefined;
  try {
    why = await refusal(spec);
    if (why === undefined) return undefined;
  } catch (error) {
    reason = redact(error);
    why = `; project servers need approval: the approval hook failed: ${errorMessage(reason)}`;
  }
  const where = spec.provenance ? ` (defined in ${spec.provenance.file})` : '';
  return new McpError('INVALID_STATE', `was not approved to start${where}${why}`, {
    server: spec.name,
    method: 'connect',
    ...(reason === undefined ? {} : { cause: reason }),
  });
}
