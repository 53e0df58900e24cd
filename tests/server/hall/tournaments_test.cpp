// Tournaments run by the server (docs/tournaments.md): created, joined, started at their time,
// each game made into a match when its players are connected, results taken from the matches'
// ends, rounds paired as the last game ends, standings final; no-shows forfeit; a restart resumes
// from the store; and every refusal typed with nothing changed (issue 35).
#include "tournament_fixture.hpp"

using namespace duelhall;
using namespace duelhall::testing;

namespace {

// Every player's next TournamentGameReady; the match ids of this round, once each.
std::vector<uint64_t> round_matches(std::vector<Entrant*> players,
                                    std::map<std::string, TournamentGameReady>& ready) {
  std::set<uint64_t> matches;
  for (Entrant* p : players) {
    auto told = next_push(p->client, ServerMessage::kTournamentGame);
    if (!told) continue;
    ready[p->name] = told->tournament_game();
    matches.insert(told->tournament_game().match_id());
  }
  return {matches.begin(), matches.end()};
}

// Seat 1 of every game resigns, so seat 0 wins it.
void seat_one_resigns(std::vector<Entrant*> players,
                      const std::map<std::string, TournamentGameReady>& ready) {
  for (Entrant* p : players) {
    const auto it = ready.find(p->name);
    if (it == ready.end() || it->second.seat() != 1) continue;
    REQUIRE(p->client.request(resign(it->second.match_id())).result() == OK);
  }
}

TournamentDetail detail_of(Entrant& viewer, uint64_t id) {
  const ServerMessage reply = viewer.client.request(get_tournament(id));
  REQUIRE(reply.result() == OK);
  return reply.tournament();
}

}  // namespace

TEST_CASE("hall: tournaments: a Swiss of four plays its two rounds from the matches' results to "
          "final standings") {
  TournamentHall hall;
  Entrant ann(hall, "Ann"), ben(hall, "Ben"), cat(hall, "Cat"), dan(hall, "Dan");
  std::vector<Entrant*> all{&ann, &ben, &cat, &dan};
  const int64_t start = wall_ms() + 2000;
  const ServerMessage created =
      ann.client.request(create_tournament("Four", FORMAT_SWISS, start));
  REQUIRE(created.result() == OK);
  const uint64_t id = created.tournament().summary().id();
  CHECK(created.tournament().summary().status() == TOURNAMENT_REGISTERING);
  CHECK(created.tournament().summary().created_by() == "Ann");
  for (Entrant* p : all) {
    const ServerMessage joined = p->client.request(join_tournament(id));
    REQUIRE(joined.result() == OK);
    CHECK(joined.tournament().registered());
  }
  CHECK(detail_of(ann, id).summary().players() == 4);
  hall.room().tick(start - 1000);
  CHECK(detail_of(ann, id).summary().status() == TOURNAMENT_REGISTERING);

  hall.room().tick(start);
  std::map<std::string, TournamentGameReady> ready;
  std::vector<uint64_t> first = round_matches(all, ready);
  REQUIRE(first.size() == 2);
  TournamentDetail now = detail_of(ann, id);
  CHECK(now.summary().status() == TOURNAMENT_RUNNING);
  CHECK(now.summary().round() == 1);
  REQUIRE(now.games_size() == 2);
  for (const TournamentGame& game : now.games()) CHECK(game.match_id() != 0);
  seat_one_resigns(all, ready);

  // The last result of round 1 pairs round 2 at once: winners meet winners.
  ready.clear();
  std::vector<uint64_t> second = round_matches(all, ready);
  REQUIRE(second.size() == 2);
  CHECK(second[0] != first[0]);
  now = detail_of(ann, id);
  CHECK(now.summary().round() == 2);
  seat_one_resigns(all, ready);
  REQUIRE(ann.client.wait_until([&] {
    return detail_of(ann, id).summary().status() == TOURNAMENT_FINISHED;
  }));
  now = detail_of(ann, id);
  REQUIRE(now.standings_size() == 4);
  CHECK(now.standings(0).points() == 4);  // two wins, in half-points
  CHECK(now.standings(0).wins() == 2);
  CHECK(now.standings(3).points() == 0);
  // Kept for good: the store has its final standings.
  const auto stored = hall.store.find_tournament(static_cast<int64_t>(id));
  REQUIRE(stored);
  CHECK(stored->status == TOURNAMENT_FINISHED);
}

TEST_CASE("hall: tournaments: a player not connected when a game is made loses it once the "
          "show-up time has passed") {
  TournamentHall hall;
  Entrant ann(hall, "Ann"), ben(hall, "Ben");
  const int64_t start = wall_ms() + 2000;
  const uint64_t id =
      ann.client.request(create_tournament("Two", FORMAT_SWISS, start)).tournament().summary().id();
  REQUIRE(ann.client.request(join_tournament(id)).result() == OK);
  REQUIRE(ben.client.request(join_tournament(id)).result() == OK);
  ben.client.disconnect();
  hall.room().tick(start);
  TournamentDetail now = detail_of(ann, id);
  REQUIRE(now.games_size() == 1);
  CHECK(now.games(0).match_id() == 0);  // waits for Ben
  hall.room().tick(start + 14'000);
  CHECK(detail_of(ann, id).games(0).places_size() == 0);
  hall.room().tick(start + 15'000);  // the blitz clock's 15 s
  now = detail_of(ann, id);
  REQUIRE(now.summary().round() == 2);  // round 1 decided, round 2 made
  bool ann_won = false;
  for (const TournamentStanding& s : now.standings()) {
    if (s.name() == "Ann") ann_won = s.wins() == 1;
  }
  CHECK(ann_won);
}

TEST_CASE("hall: tournaments: a restarted server resumes a running tournament from the store") {
  TournamentHall hall;
  Entrant ann(hall, "Ann"), ben(hall, "Ben"), cat(hall, "Cat");
  const int64_t start = wall_ms() + 2000;
  const uint64_t id =
      ann.client.request(create_tournament("Three", FORMAT_SWISS, start)).tournament().summary().id();
  for (Entrant* p : {&ann, &ben, &cat}) REQUIRE(p->client.request(join_tournament(id)).result() == OK);
  hall.room().tick(start);
  const TournamentDetail before = *hall.room().detail(id);
  REQUIRE(before.summary().status() == TOURNAMENT_RUNNING);

  // A second server on the same store, as after a restart.
  InProcessServer restarted(tournament_config());
  restarted.hub->set_accounts(&hall.accounts);
  restarted.hub->set_moderation(&hall.moderation);
  restarted.hub->set_tournament_store(&hall.store);
  restarted.hub->tournaments().start();
  const auto resumed = restarted.hub->tournaments().detail(id);
  REQUIRE(resumed);
  CHECK(resumed->summary().status() == TOURNAMENT_RUNNING);
  CHECK(resumed->summary().round() == 1);
  CHECK(resumed->standings_size() == before.standings_size());
  CHECK(resumed->games_size() == before.games_size());
  for (int g = 0; g < before.games_size(); ++g) {
    CHECK(resumed->games(g).seats(0) == before.games(g).seats(0));
    CHECK(resumed->games(g).match_id() == before.games(g).match_id());
  }
  restarted.hub->tournaments().stop();
}

TEST_CASE("hall: tournaments: bad requests are refused, typed, with nothing changed") {
  TournamentHall hall;
  Entrant ann(hall, "Ann"), ben(hall, "Ben"), cat(hall, "Cat");
  const int64_t start = wall_ms() + 5000;
  CHECK(ann.client.request(create_tournament("Past", FORMAT_SWISS, wall_ms() - 60'000)).result() ==
        START_IN_PAST);
  ClientMessage unnamed = create_tournament("", FORMAT_SWISS, start);
  CHECK(ann.client.request(unnamed).result() == BAD_PARAMETERS);
  ClientMessage wide = create_tournament("Wide", FORMAT_ARENA, start);
  wide.mutable_create_tournament()->mutable_settings()->set_table_seats(3);
  CHECK(ann.client.request(wide).result() == BAD_PARAMETERS);
  ClientMessage small = create_tournament("Small", FORMAT_KNOCKOUT, start);
  small.mutable_create_tournament()->mutable_settings()->set_max_players(2);
  const uint64_t id = ann.client.request(small).tournament().summary().id();
  REQUIRE(id != 0);

  InProcessClient guest(hall.server);
  guest.hello("Visitor");
  CHECK(guest.request(join_tournament(id)).result() == SIGN_IN_REQUIRED);
  CHECK(guest.request(create_tournament("G", FORMAT_SWISS, start)).result() == SIGN_IN_REQUIRED);
  CHECK(ann.client.request(join_tournament(id + 100)).result() == UNKNOWN_TOURNAMENT);
  CHECK(ann.client.request(get_tournament(id + 100)).result() == UNKNOWN_TOURNAMENT);
  REQUIRE(ann.client.request(join_tournament(id)).result() == OK);
  CHECK(ann.client.request(join_tournament(id)).result() == ALREADY_REGISTERED);
  REQUIRE(ben.client.request(join_tournament(id)).result() == OK);
  CHECK(cat.client.request(join_tournament(id)).result() == TOURNAMENT_FULL);
  ClientMessage withdraw;
  withdraw.mutable_withdraw_tournament()->set_id(id);
  CHECK(cat.client.request(withdraw).result() == NOT_REGISTERED);
  ClientMessage disqualify;
  disqualify.mutable_disqualify_entrant()->set_id(id);
  disqualify.mutable_disqualify_entrant()->set_name("Ben");
  CHECK(ann.client.request(disqualify).result() == NOT_MODERATOR);
  CHECK(detail_of(ann, id).summary().players() == 2);

  // The final: Ben withdraws during it, and Ann is champion; the tournament is then over.
  hall.room().tick(start);
  REQUIRE(next_push(ann.client, ServerMessage::kTournamentGame));
  CHECK(cat.client.request(join_tournament(id)).result() == TOURNAMENT_CLOSED);
  REQUIRE(ben.client.request(withdraw).result() == OK);
  const TournamentDetail over = detail_of(ann, id);
  CHECK(over.summary().status() == TOURNAMENT_FINISHED);
  CHECK(over.standings(0).name() == "Ann");
  CHECK(ann.client.request(withdraw).result() == TOURNAMENT_OVER);
}

TEST_CASE("hall: tournaments: only moderators create them unless the host lets anyone") {
  Hall hall;  // tournaments.creators = moderators (the default)
  const auto token = hall.account("Ann");
  InProcessClient ann(hall.server);
  sign_in(ann, token);
  CHECK(ann.request(create_tournament("Mine", FORMAT_SWISS, wall_ms() + 5000)).result() ==
        NOT_MODERATOR);
  ClientMessage list;
  list.mutable_list_tournaments();
  CHECK(ann.request(list).tournaments().tournaments_size() == 0);
}

TEST_CASE("hall: tournaments: GET /api/tournaments lists them and /api/tournaments/<id> gives "
          "the standings as JSON") {
  TournamentHall hall;
  Entrant ann(hall, "Ann"), ben(hall, "Ben");
  const int64_t start = wall_ms() + 2000;
  const uint64_t id =
      ann.client.request(create_tournament("Open \"Cup\"", FORMAT_SWISS, start))
          .tournament()
          .summary()
          .id();
  REQUIRE(ann.client.request(join_tournament(id)).result() == OK);
  REQUIRE(ben.client.request(join_tournament(id)).result() == OK);

  const auto listed = hall.room().answer_http("/api/tournaments");
  REQUIRE(listed);
  CHECK(listed->status == 200);
  CHECK(listed->body.find(R"("name":"Open \"Cup\"")") != std::string::npos);
  CHECK(listed->body.find(R"("status":"TOURNAMENT_REGISTERING")") != std::string::npos);

  hall.room().tick(start);
  const auto one = hall.room().answer_http("/api/tournaments/" + std::to_string(id) + "?x=1");
  REQUIRE(one);
  CHECK(one->status == 200);
  CHECK(one->body.find(R"("status":"TOURNAMENT_RUNNING")") != std::string::npos);
  CHECK(one->body.find(R"("name":"Ann")") != std::string::npos);
  CHECK(one->body.find(R"("seats":[)") != std::string::npos);
  CHECK(one->body.find("seat_options") == std::string::npos);  // setups are never shown

  CHECK(hall.room().answer_http("/api/tournaments/" + std::to_string(id + 9))->status == 404);
  CHECK(hall.room().answer_http("/api/tournaments/x1")->status == 404);
  CHECK_FALSE(hall.room().answer_http("/api/tournamentsx"));
  CHECK_FALSE(hall.room().answer_http("/api/tv/high_cards"));
}

TEST_CASE("hall: tournaments: the host's settings come from flags and the shipped TOML file") {
  const auto flags = server::parse_args({"--tournament-creators", "anyone",
                                         "--tournament-max-players", "64",
                                         "--tournament-show-up-seconds", "30"});
  REQUIRE(flags.error.empty());
  CHECK(flags.config.anyone_creates_tournaments);
  CHECK(flags.config.tournament_max_players == 64);
  CHECK(flags.config.tournament_show_up_seconds == 30);
  CHECK_FALSE(server::parse_args({"--tournament-creators", "everyone"}).error.empty());
  const auto shipped =
      server::parse_args({"--config", std::string(DUELHALL_SOURCE_DIR) + "/deploy/duelhall.toml"});
  REQUIRE(shipped.error.empty());
  CHECK_FALSE(shipped.config.anyone_creates_tournaments);
  CHECK(shipped.config.tournament_max_open == 20);
  CHECK(shipped.config.tournament_round_minutes == 60);
}

TEST_CASE("hall: tournaments: each player's locked setups are checked at registration and the "
          "match gets, seat by seat, the ones that fit together") {
  // The test ruleset's setups are colours, "red" or "blue", and two seats may not bring the same.
  TournamentHall hall;
  Entrant ann(hall, "Ann"), ben(hall, "Ben");
  const int64_t start = wall_ms() + 2000;
  const uint64_t id =
      ann.client.request(create_tournament("Colours", FORMAT_SWISS, start)).tournament().summary().id();
  ClientMessage green = join_tournament(id);
  green.mutable_join_tournament()->add_seat_options("green");
  CHECK(ann.client.request(green).result() == BAD_PARAMETERS);
  ClientMessage three = join_tournament(id);
  for (const char* colour : {"red", "blue", "red"}) three.mutable_join_tournament()->add_seat_options(colour);
  CHECK(ann.client.request(three).result() == BAD_PARAMETERS);
  CHECK(detail_of(ann, id).summary().players() == 0);

  ClientMessage red = join_tournament(id);
  red.mutable_join_tournament()->add_seat_options("red");
  REQUIRE(ann.client.request(red).result() == OK);
  ClientMessage both = join_tournament(id);
  both.mutable_join_tournament()->add_seat_options("red");
  both.mutable_join_tournament()->add_seat_options("blue");
  REQUIRE(ben.client.request(both).result() == OK);
  hall.room().tick(start);
  const auto ready = next_push(ann.client, ServerMessage::kTournamentGame);
  REQUIRE(ready);
  const auto match = hall.server.hub->find_match(ready->tournament_game().match_id());
  REQUIRE(match);
  std::map<std::string, std::string> options;
  bool read = false;
  match->seats_now([&](const server::Match::SeatsNow& now) {
    for (size_t seat = 0; seat < now.players.size(); ++seat) {
      if (now.players[seat]) options[now.players[seat]->name()] = now.options[seat];
    }
    read = true;
  });
  REQUIRE(ann.client.wait_until([&] { return read && options.size() == 2; }));
  CHECK(options["Ann"] == "red");
  CHECK(options["Ben"] == "blue");
  // The detail never shows a setup.
  CHECK(detail_of(ben, id).DebugString().find("blue") == std::string::npos);
}

TEST_CASE("hall: tournaments: with the host's bot fill an odd count gets the bot, seated last in "
          "its games, and its results count") {
  server::Config config = tournament_config();
  config.tournament_bot_fill = true;
  TournamentHall hall(config);
  Entrant ann(hall, "Ann"), ben(hall, "Ben"), cat(hall, "Cat");
  const int64_t start = wall_ms() + 2000;
  const uint64_t id =
      ann.client.request(create_tournament("Odd", FORMAT_SWISS, start)).tournament().summary().id();
  for (Entrant* p : {&ann, &ben, &cat}) REQUIRE(p->client.request(join_tournament(id)).result() == OK);
  hall.room().tick(start);
  TournamentDetail now = detail_of(ann, id);
  REQUIRE(now.standings_size() == 4);
  REQUIRE(now.games_size() == 2);  // no bye: the bot plays
  std::map<std::string, TournamentGameReady> ready;
  std::vector<Entrant*> all{&ann, &ben, &cat};
  REQUIRE(round_matches(all, ready).size() == 2);
  Entrant* against_bot = nullptr;
  for (Entrant* p : all) {
    const auto& r = ready[p->name];
    if (r.seats_size() == 2 && r.seats(1) == "Bot") against_bot = p;
  }
  REQUIRE(against_bot);
  CHECK(ready[against_bot->name].seat() == 0);
  REQUIRE(against_bot->client.request(resign(ready[against_bot->name].match_id())).result() == OK);
  bool bot_won = false;
  for (int tries = 0; tries < 100 && !bot_won; ++tries) {
    ann.client.wait_until([] { return false; }, std::chrono::milliseconds(20));
    const TournamentDetail seen = detail_of(ann, id);
    for (int i = 0; i < seen.standings_size(); ++i) {
      bot_won = bot_won || (seen.standings(i).name() == "Bot" && seen.standings(i).wins() == 1);
    }
  }
  REQUIRE(bot_won);

  // Not for rated tournaments: the bot plays no rated match.
  ClientMessage rated = create_tournament("Rated odd", FORMAT_SWISS, start + 5000);
  rated.mutable_create_tournament()->mutable_settings()->set_rated(true);
  const uint64_t rated_id = ann.client.request(rated).tournament().summary().id();
  for (Entrant* p : {&ann, &ben, &cat}) REQUIRE(p->client.request(join_tournament(rated_id)).result() == OK);
  hall.room().tick(start + 5000);
  CHECK(detail_of(ann, rated_id).standings_size() == 3);
}
