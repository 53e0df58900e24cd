// Writes the seed corpora of the fuzz targets into tests/fuzz/corpus/<target>/ (run by hand
// after a format change: `build/fuzz/tests/fuzz/fuzz_make_seeds tests/fuzz/corpus`). The seeds
// are real inputs (serialized states, exported matches, command sequences) so that fuzzing
// starts from the formats' inside rather than from their first byte.
#include <filesystem>
#include <fstream>
#include <iostream>

#include "core/version.hpp"
#include "envelope.pb.h"
#include "fairness/match_record.hpp"
#include "fairness/record_format.hpp"
#include "net/messages.hpp"
#include "support.hpp"

using namespace duelhall;

namespace {

std::filesystem::path root;

void write(const std::string& target, const std::string& name, const std::string& bytes) {
  std::filesystem::create_directories(root / target);
  std::ofstream(root / target / name, std::ios::binary) << bytes;
}

std::unique_ptr<engine::State> played(const engine::RulesetInfo& info, int steps, uint8_t seed) {
  engine::Seed s{};
  s[0] = seed;
  auto state = fuzz::registry().create(info.name, info.min_seats, s, {}).state;
  engine::Rng pick(s);
  fuzz::play_random(*state, steps, pick);
  return state;
}

// One operation of the dispatch target's input format (see dispatch.cpp).
std::string frame(int connection, const ClientMessage& message) {
  const std::string bytes = message.SerializeAsString();
  std::string out(1, static_cast<char>(6 << 2 | connection));
  out += static_cast<char>(bytes.size() & 0xff);
  out += static_cast<char>(bytes.size() >> 8);
  return out + bytes;
}
std::string plays(int connection, int times) {
  std::string out;
  for (int i = 0; i < times; ++i) out += {static_cast<char>(connection), static_cast<char>(i * 7)};
  return out;
}

ClientMessage create(const std::string& ruleset, uint32_t bots, bool unlisted) {
  ClientMessage m;
  m.set_request_id(1);
  auto* c = m.mutable_create_match();
  c->mutable_settings()->set_ruleset(ruleset);
  c->mutable_settings()->set_seats(2);
  c->mutable_settings()->set_unlisted(unlisted);
  c->mutable_settings()->set_spectators_allowed(true);
  c->mutable_settings()->set_spectator_chat(true);
  c->set_join(true);
  c->set_bot_seats(bots);
  return m;
}

void dispatch_seeds() {
  for (const auto& info : fuzz::registry().all()) {
    // Against the bot, played for a while.
    write("dispatch", info.name + "-bot",
          std::string(1, 1) + frame(0, create(info.name, 1, false)) + plays(0, 60));
    // Two players: a public match joined by id, spectated, chatted in, played, resumed.
    ClientMessage join;
    join.set_request_id(2);
    join.mutable_join_match()->set_match_id(1);
    join.mutable_join_match()->set_seat(-1);
    ClientMessage watch;
    watch.mutable_spectate()->set_match_id(1);
    ClientMessage chat;
    chat.mutable_chat()->set_match_id(1);
    chat.mutable_chat()->set_text("hello");
    ClientMessage resync;
    resync.mutable_resync()->set_match_id(1);
    std::string two = std::string(1, 2) + frame(0, create(info.name, 0, false)) + frame(1, join) +
                      frame(2, watch) + frame(0, chat) + plays(0, 5) + plays(1, 5) +
                      std::string(1, 5 << 2 | 1) + frame(1, resync) + plays(1, 5) + plays(0, 20);
    write("dispatch", info.name + "-two", two);
  }
  ClientMessage list;
  list.mutable_list_matches();
  ClientMessage rulesets;
  rulesets.mutable_list_rulesets();
  ClientMessage lobby;
  lobby.mutable_subscribe_lobby()->set_subscribe(true);
  ClientMessage ping;
  ping.mutable_ping()->set_nonce(7);
  ClientMessage replays;
  replays.mutable_list_replays();
  ClientMessage exported;
  exported.mutable_export_match()->set_match_id(1);
  write("dispatch", "lobby",
        std::string(1, 1) + frame(0, rulesets) + frame(0, lobby) + frame(0, list) +
            frame(0, create("jedi_duel", 1, true)) + frame(0, ping) + frame(0, replays) +
            frame(0, exported) + std::string(1, 4 << 2));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: fuzz_make_seeds CORPUS_DIR\n";
    return 2;
  }
  root = argv[1];
  dispatch_seeds();
  for (const auto& info : fuzz::registry().all()) {
    for (int depth : {0, 12, 80}) {
      write("state_decode", info.name + "-" + std::to_string(depth),
            played(info, depth, 1)->serialize());
    }
    auto ended = played(info, info.max_game_length, 2);
    write("replay_import", info.name + "-ended",
          fairness::write_record(
              fairness::make_record(*ended, {"Ann", "Bob"}, engine::kEngineVersion, true)));
    auto live = played(info, 10, 3);
    write("replay_import", info.name + "-live",
          fairness::write_record(
              fairness::make_record(*live, {"Ann", "Bob"}, engine::kEngineVersion, false)));
  }
  return 0;
}
