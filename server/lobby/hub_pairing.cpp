// What the pairing room asks of the hall (pairing/pairing_host.hpp): whether a player sits in a
// match not ended, and a match made through the lobby's own create path.
#include "decks/deck_handlers.hpp"
#include "lobby/hub.hpp"
#include "lobby/lobby_handlers.hpp"
#include "pairing/pairing_handlers.hpp"

namespace duelhall::server {

bool Hub::seated_in_unended_match(Player& player) {
  const std::vector<std::shared_ptr<Match>> seated = player.matches();
  std::lock_guard lock(mutex_);
  for (const auto& match : seated) {
    if (!matches_.count(match->id())) continue;  // removed: over
    const auto listed = every_listing_.find(match->id());
    // Not published yet: just created, so waiting.
    if (listed == every_listing_.end()) return true;
    const MatchStatus status = listed->second.status();
    if (status == WAITING || status == PLAYING) return true;
  }
  return false;
}

Handled handle_seek(Hub& hub, Call& call, const Seek& given) {
  if (given.saved_deck() == 0) return handle_seek(hub.pairing(), call, given);
  // The saved deck becomes the seek's setup text; a Young Jedi deck's side is then the seat the
  // pairing gives it (fit_seat_options), as a typed list's is.
  Seek request = given;
  int seat = -1;
  Handled loaded = load_seat_deck(hub, call, given.saved_deck(), given.ruleset(), &seat,
                                  request.mutable_seat_option());
  if (loaded.code != OK) return loaded;
  request.clear_saved_deck();
  return handle_seek(hub.pairing(), call, request);
}

PairingCreated Hub::create_for_pairing(const std::shared_ptr<Player>& creator,
                                       const CreateMatch& request) {
  CreateOutcome created = create_match(creator, request);
  return PairingCreated{created.code, std::move(created.reason), std::move(created.match),
                        std::move(created.info)};
}

void Hub::when_open(const std::shared_ptr<Match>& match, std::function<void()> then) {
  if (cluster_) {
    // As open_when_leased, but opened first: on one node a pairing's match is open (its first
    // frames sent) before its players are told, and so it is here.
    cluster_match_opened(match->id(), [match, then = std::move(then)] {
      match->open();
      then();
    });
  } else {
    then();
  }
}

}  // namespace duelhall::server
