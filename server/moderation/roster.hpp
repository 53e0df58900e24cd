// The connections that have said Hello: who is on each (player, address), for the moderators'
// list, kicks, bans and announcements; and whom each one ignores, for the chat. Locked only to
// read or change the list; what it hands out is copied under the lock and used outside it.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "match/player.hpp"
#include "net/peer.hpp"

namespace duelhall::server {

class Roster {
 public:
  struct Entry {
    uint64_t peer_id = 0;
    std::weak_ptr<Peer> peer;
    std::shared_ptr<Player> player;
    std::string address;
    std::set<int64_t> ignored_accounts;  // stored with the account (loaded at hello/sign-in)
    std::set<uint64_t> ignored_players;  // guests without an account: this connection's only
  };

  void add(const std::shared_ptr<Peer>& peer, std::shared_ptr<Player> player, std::string address,
           std::set<int64_t> ignored_accounts);
  void remove(uint64_t peer_id);
  std::vector<Entry> all();
  // The connections `pick` chooses (their peers, alive).
  std::vector<std::shared_ptr<Peer>> peers(const std::function<bool(const Entry&)>& pick);
  // The player of a connected player id (nullptr when none is connected).
  std::shared_ptr<Player> find_player(uint64_t player_id);

  void set_ignored_accounts(uint64_t peer_id, std::set<int64_t> accounts);
  void ignore(uint64_t peer_id, int64_t account, uint64_t player, bool on);
  // The names and player ids this connection ignores (names of connected players only for
  // guests).
  std::pair<std::set<int64_t>, std::set<uint64_t>> ignored(uint64_t peer_id);
  // Whether the connection `receiver` ignores chat from `sender`.
  bool ignores(uint64_t receiver, const Player& sender);

 private:
  std::mutex mutex_;
  std::map<uint64_t, Entry> entries_;
};

// The recent chat lines, so that a report names a line the server really sent (by its
// ChatMessage.message_id) and quotes it as it was. Bounded: the oldest lines age out.
class ChatLog {
 public:
  struct Line {
    uint64_t id = 0;
    uint64_t match_id = 0;
    uint64_t from_player = 0;
    int64_t from_account = 0;
    std::string from;
    std::string text;
  };
  explicit ChatLog(size_t capacity = 4096) : capacity_(capacity) {}
  uint64_t add(uint64_t match_id, const Player& from, const std::string& text);
  std::optional<Line> find(uint64_t id);

 private:
  const size_t capacity_;
  std::mutex mutex_;
  uint64_t next_ = 1;
  std::map<uint64_t, Line> lines_;
};

}  // namespace duelhall::server
