// Rematches: at the end of a two-player match one side offers, the other accepts (a match with
// the same settings, seats swapped, both seated and told) or declines. Who sat where is read on
// the match's strand (Match::seats_now), so the handlers answer from there.
#include <spdlog/spdlog.h>

#include "net/messages.hpp"
#include "pairing/pairing_room.hpp"

namespace duelhall::server {
namespace {

constexpr size_t kMaxReasonBytes = 140;
// Offers are forgotten after this long (the ended match is long gone by then) or past this many.
constexpr std::chrono::minutes kOfferLife{15};
constexpr size_t kMaxOffers = 20'000;

void answer(const std::shared_ptr<Peer>& peer, uint64_t request_id, ResultCode code,
            std::string reason = {}) {
  ServerMessage m;
  m.set_request_id(request_id);
  m.set_result(code);
  if (!reason.empty()) m.set_reason(std::move(reason));
  peer->send(frame_of(m));
}

// The seat `player` sat at in a two-player match that has ended, with the other seat's player
// still in it and connected; else the refusal's words.
std::optional<std::string> rematch_refusal(const Match::SeatsNow& now, uint64_t match_id,
                                           const std::shared_ptr<Player>& player, int& seat) {
  if (now.players.size() != 2) return "rematches are for two-player matches";
  if (now.status != FINISHED) return "the match has not ended";
  seat = now.players[0] == player ? 0 : now.players[1] == player ? 1 : -1;
  if (seat < 0 || !still_in(*player, match_id)) return "you did not play this match to its end";
  const std::shared_ptr<Player>& other = now.players[1 - seat];
  if (!other || !still_in(*other, match_id)) return "the other player left";
  if (!other->peer()) return "the other player is offline";
  return std::nullopt;
}

}  // namespace

Handled PairingRoom::offer_rematch(Call& call, const OfferRematch& request) {
  auto match = host_.find_match(request.match_id());
  if (!match) return Handled::fail(REMATCH_UNAVAILABLE, "the match is over and gone");
  match->seats_now([weak = weak_from_this(), id = request.match_id(), peer = call.peer,
                    player = call.state.player,
                    request_id = call.request_id](const Match::SeatsNow& now) {
    if (auto room = weak.lock()) room->offer_on(now, id, peer, player, request_id);
  });
  return Handled::later();
}

Handled PairingRoom::answer_rematch(Call& call, const AnswerRematch& request) {
  if (request.reason().size() > kMaxReasonBytes) {
    return Handled::fail(FIELD_TOO_LONG, "a reason is at most 140 bytes");
  }
  auto match = host_.find_match(request.match_id());
  if (!match) return Handled::fail(REMATCH_UNAVAILABLE, "the match is over and gone");
  match->seats_now([weak = weak_from_this(), id = request.match_id(), request, peer = call.peer,
                    player = call.state.player,
                    request_id = call.request_id](const Match::SeatsNow& now) {
    if (auto room = weak.lock()) room->answer_on(now, id, request, peer, player, request_id);
  });
  return Handled::later();
}

void PairingRoom::offer_on(const Match::SeatsNow& now, uint64_t match_id,
                           const std::shared_ptr<Peer>& peer, const std::shared_ptr<Player>& player,
                           uint64_t request_id) {
  int seat = -1;
  if (auto refused = rematch_refusal(now, match_id, player, seat)) {
    return answer(peer, request_id, REMATCH_UNAVAILABLE, *refused);
  }
  const std::shared_ptr<Player>& other = now.players[1 - seat];
  {
    std::unique_lock lock(mutex_);
    auto found = offers_.find(match_id);
    if (found != offers_.end()) {
      if (found->second.declined) {
        return answer(peer, request_id, REMATCH_UNAVAILABLE, "the rematch was declined");
      }
      if (found->second.from == player) {
        return answer(peer, request_id, REMATCH_UNAVAILABLE, "your offer is waiting for an answer");
      }
      // Both offered: the second offer accepts the first.
      lock.unlock();
      return accept(now, match_id, player, peer, request_id);
    }
    if (offers_.size() >= kMaxOffers) {
      return answer(peer, request_id, BUSY, "too many rematch offers wait; try again shortly");
    }
    offers_[match_id] = Offer{player, other, false, std::chrono::steady_clock::now()};
  }
  ServerMessage offer;
  offer.set_result(OK);
  offer.mutable_rematch_offer()->set_match_id(match_id);
  offer.mutable_rematch_offer()->set_from(player->name());
  if (auto to = other->peer()) to->send(frame_of(offer));
  answer(peer, request_id, OK);
}

void PairingRoom::answer_on(const Match::SeatsNow& now, uint64_t match_id,
                            const AnswerRematch& request, const std::shared_ptr<Peer>& peer,
                            const std::shared_ptr<Player>& player, uint64_t request_id) {
  std::shared_ptr<Player> offerer;
  {
    std::lock_guard lock(mutex_);
    auto found = offers_.find(match_id);
    if (found == offers_.end() || found->second.declined || found->second.to != player) {
      return answer(peer, request_id, REMATCH_UNAVAILABLE, "no rematch offer to you stands");
    }
    offerer = found->second.from;
    if (!request.accept()) found->second.declined = true;
  }
  if (request.accept()) return accept(now, match_id, player, peer, request_id);
  ServerMessage declined;
  declined.set_result(OK);
  RematchOffer* told = declined.mutable_rematch_offer();
  told->set_match_id(match_id);
  told->set_from(player->name());
  told->set_declined(true);
  told->set_reason(request.reason());
  if (auto to = offerer->peer()) to->send(frame_of(declined));
  answer(peer, request_id, OK);
}

void PairingRoom::accept(const Match::SeatsNow& now, uint64_t match_id,
                         const std::shared_ptr<Player>& player, const std::shared_ptr<Peer>& peer,
                         uint64_t request_id) {
  int seat = -1;
  if (auto refused = rematch_refusal(now, match_id, player, seat)) {
    return answer(peer, request_id, REMATCH_UNAVAILABLE, *refused);
  }
  const std::shared_ptr<Player>& other = now.players[1 - seat];
  if (host_.seated_in_unended_match(*player) || host_.seated_in_unended_match(*other)) {
    return answer(peer, request_id, SEATED_ELSEWHERE, "one of you sits in another match now");
  }
  {
    std::lock_guard lock(mutex_);
    // Taken here, so that a second accept (or a crossing offer) finds none.
    if (!offers_.erase(match_id)) {
      return answer(peer, request_id, REMATCH_UNAVAILABLE, "no rematch offer stands");
    }
  }
  // Seats swapped: the player of seat 1 creates the new match at seat 0.
  std::vector<ToSeat> seats = {{now.players[1], now.players[1]->peer(), now.options[1]},
                               {now.players[0], now.players[0]->peer(), now.options[0]}};
  MatchSettings settings = now.settings;
  answer(peer, request_id, OK);
  seat_players(settings, std::move(seats), 0, match_id);
}

void PairingRoom::prune_offers() {
  const auto cutoff = std::chrono::steady_clock::now() - kOfferLife;
  std::erase_if(offers_, [&](const auto& entry) { return entry.second.made < cutoff; });
}

}  // namespace duelhall::server
