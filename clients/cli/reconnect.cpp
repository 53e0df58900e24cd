#include "reconnect.hpp"

#include <algorithm>
#include <iostream>
#include <thread>

namespace duelhall::cli {
namespace {

using Clock = std::chrono::steady_clock;
using Millis = std::chrono::milliseconds;
using client::WsAddress;
using client::WsClient;

constexpr Millis kRetryMin{300};
constexpr Millis kRetryMax{5000};
constexpr Millis kUnavailableMin{150};
constexpr Millis kUnavailableMax{2000};
constexpr int kHops = 3;  // redirects followed for one command: a failover needs one

bool starts_with(const std::string& s, const std::string& prefix) {
  return s.rfind(prefix, 0) == 0;
}

bool ticket_refused(ResultCode code) {
  return code == TICKET_FORGED || code == TICKET_EXPIRED || code == TICKET_WRONG_MATCH;
}

std::unique_ptr<WsClient> open_at(const WsAddress& address) {
  auto c = std::make_unique<WsClient>();
  c->set_protocol(kProtocol);
  c->connect(address.host, address.port, address.path);
  return c;
}

// The Hello of a client coming back: its token and, for a seat, the match's cursor.
ClientMessage resume_hello(const Identity& identity, const Place* place) {
  ClientMessage m;
  Hello* hello = m.mutable_hello();
  hello->set_protocol_version(kProtocol);
  hello->set_resume_token(identity.token);
  if (place && place->seat >= 0) {
    MatchCursor* cursor = hello->add_cursors();
    cursor->set_match_id(place->match);
    cursor->set_seq(place->seq);
  }
  return m;
}

// Says Hello on a connection to a node the client was sent to for a command: with its token, or,
// when that node does not know the token (a spectator's, whose player that node never saw), as a
// new player under the same name, as the web client does.
ServerMessage greet(WsClient& client, Identity& identity) {
  ServerMessage welcome = client.request(resume_hello(identity, nullptr));
  if (welcome.result() == BAD_TOKEN) welcome = client.hello(identity.name);
  if (welcome.result() == OK) identity.token = welcome.welcome().resume_token();
  return welcome;
}

// Sends `message` until it is answered otherwise than REDIRECT or CLUSTER_UNAVAILABLE. REDIRECT:
// on to the node named (a command other than the Hello says the Hello there first), with the
// ticket; CLUSTER_UNAVAILABLE: again after a growing delay, for at most kUnavailableFor. Throws
// when a node cannot be reached or drops the connection.
ServerMessage ask(std::unique_ptr<WsClient>& client, ClientMessage message, Identity& identity) {
  Millis delay = kUnavailableMin;
  std::optional<Clock::time_point> unavailable_since;
  for (int hops = 0;;) {
    const bool ticketed = !message.ticket().empty();
    ServerMessage reply = client->request(message);
    if (ticketed && ticket_refused(reply.result())) {
      message.clear_ticket();  // expired on the way, say: the node may serve it all the same
      continue;
    }
    if (reply.result() == REDIRECT && reply.has_redirect() && hops < kHops) {
      const auto address = client::parse_ws_address(reply.redirect().address());
      if (!address) return reply;
      ++hops;
      auto next = open_at(*address);
      if (!message.has_hello()) {
        const ServerMessage welcome = greet(*next, identity);
        if (welcome.result() != OK) return welcome;
      }
      client->close();
      client = std::move(next);
      message.set_ticket(reply.redirect().ticket());
      continue;
    }
    if (reply.result() != CLUSTER_UNAVAILABLE) return reply;
    if (!unavailable_since) unavailable_since = Clock::now();
    if (Clock::now() - *unavailable_since + delay > kUnavailableFor) return reply;
    std::this_thread::sleep_for(delay);
    delay = std::min(delay * 2, kUnavailableMax);
  }
}

std::string refused(const char* what, const ServerMessage& reply) {
  return std::string(what) + " refused: " + ResultCode_Name(reply.result()) + ": " + reply.reason();
}

// Resumes the match on `client`, connected: nullopt once it is back, else why not.
std::optional<std::string> resume(std::unique_ptr<WsClient>& client, Identity& identity,
                                  const Place& place) {
  // A spectator holds nothing its token must resume: a node that does not know it greets it anew.
  const ServerMessage welcome = place.seat >= 0
                                    ? ask(client, resume_hello(identity, &place), identity)
                                    : greet(*client, identity);
  if (welcome.result() != OK) return refused("the resume", welcome);
  identity.token = welcome.welcome().resume_token();
  if (place.seat >= 0) {
    const auto& seated = welcome.welcome().matches();
    if (std::find(seated.begin(), seated.end(), place.match) == seated.end()) {
      return "the seat in match " + std::to_string(place.match) + " was not kept";
    }
    return std::nullopt;
  }
  ClientMessage watch;
  watch.mutable_spectate()->set_match_id(place.match);
  watch.mutable_spectate()->set_invite_code(place.invite);
  ServerMessage watched = ask(client, std::move(watch), identity);
  if (watched.result() != OK) return refused("spectating again", watched);
  client->pushed().push_front(std::move(watched));
  return std::nullopt;
}

}  // namespace

bool may_come_back(uint16_t, const std::string& reason) {
  return !starts_with(reason, "BANNED:") && !starts_with(reason, "KICKED:") &&
         reason.find("replaced by a new connection") == std::string::npos;
}

std::optional<std::string> come_back(std::unique_ptr<WsClient>& client, Identity& identity,
                                     const Place& place) {
  const bool moved =
      client->close_code() == 1012 && starts_with(client->close_reason(), "MATCH_MOVED:");
  WsAddress node{client->host(), client->port(), client->path()};
  const auto deadline = Clock::now() + kReconnectFor;
  Millis delay = kRetryMin;
  std::string last = "no attempt";
  for (bool first = true; Clock::now() < deadline; first = false) {
    if (!(first && moved)) {
      std::this_thread::sleep_for(delay);
      delay = std::min(delay * 2, kRetryMax);
    }
    std::unique_ptr<WsClient> next;
    try {
      next = open_at(node);
    } catch (const std::exception& e) {
      last = std::string("cannot connect to ") + node.host + ":" + std::to_string(node.port) +
             ": " + e.what();
      // A node it was sent to that is gone: the address it started with knows where to go.
      node = identity.home;
      continue;
    }
    try {
      if (auto why = resume(next, identity, place)) return why;
      client = std::move(next);
      return std::nullopt;
    } catch (const std::exception& e) {
      last = std::string("the resume was cut short: ") + e.what();  // dropped again: once more
    }
  }
  return "gave up after " + std::to_string(kReconnectFor.count()) + " s: " + last;
}

}  // namespace duelhall::cli
