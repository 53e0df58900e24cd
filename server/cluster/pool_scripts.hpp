// The Lua scripts of quick pairing across nodes (docs/pairing.md, "Across a cluster"): who seeks
// lives in Redis, one hash per pool, and a wave's pairing is claimed by one script that removes
// every seeker of it at once, so a pairing is made once whichever nodes the players sit on. The
// entries are opaque here: "<arrival>:<since ms>:<node>:<bytes>" (the bytes are the room's).
#pragma once

namespace duelhall::cluster::scripts {

// ARGV: prefix, seeker, pool, node, bytes. Enters a seek: its arrival number, or 0 when the
// seeker seeks already (in any pool, on any node).
extern const char* const kPoolSeek;
// ARGV: prefix, seeker, node. Takes the seek out when it is still there and still the node's:
// 1, else 0 (a wave claimed it already, or the player seeks through another node).
extern const char* const kPoolCancel;
// ARGV: prefix, node, lease_ms. Takes or renews the wave lease (one node pairs at a time) and
// reads every seek: leased (0 or 1), Redis's clock (ms), then pool, seeker, entry, ... (flat).
extern const char* const kPoolRead;
// ARGV: prefix, pool, message, count of nodes, the nodes, then seeker, entry, ... Claims a
// pairing: when every seeker's entry is still the one read, removes them all and queues
// `message` for each node (the list paired:<node>); 1, else 0 and nothing changed.
extern const char* const kPoolClaim;
// ARGV: prefix, node, message. Queues `message` for the node.
extern const char* const kPoolSend;
// ARGV: prefix, node. Every message queued for the node, taken off its list.
extern const char* const kPoolInbox;
// ARGV: prefix, node, bytes, ttl_ms. Writes the node's presence (presence:<node>, expiring after
// ttl_ms) and reads every other node's that has not expired (friends/friends_cluster.cpp).
extern const char* const kPresenceSwap;

}  // namespace duelhall::cluster::scripts
