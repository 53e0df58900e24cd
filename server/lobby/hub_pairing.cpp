// What the pairing room asks of the hall (pairing/pairing_host.hpp): whether a player sits in a
// match not ended, and a match made through the lobby's own create path.
#include "lobby/hub.hpp"

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

PairingCreated Hub::create_for_pairing(const std::shared_ptr<Player>& creator,
                                       const CreateMatch& request) {
  CreateOutcome created = create_match(creator, request);
  return PairingCreated{created.code, std::move(created.reason), std::move(created.match),
                        std::move(created.info)};
}

}  // namespace duelhall::server
