/**
 * The Lua of {@link RedisTaskStore}. A task is one hash: its scalar facts as fields (`status`,
 * `expiresAt`, `leaseUntil`, `owner`, …, `result`/`error` as JSON), each pending input request as
 * `in:<key>` and each answer as `out:<key>` (JSON the scripts move but never parse). Every script
 * first applies the rules of a task's life: past `expiresAt` it is deleted (gone); unfinished with
 * its lease run out it becomes `failed` (`LEASE_LOST`), persisted. The unfinished tasks are also
 * members of one sorted set (`KEYS[2]`, scored by `leaseUntil`), so a count of them bounds
 * creation: a task leaves it when it ends, or when its lease runs out (its node died). Times come
 * from the caller (`ARGV[1]`, epoch ms, kept as the caller's string so no precision is lost).
 */
import { LEASE_LOST } from '../state/task-store.js';

const PRELUDE = `
local TERMINAL = { completed = true, failed = true, cancelled = true }
local key = KEYS[1]
local running = KEYS[2]
local nowText = ARGV[1]
local now = tonumber(nowText)
local function dropInputs()
  for _, field in ipairs(redis.call('HKEYS', key)) do
    if string.sub(field, 1, 3) == 'in:' then redis.call('HDEL', key, field) end
  end
end
local function hasInputs()
  for _, field in ipairs(redis.call('HKEYS', key)) do
    if string.sub(field, 1, 3) == 'in:' then return true end
  end
  return false
end
-- The task's status after the rules of its life, or false when it is gone.
local function live()
  local facts = redis.call('HMGET', key, 'status', 'expiresAt', 'leaseUntil')
  if not facts[1] then return false end
  if now >= tonumber(facts[2]) then
    redis.call('DEL', key)
    redis.call('ZREM', running, key)
    return false
  end
  if not TERMINAL[facts[1]] and now >= tonumber(facts[3]) then
    redis.call('HSET', key, 'status', 'failed', 'error', ${luaString(JSON.stringify(LEASE_LOST))}, 'lastUpdatedAt', nowText)
    dropInputs()
    redis.call('ZREM', running, key)
    return 'failed'
  end
  return facts[1]
end
`;

/** A Lua string literal of `text` (long brackets: no escaping needed). */
function luaString(text: string): string {
  return `[==[${text}]==]`;
}

/**
 * KEYS: task, running set. ARGV: now, most unfinished tasks, TTL ms, lease until, then the hash's
 * field and value pairs. 1 when stored, 0 when as many unfinished tasks as allowed are running.
 */
export const CREATE = `${PRELUDE}
redis.call('ZREMRANGEBYSCORE', running, '-inf', nowText)
if redis.call('ZCARD', running) >= tonumber(ARGV[2]) then return 0 end
local fields = {}
for i = 5, #ARGV do fields[#fields + 1] = ARGV[i] end
redis.call('HSET', key, unpack(fields))
redis.call('PEXPIRE', key, ARGV[3])
redis.call('ZADD', running, ARGV[4], key)
if redis.call('PTTL', running) < tonumber(ARGV[3]) then redis.call('PEXPIRE', running, ARGV[3]) end
return 1`;

/** KEYS: task, running set. ARGV: now. The task's fields, or nil when gone. */
export const GET = `${PRELUDE}
if not live() then return nil end
return redis.call('HGETALL', key)`;

/** KEYS: task, running set. ARGV: now, input key, request JSON. 1 when recorded, 0 when the task ended or is gone. */
export const ASK = `${PRELUDE}
local status = live()
if not status or TERMINAL[status] then return 0 end
redis.call('HSET', key, 'in:' .. ARGV[2], ARGV[3], 'status', 'input_required', 'lastUpdatedAt', nowText)
redis.call('HDEL', key, 'out:' .. ARGV[2])
return 1`;

/** KEYS: task, running set. ARGV: now, then input key and answer JSON pairs. The task's fields after, or nil. */
export const RESPOND = `${PRELUDE}
local status = live()
if not status then return nil end
for i = 2, #ARGV, 2 do
  if redis.call('HEXISTS', key, 'in:' .. ARGV[i]) == 1 then
    redis.call('HDEL', key, 'in:' .. ARGV[i])
    redis.call('HSET', key, 'out:' .. ARGV[i], ARGV[i + 1])
  end
end
if status == 'input_required' and not hasInputs() then
  redis.call('HSET', key, 'status', 'working', 'lastUpdatedAt', nowText)
end
return redis.call('HGETALL', key)`;

/** KEYS: task, running set. ARGV: now, status, field (result or error), its JSON. 1 when settled now, else 0. */
export const SETTLE = `${PRELUDE}
local status = live()
if not status or TERMINAL[status] then return 0 end
redis.call('HSET', key, 'status', ARGV[2], ARGV[3], ARGV[4], 'lastUpdatedAt', nowText)
dropInputs()
redis.call('ZREM', running, key)
return 1`;

/** KEYS: task, running set. ARGV: now. The task's fields after, or nil when gone. */
export const CANCEL = `${PRELUDE}
local status = live()
if not status then return nil end
redis.call('HSET', key, 'cancelRequested', '1')
if not TERMINAL[status] then
  redis.call('HSET', key, 'status', 'cancelled', 'lastUpdatedAt', nowText)
  dropInputs()
  redis.call('ZREM', running, key)
end
return redis.call('HGETALL', key)`;

/** KEYS: task, running set. ARGV: now, owner, lease until. 1 when extended, else 0. */
export const RENEW = `${PRELUDE}
local status = live()
if not status or TERMINAL[status] or redis.call('HGET', key, 'owner') ~= ARGV[2] then return 0 end
if tonumber(ARGV[3]) > tonumber(redis.call('HGET', key, 'leaseUntil')) then
  redis.call('HSET', key, 'leaseUntil', ARGV[3])
  redis.call('ZADD', running, 'XX', ARGV[3], key)
end
return 1`;
