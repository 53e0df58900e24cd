// The end of a session reaches the live connections signed in with it (docs/accounts.md).
#include <spdlog/spdlog.h>

#include "accounts/account_commands.hpp"
#include "lobby/hub.hpp"

namespace duelhall::server {
namespace {

bool ends(const accounts::EndedSessions& ended, const Player::Account& bound) {
  if (bound.id != ended.account || bound.guest) return false;
  switch (ended.kind) {
    case accounts::EndedSessions::kOne:
      return bound.session_hash == ended.session_hash;
    case accounts::EndedSessions::kAllButOne:
      return bound.session_hash != ended.session_hash;
    case accounts::EndedSessions::kAll:
      return true;
    case accounts::EndedSessions::kNone:
      return false;
  }
  return false;
}

}  // namespace

void Hub::end_sessions(const accounts::EndedSessions& ended, const Peer* acting) {
  std::vector<std::shared_ptr<Player>> players;
  {
    std::lock_guard lock(mutex_);
    players.reserve(players_by_token_.size());
    for (const auto& [token, player] : players_by_token_) players.push_back(player);
  }
  size_t closed = 0;
  for (const auto& player : players) {
    if (!ends(ended, player->account())) continue;
    auto peer = player->peer();
    if (peer && peer.get() == acting) continue;
    // First the account, then the connection: a resume, or a command already read, finds the
    // player without it.
    player->set_account({});
    if (peer) {
      peer->close(
          "BAD_SESSION: the session was ended (signed out, password changed or account "
          "deleted): sign in again");
      ++closed;
    }
  }
  if (closed > 0)
    spdlog::info("session end: {} connections of account {} closed", closed, ended.account);
}

}  // namespace duelhall::server
