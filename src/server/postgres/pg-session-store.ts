/**
 * The PostgreSQL {@link SessionStore}: one row per legacy session in `<prefix>session`. A session
 * unseen for `idleMs` is gone (every read and write checks `last_seen`); idle rows are deleted, a
 * bounded batch at a time, at most once per tenth of `idleMs` when sessions are made. An ended
 * session's row is deleted at once.
 */
import type { LoggingLevel } from '../../protocol/types.js';
import type { SessionFacts, SessionStore, StoredSession } from '../state/session-store.js';
import type { PgDatabase } from './pg-database.js';
import { num } from './rows.js';

const WHAT = 'session store';
const COLUMNS =
  'session_id, principal, owner, revision, client_capabilities, client_info, log_level, subscriptions, created_at, last_seen';

interface SessionRow {
  session_id: string;
  principal: string | null;
  owner: string;
  revision: string | null;
  client_capabilities: StoredSession['clientCapabilities'];
  client_info: NonNullable<StoredSession['clientInfo']> | null;
  log_level: string;
  subscriptions: string[];
  created_at: string;
  last_seen: string;
}

export class PgSessionStore implements SessionStore {
  readonly shared: boolean = true;
  private sweptAt = Number.NEGATIVE_INFINITY;
  private readonly sql;

  /** @param idleMs how long a session may go unseen (at least the handler's `sessionIdleMs`) */
  constructor(
    private readonly db: PgDatabase,
    private readonly idleMs: number,
    private readonly sweepBatch: number,
  ) {
    const t = db.tables.session;
    this.sql = {
      create: db.statement(
        `INSERT INTO ${t} (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)
         ON CONFLICT (session_id) DO NOTHING`,
      ),
      get: db.statement(`SELECT ${COLUMNS} FROM ${t} WHERE session_id = $1 AND last_seen > $2`),
      update: db.statement(
        `UPDATE ${t} SET revision = $3, client_capabilities = $4, client_info = $5, log_level = $6,
           subscriptions = $7, last_seen = GREATEST(last_seen, $8)
         WHERE session_id = $1 AND last_seen > $2`,
      ),
      touch: db.statement(
        `UPDATE ${t} SET last_seen = GREATEST(last_seen, $3) WHERE session_id = $1 AND last_seen > $2`,
      ),
      end: db.statement(`DELETE FROM ${t} WHERE session_id = $1 RETURNING last_seen > $2 AS live`),
      sweep: db.statement(
        `DELETE FROM ${t} WHERE session_id IN (SELECT session_id FROM ${t} WHERE last_seen <= $1 LIMIT $2)`,
      ),
    };
  }

  async create(session: Omit<StoredSession, 'createdAt' | 'lastSeen'>, now: number): Promise<void> {
    await this.sweep(now);
    await this.db.run(WHAT, this.sql.create, [
      session.sessionId,
      session.principal ?? null,
      session.owner,
      session.revision ?? null,
      JSON.stringify(session.clientCapabilities),
      session.clientInfo === undefined ? null : JSON.stringify(session.clientInfo),
      session.logLevel,
      JSON.stringify(session.subscriptions),
      now,
    ]);
  }

  async get(sessionId: string, principal: string | undefined, now: number): Promise<StoredSession | undefined> {
    const { rows } = await this.db.run<SessionRow>(WHAT, this.sql.get, [sessionId, now - this.idleMs]);
    const row = rows[0];
    if (!row || (row.principal ?? undefined) !== principal) return undefined;
    return {
      sessionId: row.session_id,
      principal: row.principal ?? undefined,
      owner: row.owner,
      revision: row.revision ?? undefined,
      clientCapabilities: row.client_capabilities,
      clientInfo: row.client_info ?? undefined,
      logLevel: row.log_level as LoggingLevel,
      subscriptions: row.subscriptions,
      createdAt: num(row.created_at),
      lastSeen: num(row.last_seen),
    };
  }

  async update(sessionId: string, facts: SessionFacts, now: number): Promise<boolean> {
    const { rowCount } = await this.db.run(WHAT, this.sql.update, [
      sessionId,
      now - this.idleMs,
      facts.revision ?? null,
      JSON.stringify(facts.clientCapabilities),
      facts.clientInfo === undefined ? null : JSON.stringify(facts.clientInfo),
      facts.logLevel,
      JSON.stringify(facts.subscriptions),
      now,
    ]);
    return rowCount === 1;
  }

  async touch(sessionId: string, now: number): Promise<void> {
    await this.db.run(WHAT, this.sql.touch, [sessionId, now - this.idleMs, now]);
  }

  async end(sessionId: string, now: number): Promise<boolean> {
    const { rows } = await this.db.run<{ live: boolean }>(WHAT, this.sql.end, [sessionId, now - this.idleMs]);
    return rows[0]?.live === true;
  }

  /** Nothing to release: the pool belongs to the state. */
  close(): Promise<void> {
    return Promise.resolve();
  }

  /** Deletes a batch of idle sessions, at most once per tenth of `idleMs`. */
  private async sweep(now: number): Promise<void> {
    if (now - this.sweptAt < this.idleMs / 10) return;
    this.sweptAt = now;
    await this.db.run(WHAT, this.sql.sweep, [now - this.idleMs, this.sweepBatch]);
  }
}
