#include "lobby/gateway.hpp"

#include "accounts/account_commands.hpp"
#include "accounts/account_json.hpp"
#include "cluster/cluster_node.hpp"
#include "friends/friends_room.hpp"
#include "moderation/moderation_handlers.hpp"
#include "replays/replay_handlers.hpp"
#include "tournament_room/tournament_room.hpp"

namespace duelhall::server {

namespace http = boost::beast::http;

namespace {

class LobbySession final : public SessionHandler {
 public:
  LobbySession(Dispatcher& dispatcher, const Limits& limits, const std::string& address)
      : dispatcher_(dispatcher), state_(limits) {
    state_.account.address = address;  // sign-in limits count per address
  }

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

// A JSON answer of the server's HTTP API: never cached; a HEAD gets the headers only.
http::message_generator json_response(const http::request<http::string_body>& request, int status,
                                      std::string body) {
  http::response<http::string_body> response{static_cast<http::status>(status), request.version()};
  response.set(http::field::server, "duelhall");
  response.set(http::field::content_type, "application/json");
  response.set(http::field::cache_control, "no-store");
  response.keep_alive(request.keep_alive());
  if (request.method() != http::verb::head) response.body() = std::move(body);
  response.prepare_payload();
  return http::message_generator(std::move(response));
}

// The accounts' JSON API (server/accounts/account_json.hpp), or nullopt for other paths.
std::optional<http::message_generator> answer_accounts(
    Hub& hub, const http::request<http::string_body>& request) {
  auto answer =
      accounts::answer_accounts_api(hub.accounts(), request.method_string(), request.target(),
                                    request[http::field::authorization]);
  if (!answer) return std::nullopt;
  if (!answer->ended_session_hash.empty()) {
    // DELETE /api/session: the connections signed in with that session end too.
    hub.end_sessions(
        {accounts::EndedSessions::kOne, answer->ended_account, answer->ended_session_hash},
        nullptr);
  }
  return json_response(request, answer->status, std::move(answer->body));
}

// GET /api/tv/<ruleset> (friends/friends_tv.cpp), or nullopt for other paths.
std::optional<http::message_generator> answer_tv(Hub& hub,
                                                 const http::request<http::string_body>& request) {
  if (request.method() != http::verb::get && request.method() != http::verb::head) {
    return std::nullopt;
  }
  auto answer = hub.friends().answer_tv_http(request.target());
  if (!answer) return std::nullopt;
  return json_response(request, answer->status, std::move(answer->body));
}

// GET /api/tournaments[/<id>] (tournament_room/tournament_http.cpp), or nullopt for other paths.
std::optional<http::message_generator> answer_tournaments(
    Hub& hub, const http::request<http::string_body>& request) {
  if (request.method() != http::verb::get && request.method() != http::verb::head) {
    return std::nullopt;
  }
  auto answer = hub.tournaments().answer_http(request.target());
  if (!answer) return std::nullopt;
  return json_response(request, answer->status, std::move(answer->body));
}

}  // namespace

std::optional<http::message_generator> LobbyGateway::screen(
    const http::request<http::string_body>& request, const std::string& address) {
  return screen_banned(hub_, request, address);
}

std::string LobbyGateway::not_ready() {
  cluster::ClusterNode* cluster = hub_.cluster();
  if (cluster && !cluster->ready()) return "cluster unreachable";
  return hub_.store_available() ? std::string() : "store unavailable";
}

std::unique_ptr<SessionHandler> LobbyGateway::open_session(const std::string& address) {
  return std::make_unique<LobbySession>(dispatcher_, hub_.config().limits, address);
}

std::optional<boost::beast::http::message_generator> LobbyGateway::answer(
    const boost::beast::http::request<boost::beast::http::string_body>& request) {
  if (auto exported = answer_export(hub_, request)) return exported;
  if (auto tv = answer_tv(hub_, request)) return tv;
  if (auto tournaments = answer_tournaments(hub_, request)) return tournaments;
  return answer_accounts(hub_, request);
}

}  // namespace duelhall::server
