/**
 * One PostgreSQL database as the stores of this subpath see it: the pool, the qualified names of
 * their tables, the schema made on first use (once per process, see `schema.ts`), and `run`, which
 * sends a named prepared statement with its parameters (never a value spliced into SQL) and turns a
 * failure into an error that names the store, so a store that is down answers fast and clearly.
 */
import { createHash } from 'node:crypto';
import { McpError } from '../../protocol/errors.js';
import type { PgPool, PgPoolClient, PgResult } from './pg-driver.js';
import { migrateSchema, type TableNames } from './schema.js';

/** A statement of a store: its SQL text (table names filled in) and a short name for errors. */
export interface Statement {
  /** The prepared statement's name on every connection (unique per text). */
  readonly name: string;
  readonly text: string;
}

export class PgDatabase {
  private migrated: Promise<void> | undefined;

  /**
   * @param pool the connections
   * @param tables the qualified, quoted names of the tables
   * @param autoMigrate whether the first statement makes the tables when missing
   */
  constructor(
    readonly pool: PgPool,
    readonly tables: TableNames,
    private readonly autoMigrate: boolean,
  ) {}

  /** A statement of `text` (its name derived from it: one plan per connection, whatever store sends it). */
  statement(text: string): Statement {
    return { name: `mcpwire_${createHash('sha256').update(text).digest('base64url').slice(0, 24)}`, text };
  }

  /** Makes the tables and indexes when missing (idempotent; concurrent callers on any node wait on one lock). */
  migrate(): Promise<void> {
    const running = (this.migrated ??= migrateSchema(this.pool, this.tables).catch((error: unknown) => {
      this.migrated = undefined; // the next call tries again (the database may be back)
      throw storeError('migrate', error);
    }));
    return running;
  }

  /** Makes the tables on first use (unless told not to); rejects naming `what` and the step. */
  private async ensure(what: string): Promise<void> {
    if (!this.autoMigrate) return;
    try {
      await this.migrate();
    } catch (error) {
      const cause = error instanceof McpError && error.cause !== undefined ? error.cause : error;
      throw storeError(`${what}, making its tables`, cause);
    }
  }

  /** Runs `statement` with `values`; rejects `TRANSPORT` naming `what` (e.g. "task store") on any failure. */
  async run<Row = Record<string, unknown>>(
    what: string,
    statement: Statement,
    values: readonly unknown[],
  ): Promise<PgResult<Row>> {
    await this.ensure(what);
    try {
      return await this.pool.query<Row>({ name: statement.name, text: statement.text, values });
    } catch (error) {
      throw storeError(what, error);
    }
  }

  /**
   * Runs `body` in one transaction on one connection (`BEGIN` … `COMMIT`, `ROLLBACK` when it
   * throws); rejects like {@link run}.
   */
  async transaction<T>(what: string, body: (query: Query) => Promise<T>): Promise<T> {
    await this.ensure(what);
    let client: PgPoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw storeError(what, error);
    }
    let broken: Error | undefined;
    // The pool listens for errors only on idle connections: one that dies mid-transaction must not throw.
    const died = (error: Error): void => void (broken = error);
    client.on('error', died);
    try {
      await client.query('BEGIN');
      const result = await body(<Row>(statement: Statement, values: readonly unknown[]) =>
        client.query<Row>({ name: statement.name, text: statement.text, values }),
      );
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch((rollback: unknown) => {
        broken = rollback instanceof Error ? rollback : new Error('ROLLBACK failed');
      });
      throw error instanceof McpError ? error : storeError(what, error);
    } finally {
      client.removeListener('error', died);
      client.release(broken);
    }
  }
}

/** A query inside {@link PgDatabase.transaction}. */
export type Query = <Row = Record<string, unknown>>(
  statement: Statement,
  values: readonly unknown[],
) => Promise<PgResult<Row>>;

/** The error a store rejects with when PostgreSQL fails it: `TRANSPORT`, naming the store, the cause kept. */
export function storeError(what: string, error: unknown): McpError {
  const reason = error instanceof Error ? error.message || error.name : 'a non-Error failure';
  return new McpError('TRANSPORT', `PostgreSQL state (${what}): ${reason}`, { cause: error });
}
