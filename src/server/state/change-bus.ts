/**
 * The change bus seam: how a change on one node (a tool registered, a resource updated, a task's
 * stored row written) reaches every node's listens, legacy GET streams and task owners. A message
 * only wakes a node: what it names is read again from the store that holds it, so a lost message
 * delays and never loses, and a subscriber told to {@link ChangeSubscriber.resync} re-reads
 * everything it depends on (a shared bus calls it after it reconnects).
 */
import type { Disposer } from '../../protocol/transport.js';

/** A list whose `list_changed` notice goes to clients. */
export type ChangeList = 'tools' | 'resources' | 'prompts';

/** One change, as it crosses the bus (JSON-serialisable, small: a PostgreSQL NOTIFY carries ≤ 8000 bytes). */
export type Change =
  | { readonly type: 'list_changed'; readonly list: ChangeList }
  | { readonly type: 'resource_updated'; readonly uri: string }
  /** A task's stored row changed (input answered, cancel requested): its owner re-reads it. */
  | { readonly type: 'task'; readonly taskId: string }
  /** A legacy session was ended (DELETE): the node holding its connection ends it. */
  | { readonly type: 'session_ended'; readonly sessionId: string }
  /** A legacy session's stored facts changed (log level, subscriptions): nodes holding it re-read its row. */
  | { readonly type: 'session'; readonly sessionId: string }
  /**
   * A message a client POSTed to node `from` for legacy session `sessionId` that concerns a
   * request running elsewhere: an answer to a server request of node `node` (its id names the
   * node), or a `notifications/cancelled` for a request no node was named for (`node` undefined:
   * every node holding the session but `from` delivers it). `message` is the JSON-RPC message's
   * JSON text. Unlike the other changes it carries what it delivers (a lost one is as a lost POST:
   * the request waits for its time limit); a bus with a payload limit must carry a large one.
   */
  | {
      readonly type: 'session_message';
      readonly sessionId: string;
      readonly from: string;
      readonly node?: string;
      readonly message: string;
    }
  /**
   * A message of the server tied to no request (a withdrawn elicitation's `notifications/cancelled`,
   * what a request the client cancelled still sends) that node `from` wrote to the GET streams of
   * legacy session `sessionId` it holds: every other node holding the session writes it to the
   * GET streams held there, so it reaches the client wherever its stream is. `message` is the
   * JSON-RPC message's JSON text; like `session_message` it carries what it delivers.
   */
  | { readonly type: 'session_notice'; readonly sessionId: string; readonly from: string; readonly message: string };

/** What a subscriber is told. Neither method may throw into the bus (a throw is caught and dropped). */
export interface ChangeSubscriber {
  /** One change, published by this node or another. */
  change(change: Change): void;
  /** Messages may have been lost (the bus reconnected): re-read the store, treat every list as changed. */
  resync(): void;
}

/** Publishes changes to every node and delivers theirs. */
export interface ChangeBus {
  /** True when other processes hear what is published here (requires a shared `stateSecret`). */
  readonly shared: boolean;
  /**
   * Sends `change` to every subscriber, on every node, this one included (a node never delivers
   * its own changes around the bus, so each is heard once). Resolves once sent; rejects when the
   * bus is down (the change is then lost: subscribers resync when it is back).
   */
  publish(change: Change): Promise<void>;
  /** Resolves, once every later publish will reach `subscriber`, with the disposer that stops it. */
  subscribe(subscriber: ChangeSubscriber): Promise<Disposer>;
  /** Drops every subscriber and releases the bus's connections. Idempotent. */
  close(): Promise<void>;
}
