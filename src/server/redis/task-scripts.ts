/**
 * The Lua of {@link RedisTaskStore}. A task is one hash: its scalar facts as fields (`status`,
 * `expiresAt`, `leaseUntil`, `owner`, …, `result`/`error` as JSON), each pending input request as
 * `in:<key>` and each answer as `out:<key>` (JSON the scripts move but never parse). Every script
 * first applies the rules of a task's life: past `expiresAt` it is deleted (gone); unfinished with
 * its lease run out it becomes `failed` (`LEASE_LOST`), persisted. Times come from the caller
 * (`ARGV[1]`, epoch ms, kept as the caller's string so no precision is lost).
 */
import { LEASE_LOST } from '../state/task-store.js';

const PRELUDE = `
local TERMINAL = { completed = true, failed = true, cancelled = true }
local key = KEYS[1]
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
    return false
  end
  if not TERMINAL[facts[1]] and now >= tonumber(facts[3]) then
    redis.call('HSET', key, 'status', 'failed', 'error', ${luaString(JSON.stringify(LEASE_LOST))}, 'lastUpdatedAt', nowText)
    dropInputs()
    return 'failed'
  end
  return facts[1]
end
`;

/** A Lua string literal of `text` (long brackets: no escaping needed). */
function luaString(text: string): string {
  return `[==[${text}]==]`;
}

/** KEYS: task. ARGV: now. The task's fields, or nil when gone. */
export const GET = `${PRELUDE}
if not live() then return nil end
return redis.call('HGETALL', key)`;

/** KEYS: task. ARGV: now, input key, request JSON. 1 when recorded, 0 when the task ended or is gone. */
export const ASK = `${PRELUDE}
local status = live()
if not status or TERMINAL[status] then return 0 end
redis.call('HSET', key, 'in:' .. ARGV[2], ARGV[3], 'status', 'input_required', 'lastUpdatedAt', nowText)
redis.call('HDEL', key, 'out:' .. ARGV[2])
return 1`;

/** KEYS: task. ARGV: now, then input key and answer JSON pairs. The task's fields after, or nil when gone. */
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

/** KEYS: task. ARGV: now, status, field (result or error), its JSON. 1 when settled now, else 0. */
export const SETTLE = `${PRELUDE}
local status = live()
if not status or TERMINAL[status] then return 0 end
redis.call('HSET', key, 'status', ARGV[2], ARGV[3], ARGV[4], 'lastUpdatedAt', nowText)
dropInputs()
return 1`;

/** KEYS: task. ARGV: now. The task's fields after, or nil when gone. */
export const CANCEL = `${PRELUDE}
local status = live()
if not status then return nil end
redis.call('HSET', key, 'cancelRequested', '1')
if not TERMINAL[status] then
  redis.call('HSET', key, 'status', 'cancelled', 'lastUpdatedAt', nowText)
  dropInputs()
end
return redis.call('HGETALL', key)`;

/** KEYS: task. ARGV: now, owner, lease until. 1 when extended, else 0. */
export const RENEW = `${PRELUDE}
local status = live()
if not status or TERMINAL[status] or redis.call('HGET', key, 'owner') ~= ARGV[2] then return 0 end
if tonumber(ARGV[3]) > tonumber(redis.call('HGET', key, 'leaseUntil')) then
  redis.call('HSET', key, 'leaseUntil', ARGV[3])
end
return 1`;
