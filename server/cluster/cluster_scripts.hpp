// The Lua scripts the directory runs in Redis (EVAL): each reads and writes several keys
// atomically, which is what makes a lease and its epoch safe against two nodes at once. The key
// layout is in docs/cluster.md; every key starts with the directory's prefix (ARGV[1]).
#pragma once

namespace duelhall::cluster::scripts {

// ARGV: prefix, node, address, matches, room, ttl_ms. Writes the node's heartbeat and renews
// (or takes back, while nobody adopted it) the lease of every match it owns. Returns the
// matches it no longer owns (another node adopted them: their epoch moved on).
extern const char* const kHeartbeat;
// ARGV: prefix, node, match, ttl_ms. A new match's lease: the next epoch, or 0 when another
// node holds the lease.
extern const char* const kAcquire;
// ARGV: prefix. The matches whose owner's heartbeat and lease have both lapsed, as a flat list
// match, old owner, ended (1: its node marked it ended), ...; forgets nodes that lapsed and own
// nothing.
extern const char* const kOrphans;
// ARGV: prefix, node, match, old owner, ttl_ms. Takes a lapsed lease over: the next epoch, or 0
// when the lease is held (its owner came back, or another node adopted it first).
extern const char* const kAdopt;
// ARGV: prefix, node, match. Drops the lease of a match that ended, if the node still owns it.
extern const char* const kRelease;
// ARGV: prefix, node, channel, then the matches the node hosts. At a node's start: every match a
// past run of the node owned and this run does not host (a match lost before its store had it)
// is given up as kRelease does, and its listing, if the node's, is dropped and announced gone,
// so no lease or listing outlives it. Returns how many were given up.
extern const char* const kReleaseUnhosted;
// ARGV: prefix. Every live node: name, address, matches, room, milliseconds since its last
// heartbeat (by Redis's clock), ... (flat).
extern const char* const kNodes;
// ARGV: prefix, node, match. Marks a match the node owns as ended (listed until it goes): should
// the node die, its adopter checks the store before it claims it. 1 when marked, 0 when the
// node does not own it.
extern const char* const kMatchEnded;
// ARGV: prefix, match, node, info, channel, message. Stores a listing and announces it.
extern const char* const kPublishListing;
// ARGV: prefix, match, channel, message. Drops a listing and announces it.
extern const char* const kRemoveListing;
// ARGV: prefix. Every listing: match, node, info, ... (flat).
extern const char* const kListings;
// ARGV: prefix, count, floor. Reserves `count` match ids cluster-wide, never at or below
// `floor` (the highest id this node's store has seen): returns the last id of the block.
extern const char* const kReserveIds;

}  // namespace duelhall::cluster::scripts
