/**
 * The PostgreSQL DPoP {@link ReplayCache}: every node records the proofs it accepts in
 * `<prefix>replay`, one `INSERT … ON CONFLICT` each (atomic: of two nodes given one proof at once,
 * exactly one records it), so a proof replayed to any node is refused. Keys are stored as SHA-256
 * hashes (fixed size, whatever the proof's `jti`). Expired rows are overwritten when their key
 * comes again, and deleted in bounded batches at most once per `sweepEveryMs`.
 */
import { createHash } from 'node:crypto';
import type { ReplayCache } from '../http/auth/replay-cache.js';
import type { PgDatabase } from './pg-database.js';

const WHAT = 'DPoP replay cache';

export class PgReplayCache implements ReplayCache {
  private sweptAt = Number.NEGATIVE_INFINITY;
  private readonly sql;

  constructor(
    private readonly db: PgDatabase,
    private readonly sweepEveryMs: number,
    private readonly sweepBatch: number,
  ) {
    const t = db.tables.replay;
    this.sql = {
      record: db.statement(
        `INSERT INTO ${t} AS r (key, expires_at) VALUES ($1, $2)
         ON CONFLICT (key) DO UPDATE SET expires_at = EXCLUDED.expires_at WHERE r.expires_at <= $3
         RETURNING key`,
      ),
      sweep: db.statement(`DELETE FROM ${t} WHERE key IN (SELECT key FROM ${t} WHERE expires_at <= $1 LIMIT $2)`),
    };
  }

  async seen(key: string, expiresAt: number): Promise<boolean> {
    const now = Date.now();
    if (now - this.sweptAt >= this.sweepEveryMs) {
      this.sweptAt = now;
      await this.db.run(WHAT, this.sql.sweep, [now, this.sweepBatch]);
    }
    const hashed = createHash('sha256').update(key).digest('base64url');
    const { rowCount } = await this.db.run(WHAT, this.sql.record, [hashed, Math.ceil(expiresAt), now]);
    return rowCount === 0;
  }
}
