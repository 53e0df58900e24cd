#include "cluster/pool_scripts.hpp"

namespace duelhall::cluster::scripts {

// Keys (P = the prefix):
//   P seeks:<pool>   hash seeker -> "<arrival>:<since ms>:<node>:<bytes>"
//   P seeking        hash seeker -> its pool (one seek per player across pools and nodes)
//   P seek-pools     set of the pools that have seekers
//   P seek-arrivals  the last arrival number given out
//   P wave-lease     the node that runs the waves; expires unless it renews it
//   P paired:<node>  list of the pairings queued for the node (expires after a minute)
//   P presence:<node> the accounts connected to the node (expires unless it writes it again)
//   P presence-nodes set of the nodes that wrote their presence (an expired one leaves it)

const char* const kPoolSeek = R"lua(
local p, seeker, pool, node, bytes = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5]
if redis.call('HEXISTS', p..'seeking', seeker) == 1 then return 0 end
local arrival = redis.call('INCR', p..'seek-arrivals')
local now = redis.call('TIME')
local ms = now[1] * 1000 + math.floor(now[2] / 1000)
redis.call('HSET', p..'seeks:'..pool, seeker, arrival..':'..ms..':'..node..':'..bytes)
redis.call('HSET', p..'seeking', seeker, pool)
redis.call('SADD', p..'seek-pools', pool)
return arrival
)lua";

const char* const kPoolCancel = R"lua(
local p, seeker, node = ARGV[1], ARGV[2], ARGV[3]
local pool = redis.call('HGET', p..'seeking', seeker)
if not pool then return 0 end
local entry = redis.call('HGET', p..'seeks:'..pool, seeker)
if entry and string.match(entry, '^%d+:%d+:([^:]*):') ~= node then return 0 end
redis.call('HDEL', p..'seeking', seeker)
redis.call('HDEL', p..'seeks:'..pool, seeker)
if redis.call('HLEN', p..'seeks:'..pool) == 0 then redis.call('SREM', p..'seek-pools', pool) end
return 1
)lua";

const char* const kPoolRead = R"lua(
local p, node, ttl = ARGV[1], ARGV[2], ARGV[3]
local holder = redis.call('GET', p..'wave-lease')
local leased = 0
if not holder or holder == node then
  redis.call('SET', p..'wave-lease', node, 'PX', ttl)
  leased = 1
end
local now = redis.call('TIME')
local out = {leased, now[1] * 1000 + math.floor(now[2] / 1000)}
for _, pool in ipairs(redis.call('SMEMBERS', p..'seek-pools')) do
  local all = redis.call('HGETALL', p..'seeks:'..pool)
  for i = 1, #all, 2 do
    table.insert(out, pool)
    table.insert(out, all[i])
    table.insert(out, all[i + 1])
  end
end
return out
)lua";

const char* const kPoolClaim = R"lua(
local p, pool, message, count = ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4])
local first = 5 + count
for i = first, #ARGV, 2 do
  if redis.call('HGET', p..'seeks:'..pool, ARGV[i]) ~= ARGV[i + 1] then return 0 end
end
for i = first, #ARGV, 2 do
  redis.call('HDEL', p..'seeks:'..pool, ARGV[i])
  redis.call('HDEL', p..'seeking', ARGV[i])
end
if redis.call('HLEN', p..'seeks:'..pool) == 0 then redis.call('SREM', p..'seek-pools', pool) end
for i = 5, first - 1 do
  redis.call('RPUSH', p..'paired:'..ARGV[i], message)
  redis.call('PEXPIRE', p..'paired:'..ARGV[i], 60000)
end
return 1
)lua";

const char* const kPoolSend = R"lua(
redis.call('RPUSH', ARGV[1]..'paired:'..ARGV[2], ARGV[3])
redis.call('PEXPIRE', ARGV[1]..'paired:'..ARGV[2], 60000)
return 1
)lua";

const char* const kPoolInbox = R"lua(
local key = ARGV[1]..'paired:'..ARGV[2]
local items = redis.call('LRANGE', key, 0, -1)
redis.call('DEL', key)
return items
)lua";

const char* const kPresenceSwap = R"lua(
local p, node, bytes, ttl = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
redis.call('SET', p..'presence:'..node, bytes, 'PX', ttl)
redis.call('SADD', p..'presence-nodes', node)
local out = {}
for _, other in ipairs(redis.call('SMEMBERS', p..'presence-nodes')) do
  if other ~= node then
    local seen = redis.call('GET', p..'presence:'..other)
    if seen then table.insert(out, seen) else redis.call('SREM', p..'presence-nodes', other) end
  end
end
return out
)lua";

}  // namespace duelhall::cluster::scripts
