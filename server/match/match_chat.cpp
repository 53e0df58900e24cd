// A match's chat: who may speak (players, and spectators when the host allows it), and who hears
// it (everyone in the match who does not ignore the speaker).
#include "match/match.hpp"
#include "net/messages.hpp"

namespace duelhall::server {

void Match::chat(std::shared_ptr<Peer> peer, std::shared_ptr<Player> player, std::string text,
                 uint64_t request_id) {
  run([this, peer, player, text = std::move(text), request_id](Outbox& out) {
    const int seat = seat_of(player.get());
    const bool spectator = seat < 0 && is_spectator(peer->peer_id());
    if (seat < 0 && !spectator) {
      out.add(peer, frame_of(reply(request_id, NOT_IN_MATCH, "you are not in this match")));
      return;
    }
    if (spectator && !settings_.spectator_chat()) {
      out.add(peer, frame_of(reply(request_id, CHAT_NOT_ALLOWED,
                                   "the host keeps this match's chat to the players")));
      return;
    }
    out.add(peer, frame_of(reply(request_id, OK)));
    ServerMessage m;
    ChatMessage* c = m.mutable_chat();
    c->set_match_id(id_);
    c->set_from(player->name());
    c->set_seat(seat);
    c->set_text(text);
    c->set_message_id(hub_.chat_line(id_, *player, text));
    c->set_from_player(player->id());
    // As broadcast(), but a viewer who ignores the sender does not get the line.
    const Frame frame = frame_of(m);
    auto deliver = [&](const std::shared_ptr<Peer>& viewer) {
      if (viewer && !hub_.ignores(viewer->peer_id(), *player)) out.add(viewer, frame);
    };
    for (const auto& slot : seats_) {
      if (slot.occupant == SeatInfo::HUMAN) deliver(slot.player->peer());
    }
    if (!settings_.spectator_chat()) return;
    for (const auto& s : spectators_) deliver(s.peer.lock());
  });
}

}  // namespace duelhall::server
