/**
 * Routing of what a legacy session's client POSTs to a node that does not run what it concerns.
 * Every node holding a session's connection (the one that made it, and any that adopted it) runs
 * its own requests; the server's requests to the client carry the node that sent them in their
 * ids (`s.<nodeId>.<n>`), so an answer POSTed to another node is sent on the change bus to that
 * node, and a `notifications/cancelled` for a request not running here goes to every node holding
 * the session. What names no live node or request is dropped there (the engine ignores a late
 * answer, a cancel of an unknown request).
 */
import type { JsonRpcConnection } from '../../protocol/connection.js';
import { classifyMessage, type JsonRpcId } from '../../protocol/jsonrpc.js';
import type { ServerRole } from '../../protocol/methods.js';
import type { ChangeBus } from '../state/change-bus.js';
import type { HttpServerTransport } from '../../transport/http-server/post-pipe.js';

/** What routing needs of one session held here. */
export interface RoutedSession {
  readonly id: string;
  readonly transport: HttpServerTransport<unknown>;
  readonly connection: JsonRpcConnection<ServerRole>;
}

/** The prefix of the ids of the server's requests to a client on node `nodeId` (ids never contain `.` otherwise). */
export function serverRequestPrefix(nodeId: string): string {
  return `s.${nodeId}.`;
}

/** The node a server request id names (`s.<nodeId>.<n>`), or undefined when it is not one. */
export function nodeOfServerRequest(id: JsonRpcId | null | undefined): string | undefined {
  if (typeof id !== 'string') return undefined;
  const match = /^s\.([A-Za-z0-9_-]{1,64})\.\d{1,15}$/.exec(id);
  return match ? match[1] : undefined;
}

/**
 * Hands the messages of a POST without requests (answers to the server's requests,
 * notifications) to `session` here, and sends on `bus` those that concern a request running on
 * another node: an answer whose id names another node goes to that node; a cancel of a request
 * not running here goes to every node holding the session (and is also delivered here, where it
 * is ignored). Resolves once every message sent on the bus was; rejects when the bus does.
 */
export async function deliverRouted(
  session: RoutedSession,
  items: readonly unknown[],
  nodeId: string,
  bus: ChangeBus,
): Promise<void> {
  const local: unknown[] = [];
  const away: Promise<void>[] = [];
  const send = (item: unknown, node: string | undefined): void => {
    const message = JSON.stringify(item);
    away.push(
      bus.publish(
        node === undefined
          ? { type: 'session_message', sessionId: session.id, from: nodeId, message }
          : { type: 'session_message', sessionId: session.id, from: nodeId, node, message },
      ),
    );
  };
  for (const item of items) {
    const classified = classifyMessage(item);
    if (classified.kind === 'response' || classified.kind === 'error') {
      const owner = nodeOfServerRequest((item as { id?: JsonRpcId | null }).id);
      if (owner !== undefined && owner !== nodeId) {
        send(item, owner);
        continue;
      }
    } else if (classified.kind === 'notification' && classified.message.method === 'notifications/cancelled') {
      const params = classified.message.params;
      const requestId = params && !Array.isArray(params) ? params.requestId : undefined;
      if ((typeof requestId === 'string' || typeof requestId === 'number') && !session.transport.has(requestId))
        send(item, undefined);
    }
    local.push(item);
  }
  if (local.length > 0) session.transport.deliver(local, undefined);
  await Promise.all(away);
}

/**
 * A `session_message` heard on the bus, for `session` held here: delivered when it is for this
 * node (named, or every node but its sender). Never throws (a malformed message is dropped).
 */
export function receiveRouted(
  session: RoutedSession,
  change: { readonly from: string; readonly node?: string; readonly message: string },
  nodeId: string,
): void {
  if (change.from === nodeId || (change.node !== undefined && change.node !== nodeId)) return;
  let message: unknown;
  try {
    message = JSON.parse(change.message);
  } catch {
    return;
  }
  session.transport.deliver([message], undefined);
}
