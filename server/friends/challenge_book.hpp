// The challenges waiting for an answer, with their refusals, expiry and rate limit. Pure: no
// sockets, no store, no clock of its own (the caller passes `now_ms`, Unix milliseconds), no
// lock (the room holds its own around it). Accounts are named by id; the room resolves names.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "lobby.pb.h"
#include "result.pb.h"

namespace duelhall::server {

struct PendingChallenge {
  uint64_t id = 0;
  int64_t from = 0;
  std::string from_name;
  int64_t to = 0;
  std::string to_name;
  MatchSettings settings;
  std::string seat_option;  // the challenger's
  int64_t expires_ms = 0;
  bool sent_offline = false;
  bool delivered = false;  // the target has been told (at once when online, else at sign-in)
};

struct ChallengeLimits {
  int64_t online_ms = 60'000;        // a challenge to a connected account waits this long
  int64_t offline_ms = 86'400'000;   // ... to an account that is not connected, this long
  uint32_t per_minute = 6;           // challenges an account may send in any 60 s
  uint32_t max_pending = 5;          // challenges an account may have waiting at once
};

class ChallengeBook {
 public:
  explicit ChallengeBook(ChallengeLimits limits) : limits_(limits) {}

  struct Added {
    ResultCode code = OK;
    std::string reason;
    PendingChallenge challenge;
  };
  // Records a challenge from `from` to `to` (refusals change nothing; the identity, ignore and
  // ban checks are the room's, made before). The rate limit counts accepted sends only.
  // `given_id`: the challenge's id, given by the caller (a cluster's); 0: the book's own next.
  Added add(int64_t from, std::string from_name, int64_t to, std::string to_name,
            MatchSettings settings, std::string seat_option, bool target_online, int64_t now_ms,
            uint64_t given_id = 0);
  // Removes and returns the challenge `id` if it still waits for `answerer` (its target);
  // nullopt, changing nothing, when it expired, was withdrawn or answered, or is another's.
  std::optional<PendingChallenge> take_answered(uint64_t id, int64_t answerer, int64_t now_ms);
  // The same for its challenger withdrawing it.
  std::optional<PendingChallenge> take_withdrawn(uint64_t id, int64_t challenger, int64_t now_ms);
  // Removes and returns the challenges whose time ran out.
  std::vector<PendingChallenge> take_expired(int64_t now_ms);
  // Removes and returns every challenge `challenger` sent (it left the hall).
  std::vector<PendingChallenge> take_sent_by(int64_t challenger);
  // The challenges to `target` not yet delivered, now marked delivered.
  std::vector<PendingChallenge> deliver_to(int64_t target);
  // Every waiting challenge from or to `account` (to tell a new connection of them).
  std::vector<PendingChallenge> involving(int64_t account) const;
  // Every waiting challenge.
  std::vector<PendingChallenge> all() const;
  // The accounts with a challenge waiting that they sent.
  std::set<int64_t> challengers() const;
  size_t size() const { return pending_.size(); }

 private:
  ChallengeLimits limits_;
  uint64_t next_id_ = 1;
  std::map<uint64_t, PendingChallenge> pending_;
  std::map<int64_t, std::deque<int64_t>> sent_times_;  // per challenger, the last minute's sends
};

}  // namespace duelhall::server
