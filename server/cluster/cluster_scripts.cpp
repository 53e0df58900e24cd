#include "cluster/cluster_scripts.hpp"

namespace duelhall::cluster::scripts {

// Keys (P = the prefix, "duelhall:" by default):
//   P node:<name>      hash address, matches, room, seen (Redis's clock at the last heartbeat,
//                      ms); expires with the heartbeat
//   P nodes            set of node names that may own matches
//   P owned:<name>     hash match -> the epoch under which the node owns it
//   P ended:<name>     set of the node's matches that ended (listed until they go): an adopter
//                      checks the store before it claims one
//   P lost:<name>      set of the node's matches adopted by others, until its next heartbeat
//   P lease:<match>    the owner's name; expires unless the owner's heartbeat renews it
//   P epoch:<match>    the match's epoch, INCR'd by every acquisition and adoption
//   P listing:<match>  hash node, info (the serialized listing)
//   P listings         set of listed matches
//   P match-ids        the last match id given out cluster-wide

const char* const kHeartbeat = R"lua(
local p, node, ttl = ARGV[1], ARGV[2], ARGV[6]
local now = redis.call('TIME')
local seen = now[1] * 1000 + math.floor(now[2] / 1000)
redis.call('HSET', p..'node:'..node, 'address', ARGV[3], 'matches', ARGV[4], 'room', ARGV[5],
           'seen', seen)
redis.call('PEXPIRE', p..'node:'..node, ttl)
redis.call('SADD', p..'nodes', node)
local owned = redis.call('HGETALL', p..'owned:'..node)
local lost, told = {}, {}
for i = 1, #owned, 2 do
  local match, epoch = owned[i], owned[i + 1]
  if redis.call('GET', p..'epoch:'..match) == epoch then
    redis.call('SET', p..'lease:'..match, node, 'PX', ttl)
  else
    redis.call('HDEL', p..'owned:'..node, match)
    redis.call('SREM', p..'ended:'..node, match)
    table.insert(lost, match)
    told[match] = true
  end
end
-- News of an adoption is stale once the node owns the match again at its current epoch (it took
-- the match back after the adopter released it): telling it would stop a match nobody else has.
for _, match in ipairs(redis.call('SMEMBERS', p..'lost:'..node)) do
  local mine = redis.call('HGET', p..'owned:'..node, match)
  if not told[match] and (not mine or mine ~= redis.call('GET', p..'epoch:'..match)) then
    table.insert(lost, match)
  end
end
redis.call('DEL', p..'lost:'..node)
return lost
)lua";

const char* const kAcquire = R"lua(
local p, node, match, ttl = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local holder = redis.call('GET', p..'lease:'..match)
if holder and holder ~= node then return 0 end
local epoch = redis.call('INCR', p..'epoch:'..match)
redis.call('SET', p..'lease:'..match, node, 'PX', ttl)
redis.call('HSET', p..'owned:'..node, match, epoch)
redis.call('SREM', p..'lost:'..node, match)
redis.call('SADD', p..'nodes', node)
return epoch
)lua";

const char* const kOrphans = R"lua(
local p = ARGV[1]
local out = {}
for _, node in ipairs(redis.call('SMEMBERS', p..'nodes')) do
  if redis.call('EXISTS', p..'node:'..node) == 0 then
    local owned = redis.call('HKEYS', p..'owned:'..node)
    for _, match in ipairs(owned) do
      if redis.call('EXISTS', p..'lease:'..match) == 0 then
        table.insert(out, match)
        table.insert(out, node)
        table.insert(out, redis.call('SISMEMBER', p..'ended:'..node, match))
      end
    end
    if #owned == 0 then redis.call('SREM', p..'nodes', node) end
  end
end
return out
)lua";

const char* const kAdopt = R"lua(
local p, node, match, old, ttl = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5]
if redis.call('EXISTS', p..'lease:'..match) == 1 then return 0 end
local epoch = redis.call('INCR', p..'epoch:'..match)
redis.call('SET', p..'lease:'..match, node, 'PX', ttl)
redis.call('HDEL', p..'owned:'..old, match)
redis.call('SREM', p..'ended:'..old, match)
redis.call('SADD', p..'lost:'..old, match)
redis.call('PEXPIRE', p..'lost:'..old, 86400000)
redis.call('HSET', p..'owned:'..node, match, epoch)
redis.call('SADD', p..'nodes', node)
if redis.call('EXISTS', p..'listing:'..match) == 1 then
  redis.call('HSET', p..'listing:'..match, 'node', node)
end
return epoch
)lua";

const char* const kReleaseUnhosted = R"lua(
local p, node, channel = ARGV[1], ARGV[2], ARGV[3]
local hosted = {}
for i = 4, #ARGV do hosted[ARGV[i]] = true end
local released = 0
for _, match in ipairs(redis.call('HKEYS', p..'owned:'..node)) do
  if not hosted[match] then
    local epoch = redis.call('HGET', p..'owned:'..node, match)
    redis.call('HDEL', p..'owned:'..node, match)
    redis.call('SREM', p..'ended:'..node, match)
    if redis.call('GET', p..'epoch:'..match) == epoch then
      redis.call('DEL', p..'lease:'..match)
      redis.call('PEXPIRE', p..'epoch:'..match, 86400000)
    end
    if redis.call('HGET', p..'listing:'..match, 'node') == node then
      redis.call('DEL', p..'listing:'..match)
      redis.call('SREM', p..'listings', match)
      redis.call('PUBLISH', channel, 'R '..match..' '..node..'\n')
    end
    released = released + 1
  end
end
return released
)lua";

const char* const kRelease = R"lua(
local p, node, match = ARGV[1], ARGV[2], ARGV[3]
local epoch = redis.call('HGET', p..'owned:'..node, match)
if not epoch then return 0 end
redis.call('HDEL', p..'owned:'..node, match)
redis.call('SREM', p..'ended:'..node, match)
if redis.call('GET', p..'epoch:'..match) == epoch then
  redis.call('DEL', p..'lease:'..match)
  redis.call('PEXPIRE', p..'epoch:'..match, 86400000)
end
return 1
)lua";

const char* const kNodes = R"lua(
local p = ARGV[1]
local now = redis.call('TIME')
local ms = now[1] * 1000 + math.floor(now[2] / 1000)
local out = {}
for _, node in ipairs(redis.call('SMEMBERS', p..'nodes')) do
  local fields = redis.call('HMGET', p..'node:'..node, 'address', 'matches', 'room', 'seen')
  if fields[1] then
    table.insert(out, node)
    table.insert(out, fields[1])
    table.insert(out, fields[2] or '0')
    table.insert(out, fields[3] or '0')
    table.insert(out, tostring(math.max(0, ms - tonumber(fields[4] or ms))))
  end
end
return out
)lua";

const char* const kMatchEnded = R"lua(
local p, node, match = ARGV[1], ARGV[2], ARGV[3]
local epoch = redis.call('HGET', p..'owned:'..node, match)
if not epoch or redis.call('GET', p..'epoch:'..match) ~= epoch then return 0 end
redis.call('SADD', p..'ended:'..node, match)
return 1
)lua";

const char* const kPublishListing = R"lua(
local p, match = ARGV[1], ARGV[2]
redis.call('HSET', p..'listing:'..match, 'node', ARGV[3], 'info', ARGV[4])
redis.call('SADD', p..'listings', match)
redis.call('PUBLISH', ARGV[5], ARGV[6])
return 1
)lua";

const char* const kRemoveListing = R"lua(
local p, match = ARGV[1], ARGV[2]
redis.call('DEL', p..'listing:'..match)
redis.call('SREM', p..'listings', match)
redis.call('PUBLISH', ARGV[3], ARGV[4])
return 1
)lua";

const char* const kListings = R"lua(
local p = ARGV[1]
local out = {}
for _, match in ipairs(redis.call('SMEMBERS', p..'listings')) do
  local fields = redis.call('HMGET', p..'listing:'..match, 'node', 'info')
  if fields[1] and fields[2] then
    table.insert(out, match)
    table.insert(out, fields[1])
    table.insert(out, fields[2])
  else
    redis.call('SREM', p..'listings', match)
  end
end
return out
)lua";

const char* const kReserveIds = R"lua(
local p, count, floor = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
local last = tonumber(redis.call('GET', p..'match-ids') or '0')
if last < floor then redis.call('SET', p..'match-ids', floor) end
return redis.call('INCRBY', p..'match-ids', count)
)lua";

}  // namespace duelhall::cluster::scripts
