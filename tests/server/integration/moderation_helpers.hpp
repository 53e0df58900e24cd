// Helpers of the moderation tests: accounts made over the WebSocket, the first admin made on the
// command line (duelhall admin grant), and moderation commands.
#pragma once

#include <string>

#include "helpers.hpp"

namespace duelhall::testing {

inline ClientMessage sign_in_message(const std::string& name, const std::string& password) {
  ClientMessage m;
  m.mutable_sign_in()->set_name(name);
  m.mutable_sign_in()->set_password(password);
  return m;
}

inline ClientMessage hello_with_session(const std::string& session) {
  ClientMessage m;
  m.mutable_hello()->set_protocol_version(2);
  m.mutable_hello()->set_session_token(session);
  return m;
}

// A connection signed in as a new account `name` (password "correct horse"); its session token
// goes to `session` when given.
inline std::unique_ptr<WsClient> account_connection(uint16_t port, const std::string& name,
                                                    std::string* session = nullptr) {
  auto c = connect_as(port, "guest");
  ClientMessage m;
  m.mutable_register_account()->set_name(name);
  m.mutable_register_account()->set_password("correct horse");
  auto reply = c->request(m);
  REQUIRE(reply.result() == OK);
  if (session) *session = reply.signed_in().session_token();
  return c;
}

// `duelhall admin grant NAME --role ROLE --data DIR`, on a server's data folder while it runs;
// `store_flags`: the server's own store flags as well (--database URL).
inline void grant_on_command_line(const ServerProcess& server, const std::string& name,
                                  const std::string& role = "admin",
                                  const std::vector<std::string>& store_flags = {}) {
  std::vector<std::string> args = {
      "admin", "grant", name, "--role", role, "--data", server.data_dir().string()};
  args.insert(args.end(), store_flags.begin(), store_flags.end());
  const ExitResult r = run_to_exit(args);
  INFO(r.output);
  REQUIRE(r.status == 0);
}

inline ModerationTarget account_target(const std::string& name) {
  ModerationTarget t;
  t.set_account(name);
  return t;
}

inline ClientMessage mute_message(const ModerationTarget& target, uint32_t seconds,
                                  const std::string& reason) {
  ClientMessage m;
  *m.mutable_mute()->mutable_target() = target;
  m.mutable_mute()->set_seconds(seconds);
  m.mutable_mute()->set_reason(reason);
  return m;
}

inline ClientMessage ban_message(const ModerationTarget& target, uint32_t seconds,
                                 const std::string& reason) {
  ClientMessage m;
  *m.mutable_ban()->mutable_target() = target;
  m.mutable_ban()->set_seconds(seconds);
  m.mutable_ban()->set_reason(reason);
  return m;
}

inline ClientMessage chat_message(uint64_t match_id, const std::string& text) {
  ClientMessage m;
  m.mutable_chat()->set_match_id(match_id);
  m.mutable_chat()->set_text(text);
  return m;
}

inline ClientMessage subscribe_lobby() {
  ClientMessage m;
  m.mutable_subscribe_lobby()->set_subscribe(true);
  return m;
}

// Reads until the server closes the connection; false when it stays open for 10 s.
inline bool closed_by_server(WsClient& c) {
  try {
    c.wait_until([] { return false; });
  } catch (const std::exception&) {
    return !c.close_reason().empty();
  }
  return false;
}

// The chat lines `c` has received with this text.
inline int chat_lines(WsClient& c, const std::string& text) {
  int n = 0;
  for (const auto& m : c.pushed()) {
    if (m.has_chat() && m.chat().text() == text) ++n;
  }
  return n;
}

}  // namespace duelhall::testing
