#include "moderation/roster.hpp"

namespace duelhall::server {

void Roster::add(const std::shared_ptr<Peer>& peer, std::shared_ptr<Player> player,
                 std::string address, std::set<int64_t> ignored_accounts) {
  std::lock_guard lock(mutex_);
  Entry& e = entries_[peer->peer_id()];
  e.peer_id = peer->peer_id();
  e.peer = peer;
  e.player = std::move(player);
  e.address = std::move(address);
  e.ignored_accounts = std::move(ignored_accounts);
}

void Roster::remove(uint64_t peer_id) {
  std::lock_guard lock(mutex_);
  entries_.erase(peer_id);
}

std::vector<Roster::Entry> Roster::all() {
  std::lock_guard lock(mutex_);
  std::vector<Entry> out;
  out.reserve(entries_.size());
  for (const auto& [id, e] : entries_) out.push_back(e);
  return out;
}

std::vector<std::shared_ptr<Peer>> Roster::peers(const std::function<bool(const Entry&)>& pick) {
  std::vector<std::shared_ptr<Peer>> out;
  for (const Entry& e : all()) {
    if (!pick(e)) continue;
    if (auto peer = e.peer.lock()) out.push_back(std::move(peer));
  }
  return out;
}

std::shared_ptr<Player> Roster::find_player(uint64_t player_id) {
  std::lock_guard lock(mutex_);
  for (const auto& [id, e] : entries_) {
    if (e.player && e.player->id() == player_id) return e.player;
  }
  return nullptr;
}

void Roster::set_ignored_accounts(uint64_t peer_id, std::set<int64_t> accounts) {
  std::lock_guard lock(mutex_);
  auto it = entries_.find(peer_id);
  if (it != entries_.end()) it->second.ignored_accounts = std::move(accounts);
}

void Roster::ignore(uint64_t peer_id, int64_t account, uint64_t player, bool on) {
  std::lock_guard lock(mutex_);
  auto it = entries_.find(peer_id);
  if (it == entries_.end()) return;
  Entry& e = it->second;
  if (account != 0) {
    if (on) {
      e.ignored_accounts.insert(account);
    } else {
      e.ignored_accounts.erase(account);
    }
  }
  if (on) {
    e.ignored_players.insert(player);
  } else {
    e.ignored_players.erase(player);
  }
}

std::pair<std::set<int64_t>, std::set<uint64_t>> Roster::ignored(uint64_t peer_id) {
  std::lock_guard lock(mutex_);
  auto it = entries_.find(peer_id);
  if (it == entries_.end()) return {};
  return {it->second.ignored_accounts, it->second.ignored_players};
}

bool Roster::ignores(uint64_t receiver, const Player& sender) {
  const int64_t account = sender.account().id;
  std::lock_guard lock(mutex_);
  auto it = entries_.find(receiver);
  if (it == entries_.end()) return false;
  const Entry& e = it->second;
  return e.ignored_players.count(sender.id()) > 0 ||
         (account != 0 && e.ignored_accounts.count(account) > 0);
}

uint64_t ChatLog::add(uint64_t match_id, const Player& from, const std::string& text) {
  Line line{0, match_id, from.id(), from.account().id, from.name(), text};
  std::lock_guard lock(mutex_);
  line.id = next_++;
  const uint64_t id = line.id;
  lines_.emplace(id, std::move(line));
  while (lines_.size() > capacity_) lines_.erase(lines_.begin());
  return id;
}

std::optional<ChatLog::Line> ChatLog::find(uint64_t id) {
  std::lock_guard lock(mutex_);
  auto it = lines_.find(id);
  if (it == lines_.end()) return std::nullopt;
  return it->second;
}

}  // namespace duelhall::server
