// An in-process server with accounts and moderation (SQLite in memory) for the hall's tests:
// players sign in with a session of a registered account, and the friends room's clock and tick
// are driven by hand.
#pragma once

#include <catch2/catch.hpp>

#include "accounts/account_service.hpp"
#include "moderation/moderation_service.hpp"
#include "storage/sqlite/sqlite_account_store.hpp"
#include "support/in_process.hpp"

namespace duelhall::testing {

inline server::Config hall_config() {
  server::Config config;
  config.challenge_seconds = 60;
  config.challenge_offline_seconds = 3600;
  return config;
}

struct Hall {
  explicit Hall(server::Config config = hall_config())
      : accounts(store, {}, [this] { return now; }),
        moderation(accounts, store, [this] { return now; }),
        server(std::move(config)) {
    server.hub->set_accounts(&accounts);
    server.hub->set_moderation(&moderation);
    server.hub->friends().set_clock([this] { return now; });
  }
  // Registers `name` and returns its session token.
  std::string account(const std::string& name) {
    const std::string address = "192.0.2." + std::to_string(++registered);
    auto grant = accounts.register_account(name, "correct horse battery", address, std::nullopt);
    REQUIRE(grant.answer.code == OK);
    return grant.session_token;
  }
  accounts::AccountView view(const std::string& name) { return *accounts.find(name); }
  void tick() {
    server.pump(std::chrono::milliseconds(20));  // listings are published on the matches' strands
    server.hub->friends().tick();
  }

  int registered = 0;
  int64_t now = 1'800'000'000'000;
  storage::SqliteAccountStore store{":memory:"};
  accounts::AccountService accounts;
  accounts::ModerationService moderation;
  InProcessServer server;  // last: it goes first, while the services it points to stand
};

// A connection signed in with `token` (Hello's session_token).
inline void sign_in(InProcessClient& client, const std::string& token) {
  ClientMessage m;
  m.mutable_hello()->set_protocol_version(server::kProtocolVersion);
  m.mutable_hello()->set_session_token(token);
  const ServerMessage reply = client.request(m);
  REQUIRE(reply.result() == OK);
}

// The next pushed message of `body` kind, or nullopt within a short wait.
inline std::optional<ServerMessage> next_push(InProcessClient& client, ServerMessage::BodyCase body) {
  std::optional<ServerMessage> found;
  client.wait_until(
      [&] {
        for (auto it = client.inbox.begin(); it != client.inbox.end(); ++it) {
          if (it->request_id() == 0 && it->body_case() == body) {
            found = *it;
            client.inbox.erase(it);
            return true;
          }
        }
        return false;
      },
      std::chrono::milliseconds(200));
  return found;
}

inline ClientMessage challenge_message(const std::string& to) {
  ClientMessage m;
  m.mutable_challenge()->set_to_name(to);
  m.mutable_challenge()->mutable_settings()->set_ruleset(kTestRuleset);
  m.mutable_challenge()->mutable_settings()->set_spectators_allowed(true);
  return m;
}

inline ClientMessage answer_message(uint64_t id, bool accept, const std::string& reason = {}) {
  ClientMessage m;
  m.mutable_answer_challenge()->set_challenge_id(id);
  m.mutable_answer_challenge()->set_accept(accept);
  m.mutable_answer_challenge()->set_reason(reason);
  return m;
}

}  // namespace duelhall::testing
