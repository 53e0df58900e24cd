// A challenge's match (friends/): made through the lobby's own create and join, so that every
// check a client's CreateMatch and JoinMatch meet applies to it.
#include "lobby/hub.hpp"
#include "match/match.hpp"

namespace duelhall::server {

Handled Hub::start_challenge(const std::shared_ptr<Player>& challenger,
                             const MatchSettings& settings, const std::string& challenger_option,
                             Call& accept, const std::string& accepter_option,
                             uint64_t& match_id) {
  CreateMatch create;
  *create.mutable_settings() = settings;
  create.set_join(true);
  create.set_seat_option(challenger_option);
  CreateOutcome created = create_match(challenger, create);
  if (created.code != OK) return Handled::fail(created.code, created.reason);
  match_id = created.match->id();
  JoinMatch join;
  join.set_match_id(match_id);
  join.set_seat(1);
  join.set_seat_option(accepter_option);
  auto seat = [match = created.match, peer = accept.peer, player = accept.state.player, join,
               request = accept.request_id] { match->join(peer, player, join, request); };
  if (cluster_) {
    open_when_leased(created.match, seat);
  } else {
    seat();
  }
  return Handled::later();
}

void Hub::start_challenge_for_remote(const std::shared_ptr<Player>& challenger,
                                     const MatchSettings& settings,
                                     const std::string& challenger_option,
                                     ChallengeMatchMade made) {
  CreateMatch create;
  *create.mutable_settings() = settings;
  create.set_join(true);
  create.set_seat_option(challenger_option);
  CreateOutcome created = create_match(challenger, create);
  if (created.code != OK) {
    made(created.code, created.reason, MatchInfo{});
    return;
  }
  when_open(created.match, [made = std::move(made), info = created.info] { made(OK, {}, info); });
}

}  // namespace duelhall::server
