/**
 * Which revisions a server serves JSON-RPC batches under: the ones the revision table's `batching`
 * gate names (only 2025-03-26 added them; 2025-06-18 removed them, 2026-07-28 has none). A batch
 * under any other agreed revision is refused as a whole (-32600, Streamable HTTP: 400) and none of
 * it runs.
 */
import { hasFeature } from '../protocol/revisions.js';

/**
 * The message of the -32600 error a batch gets under `revision` (one mcpwire speaks), or
 * undefined when the batch is served: a batching revision, or no revision agreed yet (a
 * connection before `initialize`: each message is judged alone).
 */
export function batchRefusal(revision: string | undefined): string | undefined {
  if (revision === undefined || hasFeature(revision, 'batching')) return undefined;
  return `Invalid Request: ${revision} has no JSON-RPC batches`;
}
