// The tournament room's tests on the hall's in-process server: accounts sign in, a tournament is
// created and joined, and the room's tick is driven by hand with the time it is given.
#pragma once

#include <chrono>

#include "hall_fixture.hpp"
#include "tournament_room/tournament_room.hpp"

namespace duelhall::testing {

inline int64_t wall_ms() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

inline server::Config tournament_config() {
  server::Config config = hall_config();
  config.anyone_creates_tournaments = true;
  config.tournament_show_up_seconds = 0;  // the clock's 15 s (blitz) then decide
  return config;
}

inline ClientMessage create_tournament(const std::string& name, TournamentFormat format,
                                       int64_t start_ms) {
  ClientMessage m;
  TournamentSettings* s = m.mutable_create_tournament()->mutable_settings();
  s->set_name(name);
  s->set_ruleset(kTestRuleset);
  s->set_format(format);
  s->set_clock("blitz");
  s->set_start_ms(static_cast<uint64_t>(start_ms));
  s->set_rounds(2);
  return m;
}

inline ClientMessage join_tournament(uint64_t id) {
  ClientMessage m;
  m.mutable_join_tournament()->set_id(id);
  return m;
}

inline ClientMessage get_tournament(uint64_t id, bool watch = false) {
  ClientMessage m;
  m.mutable_get_tournament()->set_id(id);
  m.mutable_get_tournament()->set_watch(watch);
  return m;
}

inline ClientMessage resign(uint64_t match_id) {
  ClientMessage m;
  m.mutable_resign()->set_match_id(match_id);
  return m;
}

// The hall with its tournaments kept in the hall's store (SQLite in memory).
struct TournamentHall : Hall {
  explicit TournamentHall(server::Config config = tournament_config()) : Hall(std::move(config)) {
    server.hub->set_tournament_store(&store);
  }
  server::TournamentRoom& room() { return server.hub->tournaments(); }
};

// A signed-in player of the hall's tests.
struct Entrant {
  Entrant(Hall& hall, const std::string& account_name) : name(account_name), client(hall.server) {
    sign_in(client, hall.account(account_name));
  }
  std::string name;
  InProcessClient client;
};

}  // namespace duelhall::testing
