#include "friends/challenge_book.hpp"

#include <algorithm>

namespace duelhall::server {
namespace {

constexpr int64_t kMinuteMs = 60'000;

}  // namespace

ChallengeBook::Added ChallengeBook::add(int64_t from, std::string from_name, int64_t to,
                                        std::string to_name, MatchSettings settings,
                                        std::string seat_option, bool target_online,
                                        int64_t now_ms, uint64_t given_id) {
  Added out;
  size_t waiting = 0;
  for (const auto& [id, c] : pending_) {
    if (c.from != from) continue;
    ++waiting;
    if (c.to == to) {
      out.code = LIMIT_REACHED;
      out.reason = "a challenge to " + c.to_name + " waits already";
      return out;
    }
  }
  if (waiting >= limits_.max_pending) {
    out.code = LIMIT_REACHED;
    out.reason = "at most " + std::to_string(limits_.max_pending) + " challenges wait at once";
    return out;
  }
  auto& sent = sent_times_[from];
  while (!sent.empty() && sent.front() <= now_ms - kMinuteMs) sent.pop_front();
  if (sent.size() >= limits_.per_minute) {
    out.code = RATE_LIMITED;
    out.reason = "at most " + std::to_string(limits_.per_minute) + " challenges a minute";
    return out;
  }
  sent.push_back(now_ms);
  const uint64_t id = given_id != 0 ? given_id : next_id_++;
  PendingChallenge& c = pending_[id];
  c.id = id;
  c.from = from;
  c.from_name = std::move(from_name);
  c.to = to;
  c.to_name = std::move(to_name);
  c.settings = std::move(settings);
  c.seat_option = std::move(seat_option);
  c.sent_offline = !target_online;
  c.delivered = target_online;
  c.expires_ms = now_ms + (target_online ? limits_.online_ms : limits_.offline_ms);
  out.challenge = c;
  return out;
}

std::optional<PendingChallenge> ChallengeBook::take_answered(uint64_t id, int64_t answerer,
                                                             int64_t now_ms) {
  auto it = pending_.find(id);
  if (it == pending_.end() || it->second.to != answerer || it->second.expires_ms <= now_ms) {
    return std::nullopt;
  }
  PendingChallenge c = std::move(it->second);
  pending_.erase(it);
  return c;
}

std::optional<PendingChallenge> ChallengeBook::take_withdrawn(uint64_t id, int64_t challenger,
                                                              int64_t now_ms) {
  auto it = pending_.find(id);
  if (it == pending_.end() || it->second.from != challenger || it->second.expires_ms <= now_ms) {
    return std::nullopt;
  }
  PendingChallenge c = std::move(it->second);
  pending_.erase(it);
  return c;
}

std::vector<PendingChallenge> ChallengeBook::take_expired(int64_t now_ms) {
  std::vector<PendingChallenge> out;
  std::erase_if(pending_, [&](auto& entry) {
    if (entry.second.expires_ms > now_ms) return false;
    out.push_back(std::move(entry.second));
    return true;
  });
  std::erase_if(sent_times_, [&](auto& entry) {
    return entry.second.empty() || entry.second.back() <= now_ms - kMinuteMs;
  });
  return out;
}

std::vector<PendingChallenge> ChallengeBook::take_sent_by(int64_t challenger) {
  std::vector<PendingChallenge> out;
  std::erase_if(pending_, [&](auto& entry) {
    if (entry.second.from != challenger) return false;
    out.push_back(std::move(entry.second));
    return true;
  });
  return out;
}

std::vector<PendingChallenge> ChallengeBook::deliver_to(int64_t target) {
  std::vector<PendingChallenge> out;
  for (auto& [id, c] : pending_) {
    if (c.to != target || c.delivered) continue;
    c.delivered = true;
    out.push_back(c);
  }
  return out;
}

std::vector<PendingChallenge> ChallengeBook::all() const {
  std::vector<PendingChallenge> out;
  out.reserve(pending_.size());
  for (const auto& [id, c] : pending_) out.push_back(c);
  return out;
}

std::set<int64_t> ChallengeBook::challengers() const {
  std::set<int64_t> out;
  for (const auto& [id, c] : pending_) out.insert(c.from);
  return out;
}

std::vector<PendingChallenge> ChallengeBook::involving(int64_t account) const {
  std::vector<PendingChallenge> out;
  for (const auto& [id, c] : pending_) {
    if (c.from == account || (c.to == account && c.delivered)) out.push_back(c);
  }
  return out;
}

}  // namespace duelhall::server
