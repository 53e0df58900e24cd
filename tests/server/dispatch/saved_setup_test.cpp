// What a saved deck becomes in the engine's state (docs/accounts.md, "Saved decks"): a Force
// Battles saved setup picked at a seat is loaded by the lobby as the seat's setup text, checked at
// the match's competency, and the seat starts with that setup made, only the confirmation left; a
// Young Jedi saved deck is the seat's draw deck.
#include <catch2/catch.hpp>

#include "accounts/account_service.hpp"
#include "force_battles.pb.h"
#include "storage/sqlite/sqlite_account_store.hpp"
#include "support/in_process.hpp"
#include "young_jedi.pb.h"
#include "young_jedi/deck.hpp"

using namespace duelhall;
using duelhall::testing::InProcessClient;
using duelhall::testing::InProcessServer;

namespace {

// An in-process server with accounts and saved decks in one in-memory SQLite database.
struct SetupServer {
  SetupServer()
      : store(":memory:"), accounts(store, {}, [] { return int64_t{1'700'000'000'000}; }) {
    server.hub->set_accounts(&accounts);
    server.hub->set_decks(&store);
  }
  InProcessServer server{server::Config{}};
  storage::SqliteAccountStore store;
  accounts::AccountService accounts;
};

const std::string kLightSetup =
    "side light\nhand left\ncolour blue\nspheres 3 3 3 3 3 3 3\natt 4\ndef 3\n"
    "geas 0 1 0 0 1 0 0 0 0 0 0 0 0\n";
const std::string kDarkSetup =
    "side dark\nhand right\ncolour red\nspheres 4 3 3 3 3 3 2\natt 5\ndef 2\n"
    "geas 1 0 0 0 0 0 0 2 0 0 0 0 0\n";
// 25 in the spheres: a Templar's setup, over a Learner's 21 (F2).
const std::string kTemplarSetup =
    "side light\nhand left\ncolour blue\nspheres 4 4 4 4 3 3 3\natt 4\ndef 3\n"
    "geas 0 1 0 0 1 0 0 0 0 0 0 0 0\n";

void sign_up_as(InProcessClient& client, const std::string& name) {
  client.hello(name);
  ClientMessage m;
  m.mutable_register_account()->set_name(name);
  m.mutable_register_account()->set_password("correct horse battery");
  REQUIRE(client.request(m).result() == OK);
}

uint64_t saved_setup(InProcessClient& client, const std::string& name, const std::string& text,
                     const std::string& ruleset = "force_battles") {
  ClientMessage m;
  m.mutable_save_deck()->set_name(name);
  m.mutable_save_deck()->set_ruleset(ruleset);
  m.mutable_save_deck()->set_list(text);
  const ServerMessage reply = client.request(m);
  REQUIRE(reply.result() == OK);
  return reply.deck().summary().id();
}

ClientMessage create_fb(const std::string& competency, uint64_t saved) {
  ClientMessage m;
  MatchSettings* settings = m.mutable_create_match()->mutable_settings();
  settings->set_ruleset("force_battles");
  settings->set_seats(2);
  (*settings->mutable_params())["competency"] = competency;
  m.mutable_create_match()->set_join(true);
  m.mutable_create_match()->set_saved_deck(saved);
  return m;
}

// The seat's own view of match `id` once it has a decision to make.
force_battles::View own_view(InProcessClient& client, uint64_t id) {
  REQUIRE(client.wait_until([&] {
    const auto* t = client.tracker.find(id);
    return t && !t->legal.empty();
  }));
  force_battles::View view;
  REQUIRE(view.ParseFromString(client.tracker.find(id)->view));
  return view;
}

std::string only_label(InProcessClient& client, uint64_t id) {
  const auto* t = client.tracker.find(id);
  if (!t || t->legal.size() != 1) return "";
  return t->labels.at(t->legal.front().code());
}

}  // namespace

TEST_CASE(
    "decks: a saved Force Battles setup picked at each seat is made at the start, the "
    "seat left to confirm it") {
  SetupServer s;
  InProcessClient ann(s.server);
  InProcessClient ben(s.server);
  sign_up_as(ann, "Ann");
  sign_up_as(ben, "Ben");
  const uint64_t ann_light = saved_setup(ann, "apprentice", kLightSetup);
  const uint64_t ben_dark = saved_setup(ben, "sith", kDarkSetup);

  const ServerMessage created = ann.request(create_fb("learner", ann_light));
  REQUIRE(created.result() == OK);
  const uint64_t id = created.created().match().match_id();
  ClientMessage join;
  join.mutable_join_match()->set_match_id(id);
  join.mutable_join_match()->set_seat(-1);
  join.mutable_join_match()->set_saved_deck(ann_light);
  CHECK(ben.request(join).result() == DECK_PRIVATE);
  join.mutable_join_match()->set_saved_deck(ben_dark);
  REQUIRE(ben.request(join).result() == OK);

  // Each seat's board in its own view is the saved setup; the other's stays hidden (F8).
  const force_battles::View ann_view = own_view(ann, id);
  const force_battles::Player& a = ann_view.players(0);
  CHECK(a.setup_stage() == 26);
  CHECK(a.side() == 1);
  CHECK(a.hand() == 1);
  CHECK(a.colour() == 3);
  CHECK(std::vector<uint32_t>(a.board().spheres().begin(), a.board().spheres().end()) ==
        std::vector<uint32_t>{3, 3, 3, 3, 3, 3, 3});
  CHECK(a.board().att() == 4);
  CHECK(a.board().def() == 3);
  CHECK(a.board().geas(1) == 1);
  CHECK(a.board().geas(4) == 1);
  CHECK(only_label(ann, id) == "confirm the setup");
  CHECK_FALSE(ann_view.players(1).revealed());

  const force_battles::View ben_view = own_view(ben, id);
  const force_battles::Player& b = ben_view.players(1);
  CHECK(b.side() == 2);
  CHECK(std::vector<uint32_t>(b.board().spheres().begin(), b.board().spheres().end()) ==
        std::vector<uint32_t>{4, 3, 3, 3, 3, 3, 2});
  CHECK(b.board().att() == 5);
  CHECK(b.board().def() == 2);
  CHECK(b.board().geas(7) == 2);
  CHECK(only_label(ben, id) == "confirm the setup");
  CHECK_FALSE(ben_view.players(0).revealed());

  // Both confirm: the setups are revealed and the first round begins.
  for (InProcessClient* client : {&ann, &ben}) {
    const auto* t = client->tracker.find(id);
    REQUIRE(client->request(testing::action(id, t->legal.front().code(), t->seq)).result() == OK);
  }
  REQUIRE(ann.wait_until([&] {
    force_battles::View view;
    return view.ParseFromString(ann.tracker.find(id)->view) && view.phase() != 0 &&
           view.players(1).revealed();
  }));
}

TEST_CASE(
    "decks: a saved Force Battles setup is checked at the seat against the match's "
    "competency, and a deck of another ruleset is refused") {
  SetupServer s;
  InProcessClient ann(s.server);
  sign_up_as(ann, "Ann");
  const uint64_t templar = saved_setup(ann, "templar", kTemplarSetup);
  const uint64_t not_a_setup = saved_setup(ann, "notes", "my favourite stance\n");
  std::string light_list;
  for (const auto& deck : engine::young_jedi::ready_decks()) {
    if (deck.side == engine::young_jedi::Side::kLight) light_list = deck.list;
  }
  const uint64_t yj_deck = saved_setup(ann, "light", light_list, "young_jedi");

  // Stored as text, checked when played: 25 in the spheres is over a Learner's 21 (F2).
  const ServerMessage over = ann.request(create_fb("learner", templar));
  CHECK(over.result() == BAD_PARAMETERS);
  CHECK(over.reason().find("in sphere") != std::string::npos);
  const ServerMessage unreadable = ann.request(create_fb("learner", not_a_setup));
  CHECK(unreadable.result() == BAD_PARAMETERS);
  CHECK(unreadable.reason().find("side light") != std::string::npos);
  CHECK(ann.request(create_fb("learner", yj_deck)).result() == DECK_WRONG_SIDE);
  CHECK(s.server.hub->match_count() == 0);
  CHECK(ann.request(create_fb("templar", templar)).result() == OK);
}

TEST_CASE("decks: a Young Jedi saved deck is the seat's draw deck in the engine's state") {
  namespace yj = engine::young_jedi;
  // A legal Light deck of 41 cards: no ready deck (each holds 40) could stand in for it.
  std::string masters;
  std::vector<std::string> lines;
  for (const yj::ReadyDeck& deck : yj::ready_decks()) {
    if (deck.side == yj::Side::kLight && masters.empty()) masters = deck.list;
  }
  for (size_t at = 0, end; (end = masters.find('\n', at)) != std::string::npos; at = end + 1) {
    if (masters[at] != '#') lines.push_back(masters.substr(at + 2, end - at - 2));
  }
  std::string list;
  for (const std::string& title : lines) {
    const std::string candidate = masters + "1 " + title + "\n";
    const yj::DeckResult read = yj::parse_deck(candidate, yj::Side::kLight);
    if (read.deck && read.deck->cards.size() == 41) {
      list = candidate;
      break;
    }
  }
  REQUIRE_FALSE(list.empty());

  SetupServer s;
  InProcessClient ann(s.server);
  InProcessClient ben(s.server);
  sign_up_as(ann, "Ann");
  sign_up_as(ben, "Ben");
  const uint64_t deck = saved_setup(ann, "forty-one", list, "young_jedi");
  ClientMessage create;
  create.mutable_create_match()->mutable_settings()->set_ruleset("young_jedi");
  create.mutable_create_match()->mutable_settings()->set_seats(2);
  create.mutable_create_match()->set_join(true);
  create.mutable_create_match()->set_saved_deck(deck);
  const ServerMessage created = ann.request(create);
  REQUIRE(created.result() == OK);
  const uint64_t id = created.created().match().match_id();
  ClientMessage join;
  join.mutable_join_match()->set_match_id(id);
  join.mutable_join_match()->set_seat(-1);
  REQUIRE(ben.request(join).result() == OK);

  // Before any card is drawn, each seat's draw deck is its whole deck: 41 cards are the saved
  // list's, 40 the ready deck's the empty seat option gives.
  young_jedi::View view;
  REQUIRE(ann.wait_until([&] {
    const auto* t = ann.tracker.find(id);
    return t && view.ParseFromString(t->view) && view.players_size() == 2;
  }));
  CHECK(view.players(0).draw_count() + view.players(0).hand_count() == 41);
  CHECK(view.players(1).draw_count() + view.players(1).hand_count() == 40);
}
