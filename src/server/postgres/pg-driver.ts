/**
 * The few parts of the `pg` driver (node-postgres 8) this subpath uses, typed structurally so a
 * caller's own `pg.Pool` fits without the driver's type package, and the lazy load of the driver
 * itself: `pg` is an optional peer dependency, imported only when a PostgreSQL store is opened.
 */
import { McpError } from '../../protocol/errors.js';

/** What a query is given: a named prepared statement and its parameters. */
export interface PgQuery {
  readonly name?: string;
  readonly text: string;
  readonly values?: readonly unknown[];
}

/** What a query resolves with. */
export interface PgResult<Row = Record<string, unknown>> {
  readonly rows: Row[];
  readonly rowCount: number | null;
}

/** A LISTEN notification. */
export interface PgNotification {
  readonly channel: string;
  readonly payload?: string;
}

/** One connection checked out of a pool. */
export interface PgPoolClient {
  query<Row = Record<string, unknown>>(query: PgQuery | string): Promise<PgResult<Row>>;
  /** Returns it to the pool; with an error (or `true`) the connection is destroyed instead. */
  release(destroy?: Error | boolean): void;
  on(event: 'notification', listener: (message: PgNotification) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'end', listener: () => void): unknown;
  removeListener(event: 'error', listener: (error: Error) => void): unknown;
  removeAllListeners(event?: string): unknown;
}

/** A `pg.Pool` (or anything with its shape). */
export interface PgPool {
  query<Row = Record<string, unknown>>(query: PgQuery): Promise<PgResult<Row>>;
  connect(): Promise<PgPoolClient>;
  end(): Promise<void>;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/** The options of a pool this subpath makes itself (a subset of `pg.PoolConfig`). */
export interface PgPoolConfig {
  connectionString: string;
  max: number;
  connectionTimeoutMillis: number;
  query_timeout: number;
  idleTimeoutMillis: number;
  keepAlive: boolean;
  application_name: string;
}

type PgModule = { Pool: new (config: PgPoolConfig) => PgPool };

/** A new `pg.Pool`; rejects `INVALID_STATE` naming the package when `pg` is not installed. */
export async function newPool(config: PgPoolConfig): Promise<PgPool> {
  let driver: PgModule;
  try {
    const loaded = (await import('pg')) as { default?: PgModule } & Partial<PgModule>;
    driver = (loaded.default ?? loaded) as PgModule;
  } catch (error) {
    throw new McpError(
      'INVALID_STATE',
      'mcpwire/server/postgres needs the "pg" package (npm install pg): it is an optional peer dependency',
      { cause: error },
    );
  }
  return new driver.Pool(config);
}

/**
 * A pool made on first use (the driver is loaded then), so the state can be built synchronously.
 * Its idle connections' errors (the server went away) are ignored: the next query fails instead.
 */
export function lazyPool(config: PgPoolConfig): PgPool {
  let pool: Promise<PgPool> | undefined;
  let ended = false;
  const get = (): Promise<PgPool> => {
    if (ended) return Promise.reject(new McpError('INVALID_STATE', 'the PostgreSQL state is closed'));
    return (pool ??= newPool(config).then((made) => {
      made.on('error', () => undefined);
      return made;
    }));
  };
  return {
    query: async <Row>(query: PgQuery) => (await get()).query<Row>(query),
    connect: async () => (await get()).connect(),
    end: async () => {
      ended = true;
      const made = await pool?.catch(() => undefined);
      await made?.end();
    },
    on: () => undefined,
  };
}
