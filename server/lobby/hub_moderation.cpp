// The hub's part in moderation (docs/moderation.md): the lobby's chat, which skips those who
// ignore the sender, and every match's listing for moderators and the friends room.
#include "lobby/hub.hpp"
#include "net/messages.hpp"

namespace duelhall::server {

void Hub::lobby_chat(const Player& from, const std::string& text) {
  ServerMessage m;
  ChatMessage* c = m.mutable_chat();
  c->set_from(from.name());
  c->set_seat(-1);
  c->set_text(text);
  c->set_message_id(chat_log_.add(0, from, text));
  c->set_from_player(from.id());
  Frame frame = frame_of(m);
  for (auto& peer : subscribers()) {
    if (!roster_.ignores(peer->peer_id(), from)) peer->send(frame);
  }
}

void Hub::list_every_match(MatchList& out) {
  std::lock_guard lock(mutex_);
  for (const auto& [id, info] : every_listing_) *out.add_matches() = info;
}

void Hub::list_cluster_matches(MatchList& out) {
  std::lock_guard lock(mutex_);
  for (const auto& [id, info] : every_listing_) *out.add_matches() = info;
  for (const auto& [id, info] : remote_listings_) *out.add_matches() = info;
}

}  // namespace duelhall::server
