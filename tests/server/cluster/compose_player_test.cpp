// The players' side of "cluster: compose: ...": run by tests/deploy/compose_on_loopback.py once
// it has brought deploy/compose.yaml's cluster up on loopback, through nginx's one port
// (DUELHALL_COMPOSE_PORT) as players would: a match created, joined and spectated by clients that
// land on whatever node nginx picks and follow REDIRECTs as the web client does (through nginx's
// /n/<node>/ws, the address each node advertises); the lobby of every node (DUELHALL_COMPOSE_NODES)
// lists it; a few actions played and seen by the spectator; more matches placed until every node
// hosts one, and each /n/<node>/ws route reaches its node; /readyz and /metrics answered.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <map>
#include <sstream>
#include <thread>

#include "../integration/helpers.hpp"
#include "core/bot.hpp"
#include "core/registry.hpp"
#include "redirect.hpp"

using namespace duelhall;
using namespace duelhall::testing;

namespace {

// Sends `m`; on REDIRECT connects to the address named, says Hello as `name` and sends `m` again
// with the ticket, as the web client does. `moves` gets each address followed.
ServerMessage as_player(std::unique_ptr<WsClient>& c, ClientMessage m, const std::string& name,
                        std::vector<std::string>& moves) {
  ServerMessage reply = c->request(m);
  if (reply.result() != REDIRECT) return reply;
  moves.push_back(reply.redirect().address());
  const auto address = client::parse_ws_address(reply.redirect().address());
  REQUIRE(address.has_value());
  auto next = std::make_unique<WsClient>();
  next->connect(address->host, address->port, address->path);
  REQUIRE(next->hello(name).result() == OK);
  c->close();
  c = std::move(next);
  m.set_ticket(reply.redirect().ticket());
  return c->request(m);
}

std::unique_ptr<WsClient> through(uint16_t door, const std::string& path, const std::string& name) {
  auto c = std::make_unique<WsClient>();
  c->connect("127.0.0.1", door, path);
  REQUIRE(c->hello(name).result() == OK);
  return c;
}

bool lists(WsClient& c, uint64_t id, const std::string& node) {
  ClientMessage list;
  list.mutable_list_matches();
  const ServerMessage reply = c.request(list);
  for (const auto& m : reply.matches().matches()) {
    if (m.match_id() == id) return m.node() == node;
  }
  return false;
}

// Asks `c`'s node every 50 ms, for up to 10 s, until its lobby lists match `id` on `node`.
bool eventually_lists(WsClient& c, uint64_t id, const std::string& node) {
  for (int i = 0; i < 200; ++i) {
    if (lists(c, id, node)) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return false;
}

}  // namespace

TEST_CASE(
    "compose: through nginx's one port, a match created, joined and spectated from any node, "
    "listed on every node, played, each node's route reached, and /readyz and /metrics "
    "answered") {
  const char* port_text = std::getenv("DUELHALL_COMPOSE_PORT");
  const char* nodes_text = std::getenv("DUELHALL_COMPOSE_NODES");
  REQUIRE(port_text != nullptr);  // run by tests/deploy/compose_on_loopback.py
  REQUIRE(nodes_text != nullptr);
  const auto door = static_cast<uint16_t>(std::stoi(port_text));
  std::vector<std::string> nodes;
  std::istringstream in(nodes_text);
  for (std::string n; in >> n;) nodes.push_back(n);
  REQUIRE(nodes.size() >= 3);

  // Three players through nginx's /ws: each lands on whichever node nginx picks.
  std::vector<std::string> moves;
  auto host = through(door, "/ws", "Host");
  const ServerMessage created =
      as_player(host, create_match("jedi_duel", 2, true, 0), "Host", moves);
  INFO("create: " << created.reason());
  REQUIRE(created.result() == OK);
  const uint64_t id = created.created().match().match_id();
  const std::string owner = created.created().match().node();
  REQUIRE(std::find(nodes.begin(), nodes.end(), owner) != nodes.end());
  // The others pick it from the lobby of the node they landed on, as a player would (a listing
  // reaches the other nodes through Redis a few milliseconds after the creation).
  auto joiner = through(door, "/ws", "Joiner");
  REQUIRE(eventually_lists(*joiner, id, owner));
  const ServerMessage joined = as_player(joiner, join_match(id, -1), "Joiner", moves);
  INFO("join: " << joined.reason() << " (moves: " << moves.size() << ")");
  REQUIRE(joined.result() == OK);
  CHECK(joined.joined().seat() == 1);
  auto watcher = through(door, "/ws", "Watcher");
  REQUIRE(eventually_lists(*watcher, id, owner));
  REQUIRE(as_player(watcher, spectate(id), "Watcher", moves).result() == OK);
  // nginx spreads connections over the nodes, so some of the three were sent to the owner, by
  // the address it advertises: nginx's port, /n/<owner>/ws.
  CHECK_FALSE(moves.empty());
  const auto route = [&](const std::string& node) {
    return "ws://localhost:" + std::to_string(door) + "/n/" + node + "/ws";
  };
  for (const auto& address : moves) CHECK(address == route(owner));

  // A few actions, each acknowledged, and the spectator sees each of them.
  const auto registry = engine::builtin_registry();
  const auto& info = *registry.find("jedi_duel");
  std::vector<WsClient*> seats = {host.get(), joiner.get()};
  uint64_t seq = 0;  // every seat's view has caught up with this many actions
  for (int played = 0; played < 6; ++played) {
    WsClient* mover = nullptr;
    for (int tries = 0; !mover && tries < 200; ++tries) {
      bool caught_up = true;
      for (WsClient* c : seats) {
        c->wait_until([&] { return false; }, std::chrono::milliseconds(20));
        auto* t = c->tracker().find(id);
        caught_up = caught_up && t && t->seq >= seq;
      }
      for (WsClient* c : seats) {
        auto* t = c->tracker().find(id);
        if (caught_up && !t->ended && !t->legal.empty()) mover = c;
      }
    }
    REQUIRE(mover != nullptr);
    auto* t = mover->tracker().find(id);
    std::vector<engine::Action> legal;
    for (const auto& a : t->legal) legal.push_back(engine::Action::from_code(a.code()));
    engine::drop_avoided(legal, info.resign_kinds);
    REQUIRE_FALSE(legal.empty());
    const uint64_t at = t->seq;
    REQUIRE(mover->request(action(id, legal.front().code(), at)).result() == OK);
    seq = at + 1;
  }
  CHECK(watcher->wait_until([&] {
    auto* t = watcher->tracker().find(id);
    return t && t->seq >= seq;
  }));

  // New matches are placed on the least-loaded node (by the nodes' heartbeats, each second):
  // more of them, each created by a new player through /ws, until every node hosts one.
  std::map<std::string, uint64_t> hosted = {{owner, id}};
  std::vector<std::unique_ptr<WsClient>> openers;
  std::vector<std::string> elsewhere;
  for (int i = 0; i < 40 && hosted.size() < nodes.size(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    const std::string name = "Opener" + std::to_string(i);
    openers.push_back(through(door, "/ws", name));
    const ServerMessage more =
        as_player(openers.back(), create_match("force_battles", 2, true, 0), name, elsewhere);
    REQUIRE(more.result() == OK);
    hosted.emplace(more.created().match().node(), more.created().match().match_id());
  }
  REQUIRE(hosted.size() == nodes.size());

  // Every node, reached by its own route through nginx (/n/<node>/ws), lists every match with
  // its node, serves a spectate of its own match itself and sends the others' to their node: so
  // each route reaches the node it names.
  for (const auto& node : nodes) {
    INFO("through /n/" << node << "/ws");
    auto c = through(door, "/n/" + node + "/ws", "Browser");
    for (const auto& [where, match] : hosted) {
      CHECK(eventually_lists(*c, match, where));
      const ServerMessage watch = c->request(spectate(match));
      if (where == node) {
        CHECK(watch.result() == OK);
      } else {
        CHECK(watch.result() == REDIRECT);
        CHECK(watch.redirect().node() == where);
        CHECK(watch.redirect().address() == route(where));  // which reaches `where` (above)
      }
    }
    CHECK(http_get(door, "/n/" + node + "/readyz").status == 200);
  }

  // The operator's endpoints through nginx's one port.
  const HttpAnswer ready = http_get(door, "/readyz");
  CHECK(ready.status == 200);
  CHECK(ready.body.find("ready") != std::string::npos);
  const HttpAnswer metrics = http_get(door, "/metrics");
  CHECK(metrics.status == 200);
  CHECK(metrics.body.find("duelhall_matches_live") != std::string::npos);
}
