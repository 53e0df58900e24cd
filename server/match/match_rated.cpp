// Rated matches (docs/accounts.md): only registered accounts sit in them, each account once, no
// bot takes a seat, and a player who leaves (or does not come back) loses. The accounts that sat
// in a match go to the hub when it starts (every match's, for the players' histories), and a
// rated match's result when it ends (for the ratings).
#include "fairness/server_ending.hpp"
#include "match/match.hpp"
#include "net/messages.hpp"

namespace duelhall::server {

std::optional<std::pair<ResultCode, std::string>> Match::rated_join_refusal(
    const Player& player) const {
  if (!settings_.rated()) return std::nullopt;
  if (!player.registered()) {
    return std::pair(SIGN_IN_REQUIRED, std::string("a rated match needs an account"));
  }
  const int64_t account = player.account().id;
  for (const auto& slot : seats_) {
    if (slot.player && slot.player->account().id == account) {
      return std::pair(ALREADY_SEATED, std::string("your account already sits in this match"));
    }
  }
  return std::nullopt;
}

bool Match::rated_forfeit(int seat, Outbox& out) {
  if (!settings_.rated()) return false;
  engine::SeatMask winners;
  for (int s = 0; s < static_cast<int>(seats_.size()); ++s) {
    if (s != seat) winners.add(s);
  }
  force_end(fairness::left_rated_match(seat), winners, false, out);
  return true;
}

bool Match::rated_refuses_bots(const std::shared_ptr<Peer>& peer, uint64_t request_id,
                               Outbox& out) {
  if (!settings_.rated()) return false;
  out.add(peer, frame_of(reply(request_id, BAD_PARAMETERS, "a rated match has no bots")));
  return true;
}

void Match::record_accounts() {
  std::vector<std::pair<int, int64_t>> accounts;
  for (size_t i = 0; i < seats_.size(); ++i) {
    if (seats_[i].occupant != SeatInfo::HUMAN || !seats_[i].player) continue;
    const int64_t account = seats_[i].player->account().id;
    if (account != 0) accounts.emplace_back(static_cast<int>(i), account);
  }
  hub_.record_match_accounts(id_, std::move(accounts), settings_.rated());
}

void Match::report_rated_end(const MatchEnd& end) {
  if (!settings_.rated() || end.aborted) return;
  std::vector<std::shared_ptr<Player>> players;
  for (const auto& slot : seats_) players.push_back(slot.player);
  hub_.rated_match_ended(id_, settings_.ruleset(), end.winners.bits(), std::move(players));
}

}  // namespace duelhall::server
