/**
 * The legacy {@link SessionStore} on Redis: one hash per session (`<prefix>session:<id>`: the
 * `principal`, `owner`, `createdAt`, `lastSeen` and the facts requests change as one JSON field),
 * with a sliding TTL: every write sets `PEXPIRE idleMs`, so a session nobody marks seen is gone
 * from Redis too. Update, touch and end are Lua scripts, so a session ended (or lapsed) on one
 * node is never brought back by a late write on another.
 */
import type { Redis } from 'ioredis';
import type { SessionFacts, SessionStore, StoredSession } from '../state/session-store.js';
import { guarded } from './redis-connection.js';
import { defineScript, type RedisScript } from './redis-scripts.js';

/** KEYS: session. ARGV: now, idle ms. Shared head: `lastSeen()`, the session's last sighting or false when gone. */
const LIVE = `
local key = KEYS[1]
local now = tonumber(ARGV[1])
local idle = tonumber(ARGV[2])
local function lastSeen()
  local seen = redis.call('HGET', key, 'lastSeen')
  if not seen then return false end
  if now - tonumber(seen) >= idle then
    redis.call('DEL', key)
    return false
  end
  return tonumber(seen)
end
`;

/** ARGV: now, idle ms, facts JSON. */
const UPDATE = `${LIVE}
if not lastSeen() then return 0 end
redis.call('HSET', key, 'facts', ARGV[3], 'lastSeen', ARGV[1])
redis.call('PEXPIRE', key, ARGV[2])
return 1`;

const TOUCH = `${LIVE}
local seen = lastSeen()
if not seen then return 0 end
if now > seen then redis.call('HSET', key, 'lastSeen', ARGV[1]) end
redis.call('PEXPIRE', key, ARGV[2])
return 1`;

const END = `${LIVE}
local was = lastSeen()
redis.call('DEL', key)
if was then return 1 end
return 0`;

export class RedisSessionStore implements SessionStore {
  readonly shared: boolean = true;
  private readonly scripts: Record<'update' | 'touch' | 'end', RedisScript>;

  /** Sessions unseen for `idleMs` are gone; `prefix` starts every key; `where` names the store in errors. */
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly idleMs: number,
    private readonly where: string,
  ) {
    this.scripts = {
      update: defineScript(redis, 'session_update', 1, UPDATE),
      touch: defineScript(redis, 'session_touch', 1, TOUCH),
      end: defineScript(redis, 'session_end', 1, END),
    };
  }

  create(session: Omit<StoredSession, 'createdAt' | 'lastSeen'>, now: number): Promise<void> {
    return guarded(this.where, 'sessions.create', async () => {
      const fields: Record<string, string> = {
        sessionId: session.sessionId,
        owner: session.owner,
        createdAt: String(now),
        lastSeen: String(now),
        facts: JSON.stringify(facts(session)),
      };
      if (session.principal !== undefined) fields.principal = session.principal;
      const key = this.key(session.sessionId);
      const replies = await this.redis.multi().hset(key, fields).pexpire(key, this.ttl()).exec();
      const failed = replies?.find(([error]) => error);
      if (!replies || failed) throw failed?.[0] ?? new Error('the transaction was discarded');
    });
  }

  get(sessionId: string, principal: string | undefined, now: number): Promise<StoredSession | undefined> {
    return guarded(this.where, 'sessions.get', async () => {
      const fields = await this.redis.hgetall(this.key(sessionId));
      if (fields.sessionId === undefined || fields.principal !== principal) return undefined;
      const lastSeen = Number(fields.lastSeen);
      if (now - lastSeen >= this.idleMs) return undefined;
      const stored = JSON.parse(fields.facts ?? '{}') as SessionFacts;
      return {
        sessionId: fields.sessionId,
        principal: fields.principal,
        owner: fields.owner ?? '',
        ...facts(stored),
        createdAt: Number(fields.createdAt),
        lastSeen,
      };
    });
  }

  update(sessionId: string, given: SessionFacts, now: number): Promise<boolean> {
    return guarded(this.where, 'sessions.update', async () => {
      const json = JSON.stringify(facts(given));
      return (await this.scripts.update.run([this.key(sessionId)], [now, this.ttl(), json])) === 1;
    });
  }

  touch(sessionId: string, now: number): Promise<void> {
    return guarded(this.where, 'sessions.touch', async () => {
      await this.scripts.touch.run([this.key(sessionId)], [now, this.ttl()]);
    });
  }

  end(sessionId: string, now: number): Promise<boolean> {
    return guarded(
      this.where,
      'sessions.end',
      async () => (await this.scripts.end.run([this.key(sessionId)], [now, this.ttl()])) === 1,
    );
  }

  /** The connection is the state set's to release (`redisState().close()`). */
  close(): Promise<void> {
    return Promise.resolve();
  }

  private key(sessionId: string): string {
    return `${this.prefix}session:${sessionId}`;
  }

  /** The idle time as a Redis TTL (whole milliseconds, at least 1). */
  private ttl(): number {
    return Math.max(1, Math.ceil(this.idleMs));
  }
}

/** Exactly the facts of a session (what is stored as its `facts` field), in a fixed order. */
function facts(from: SessionFacts): SessionFacts {
  return {
    revision: from.revision,
    clientCapabilities: from.clientCapabilities,
    clientInfo: from.clientInfo,
    logLevel: from.logLevel,
    subscriptions: [...from.subscriptions],
  };
}
