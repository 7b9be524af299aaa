/**
 * The identity of one server process among the nodes that share state: it names the owner of a
 * task, a legacy session's connection and an SSE stream, and it is part of every stream id, so
 * ids made on two nodes never collide. Letters, digits, `_` and `-` only (ids join parts with `.`).
 */
import { McpError } from '../../protocol/errors.js';
import { base64urlFromBytes } from '../../util/base64url.js';

const NODE_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** A new random node id (16 base64url characters, 96 bits). */
export function newNodeId(): string {
  return base64urlFromBytes(crypto.getRandomValues(new Uint8Array(12)));
}

/** `id` when it is a valid node id; throws `INVALID_ARGUMENT` naming `option` otherwise. */
export function checkNodeId(id: unknown, option: string): string {
  if (typeof id !== 'string' || !NODE_ID.test(id))
    throw new McpError('INVALID_ARGUMENT', `${option} must be 1 to 64 letters, digits, "_" or "-"`);
  return id;
}
