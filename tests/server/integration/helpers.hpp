// Small protocol helpers for the integration tests.
#pragma once

#include <catch2/catch.hpp>
#include <memory>

#include "server_process.hpp"
#include "ws_client.hpp"

namespace duelhall::testing {

using client::WsClient;

inline std::unique_ptr<WsClient> connect_as(uint16_t port, const std::string& name) {
  auto c = std::make_unique<WsClient>();
  c->connect("127.0.0.1", port);
  c->record_frames(true);
  auto welcome = c->hello(name);
  REQUIRE(welcome.result() == OK);
  return c;
}

inline ClientMessage create_match(const std::string& ruleset, int seats, bool join, int bots,
                                  bool spectators = true) {
  ClientMessage m;
  CreateMatch* c = m.mutable_create_match();
  c->mutable_settings()->set_ruleset(ruleset);
  c->mutable_settings()->set_seats(static_cast<uint32_t>(seats));
  c->mutable_settings()->set_spectators_allowed(spectators);
  c->set_join(join);
  c->set_bot_seats(static_cast<uint32_t>(bots));
  return m;
}

inline ClientMessage join_match(uint64_t id, int seat) {
  ClientMessage m;
  m.mutable_join_match()->set_match_id(id);
  m.mutable_join_match()->set_seat(seat);
  return m;
}

inline ClientMessage spectate(uint64_t id) {
  ClientMessage m;
  m.mutable_spectate()->set_match_id(id);
  return m;
}

inline ClientMessage action(uint64_t id, uint64_t code, uint64_t seq = 0) {
  ClientMessage m;
  m.mutable_action()->set_match_id(id);
  m.mutable_action()->set_code(code);
  m.mutable_action()->set_seq(seq);
  return m;
}

inline ClientMessage resync(uint64_t id) {
  ClientMessage m;
  m.mutable_resync()->set_match_id(id);
  return m;
}

// The Hello of a player who comes back with its token and the last seq it was shown of `match`.
inline ClientMessage resume_hello(const std::string& token, uint64_t match, uint64_t seq) {
  ClientMessage m;
  m.mutable_hello()->set_protocol_version(1);
  m.mutable_hello()->set_resume_token(token);
  MatchCursor* c = m.mutable_hello()->add_cursors();
  c->set_match_id(match);
  c->set_seq(seq);
  return m;
}

inline ClientMessage ping(uint64_t nonce) {
  ClientMessage m;
  m.mutable_ping()->set_nonce(nonce);
  return m;
}

}  // namespace duelhall::testing
