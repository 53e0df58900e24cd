// What every room of the hall shares with the dispatcher that routes commands to it
// (lobby/dispatch.cpp): the state of a connection, a command as its handler receives it (the
// connection, its request id, the reply to fill) and the typed answer a handler returns.
// Handlers never touch sockets: replies go to an outbox the session flushes; match commands are
// posted to the match, which answers from its strand (the handler returns `later()`).
#pragma once

#include <algorithm>
#include <boost/container/devector.hpp>
#include <cstdint>
#include <memory>
#include <set>
#include <string>

#include "accounts/account_commands.hpp"
#include "config/config.hpp"
#include "envelope.pb.h"
#include "match/player.hpp"
#include "net/peer.hpp"
#include "net/rate_limiter.hpp"
#include "storage/replay_cursor.hpp"

namespace duelhall::server {

// What a connection knows about itself; touched only on the connection's strand.
struct ClientState {
  explicit ClientState(const Limits& limits)
      : chat(limits.chat_per_minute / 60.0, std::max<double>(1.0, limits.chat_per_minute / 6.0)) {}
  std::shared_ptr<Player> player;
  bool subscribed = false;
  std::set<uint64_t> watching;  // matches this connection spectates
  RateLimiter chat;
  // The replay this connection last looked at, kept open so that stepping is one action.
  std::shared_ptr<storage::ReplayCursor> replay;
  uint64_t replay_match = 0;
  accounts::ConnectionAccount account;  // its address is set by the session
  // A password command is on the hashing pool: the connection's next commands wait in `held`
  // (bounded), so its replies keep the order of its commands. A devector allocates nothing
  // while empty, as it nearly always is; std::deque allocates about 600 bytes at construction,
  // which every waiting connection paid.
  bool hashing = false;
  boost::container::devector<ClientMessage> held;
};

struct Handled {
  ResultCode code = OK;
  std::string reason;
  bool deferred = false;   // the match replies later
  bool keep_body = false;  // a refusal that explains itself in the body (a Sanction)
  uint32_t retry_after_ms = 0;  // ServerMessage.retry_after_ms, kept on a refusal
  uint32_t attempts_left = 0;   // ServerMessage.attempts_left, likewise
  static Handled ok() { return {}; }
  static Handled retry(ResultCode code, std::string reason, uint32_t after_ms) {
    return {code, std::move(reason), false, false, after_ms};
  }
  static Handled fail(ResultCode code, std::string reason) {
    return {code, std::move(reason), false};
  }
  static Handled later() { return {OK, {}, true}; }
};

// One command on its way through a room's handler.
struct Call {
  const std::shared_ptr<Peer>& peer;
  ClientState& state;
  uint64_t request_id;
  ServerMessage& reply;
  bool ticketed = false;  // a good cluster ticket came with the command: serve it here
};

}  // namespace duelhall::server
