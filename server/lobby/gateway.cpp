#include "lobby/gateway.hpp"

#include "lobby/replay_export.hpp"

namespace duelhall::server {

namespace {

class LobbySession final : public SessionHandler {
 public:
  LobbySession(Dispatcher& dispatcher, const Limits& limits)
      : dispatcher_(dispatcher), state_(limits) {}

  void dispatch(const std::shared_ptr<Peer>& peer, const ClientMessage& message,
                Outbox& out) override {
    dispatcher_.dispatch(peer, state_, message, out);
  }
  void disconnected(const Peer* peer) override { dispatcher_.disconnected(peer, state_); }
  uint64_t player_id() const override { return state_.player ? state_.player->id() : 0; }

 private:
  Dispatcher& dispatcher_;
  ClientState state_;
};

}  // namespace

std::unique_ptr<SessionHandler> LobbyGateway::open_session() {
  return std::make_unique<LobbySession>(dispatcher_, hub_.config().limits);
}

std::optional<boost::beast::http::message_generator> LobbyGateway::answer(
    const boost::beast::http::request<boost::beast::http::string_body>& request) {
  return answer_export(hub_, request);
}

}  // namespace duelhall::server
