#include "lobby/moderation_support.hpp"

#include "net/messages.hpp"

namespace duelhall::server {

Sanction sanction_of(const accounts::Sanction& s) {
  Sanction out;
  out.set_kind(s.kind);
  out.set_reason(s.reason);
  out.set_expires_ms(static_cast<uint64_t>(s.expires_ms));
  return out;
}

accounts::Role role_of(Hub& hub, const ClientState& state) {
  const auto& account = state.account.account;
  if (!hub.moderation() || !account || account->guest) return accounts::Role::kNone;
  return hub.moderation()->role(account->id);
}

std::optional<Target> resolve_target(Hub& hub, const ModerationTarget& wanted, Handled& refusal) {
  Target target;
  if (wanted.player_id() != 0) {
    target.player = hub.roster().find_player(wanted.player_id());
    if (!target.player) {
      refusal = Handled::fail(UNKNOWN_TARGET, "no connected player has that id");
      return std::nullopt;
    }
    target.name = target.player->name();
    const Player::Account bound = target.player->account();
    if (bound.id != 0) target.account = accounts::AccountView{bound.id, bound.name, bound.guest};
    return target;
  }
  if (!wanted.account().empty()) {
    auto account = hub.accounts() ? hub.accounts()->find(wanted.account()) : std::nullopt;
    if (!account) {
      refusal = Handled::fail(UNKNOWN_TARGET, "no account named " + wanted.account());
      return std::nullopt;
    }
    target.account = account;
    target.name = account->name;
    return target;
  }
  refusal = Handled::fail(BAD_TARGET, "name a player (player_id) or an account");
  return std::nullopt;
}

size_t tell_peers(const std::vector<std::shared_ptr<Peer>>& peers, const Sanction& sanction,
                  const std::string& close_reason) {
  ServerMessage m;
  *m.mutable_sanction() = sanction;
  const Frame frame = frame_of(m);
  for (const auto& peer : peers) {
    peer->send(frame);
    if (!close_reason.empty()) peer->close(close_reason);
  }
  return peers.size();
}

size_t kick_out(Hub& hub, const std::function<bool(const Roster::Entry&)>& pick, int64_t account,
                const std::string& reason, const std::optional<std::string>& spared) {
  Sanction kick;
  kick.set_kind("kick");
  kick.set_reason(reason);
  const uint32_t hold = hub.config().kick_hold_seconds;
  if (hold > 0)
    kick.set_expires_ms(static_cast<uint64_t>(hub.moderation()->now_ms() + hold * 1000LL));
  std::vector<std::shared_ptr<Peer>> peers;
  for (const Roster::Entry& entry : hub.roster().all()) {
    auto peer = entry.peer.lock();
    if (!peer || !pick(entry)) continue;
    hub.forget_token(entry.player->token());
    if (spared && entry.address != *spared)
      hub.moderation()->hold_out(0, entry.address, hold, reason);
    peers.push_back(std::move(peer));
  }
  if (account != 0) hub.moderation()->hold_out(account, {}, hold, reason);
  return tell_peers(peers, kick, "KICKED: " + (reason.empty() ? "by a moderator" : reason));
}

bool is_target(const Roster::Entry& entry, const Target& target) {
  if (!entry.player) return false;
  if (target.player && entry.player == target.player) return true;
  return target.account && entry.player->account().id == target.account->id;
}

}  // namespace duelhall::server
