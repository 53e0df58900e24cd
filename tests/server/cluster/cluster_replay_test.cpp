// Replays and exports across nodes (docs/cluster.md): an ended match's record and action log are
// in the shared PostgreSQL, so a node that never hosted the match lists it, replays it from every
// perspective with the bytes its live viewers held, and exports the record the hosting node
// exports, over the WebSocket and HTTP, which duelhall-verify accepts. While the match is live,
// that node serves none of it either.
#include <catch2/catch.hpp>

#include "../integration/record_helpers.hpp"
#include "cluster_harness.hpp"
#include "core/bot.hpp"
#include "core/registry.hpp"

using namespace duelhall;
using namespace duelhall::testing;

namespace {

ClientMessage list_replays(const std::string& player) {
  ClientMessage m;
  m.mutable_list_replays()->set_player(player);
  return m;
}

ClientMessage replay_view(uint64_t id, int seat, uint32_t position) {
  ClientMessage m;
  m.mutable_replay_view()->set_match_id(id);
  m.mutable_replay_view()->set_seat(seat);
  m.mutable_replay_view()->set_position(position);
  return m;
}

const ReplaySummary* listed(const ServerMessage& list, uint64_t id) {
  for (const auto& r : list.replays().replays()) {
    if (r.match_id() == id) return &r;
  }
  return nullptr;
}

}  // namespace

TEST_CASE(
    "a replay and an export asked on another node than the match's: listed, stepped from each "
    "seat and the public view with the bytes the live viewers held, exported over the WebSocket "
    "and HTTP to the hosting node's record, which duelhall-verify accepts, and none of it while "
    "live") {
  RedisServer redis;
  const std::string database = ThrowawayPostgres::shared().new_database();
  // node-a keeps the matches created through it; many replay steps are asked in a burst.
  auto a_args = pg_node_args(redis, "node-a", database);
  a_args.insert(a_args.end(), {"--placement", "local", "--messages-per-second", "100000"});
  auto b_args = pg_node_args(redis, "node-b", database);
  b_args.insert(b_args.end(), {"--messages-per-second", "100000"});
  ServerProcess a(a_args);
  ServerProcess b(b_args);
  wait_node_ready(a);
  wait_node_ready(b);

  const auto registry = engine::builtin_registry();
  const auto& info = *registry.find("jedi_duel");
  auto ann = connect_as(a.port(), "Ann");
  auto ben = connect_as(a.port(), "Ben");
  auto watcher = connect_as(a.port(), "Watcher");
  ClientMessage create = create_match(info.name, 2, true, 0);
  (*create.mutable_create_match()->mutable_settings()->mutable_params())["speed_other_area"] = "3";
  const ServerMessage created = ann->request(create);
  REQUIRE(created.result() == OK);
  REQUIRE(created.created().match().node() == "node-a");
  const uint64_t id = created.created().match().match_id();
  REQUIRE(watcher->request(spectate(id)).result() == OK);
  REQUIRE(ben->request(join_match(id, 1)).result() == OK);

  // views[k]: Ann's, Ben's and the spectator's view after k actions, as node-a sent them.
  std::vector<WsClient*> viewers = {ann.get(), ben.get(), watcher.get()};
  std::vector<std::vector<std::string>> views;
  auto record_at = [&](uint64_t seq) { views.push_back(views_at(viewers, id, seq)); };
  record_at(0);
  const std::string download = "/matches/" + std::to_string(id) + "/export";
  auto reader = connect_as(b.port(), "Reader");
  engine::Rng rng(engine::seed_from_number(17));
  while (!ann->tracker().find(id)->ended) {
    if (views.size() == 4) {
      // Live: node-b, which does not host it, serves no replay and no export of it either.
      CHECK(reader->request(replay_view(id, -1, 0)).result() == MATCH_NOT_ENDED);
      CHECK(reader->request(export_match(id)).result() == MATCH_NOT_ENDED);
      CHECK(http_get(b.port(), download).status == 409);
      CHECK(listed(reader->request(list_replays("")), id) == nullptr);
    }
    WsClient* mover = nullptr;
    for (WsClient* c : {ann.get(), ben.get()}) {
      if (!mover && !c->tracker().find(id)->legal.empty()) mover = c;
    }
    REQUIRE(mover != nullptr);
    std::vector<engine::Action> legal;
    for (const auto& l : mover->tracker().find(id)->legal) {
      legal.push_back(engine::Action::from_code(l.code()));
    }
    engine::drop_avoided(legal, info.resign_kinds);
    const uint64_t seq = mover->tracker().find(id)->seq;
    const uint64_t code = legal[rng.below(static_cast<uint32_t>(legal.size()))].code();
    REQUIRE(mover->request(action(id, code, seq)).result() == OK);
    record_at(seq + 1);
  }
  REQUIRE(views.size() > 4);
  const auto played = static_cast<uint32_t>(views.size() - 1);

  // The match ended on node-a by the rules; node-b lists it once its end is in the shared store,
  // with its players, its steps and its revealed seed.
  ServerMessage list;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  do {
    list = reader->request(list_replays("Ann"));
  } while (!listed(list, id) && std::chrono::steady_clock::now() < deadline);
  const ReplaySummary* summary = listed(list, id);
  REQUIRE(summary != nullptr);
  CHECK(summary->names_size() == 2);
  CHECK(summary->steps() == played);
  CHECK(summary->seed().size() == 64);

  // Stepped on node-b from each seat and the public view: the bytes node-a sent live.
  for (int v = 0; v < 3; ++v) {
    const int seat = v < 2 ? v : -1;
    INFO("viewer " << seat);
    for (uint32_t k = 0; k <= played; ++k) {
      const ServerMessage frame = reader->request(replay_view(id, seat, k));
      REQUIRE(frame.result() == OK);
      REQUIRE(frame.replay_frame().position() == k);
      CHECK(frame.replay_frame().view() == views[k][static_cast<size_t>(v)]);
    }
  }
  CHECK(reader->request(replay_view(id, -2, played)).result() == OK);  // omniscient, once ended

  // The export on node-b is node-a's, over the WebSocket and HTTP, and it verifies.
  const ServerMessage there = reader->request(export_match(id));
  REQUIRE(there.result() == OK);
  const ServerMessage here = watcher->request(export_match(id));
  REQUIRE(here.result() == OK);
  CHECK(there.exported().record() == here.exported().record());
  const HttpAnswer file = http_get(b.port(), download);
  CHECK(file.status == 200);
  CHECK(file.body == there.exported().record());
  const ExitResult verdict = verify_file(there.exported().record());
  INFO(verdict.output);
  CHECK(verdict.status == 0);
  CHECK_THAT(verdict.output, Catch::Contains("verified"));
}
