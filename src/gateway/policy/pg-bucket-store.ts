/**
 * A {@link BucketStore} on PostgreSQL, shared by every gateway node on that database: one
 * statement per take (`INSERT … ON CONFLICT DO UPDATE`, the arithmetic of `token-bucket.ts` in
 * SQL), which locks the bucket's row, so of two nodes taking a key's last token exactly one gets it.
 * One row per bucket (`key` = sha256 of the caller's key, `tokens`, `at`, `granted`, `full_at`);
 * the same statement forgets up to four other buckets that are full again (`full_at <= now`,
 * rows another take holds are skipped), so the table holds about the buckets in use, as an absent
 * bucket is full. The table is made on first use (`CREATE … IF NOT EXISTS` under an advisory lock,
 * safe on several nodes at once) unless `autoMigrate: false`.
 *
 * Takes a `pg.Pool` (typed structurally, `pg-driver.ts`), never imports `pg` (only
 * `src/server/postgres` may load that optional peer).
 */
import { createHash } from 'node:crypto';
import { McpError } from '../../protocol/errors.js';
import type { PgPool } from '../../server/postgres/pg-driver.js';
import type { BucketStore } from './bucket-store.js';
import type { BucketResult } from './token-bucket.js';

/** Options of {@link PgBucketStore}. */
export interface PgBucketStoreOptions {
  /** The table (a lower-case SQL identifier; default `mcpwire_gateway_bucket`). */
  table?: string;
  /** The schema the table is in (a lower-case SQL identifier; default the search path's). */
  schema?: string;
  /** Whether the first take makes the table when missing (default true). */
  autoMigrate?: boolean;
  /** Names the store in errors (default `postgres`). */
  where?: string;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

/** The statement of a take: $1 key, $2 capacity, $3 refillPerSecond, $4 now (epoch ms). */
function takeStatement(table: string): string {
  // r.t: the tokens refilled to now (none when the clock went back); r.after: once one is taken.
  return `WITH swept AS (
  DELETE FROM ${table} WHERE ctid = ANY(ARRAY(
    SELECT ctid FROM ${table} WHERE full_at <= $4::bigint AND key <> $1
    ORDER BY full_at LIMIT 4 FOR UPDATE SKIP LOCKED)))
INSERT INTO ${table} AS b (key, tokens, at, granted, full_at)
VALUES ($1, $2::float8 - 1, $4::bigint, true, $4::bigint + ceil(1000 / $3::float8)::bigint)
ON CONFLICT (key) DO UPDATE SET (tokens, at, granted, full_at) = (
  SELECT r.after, r.at, r.t >= 1, r.at + ceil(($2::float8 - r.after) * 1000 / $3::float8)::bigint
  FROM (SELECT q.t, q.at, q.t - CASE WHEN q.t >= 1 THEN 1 ELSE 0 END AS after
        FROM (SELECT CASE WHEN $4::bigint > b.at
                          THEN least($2::float8, b.tokens + ($4::bigint - b.at) * $3::float8 / 1000)
                          ELSE b.tokens END AS t,
                     greatest(b.at, $4::bigint) AS at) AS q) AS r)
RETURNING granted, CASE WHEN granted THEN floor(tokens)::bigint
                        ELSE greatest(1, ceil((1 - tokens) * 1000 / $3::float8))::bigint END AS value`;
}

function migration(table: string, index: string): string[] {
  return [
    `CREATE TABLE IF NOT EXISTS ${table} (
  key text PRIMARY KEY,
  tokens double precision NOT NULL,
  at bigint NOT NULL,
  granted boolean NOT NULL,
  full_at bigint NOT NULL)`,
    `CREATE INDEX IF NOT EXISTS ${index} ON ${table} (full_at)`,
  ];
}

export class PgBucketStore implements BucketStore {
  readonly shared = true;
  /** The qualified, quoted table name. */
  readonly table: string;
  private readonly statement: { name: string; text: string };
  private readonly index: string;
  private readonly where: string;
  private migrated: Promise<void> | undefined;

  /**
   * `pool`: the caller's `pg.Pool` (yours to end). Throws `INVALID_ARGUMENT` for a table or
   * schema that is not a lower-case SQL identifier.
   */
  constructor(
    private readonly pool: PgPool,
    options: PgBucketStoreOptions = {},
  ) {
    const table = options.table ?? 'mcpwire_gateway_bucket';
    if (typeof table !== 'string' || !IDENTIFIER.test(table) || table.length > 57)
      throw new McpError('INVALID_ARGUMENT', 'PgBucketStore option "table" must be a lower-case SQL identifier');
    if (options.schema !== undefined && (typeof options.schema !== 'string' || !IDENTIFIER.test(options.schema)))
      throw new McpError('INVALID_ARGUMENT', 'PgBucketStore option "schema" must be a lower-case SQL identifier');
    const schema = options.schema === undefined ? '' : `"${options.schema}".`;
    this.table = `${schema}"${table}"`;
    this.index = `"${table}_full_at"`;
    const text = takeStatement(this.table);
    this.statement = { name: `mcpwire_${createHash('sha256').update(text).digest('base64url').slice(0, 24)}`, text };
    this.where = options.where ?? 'postgres';
    if (options.autoMigrate === false) this.migrated = Promise.resolve();
  }

  /** Makes the table and its index when missing (idempotent; nodes starting at once wait on one lock). */
  migrate(): Promise<void> {
    const running = (this.migrated ??= this.runMigration().catch((error: unknown) => {
      this.migrated = undefined; // the next take tries again
      throw this.failure('migrate', error);
    }));
    return running;
  }

  /** Rejects with `TRANSPORT` naming the store when the database does not answer (never answers `ok` unrecorded). */
  async take(key: string, capacity: number, refillPerSecond: number, now: number): Promise<BucketResult> {
    await this.migrate();
    let row: { granted?: unknown; value?: unknown } | undefined;
    try {
      const hashed = createHash('sha256').update(key).digest('base64url');
      const result = await this.pool.query<{ granted: boolean; value: string }>({
        ...this.statement,
        values: [hashed, capacity, refillPerSecond, Math.floor(now)],
      });
      row = result.rows[0];
    } catch (error) {
      throw this.failure('take', error);
    }
    const value = Number(row?.value);
    if (row?.granted === true && Number.isFinite(value)) return { ok: true, remaining: value };
    if (row?.granted === false && Number.isFinite(value)) return { ok: false, retryAfterMs: value };
    throw new McpError('TRANSPORT', `the PostgreSQL bucket store at ${this.where} answered ${JSON.stringify(row)}`);
  }

  /** Nothing to release: the pool is the caller's. */
  close(): Promise<void> {
    return Promise.resolve();
  }

  private async runMigration(): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(`SELECT pg_advisory_xact_lock(hashtext('mcpwire_gateway_bucket ${this.table}'))`);
      for (const statement of migration(this.table, this.index)) await client.query(statement);
      await client.query('COMMIT');
      client.release();
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      client.release(true);
      throw error;
    }
  }

  private failure(operation: string, error: unknown): McpError {
    if (error instanceof McpError) return error;
    const reason = error instanceof Error ? error.message : String(error);
    return new McpError('TRANSPORT', `the PostgreSQL bucket store at ${this.where} failed (${operation}): ${reason}`, {
      cause: error,
    });
  }
}
