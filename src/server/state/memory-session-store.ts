/**
 * The in-memory {@link SessionStore}: one process's sessions, each gone after `idleMs` unseen or
 * once ended (idle ones are dropped whenever the store is used: no timer).
 */
import type { SessionFacts, SessionStore, StoredSession } from './session-store.js';

/** Options of {@link MemorySessionStore}. */
export interface MemorySessionStoreOptions {
  /** How long a session may go unseen (default 30 minutes; `Infinity`: until it is ended). */
  idleMs?: number;
}

export class MemorySessionStore implements SessionStore {
  readonly shared: boolean = false;
  private readonly sessions = new Map<string, StoredSession>();
  private readonly idleMs: number;
  private sweptAt = 0;

  constructor(options: MemorySessionStoreOptions = {}) {
    this.idleMs = options.idleMs ?? 30 * 60_000;
  }

  create(session: Omit<StoredSession, 'createdAt' | 'lastSeen'>, now: number): Promise<void> {
    this.sweep(now);
    this.sessions.set(session.sessionId, { ...structuredClone(session), createdAt: now, lastSeen: now });
    return Promise.resolve();
  }

  get(sessionId: string, principal: string | undefined, now: number): Promise<StoredSession | undefined> {
    const session = this.live(sessionId, now);
    return Promise.resolve(session && session.principal === principal ? structuredClone(session) : undefined);
  }

  update(sessionId: string, facts: SessionFacts, now: number): Promise<boolean> {
    const session = this.live(sessionId, now);
    if (!session) return Promise.resolve(false);
    Object.assign(session, structuredClone(facts));
    session.lastSeen = now;
    return Promise.resolve(true);
  }

  touch(sessionId: string, now: number): Promise<void> {
    const session = this.live(sessionId, now);
    if (session) session.lastSeen = Math.max(session.lastSeen, now);
    return Promise.resolve();
  }

  end(sessionId: string, now: number): Promise<boolean> {
    const live = this.live(sessionId, now) !== undefined;
    this.sessions.delete(sessionId);
    return Promise.resolve(live);
  }

  close(): Promise<void> {
    this.sessions.clear();
    return Promise.resolve();
  }

  private live(sessionId: string, now: number): StoredSession | undefined {
    const session = this.sessions.get(sessionId);
    if (session && now - session.lastSeen >= this.idleMs) {
      this.sessions.delete(sessionId);
      return undefined;
    }
    return session;
  }

  /** Drops idle sessions, at most once per tenth of `idleMs` (creation stays O(1) on average). */
  private sweep(now: number): void {
    if (now - this.sweptAt < this.idleMs / 10) return;
    this.sweptAt = now;
    for (const id of [...this.sessions.keys()]) this.live(id, now);
  }
}
