// Quick pairing wired on one node (pairing/pairing_room.hpp): seeks through the dispatcher, a
// wave run by hand (the timer's own is not armed in-process), matches made and seated.
#include <unistd.h>
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "pairing/pairing_room.hpp"
#include "support/in_process.hpp"

using namespace duelhall;
using duelhall::testing::create_message;
using duelhall::testing::InProcessClient;
using duelhall::testing::InProcessServer;

namespace {

ClientMessage seek_message(const std::string& clock = "rapid", bool rated = false) {
  ClientMessage m;
  m.mutable_seek()->set_ruleset(duelhall::testing::kTestRuleset);
  m.mutable_seek()->set_clock(clock);
  m.mutable_seek()->set_rated(rated);
  return m;
}

ClientMessage cancel_message() {
  ClientMessage m;
  m.mutable_cancel_seek();
  return m;
}

std::optional<Paired> paired_of(InProcessClient& client) {
  client.wait_until(
      [&] {
        for (const auto& m : client.inbox) {
          if (m.has_paired()) return true;
        }
        return false;
      },
      std::chrono::milliseconds(500));
  for (const auto& m : client.inbox) {
    if (m.has_paired()) return m.paired();
  }
  return std::nullopt;
}

size_t wave(InProcessServer& server) {
  return server.hub->pairing().wave(std::chrono::steady_clock::now());
}

}  // namespace

TEST_CASE("pairing: two seekers of one pool are seated in one match by the next wave") {
  InProcessServer server;
  InProcessClient ann(server);
  InProcessClient ben(server);
  ann.hello("Ann");
  ben.hello("Ben");
  const ServerMessage first = ann.request(seek_message());
  REQUIRE(first.result() == OK);
  CHECK(first.seek_status().seeking());
  CHECK(first.seek_status().players_in_pool() == 1);
  const ServerMessage second = ben.request(seek_message());
  REQUIRE(second.result() == OK);
  CHECK(second.seek_status().players_in_pool() == 2);
  CHECK(second.seek_status().clock() == "rapid");

  REQUIRE(wave(server) == 1);
  const auto ann_paired = paired_of(ann);
  const auto ben_paired = paired_of(ben);
  REQUIRE(ann_paired);
  REQUIRE(ben_paired);
  CHECK(ann_paired->match_id() == ben_paired->match_id());
  CHECK(std::set<int>{ann_paired->seat(), ben_paired->seat()} == std::set<int>{0, 1});
  CHECK(ann_paired->match().settings().clock_seconds() == 30);  // the "rapid" preset
  CHECK_FALSE(ann_paired->rematch());
  const uint64_t id = ann_paired->match_id();
  REQUIRE(ann.wait_until([&] {
    const auto* t = ann.tracker.find(id);
    return t && t->status == PLAYING;
  }));
  CHECK(server.hub->pairing().seeking() == 0);
  CHECK(wave(server) == 0);  // nobody is paired twice
}

TEST_CASE("pairing: seekers of different clocks are not paired: the pools are kept apart") {
  InProcessServer server;
  InProcessClient ann(server);
  InProcessClient ben(server);
  ann.hello("Ann");
  ben.hello("Ben");
  REQUIRE(ann.request(seek_message("rapid")).result() == OK);
  REQUIRE(ben.request(seek_message("blitz")).result() == OK);
  CHECK(wave(server) == 0);
  CHECK(server.hub->pairing().seeking() == 2);
}

TEST_CASE("pairing: cancel takes the seeker out, and cancelling when not seeking is NOT_SEEKING") {
  InProcessServer server;
  InProcessClient ann(server);
  InProcessClient ben(server);
  ann.hello("Ann");
  ben.hello("Ben");
  CHECK(ann.request(cancel_message()).result() == NOT_SEEKING);
  REQUIRE(ann.request(seek_message()).result() == OK);
  const ServerMessage cancelled = ann.request(cancel_message());
  REQUIRE(cancelled.result() == OK);
  CHECK_FALSE(cancelled.seek_status().seeking());
  CHECK(ann.request(cancel_message()).result() == NOT_SEEKING);
  REQUIRE(ben.request(seek_message()).result() == OK);
  CHECK(wave(server) == 0);
  CHECK(server.hub->pairing().seeking() == 1);
}

TEST_CASE("pairing: a disconnect takes the player out of the pool") {
  InProcessServer server;
  InProcessClient ann(server);
  InProcessClient ben(server);
  ann.hello("Ann");
  ben.hello("Ben");
  REQUIRE(ann.request(seek_message()).result() == OK);
  ann.disconnect();
  CHECK(server.hub->pairing().seeking() == 0);
  REQUIRE(ben.request(seek_message()).result() == OK);
  CHECK(wave(server) == 0);
  CHECK_FALSE(paired_of(ben));
}

TEST_CASE("pairing: two players where one ignores the other are never paired") {
  InProcessServer server;
  InProcessClient ann(server);
  InProcessClient ben(server);
  InProcessClient cat(server);
  ann.hello("Ann");
  const uint64_t ben_id = ben.hello("Ben").welcome().player_id();
  cat.hello("Cat");
  ClientMessage ignore;
  ignore.mutable_ignore()->mutable_target()->set_player_id(ben_id);
  ignore.mutable_ignore()->set_ignore(true);
  REQUIRE(ann.request(ignore).result() == OK);
  REQUIRE(ann.request(seek_message()).result() == OK);
  REQUIRE(ben.request(seek_message()).result() == OK);
  CHECK(wave(server) == 0);
  CHECK(server.hub->pairing().seeking() == 2);
  // A third seeker whom nobody ignores is paired with one of them.
  REQUIRE(cat.request(seek_message()).result() == OK);
  CHECK(wave(server) == 1);
  CHECK(server.hub->pairing().seeking() == 1);
}

TEST_CASE("pairing: bad seeks are typed refusals that change nothing") {
  InProcessServer server;
  InProcessClient ann(server);
  ann.hello("Ann");
  SECTION("a guest in a rated pool") {
    CHECK(ann.request(seek_message("rapid", true)).result() == SIGN_IN_REQUIRED);
  }
  SECTION("an unknown clock or ruleset") {
    CHECK(ann.request(seek_message("bullet")).result() == NO_SUCH_POOL);
    ClientMessage chess = seek_message();
    chess.mutable_seek()->set_ruleset("chess");
    CHECK(ann.request(chess).result() == NO_SUCH_POOL);
  }
  SECTION("a table size the ruleset does not take") {
    ClientMessage big = seek_message();
    big.mutable_seek()->set_seats(6);
    CHECK(ann.request(big).result() == BAD_PARAMETERS);
  }
  SECTION("seeking twice, in the same pool or another") {
    REQUIRE(ann.request(seek_message()).result() == OK);
    CHECK(ann.request(seek_message()).result() == ALREADY_SEEKING);
    CHECK(ann.request(seek_message("blitz")).result() == ALREADY_SEEKING);
    CHECK(server.hub->pairing().seeking() == 1);
    REQUIRE(ann.request(cancel_message()).result() == OK);
  }
  SECTION("seeking while seated in a match not ended") {
    REQUIRE(ann.request(create_message(2, true, 0)).result() == OK);
    CHECK(ann.request(seek_message()).result() == SEATED_ELSEWHERE);
  }
  CHECK(server.hub->pairing().seeking() == 0);
  CHECK(ann.request(cancel_message()).result() == NOT_SEEKING);
}

TEST_CASE("pairing: three-seat tables wait for their seats, then seat all three") {
  InProcessServer server;
  std::vector<std::unique_ptr<InProcessClient>> players;
  for (const char* name : {"Ann", "Ben", "Cat"}) {
    players.push_back(std::make_unique<InProcessClient>(server));
    players.back()->hello(name);
    ClientMessage m = seek_message();
    m.mutable_seek()->set_seats(3);
    REQUIRE(players.back()->request(m).result() == OK);
    if (players.size() < 3) CHECK(wave(server) == 0);
  }
  REQUIRE(wave(server) == 1);
  std::set<int> seats;
  std::set<uint64_t> matches;
  for (auto& p : players) {
    const auto paired = paired_of(*p);
    REQUIRE(paired);
    seats.insert(paired->seat());
    matches.insert(paired->match_id());
  }
  CHECK(seats == std::set<int>{0, 1, 2});
  CHECK(matches.size() == 1);
}

TEST_CASE("pairing: the ruleset list carries each ruleset's clock presets and the host's") {
  server::Config config;
  config.pairing.clocks.push_back({duelhall::testing::kTestRuleset, "bullet", 5});
  config.pairing.clocks.push_back({duelhall::testing::kTestRuleset, "rapid", 45});
  InProcessServer server(config);
  InProcessClient ann(server);
  ann.hello("Ann");
  ClientMessage list;
  list.mutable_list_rulesets();
  const ServerMessage reply = ann.request(list);
  std::map<std::string, uint32_t> presets;
  for (const auto& r : reply.rulesets().rulesets()) {
    if (r.name() != duelhall::testing::kTestRuleset) continue;
    for (const auto& p : r.clock_presets()) presets[p.name()] = p.clock_seconds();
  }
  CHECK(presets == std::map<std::string, uint32_t>{
                       {"blitz", 15}, {"rapid", 45}, {"classical", 90}, {"bullet", 5}});
  CHECK(ann.request(seek_message("bullet")).result() == OK);
}

TEST_CASE("pairing: the wave interval, the host's clocks and bot fill come from flags and TOML") {
  const server::Config defaults;
  CHECK(defaults.pairing.wave_ms == 1000);
  CHECK(defaults.pairing.clocks.empty());
  CHECK(defaults.pairing.bot_fill_seconds == 0);
  auto parsed = server::parse_args({"--pairing-wave-ms", "500", "--pairing-clock",
                                    "jedi_duel:bullet:8", "--pairing-bot-fill", "30"});
  REQUIRE(parsed.error.empty());
  CHECK(parsed.config.pairing.wave_ms == 500);
  REQUIRE(parsed.config.pairing.clocks.size() == 1);
  CHECK(parsed.config.pairing.clocks[0].ruleset == "jedi_duel");
  CHECK(parsed.config.pairing.clocks[0].name == "bullet");
  CHECK(parsed.config.pairing.clocks[0].clock_seconds == 8);
  CHECK(parsed.config.pairing.bot_fill_seconds == 30);
  for (const char* bad : {"jedi_duel", "jedi_duel:bullet", ":bullet:8", "jedi_duel::8",
                          "jedi_duel:bullet:x", "jedi_duel:bullet:90000"}) {
    CHECK_FALSE(server::parse_args({"--pairing-clock", bad}).error.empty());
  }
  CHECK_FALSE(server::parse_args({"--pairing-wave-ms", "10"}).error.empty());
  const auto path = std::filesystem::temp_directory_path() /
                    ("duelhall-pairing-" + std::to_string(::getpid()) + ".toml");
  std::ofstream(path) << "[pairing]\nwave_ms = 2000\nclocks = [\"a:b:1\", \"c:d:2\"]\n";
  auto from_file = server::parse_args({"--config", path.string()});
  std::filesystem::remove(path);
  REQUIRE(from_file.error.empty());
  CHECK(from_file.config.pairing.wave_ms == 2000);
  CHECK(from_file.config.pairing.clocks.size() == 2);
}
