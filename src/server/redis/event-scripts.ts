/**
 * The Lua of {@link RedisEventLog}. Per SSE stream: a hash `<prefix>stream:<streamId>`
 * (`sessionId`, `owner`, `lastSeq`, `ended`, `touched`, `bytes`, and with an owner's lease
 * `leaseUntil` and `requestIds` as JSON) and a Redis stream
 * `<prefix>events:<streamId>` whose entry ids are `<seq>-0` (fields `d` data, `n` bytes counted,
 * `r` retry); per session a sorted set `<prefix>session-streams:<sessionId>` of its streams in the
 * order they opened. Every write sets `PEXPIRE ttl` on what it touched, and appends trim the
 * oldest events beyond the count and byte bounds, so nothing grows without bound. Appends and ends
 * `PUBLISH` on `<prefix>wake:<streamId>` to wake followers (a hint: they also poll).
 *
 * The scripts name keys of other streams and sessions from `prefix` (a session's streams, the
 * stream of an index entry): a standalone Redis or one behind Sentinel, not a Redis Cluster.
 */

const HEAD = `
local prefix = ARGV[1]
local function metaKey(id) return prefix .. 'stream:' .. id end
local function eventsKey(id) return prefix .. 'events:' .. id end
local function indexKey(session) return prefix .. 'session-streams:' .. session end
local function wake(id) redis.call('PUBLISH', prefix .. 'wake:' .. id, '1') end
local function drop(id)
  local session = redis.call('HGET', metaKey(id), 'sessionId')
  redis.call('DEL', metaKey(id), eventsKey(id))
  if session then redis.call('ZREM', indexKey(session), id) end
  wake(id)
end
`;

/**
 * ARGV: prefix, stream id, session id, owner, now, ttl ms, most streams per session, lease until
 * ('' for no lease), request ids JSON. Opens the stream, first dropping streams of the session
 * that lapsed and, at the bound, an ended one (else the oldest).
 */
export const OPEN = `${HEAD}
local id, session, ttl, most = ARGV[2], ARGV[3], ARGV[6], tonumber(ARGV[7])
local index = indexKey(session)
local kept = {}
for _, other in ipairs(redis.call('ZRANGE', index, 0, -1)) do
  if redis.call('EXISTS', metaKey(other)) == 1 then table.insert(kept, other) else redis.call('ZREM', index, other) end
end
if #kept >= most then
  local victim = kept[1]
  for _, other in ipairs(kept) do
    if redis.call('HGET', metaKey(other), 'ended') == '1' then
      victim = other
      break
    end
  end
  drop(victim)
end
redis.call('HSET', metaKey(id), 'sessionId', session, 'owner', ARGV[4], 'lastSeq', '0', 'ended', '0',
  'touched', ARGV[5], 'bytes', '0')
if ARGV[8] ~= '' then redis.call('HSET', metaKey(id), 'leaseUntil', ARGV[8], 'requestIds', ARGV[9]) end
redis.call('PEXPIRE', metaKey(id), ttl)
local last = redis.call('ZREVRANGE', index, 0, 0, 'WITHSCORES')
local order = 1
if last[2] then order = tonumber(last[2]) + 1 end
redis.call('ZADD', index, order, id)
redis.call('PEXPIRE', index, ttl)
return 1`;

/**
 * ARGV: prefix, stream id, seq, data, retry ('' for none), now, ttl ms, most events, most bytes.
 * 1 when appended, 0 when the stream is unknown or ended.
 */
export const APPEND = `${HEAD}
local id, seq, data, retry, ttl = ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[7]
local most, maxBytes = tonumber(ARGV[8]), tonumber(ARGV[9])
local meta, events = metaKey(id), eventsKey(id)
local facts = redis.call('HMGET', meta, 'ended', 'sessionId')
if not facts[1] or facts[1] == '1' then return 0 end
local size = #data + 64
if retry == '' then
  redis.call('XADD', events, seq .. '-0', 'd', data, 'n', size)
else
  redis.call('XADD', events, seq .. '-0', 'd', data, 'n', size, 'r', retry)
end
local bytes = redis.call('HINCRBY', meta, 'bytes', size)
redis.call('HSET', meta, 'lastSeq', seq, 'touched', ARGV[6])
local count = redis.call('XLEN', events)
while count > 1 and (count > most or bytes > maxBytes) do
  local oldest = redis.call('XRANGE', events, '-', '+', 'COUNT', 1)[1]
  local fields = oldest[2]
  for i = 1, #fields, 2 do
    if fields[i] == 'n' then bytes = redis.call('HINCRBY', meta, 'bytes', -tonumber(fields[i + 1])) end
  end
  redis.call('XDEL', events, oldest[1])
  count = count - 1
end
redis.call('PEXPIRE', meta, ttl)
redis.call('PEXPIRE', events, ttl)
redis.call('PEXPIRE', indexKey(facts[2]), ttl)
wake(id)
return 1`;

/** ARGV: prefix, stream id, now, ttl ms. Marks the stream ended (idempotent). */
export const END = `${HEAD}
local id, ttl = ARGV[2], ARGV[4]
local meta = metaKey(id)
local ended = redis.call('HGET', meta, 'ended')
if not ended or ended == '1' then return 0 end
redis.call('HSET', meta, 'ended', '1', 'touched', ARGV[3])
redis.call('PEXPIRE', meta, ttl)
if redis.call('EXISTS', eventsKey(id)) == 1 then redis.call('PEXPIRE', eventsKey(id), ttl) end
wake(id)
return 1`;

/**
 * ARGV: prefix, owner, lease until, now, then stream ids. Extends the leases of those streams the
 * owner opened with one that have neither ended nor run out (an orphaned stream stays so).
 */
export const RENEW = `${HEAD}
local owner, leaseUntil, now = ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4])
for i = 5, #ARGV do
  local facts = redis.call('HMGET', metaKey(ARGV[i]), 'owner', 'ended', 'leaseUntil')
  if facts[1] == owner and facts[2] == '0' and facts[3] and tonumber(facts[3]) > now
    and leaseUntil > tonumber(facts[3]) then
    redis.call('HSET', metaKey(ARGV[i]), 'leaseUntil', ARGV[3])
  end
end
return 1`;

/**
 * ARGV: prefix, stream id, session id, seq, now, ttl ms, most events, strict ('1' or '0').
 * Strict (a client's Last-Event-ID): {0} when the id is no resumption of a stream of the session
 * (unknown, lapsed, another session's, a seq not yet written, or events after it trimmed).
 * Not strict (a follower reading on): {0} only when the stream is gone. Otherwise {1, ended, events
 * after seq, lease until or nil, request ids JSON or nil}, all read at one instant.
 */
export const READ = `${HEAD}
local id, session, seq, now, ttl = ARGV[2], ARGV[3], tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local meta, events = metaKey(id), eventsKey(id)
local facts = redis.call('HMGET', meta, 'sessionId', 'lastSeq', 'ended', 'touched', 'leaseUntil', 'requestIds')
if not facts[1] then return {0} end
if ARGV[8] == '1' then
  if now - tonumber(facts[4]) >= ttl then
    drop(id)
    return {0}
  end
  if facts[1] ~= session or seq > tonumber(facts[2]) then return {0} end
  local first = redis.call('XRANGE', events, '-', '+', 'COUNT', 1)[1]
  if first and seq < tonumber(string.match(first[1], '^(%d+)')) - 1 then return {0} end
end
local after = redis.call('XRANGE', events, string.format('%.0f', seq + 1) .. '-0', '+', 'COUNT', ARGV[7])
return {1, facts[3], after, facts[5], facts[6]}`;

/** ARGV: prefix, session id. Drops every stream of the session. */
export const DROP_SESSION = `${HEAD}
local index = indexKey(ARGV[2])
for _, id in ipairs(redis.call('ZRANGE', index, 0, -1)) do drop(id) end
redis.call('DEL', index)
return 1`;
