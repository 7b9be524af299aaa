/**
 * Which revisions a server serves JSON-RPC batches under. JSON-RPC 2.0 has batches, 2025-03-26
 * made accepting them a MUST, 2025-06-18 removed them and 2026-07-28 has none. So a batch under a
 * revision from the removal on is refused as a whole (-32600, Streamable HTTP: 400) and none of it
 * runs; 2025-03-26 serves it, and so does 2024-11-05 (plain JSON-RPC 2.0, which never forbade it).
 */
import { hasFeature } from '../protocol/revisions.js';

/** The first revision without batching (its changelog: "Remove support for JSON-RPC batching"). */
const BATCHING_REMOVED = '2025-06-18';

/**
 * The message of the -32600 error a batch gets under `revision` (one mcpwire speaks), or
 * undefined when the batch is served: batching revisions, the ones before batching, and no
 * revision agreed yet (a connection before `initialize`: each message is judged alone).
 */
export function batchRefusal(revision: string | undefined): string | undefined {
  if (revision === undefined || revision < BATCHING_REMOVED || hasFeature(revision, 'batching')) return undefined;
  return `Invalid Request: ${revision} has no JSON-RPC batches`;
}
