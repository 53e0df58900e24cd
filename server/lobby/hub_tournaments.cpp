// What the tournament room asks of the hall (tournament_room/tournament_host.hpp): ratings and
// roles, the pools' clocks, the connected player of an account, and a match made through the
// lobby's own create path. Also the match ends the room is told of.
#include <spdlog/spdlog.h>

#include <cmath>

#include "decks/deck_handlers.hpp"
#include "lobby/hub.hpp"
#include "lobby/lobby_handlers.hpp"
#include "moderation/moderation_service.hpp"
#include "pairing/pairing_room.hpp"
#include "tournament_room/tournament_room.hpp"

namespace duelhall::server {

int32_t Hub::rating_of(int64_t account, const std::string& ruleset) {
  if (!accounts_) return 1500;
  try {
    if (auto r = accounts_->store().rating(account, ruleset)) {
      return static_cast<int32_t>(std::lround(r->rating));
    }
  } catch (const std::exception& e) {
    spdlog::warn("no rating for account {}: {}", account, e.what());
  }
  return 1500;
}

bool Hub::directs_tournaments(const ClientState& state) {
  const auto& account = state.account.account;
  if (!moderation_ || !account || account->guest) return false;
  try {
    return moderation_->role(account->id) >= accounts::Role::kModerator;
  } catch (const std::exception& e) {
    spdlog::warn("no role for account {}: {}", account->id, e.what());
    return false;
  }
}

std::optional<uint32_t> Hub::clock_seconds(const std::string& ruleset, const std::string& clock) {
  return pairing_->clock_seconds(ruleset, clock);
}

std::pair<std::shared_ptr<Player>, std::shared_ptr<Peer>> Hub::connected(int64_t account) {
  if (account == 0) return {};
  for (const Roster::Entry& entry : roster_.all()) {
    if (!entry.player || entry.player->account().id != account) continue;
    if (auto peer = entry.peer.lock()) return {entry.player, std::move(peer)};
  }
  return {};
}

TournamentMatch Hub::create_for_tournament(const std::shared_ptr<Player>& creator,
                                           const CreateMatch& request) {
  CreateOutcome created = create_match(creator, request);
  return TournamentMatch{created.code, std::move(created.reason), std::move(created.match),
                         std::move(created.info)};
}

Handled handle_join_tournament(Hub& hub, Call& call, const JoinTournament& given) {
  // Saved decks become setup texts here (the decks room loads them), and the room sees texts only.
  JoinTournament request = given;
  request.clear_saved_decks();
  if (given.saved_decks_size() + given.seat_options_size() > 2) {
    return Handled::fail(BAD_PARAMETERS, "at most one setup for each side");
  }
  Handled refused;
  hub.tournaments().with_ruleset(given.id(), [&](const std::string& ruleset) {
    for (uint64_t deck : given.saved_decks()) {
      int seat = -1;
      std::string list;
      Handled loaded = load_seat_deck(hub, call, deck, ruleset, &seat, &list);
      if (loaded.code != OK) {
        refused = loaded;
        return;
      }
      request.add_seat_options(std::move(list));
    }
  });
  if (refused.code != OK) return refused;
  return hub.tournaments().join(call, request);
}

void Hub::match_ended(uint64_t match_id, uint64_t winners, bool aborted) {
  tournaments_->match_ended(match_id, winners, aborted);
}

}  // namespace duelhall::server
