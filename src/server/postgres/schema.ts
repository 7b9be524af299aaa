/**
 * The tables of the PostgreSQL state and how they are made: `CREATE … IF NOT EXISTS` inside one
 * transaction holding an advisory lock, so running it twice, or on several nodes starting at once,
 * is safe. Names are a validated schema and table prefix (identifiers, never values).
 *
 * - `<prefix>task`: one row per 2026 task (status, input requests and answers, result or error,
 *   cancel requested, principal, owner and lease, times); gone at `expires_at`.
 * - `<prefix>session`: one row per legacy session (principal, owner, the facts `initialize` and
 *   later requests set, `last_seen`); gone once idle or ended.
 * - `<prefix>stream` and `<prefix>event`: the SSE event log, one row per stream (session, owner
 *   and its lease, last seq, ended, last written) and one per event kept (deleted with their stream).
 * - `<prefix>replay`: DPoP proofs seen (a hash of key and proof id), until they expire.
 * - `<prefix>bus_message`: change-bus messages too large for a notification (which then names the
 *   row), kept a minute.
 */
import { McpError } from '../../protocol/errors.js';
import type { PgPool, PgPoolClient } from './pg-driver.js';

/** The qualified, quoted table names, and the notification channels (derived from the prefix). */
export interface TableNames {
  readonly schema: string | undefined;
  readonly prefix: string;
  readonly task: string;
  readonly session: string;
  readonly stream: string;
  readonly event: string;
  readonly replay: string;
  /** Change-bus messages too large for a notification, kept a minute for the nodes to read. */
  readonly busMessage: string;
  /** The channel of change-bus messages. */
  readonly busChannel: string;
  /** The channel that wakes event log followers (payload: a stream id). */
  readonly eventChannel: string;
  /** The key of the advisory lock `migrate` holds. */
  readonly lockKey: string;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

/**
 * The names for `schema` (optional) and `prefix`; throws `INVALID_ARGUMENT` naming the option when
 * one is not a plain identifier.
 */
export function tableNames(schema: string | undefined, prefix: string): TableNames {
  if (schema !== undefined && (typeof schema !== 'string' || !IDENTIFIER.test(schema) || schema.length > 63))
    throw new McpError('INVALID_ARGUMENT', 'postgresState option "schema" must be a lower-case SQL identifier');
  if (typeof prefix !== 'string' || !(prefix === '' || IDENTIFIER.test(prefix)) || prefix.length > 40)
    throw new McpError(
      'INVALID_ARGUMENT',
      'postgresState option "tablePrefix" must be lower-case letters, digits and "_" (at most 40)',
    );
  const qualified = (table: string): string => (schema === undefined ? '' : `"${schema}".`) + `"${prefix}${table}"`;
  const channel = `${schema === undefined ? '' : `${schema}.`}${prefix}`;
  // Channel names are identifiers too: PostgreSQL refuses one over 63 bytes.
  if (channel.length + 'events'.length > 63)
    throw new McpError(
      'INVALID_ARGUMENT',
      'postgresState options "schema" and "tablePrefix" together must stay under 57 characters',
    );
  return {
    schema,
    prefix,
    task: qualified('task'),
    session: qualified('session'),
    stream: qualified('stream'),
    event: qualified('event'),
    replay: qualified('replay'),
    busMessage: qualified('bus_message'),
    busChannel: `${channel}bus`,
    eventChannel: `${channel}events`,
    lockKey: `mcpwire state ${channel}`,
  };
}

function ddl(t: TableNames): string {
  const { schema, prefix } = t;
  const index = (name: string): string => `"${prefix}${name}"`;
  return `
${schema === undefined ? '' : `CREATE SCHEMA IF NOT EXISTS "${schema}";`}
CREATE TABLE IF NOT EXISTS ${t.task} (
  task_id          text PRIMARY KEY,
  principal        text,
  owner            text NOT NULL,
  status           text NOT NULL,
  created_at       bigint NOT NULL,
  last_updated_at  bigint NOT NULL,
  ttl_ms           bigint NOT NULL,
  poll_interval_ms bigint NOT NULL,
  expires_at       bigint NOT NULL,
  lease_until      bigint NOT NULL,
  input_requests   jsonb NOT NULL DEFAULT '{}',
  input_responses  jsonb NOT NULL DEFAULT '{}',
  result           jsonb,
  error            jsonb,
  cancel_requested boolean NOT NULL DEFAULT false
);
CREATE INDEX IF NOT EXISTS ${index('task_expires')} ON ${t.task} (expires_at);
CREATE INDEX IF NOT EXISTS ${index('task_unfinished')} ON ${t.task} (lease_until)
  WHERE status IN ('working', 'input_required');
CREATE TABLE IF NOT EXISTS ${t.session} (
  session_id          text PRIMARY KEY,
  principal           text,
  owner               text NOT NULL,
  revision            text,
  client_capabilities jsonb NOT NULL,
  client_info         jsonb,
  log_level           text NOT NULL,
  subscriptions       jsonb NOT NULL,
  created_at          bigint NOT NULL,
  last_seen           bigint NOT NULL
);
CREATE INDEX IF NOT EXISTS ${index('session_seen')} ON ${t.session} (last_seen);
CREATE TABLE IF NOT EXISTS ${t.stream} (
  stream_id  text PRIMARY KEY,
  session_id text NOT NULL,
  owner      text NOT NULL,
  last_seq   bigint NOT NULL DEFAULT 0,
  ended      boolean NOT NULL DEFAULT false,
  opened_at  bigint NOT NULL,
  touched    bigint NOT NULL,
  lease_until bigint,
  request_ids jsonb
);
CREATE INDEX IF NOT EXISTS ${index('stream_session')} ON ${t.stream} (session_id);
CREATE INDEX IF NOT EXISTS ${index('stream_touched')} ON ${t.stream} (touched);
CREATE TABLE IF NOT EXISTS ${t.event} (
  stream_id text NOT NULL REFERENCES ${t.stream} (stream_id) ON DELETE CASCADE,
  seq       bigint NOT NULL,
  data      text NOT NULL,
  retry_ms  integer,
  bytes     integer NOT NULL,
  PRIMARY KEY (stream_id, seq)
);
CREATE TABLE IF NOT EXISTS ${t.replay} (
  key        text PRIMARY KEY,
  expires_at bigint NOT NULL
);
CREATE INDEX IF NOT EXISTS ${index('replay_expires')} ON ${t.replay} (expires_at);
CREATE TABLE IF NOT EXISTS ${t.busMessage} (
  id         bigserial PRIMARY KEY,
  payload    text NOT NULL,
  created_at bigint NOT NULL
);
CREATE INDEX IF NOT EXISTS ${index('bus_message_created')} ON ${t.busMessage} (created_at);
`;
}

/** Makes the tables when missing, in one transaction under the advisory lock of `tables.lockKey`. */
export async function migrateSchema(pool: PgPool, tables: TableNames): Promise<void> {
  const client: PgPoolClient = await pool.connect();
  let broken: Error | undefined;
  const died = (error: Error): void => void (broken = error); // as in PgDatabase.transaction
  client.on('error', died);
  try {
    await client.query('BEGIN');
    await client.query({ text: 'SELECT pg_advisory_xact_lock(hashtext($1))', values: [tables.lockKey] });
    await client.query(ddl(tables));
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch((rollback: unknown) => {
      broken = rollback instanceof Error ? rollback : new Error('ROLLBACK failed');
    });
    throw error;
  } finally {
    client.removeListener('error', died);
    client.release(broken);
  }
}
