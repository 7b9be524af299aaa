/**
 * The legacy session store seam (`Mcp-Session-Id`, revisions up to 2025-11-25): what `initialize`
 * settled and what later requests changed, so that every node can tell a live session from an
 * unknown, closed or foreign one. The JSON-RPC connection behind a session (its requests in
 * flight, its GET streams) stays on the node that owns it; this store keeps the facts.
 *
 * Rules every implementation keeps (`test/support/state-contract.ts` checks them):
 * - `create` resolves only once `get` on any node finds the session;
 * - a session not seen (`create`, `touch`) for `idleMs` is gone, and so is an ended one;
 * - `get` of another principal's session finds nothing.
 */
import type { ClientCapabilities, Implementation, LoggingLevel } from '../../protocol/types.js';

/** A legacy session as stored. Times are epoch milliseconds. */
export interface StoredSession {
  readonly sessionId: string;
  /** Who made it (see `principal.ts`); another principal does not find it. */
  readonly principal: string | undefined;
  /** The node id of the process holding its connection. */
  readonly owner: string;
  /** The revision `initialize` settled on; undefined until it completed. */
  revision: string | undefined;
  clientCapabilities: ClientCapabilities;
  clientInfo: Implementation | undefined;
  /** `logging/setLevel` (default `info`). */
  logLevel: LoggingLevel;
  /** URIs of `resources/subscribe`. */
  subscriptions: string[];
  readonly createdAt: number;
  lastSeen: number;
}

/** The facts of a session that requests change ({@link SessionStore.update}). */
export type SessionFacts = Pick<
  StoredSession,
  'revision' | 'clientCapabilities' | 'clientInfo' | 'logLevel' | 'subscriptions'
>;

/** Where legacy sessions live. Every method takes the caller's `now` (epoch ms). */
export interface SessionStore {
  /** True when other processes see what is stored here (requires a shared `stateSecret`). */
  readonly shared: boolean;
  /** Stores a new session (its `lastSeen` is `now`); resolves once stored. */
  create(session: Omit<StoredSession, 'createdAt' | 'lastSeen'>, now: number): Promise<void>;
  /** The session (a copy), or undefined when unknown, idle too long, ended or another principal's. */
  get(sessionId: string, principal: string | undefined, now: number): Promise<StoredSession | undefined>;
  /** Replaces the session's facts and marks it seen; false when it is gone. */
  update(sessionId: string, facts: SessionFacts, now: number): Promise<boolean>;
  /** Marks the session seen at `now` (its idle time starts again). */
  touch(sessionId: string, now: number): Promise<void>;
  /** Ends the session: `get` finds it no more on any node. Resolves with whether it was live. */
  end(sessionId: string, now: number): Promise<boolean>;
  /** Releases what the store holds open (connections). Idempotent. */
  close(): Promise<void>;
}
