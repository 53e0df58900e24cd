// Complete matches of every registered ruleset against the real server over real WebSockets,
// with bots and with clients. For the client games every frame's content is checked against a
// local replay of the match from its published seed: each seat's and the spectator's view at
// every step is byte for byte the engine's view for that viewer (and stays the same when
// everything the viewer cannot see is redrawn), the legal actions are the engine's, and the
// event texts are exactly what the engine lets that viewer read. So no frame carries another
// seat's hidden card.
#include <map>

#include "core/bot.hpp"
#include "core/registry.hpp"
#include "helpers.hpp"

using namespace duelhall;
using namespace duelhall::testing;

namespace {

struct Recorded {
  std::vector<engine::Step> steps;
  // views[k][i]: the tracked view after k steps; i = seat, and the spectator last.
  std::vector<std::vector<std::string>> views;
  std::vector<std::vector<std::vector<uint64_t>>> legal;  // legal[k][seat]: offered codes
};

void check_against_replay(const engine::Registry& registry, const engine::RulesetInfo& info,
                          int seats, const std::string& seed_hex, const Recorded& rec,
                          const std::vector<std::vector<std::string>>& events_seen) {
  engine::Seed seed;
  REQUIRE(engine::seed_from_hex(seed_hex, seed));
  auto created = registry.create(info.name, seats, seed, {});
  REQUIRE(created.state != nullptr);
  engine::State& state = *created.state;
  engine::Rng rng(engine::seed_from_number(77));
  std::vector<std::vector<std::string>> events_expected(seats + 1);
  for (size_t k = 0; k <= rec.steps.size(); ++k) {
    INFO(info.name << " step " << k);
    if (k > 0) {
      std::vector<engine::Event> events;
      REQUIRE(state.apply(rec.steps[k - 1].seat, rec.steps[k - 1].action, &events).ok());
      for (int s = 0; s <= seats; ++s) {
        const auto viewer = s < seats ? engine::Viewer::of_seat(s) : engine::Viewer::spectator();
        for (const auto& e : events) {
          if (auto text = e.text_for(viewer)) events_expected[s].emplace_back(*text);
        }
      }
    }
    for (int s = 0; s <= seats; ++s) {
      const auto viewer = s < seats ? engine::Viewer::of_seat(s) : engine::Viewer::spectator();
      const std::string expected = state.view(viewer);
      REQUIRE(rec.views[k][s] == expected);
      auto redrawn = state.clone();
      redrawn->resample_hidden(viewer, rng);
      REQUIRE(redrawn->view(viewer) == expected);
    }
    for (int s = 0; s < seats; ++s) {
      std::vector<uint64_t> codes;
      for (const auto& a : state.legal_actions(s)) codes.push_back(a.code());
      REQUIRE(rec.legal[k][s] == codes);
    }
  }
  REQUIRE(state.terminal());
  for (int s = 0; s <= seats; ++s) REQUIRE(events_seen[s] == events_expected[s]);
}

void play_with_clients(ServerProcess& server, const engine::Registry& registry,
                       const engine::RulesetInfo& info, int seats, uint64_t seed) {
  INFO(info.name << " with " << seats << " seats");
  std::vector<std::unique_ptr<WsClient>> players;
  for (int s = 0; s < seats; ++s)
    players.push_back(connect_as(server.port(), std::string("P").append(std::to_string(s))));
  auto watcher = connect_as(server.port(), "Watcher");
  auto created = players[0]->request(create_match(info.name, seats, true, 0));
  REQUIRE(created.result() == OK);
  const uint64_t id = created.created().match().match_id();
  REQUIRE(watcher->request(spectate(id)).result() == OK);
  for (int s = 1; s < seats; ++s) REQUIRE(players[s]->request(join_match(id, s)).result() == OK);

  std::vector<WsClient*> everyone;
  for (auto& p : players) everyone.push_back(p.get());
  everyone.push_back(watcher.get());
  auto all_at = [&](uint64_t seq) {
    for (WsClient* c : everyone) {
      REQUIRE(c->wait_until([&] {
        auto* t = c->tracker().find(id);
        return t && t->seq >= seq && (seq > 0 || !t->view.empty());
      }));
      REQUIRE_FALSE(c->tracker().find(id)->broken);
      REQUIRE(c->tracker().find(id)->seq == seq);
    }
  };
  Recorded rec;
  auto record = [&] {
    std::vector<std::string> views;
    rec.legal.emplace_back();
    for (int s = 0; s < seats; ++s) {
      const auto* t = players[s]->tracker().find(id);
      views.push_back(t->view);
      std::vector<uint64_t> codes;
      for (const auto& a : t->legal) codes.push_back(a.code());
      rec.legal.back().push_back(codes);
    }
    views.push_back(watcher->tracker().find(id)->view);
    REQUIRE(watcher->tracker().find(id)->legal.empty());
    rec.views.push_back(std::move(views));
  };
  all_at(0);
  record();
  engine::Rng rng(engine::seed_from_number(seed));
  while (!players[0]->tracker().find(id)->ended) {
    REQUIRE(rec.steps.size() < static_cast<size_t>(info.max_game_length));
    std::vector<int> pending;
    for (int s = 0; s < seats; ++s) {
      if (!players[s]->tracker().find(id)->legal.empty()) pending.push_back(s);
    }
    REQUIRE_FALSE(pending.empty());
    const int seat = pending[rng.below(static_cast<uint32_t>(pending.size()))];
    std::vector<engine::Action> legal;
    for (const auto& a : players[seat]->tracker().find(id)->legal) {
      legal.push_back(engine::Action::from_code(a.code()));
    }
    engine::drop_avoided(legal, info.resign_kinds);  // random games are real games
    const uint64_t code = legal[rng.below(static_cast<uint32_t>(legal.size()))].code();
    const uint64_t seq = players[seat]->tracker().find(id)->seq;
    auto reply = players[seat]->request(action(id, code, seq));
    REQUIRE(reply.result() == OK);
    rec.steps.push_back({seat, engine::Action::from_code(code)});
    all_at(seq + 1);
    record();
  }
  for (WsClient* c : everyone) {
    REQUIRE(c->wait_until([&] { return c->tracker().find(id)->ended; }));
    CHECK(c->tracker().find(id)->status == FINISHED);
  }
  // Byte for byte the server's current view, and the seed for the replay.
  auto snap = players[0]->request(resync(id));
  REQUIRE(snap.has_snapshot());
  CHECK(snap.snapshot().view() == players[0]->tracker().find(id)->view);
  REQUIRE_FALSE(snap.snapshot().match().seed().empty());
  std::vector<std::vector<std::string>> events_seen;
  for (WsClient* c : everyone) events_seen.push_back(c->tracker().find(id)->events);
  check_against_replay(registry, info, seats, snap.snapshot().match().seed(), rec, events_seen);
}

}  // namespace

TEST_CASE("complete matches of every ruleset with clients, every frame checked against a replay") {
  ServerProcess server;
  const auto registry = engine::builtin_registry();
  REQUIRE_FALSE(registry.all().empty());
  for (const auto& info : registry.all()) {
    play_with_clients(server, registry, info, info.min_seats, 1);
    if (info.max_seats > info.min_seats) {
      play_with_clients(server, registry, info, info.min_seats + 1, 2);
    }
  }
  CHECK(server.alive());
}

TEST_CASE("complete matches of every ruleset with bots on every seat, watched by a spectator") {
  ServerProcess server;
  const auto registry = engine::builtin_registry();
  for (const auto& info : registry.all()) {
    INFO(info.name);
    auto host = connect_as(server.port(), "Host");
    for (int seats = info.min_seats; seats <= std::min(info.max_seats, info.min_seats + 2);
         ++seats) {
      auto m = create_match(info.name, seats, false, seats);
      m.mutable_create_match()->mutable_settings()->set_bot_delay_ms(1);
      auto created = host->request(m);
      REQUIRE(created.result() == OK);
      const uint64_t id = created.created().match().match_id();
      REQUIRE(host->request(spectate(id)).result() == OK);
      REQUIRE(host->wait_until(
          [&] {
            auto* t = host->tracker().find(id);
            return t && t->ended;
          },
          std::chrono::seconds(60)));
      const auto* t = host->tracker().find(id);
      CHECK_FALSE(t->broken);
      CHECK(t->status == FINISHED);
      CHECK_FALSE(t->outcome.reason().empty());
      auto snap = host->request(resync(id));
      CHECK(snap.snapshot().view() == t->view);
      CHECK(snap.snapshot().seat() == -1);
    }
  }
  CHECK(server.alive());
}

TEST_CASE("illegal, out-of-turn, spectator and other-match actions are refused with their codes") {
  ServerProcess server;
  const auto registry = engine::builtin_registry();
  const auto& info = registry.all().front();
  auto ann = connect_as(server.port(), "Ann");
  auto ben = connect_as(server.port(), "Ben");
  auto cat = connect_as(server.port(), "Cat");
  auto created = ann->request(create_match(info.name, 2, true, 0));
  const uint64_t id = created.created().match().match_id();
  REQUIRE(ben->request(join_match(id, 1)).result() == OK);
  REQUIRE(ann->wait_until([&] { return ann->tracker().find(id) != nullptr; }));
  REQUIRE(ben->wait_until([&] { return ben->tracker().find(id) != nullptr; }));
  WsClient* mover = ann->tracker().find(id)->legal.empty() ? ben.get() : ann.get();
  WsClient* waiter = mover == ann.get() ? ben.get() : ann.get();
  REQUIRE_FALSE(mover->tracker().find(id)->legal.empty());
  const uint64_t legal = mover->tracker().find(id)->legal.front().code();
  if (waiter->tracker().find(id)->legal.empty()) {
    CHECK(waiter->request(action(id, legal)).result() == NOT_YOUR_DECISION);
  }
  const auto bad = mover->request(action(id, 0xfeull | (0xabull << 8)));
  CHECK((bad.result() == ILLEGAL_ACTION || bad.result() == MALFORMED_ACTION));
  CHECK_FALSE(bad.reason().empty());
  CHECK(cat->request(action(id, legal)).result() == NOT_IN_MATCH);
  REQUIRE(cat->request(spectate(id)).result() == OK);
  CHECK(cat->request(action(id, legal)).result() == NOT_ALLOWED_FOR_SPECTATORS);
  // Another match of Ann's: Ben has no seat there.
  auto other = ann->request(create_match(info.name, 2, true, 0));
  CHECK(ben->request(action(other.created().match().match_id(), legal)).result() == NOT_IN_MATCH);
  CHECK(ben->request(action(987654, legal)).result() == UNKNOWN_MATCH);
  // Nothing moved: the seq is still 0 and the legal action still applies.
  CHECK(mover->tracker().find(id)->seq == 0);
  CHECK(mover->request(action(id, legal, 0)).result() == OK);
}

TEST_CASE("a player who reconnects with its token gets exactly the view it had") {
  ServerProcess server({"--grace", "30"});
  const auto registry = engine::builtin_registry();
  const auto& info = registry.all().front();
  auto ann = std::make_unique<WsClient>();
  ann->connect("127.0.0.1", server.port());
  const std::string token = ann->hello("Ann").welcome().resume_token();
  auto m = create_match(info.name, 2, true, 1);
  m.mutable_create_match()->mutable_settings()->set_bot_delay_ms(200);
  const uint64_t id = ann->request(m).created().match().match_id();
  // Play until it is the bot's turn, then drop the connection without a goodbye.
  for (int guard = 0; guard < 100; ++guard) {
    REQUIRE(ann->wait_until([&] {
      auto* t = ann->tracker().find(id);
      return t && (!t->legal.empty() || t->ended);
    }));
    const auto* t = ann->tracker().find(id);
    if (t->ended) break;
    const uint64_t seq = t->seq;
    REQUIRE(ann->request(action(id, t->legal.front().code(), seq)).result() == OK);
    REQUIRE(ann->wait_until([&] { return ann->tracker().find(id)->seq > seq; }));
    if (ann->tracker().find(id)->legal.empty()) break;  // the bot is to move
  }
  client::MatchTracker kept = ann->tracker();
  ann.reset();
  std::this_thread::sleep_for(std::chrono::milliseconds(500));  // the bot moves meanwhile

  WsClient again;
  again.connect("127.0.0.1", server.port());
  again.tracker() = kept;
  auto welcome = again.resume(token);
  REQUIRE(welcome.result() == OK);
  CHECK(welcome.welcome().resumed());
  auto snap = again.request(resync(id));
  const auto* t = again.tracker().find(id);
  CHECK_FALSE(t->broken);
  CHECK(t->seq == snap.snapshot().seq());
  CHECK(t->view == snap.snapshot().view());
  CHECK(t->seq > kept.find(id)->seq);  // the missed updates arrived
  WsClient stranger;
  stranger.connect("127.0.0.1", server.port());
  CHECK(stranger.resume(std::string(64, '0')).result() == BAD_TOKEN);
}
