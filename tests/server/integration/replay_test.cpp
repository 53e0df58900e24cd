// Replays over the protocol against the real binary: a match played by two clients and watched
// by a spectator is, once ended, listed, stepped forward and back from each seat and the public
// view with exactly the bytes the live viewers held at each step, shown omnisciently only after
// its end, exported to a record that duelhall-verify accepts, and imported; a tampered record is
// refused with the verifier's reason. While the match is live, none of it is served.
#include "core/bot.hpp"
#include "core/registry.hpp"
#include "helpers.hpp"
#include "record_helpers.hpp"
#include "young_jedi/deck.hpp"

#include <thread>

using namespace duelhall;
using namespace duelhall::testing;

namespace {

ClientMessage list_replays(const std::string& ruleset, const std::string& player) {
  ClientMessage m;
  m.mutable_list_replays()->set_ruleset(ruleset);
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

bool listed(const ServerMessage& list, uint64_t id) {
  for (const auto& r : list.replays().replays()) {
    if (r.match_id() == id) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("replays of every perspective match what the live viewers were sent") {
  // Stepping every position of every perspective is many requests in a burst.
  ServerProcess server({"--messages-per-second", "100000"});
  const auto registry = engine::builtin_registry();
  const auto& info = *registry.find("jedi_duel");
  auto ann = connect_as(server.port(), "Ann");
  auto ben = connect_as(server.port(), "Ben");
  auto watcher = connect_as(server.port(), "Watcher");
  ClientMessage create = create_match(info.name, 2, true, 0);
  (*create.mutable_create_match()->mutable_settings()->mutable_params())["speed_other_area"] = "3";
  auto created = ann->request(create);
  REQUIRE(created.result() == OK);
  const uint64_t id = created.created().match().match_id();
  REQUIRE(watcher->request(spectate(id)).result() == OK);
  REQUIRE(ben->request(join_match(id, 1)).result() == OK);
  std::vector<WsClient*> viewers = {ann.get(), ben.get(), watcher.get()};
  // views[k]: each viewer's tracked view after k actions (seats, then the spectator).
  std::vector<std::vector<std::string>> views;
  auto record_at = [&](uint64_t seq) { views.push_back(views_at(viewers, id, seq)); };
  record_at(0);
  engine::Rng rng(engine::seed_from_number(5));
  std::vector<WsClient*> seats = {ann.get(), ben.get()};
  bool checked_live = false;
  std::string commitment;
  while (!ann->tracker().find(id)->ended) {
    if (views.size() == 3 && !checked_live) {
      // Live: not listed, no replay from any perspective, no export.
      CHECK_FALSE(listed(watcher->request(list_replays("", "")), id));
      for (int seat : {-2, -1, 0}) {
        CHECK(watcher->request(replay_view(id, seat, 0)).result() == MATCH_NOT_ENDED);
      }
      CHECK(ann->request(replay_view(id, 0, 1)).result() == MATCH_NOT_ENDED);
      CHECK(watcher->request(export_match(id)).result() == MATCH_NOT_ENDED);
      CHECK(http_get(server.port(), "/matches/" + std::to_string(id) + "/export").status == 409);
      // The commitment is published while the seed stays secret.
      auto live = ann->request(resync(id));
      commitment = live.snapshot().match().seed_commitment();
      CHECK(commitment.size() == 64);
      CHECK(live.snapshot().match().seed().empty());
      checked_live = true;
    }
    int seat = -1;
    for (int s = 0; s < 2 && seat < 0; ++s) {
      if (!seats[s]->tracker().find(id)->legal.empty()) seat = s;
    }
    REQUIRE(seat >= 0);
    std::vector<engine::Action> legal;
    for (const auto& a : seats[seat]->tracker().find(id)->legal) {
      legal.push_back(engine::Action::from_code(a.code()));
    }
    engine::drop_avoided(legal, info.resign_kinds);
    const uint64_t seq = seats[seat]->tracker().find(id)->seq;
    auto reply = seats[seat]->request(
        action(id, legal[rng.below(static_cast<uint32_t>(legal.size()))].code(), seq));
    REQUIRE(reply.result() == OK);
    record_at(seq + 1);
  }
  REQUIRE(checked_live);
  const uint32_t length = static_cast<uint32_t>(views.size() - 1);

  // Listed: recent, by player name (any case), by ruleset; not under another ruleset.
  auto any = watcher->request(list_replays("", ""));
  REQUIRE(any.result() == OK);
  REQUIRE(listed(any, id));
  CHECK(listed(watcher->request(list_replays("", "bEN")), id));
  CHECK(listed(watcher->request(list_replays("jedi_duel", "")), id));
  CHECK_FALSE(listed(watcher->request(list_replays("force_battles", "")), id));
  CHECK_FALSE(listed(watcher->request(list_replays("", "Nobody")), id));
  const auto& summary = any.replays().replays(0);
  CHECK(summary.match_id() == id);
  CHECK(summary.steps() == length);
  CHECK(summary.seed_commitment() == commitment);
  // Published at creation, before anyone joined, and bound to this engine version.
  CHECK(created.created().match().seed_commitment() == commitment);
  CHECK(created.created().match().engine_version() == summary.engine_version());
  CHECK(summary.seed().size() == 64);

  // Forward from each perspective, then back: the live bytes at every position.
  for (int v = 0; v < 3; ++v) {
    const int seat = v < 2 ? v : -1;
    INFO("viewer " << seat);
    for (uint32_t k = 0; k <= length; ++k) {
      auto frame = watcher->request(replay_view(id, seat, k));
      REQUIRE(frame.result() == OK);
      REQUIRE(frame.replay_frame().position() == k);
      CHECK(frame.replay_frame().length() == length);
      // The parameters travel with the frame, so a client draws the match as it was set up.
      CHECK(frame.replay_frame().params().at("speed_other_area") == "3");
      REQUIRE(frame.replay_frame().view() == views[k][static_cast<size_t>(v)]);
    }
    for (uint32_t k = length + 1; k-- > 0;) {
      auto frame = watcher->request(replay_view(id, seat, k));
      REQUIRE(frame.replay_frame().view() == views[k][static_cast<size_t>(v)]);
    }
  }
  // The omniscient view opens once the match has ended; it shows more than any one seat.
  auto all = watcher->request(replay_view(id, -2, 0));
  REQUIRE(all.result() == OK);
  CHECK(all.replay_frame().view() != views[0][0]);
  CHECK(all.replay_frame().view() != views[0][1]);
  CHECK(watcher->request(replay_view(id, 2, 0)).result() == NO_SUCH_SEAT);

  // Export, verify, import; a tampered record is refused with the reason.
  auto exported = watcher->request(export_match(id));
  REQUIRE(exported.result() == OK);
  const std::string record = exported.exported().record();
  // The same file over HTTP, for a browser's download link.
  const auto download = http_get(server.port(), "/matches/" + std::to_string(id) + "/export");
  CHECK(download.status == 200);
  CHECK(download.body == record);
  CHECK(http_get(server.port(), "/matches/999999/export").status == 404);
  const ExitResult good = verify_file(record);
  CHECK(good.status == 0);
  CHECK_THAT(good.output, Catch::Contains("verified"));
  std::string tampered = record;
  const size_t step = tampered.find("\nstep ");
  REQUIRE(step != std::string::npos);
  const size_t code_at = tampered.find(' ', step + 6) + 1;
  tampered[code_at] = tampered[code_at] == '1' ? '2' : '1';
  const ExitResult bad = verify_file(tampered);
  CHECK(bad.status == 1);
  CHECK_THAT(bad.output, Catch::Contains("NOT verified"));
  auto refused = watcher->request(import_match(tampered));
  CHECK(refused.result() == BAD_RECORD);
  CHECK_FALSE(refused.reason().empty());
  auto imported = watcher->request(import_match(record));
  REQUIRE(imported.result() == OK);
  const uint64_t copy = imported.imported().match_id();
  CHECK(copy != id);
  auto last = watcher->request(replay_view(copy, 0, length));
  REQUIRE(last.result() == OK);
  CHECK(last.replay_frame().view() == views[length][0]);
  CHECK(watcher->request(export_match(copy)).exported().record().find("\nend ") !=
        std::string::npos);
}

TEST_CASE("a replay gives each seat's deck list once the match has ended, and nothing before") {
  ServerProcess server;
  const auto ready = engine::young_jedi::ready_decks();
  std::string light, dark;
  for (const auto& deck : ready) {
    (deck.side == engine::young_jedi::Side::kLight ? light : dark) = deck.list;
  }
  auto ann = connect_as(server.port(), "Ann");
  auto ben = connect_as(server.port(), "Ben");
  ClientMessage create = create_match("young_jedi", 2, true, 0);
  create.mutable_create_match()->set_seat_option(light);
  auto created = ann->request(create);
  REQUIRE(created.result() == OK);
  const uint64_t id = created.created().match().match_id();
  ClientMessage join = join_match(id, 1);
  join.mutable_join_match()->set_seat_option(dark);
  REQUIRE(ben->request(join).result() == OK);
  CHECK(ben->request(replay_view(id, -1, 0)).result() == MATCH_NOT_ENDED);
  ClientMessage resign;
  resign.mutable_resign()->set_match_id(id);
  ann->send(resign);
  REQUIRE(ben->wait_until([&] { return ben->tracker().find(id) && ben->tracker().find(id)->ended; }));
  // The end is stored just after it is told: a replay opens once it is.
  ServerMessage frame;
  for (int tries = 0; tries < 50; ++tries) {
    frame = ben->request(replay_view(id, -1, 0));
    if (frame.result() != MATCH_NOT_ENDED) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  REQUIRE(frame.result() == OK);
  REQUIRE(frame.replay_frame().setups_size() == 2);
  CHECK(frame.replay_frame().setups(0) == light);
  CHECK(frame.replay_frame().setups(1) == dark);
}
