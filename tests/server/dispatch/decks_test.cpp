// The decks room through the dispatcher (docs/accounts.md, "Saved decks"): every refusal of a
// deck command, each typed and storing nothing; saving, listing, duplicating and deleting; a
// public deck read and copied by another account; and a match created and joined with saved
// decks, checked again at the seat.
#include <catch2/catch.hpp>

#include "accounts/account_service.hpp"
#include "match/match.hpp"
#include "pairing/pairing_room.hpp"
#include "storage/sqlite/sqlite_account_store.hpp"
#include "support/in_process.hpp"
#include "young_jedi/deck.hpp"

using namespace duelhall;
using duelhall::testing::InProcessClient;
using duelhall::testing::InProcessServer;
namespace yj = duelhall::engine::young_jedi;

namespace {

// An in-process server with accounts and saved decks in one in-memory SQLite database.
struct DeckServer {
  explicit DeckServer(uint32_t max_decks = 100)
      : server(config(max_decks)),
        store(":memory:"),
        accounts(store, {}, [] { return int64_t{1'700'000'000'000}; }) {
    server.hub->set_accounts(&accounts);
    server.hub->set_decks(&store);
  }
  static server::Config config(uint32_t max_decks) {
    server::Config c;
    c.max_decks_per_account = max_decks;
    return c;
  }
  InProcessServer server;
  storage::SqliteAccountStore store;
  accounts::AccountService accounts;
};

std::string ready_list(yj::Side side) {
  for (const yj::ReadyDeck& deck : yj::ready_decks()) {
    if (deck.side == side) return deck.list;
  }
  return {};
}

void sign_up(InProcessClient& client, const std::string& name) {
  client.hello(name);
  ClientMessage m;
  m.mutable_register_account()->set_name(name);
  m.mutable_register_account()->set_password("correct horse battery");
  REQUIRE(client.request(m).result() == OK);
}

ClientMessage save_message(const std::string& name, const std::string& list, bool shared = false,
                           uint64_t id = 0) {
  ClientMessage m;
  SaveDeck* save = m.mutable_save_deck();
  save->set_id(id);
  save->set_name(name);
  save->set_ruleset("young_jedi");
  save->set_list(list);
  save->set_is_public(shared);
  return m;
}

ClientMessage list_message() {
  ClientMessage m;
  m.mutable_list_decks();
  return m;
}

ClientMessage get_message(uint64_t id) {
  ClientMessage m;
  m.mutable_get_deck()->set_id(id);
  return m;
}

int decks_of(InProcessClient& client) {
  const ServerMessage reply = client.request(list_message());
  REQUIRE(reply.result() == OK);
  return reply.decks().decks_size();
}

uint64_t saved(InProcessClient& client, const std::string& name, const std::string& list,
               bool shared = false) {
  const ServerMessage reply = client.request(save_message(name, list, shared));
  REQUIRE(reply.result() == OK);
  return reply.deck().summary().id();
}

// Each seated player's setup text in match `id`, by name, as the match holds it.
std::map<std::string, std::string> seat_setups(DeckServer& s, InProcessClient& client, uint64_t id) {
  std::map<std::string, std::string> setups;
  bool read = false;
  auto match = s.server.hub->find_match(id);
  REQUIRE(match);
  match->seats_now([&](const server::Match::SeatsNow& now) {
    for (size_t seat = 0; seat < now.players.size(); ++seat) {
      if (now.players[seat]) setups[now.players[seat]->name()] = now.options[seat];
    }
    read = true;
  });
  REQUIRE(client.wait_until([&] { return read; }));
  return setups;
}

}  // namespace

TEST_CASE("decks: a guest is refused SIGN_IN_REQUIRED for saving and listing, and may check") {
  DeckServer s;
  InProcessClient guest(s.server);
  guest.hello("Ann");
  CHECK(guest.request(list_message()).result() == SIGN_IN_REQUIRED);
  const ServerMessage save = guest.request(save_message("mine", ready_list(yj::Side::kLight)));
  CHECK(save.result() == SIGN_IN_REQUIRED);
  CHECK(save.reason().find("browser") != std::string::npos);
  ClientMessage check;
  check.mutable_check_deck()->set_ruleset("young_jedi");
  check.mutable_check_deck()->set_list(ready_list(yj::Side::kLight));
  check.mutable_check_deck()->set_seat(-1);
  const ServerMessage checked = guest.request(check);
  REQUIRE(checked.result() == OK);
  CHECK(checked.deck_check().legal());
}

TEST_CASE("decks: a saved deck is listed, read back, renamed, duplicated and deleted") {
  DeckServer s;
  InProcessClient ann(s.server);
  sign_up(ann, "Ann");
  const std::string light = ready_list(yj::Side::kLight);
  const ServerMessage first = ann.request(save_message("Jedi", light));
  REQUIRE(first.result() == OK);
  const DeckSummary& summary = first.deck().summary();
  CHECK(summary.name() == "Jedi");
  CHECK(summary.side() == "light");
  CHECK(summary.cards() == yj::parse_deck(light).deck->cards.size());
  CHECK(summary.owner_name() == "Ann");
  CHECK(first.deck().own());
  const uint64_t id = summary.id();

  const ServerMessage got = ann.request(get_message(id));
  REQUIRE(got.result() == OK);
  CHECK(got.deck().list() == light);  // stored as written

  REQUIRE(ann.request(save_message("Jedi, renamed", light, false, id)).result() == OK);
  CHECK(ann.request(get_message(id)).deck().summary().name() == "Jedi, renamed");

  ClientMessage duplicate;
  duplicate.mutable_save_deck()->set_copy_of(id);
  const ServerMessage copy = ann.request(duplicate);
  REQUIRE(copy.result() == OK);
  CHECK(copy.deck().summary().name() == "Jedi, renamed (copy)");
  CHECK(copy.deck().summary().id() != id);
  CHECK(copy.deck().list() == light);
  CHECK(decks_of(ann) == 2);

  ClientMessage remove;
  remove.mutable_delete_deck()->set_id(id);
  CHECK(ann.request(remove).result() == OK);
  CHECK(ann.request(remove).result() == UNKNOWN_DECK);
  CHECK(ann.request(get_message(id)).result() == UNKNOWN_DECK);
  CHECK(decks_of(ann) == 1);
}

TEST_CASE("decks: an illegal list is refused DECK_ILLEGAL naming each problem, nothing stored") {
  DeckServer s;
  InProcessClient ann(s.server);
  sign_up(ann, "Ann");
  const ServerMessage unknown = ann.request(save_message("bad", "3 No Such Card\n"));
  CHECK(unknown.result() == DECK_ILLEGAL);
  CHECK(unknown.reason().find("no card 'No Such Card'") != std::string::npos);
  REQUIRE(unknown.deck_check().problems_size() >= 1);
  CHECK(unknown.deck_check().problems(0).rule() == "Y1");
  CHECK(unknown.deck_check().problems(0).line() == 1);

  // Y11: two copies of Use Caution put two white dots in four colour rows.
  const ServerMessage white = ann.request(save_message("white", "2 Use Caution\n"));
  CHECK(white.result() == DECK_ILLEGAL);
  REQUIRE(white.deck_check().problems_size() == 5);
  CHECK(white.deck_check().problems(0).text().find("white dots are wild") != std::string::npos);
  CHECK(white.deck_check().problems(0).card_title() == "Use Caution");
  CHECK(decks_of(ann) == 0);
}

TEST_CASE("decks: names and lists over the limits, empty names and other rulesets are refused") {
  DeckServer s;
  InProcessClient ann(s.server);
  sign_up(ann, "Ann");
  const std::string light = ready_list(yj::Side::kLight);
  CHECK(ann.request(save_message(std::string(65, 'n'), light)).result() == FIELD_TOO_LONG);
  CHECK(ann.request(save_message("   ", light)).result() == BAD_PARAMETERS);
  CHECK(ann.request(save_message("tab\tname\x01", light)).result() == BAD_PARAMETERS);
  const std::string huge = light + "\n#" + std::string(9000, 'x') + "\n";
  CHECK(ann.request(save_message("big", huge)).result() == FIELD_TOO_LONG);
  ClientMessage other = save_message("dice", "3");
  other.mutable_save_deck()->set_ruleset("high_cards");
  CHECK(ann.request(other).result() == UNKNOWN_RULESET);
  CHECK(ann.request(save_message("ghost", light, false, 999)).result() == UNKNOWN_DECK);
  CHECK(decks_of(ann) == 0);
}

TEST_CASE("decks: past the host's limit a save is refused TOO_MANY_DECKS, nothing stored") {
  DeckServer s(2);
  InProcessClient ann(s.server);
  sign_up(ann, "Ann");
  const std::string light = ready_list(yj::Side::kLight);
  saved(ann, "one", light);
  saved(ann, "two", light);
  const ServerMessage third = ann.request(save_message("three", light));
  CHECK(third.result() == TOO_MANY_DECKS);
  CHECK(third.reason().find("at most 2") != std::string::npos);
  CHECK(ann.request(list_message()).decks().max_decks() == 2);
  CHECK(decks_of(ann) == 2);
}

TEST_CASE("decks: another account's private deck is refused DECK_PRIVATE, a public one is copied") {
  DeckServer s;
  InProcessClient ann(s.server);
  InProcessClient ben(s.server);
  sign_up(ann, "Ann");
  sign_up(ben, "Ben");
  const std::string dark = ready_list(yj::Side::kDark);
  const uint64_t hidden = saved(ann, "secret", dark);
  const uint64_t shared = saved(ann, "shared", dark, true);

  CHECK(ben.request(get_message(hidden)).result() == DECK_PRIVATE);
  ClientMessage copy_hidden;
  copy_hidden.mutable_save_deck()->set_copy_of(hidden);
  CHECK(ben.request(copy_hidden).result() == DECK_PRIVATE);
  // Another's deck is never changed or deleted through its id.
  CHECK(ben.request(save_message("mine now", dark, false, shared)).result() == UNKNOWN_DECK);
  ClientMessage remove;
  remove.mutable_delete_deck()->set_id(shared);
  CHECK(ben.request(remove).result() == UNKNOWN_DECK);

  const ServerMessage read = ben.request(get_message(shared));
  REQUIRE(read.result() == OK);
  CHECK_FALSE(read.deck().own());
  CHECK(read.deck().summary().owner_name() == "Ann");
  ClientMessage copy;
  copy.mutable_save_deck()->set_copy_of(shared);
  copy.mutable_save_deck()->set_name("Ben's");
  const ServerMessage copied = ben.request(copy);
  REQUIRE(copied.result() == OK);
  CHECK(copied.deck().own());
  CHECK(copied.deck().summary().owner_name() == "Ben");
  CHECK(decks_of(ben) == 1);
  CHECK(decks_of(ann) == 2);
}

TEST_CASE("decks: a match created and joined with saved decks seats them, checked at the seat, and holds each saved list") {
  DeckServer s;
  InProcessClient ann(s.server);
  InProcessClient ben(s.server);
  sign_up(ann, "Ann");
  sign_up(ben, "Ben");
  const uint64_t ann_light = saved(ann, "light", ready_list(yj::Side::kLight));
  const uint64_t ann_dark = saved(ann, "dark", ready_list(yj::Side::kDark));
  const uint64_t ben_dark = saved(ben, "dark", ready_list(yj::Side::kDark));

  ClientMessage create;
  create.mutable_create_match()->mutable_settings()->set_ruleset("young_jedi");
  create.mutable_create_match()->mutable_settings()->set_seats(2);
  create.mutable_create_match()->set_join(true);
  create.mutable_create_match()->set_saved_deck(ann_dark);
  // The creator sits at seat 0, the Light Side's.
  const ServerMessage wrong = ann.request(create);
  CHECK(wrong.result() == DECK_WRONG_SIDE);
  CHECK(wrong.reason().find("seat 0 plays the light side") != std::string::npos);
  create.mutable_create_match()->set_saved_deck(ben_dark);
  CHECK(ann.request(create).result() == DECK_PRIVATE);
  create.mutable_create_match()->set_saved_deck(4242);
  CHECK(ann.request(create).result() == UNKNOWN_DECK);

  create.mutable_create_match()->set_saved_deck(ann_light);
  const ServerMessage created = ann.request(create);
  REQUIRE(created.result() == OK);
  CHECK(created.created().seat() == 0);
  const uint64_t match_id = created.created().match().match_id();

  ClientMessage join;
  join.mutable_join_match()->set_match_id(match_id);
  join.mutable_join_match()->set_seat(-1);
  join.mutable_join_match()->set_saved_deck(ann_light);
  CHECK(ben.request(join).result() == DECK_PRIVATE);
  // A Dark deck and any seat: the Dark Side's seat.
  join.mutable_join_match()->set_saved_deck(ben_dark);
  const ServerMessage joined = ben.request(join);
  REQUIRE(joined.result() == OK);
  CHECK(joined.joined().seat() == 1);
  // Every seat is taken: the match starts with both saved decks, each player getting a snapshot.
  const auto started = [](InProcessClient& client) {
    return client.wait_until([&] {
      for (const ServerMessage& m : client.inbox) {
        if (m.has_snapshot()) return true;
      }
      return false;
    });
  };
  CHECK(started(ben));
  CHECK(started(ann));
  // The match plays the saved lists themselves, not the ready decks an empty setup would give.
  const auto setups = seat_setups(s, ann, match_id);
  CHECK(setups.at("Ann") == ready_list(yj::Side::kLight));
  CHECK(setups.at("Ben") == ready_list(yj::Side::kDark));
}

TEST_CASE("decks: two seekers with saved decks are paired into one match that holds their lists, "
          "each at the seat of its deck's side") {
  DeckServer s;
  InProcessClient ann(s.server);
  InProcessClient ben(s.server);
  sign_up(ann, "Ann");
  sign_up(ben, "Ben");
  const uint64_t ann_dark = saved(ann, "dark", ready_list(yj::Side::kDark));
  const uint64_t ben_light = saved(ben, "light", ready_list(yj::Side::kLight));
  ClientMessage seek;
  seek.mutable_seek()->set_ruleset("young_jedi");
  seek.mutable_seek()->set_clock("rapid");
  seek.mutable_seek()->set_saved_deck(ben_light);
  CHECK(ann.request(seek).result() == DECK_PRIVATE);
  seek.mutable_seek()->set_saved_deck(4242);
  CHECK(ann.request(seek).result() == UNKNOWN_DECK);
  CHECK(s.server.hub->pairing().seeking() == 0);

  seek.mutable_seek()->set_saved_deck(ann_dark);
  REQUIRE(ann.request(seek).result() == OK);
  seek.mutable_seek()->set_saved_deck(ben_light);
  REQUIRE(ben.request(seek).result() == OK);
  CHECK(s.server.hub->pairing().wave(std::chrono::steady_clock::now()) == 1);
  uint64_t match_id = 0;
  REQUIRE(ann.wait_until([&] {
    for (const ServerMessage& m : ann.inbox) {
      if (m.has_paired()) match_id = m.paired().match_id();
    }
    return match_id != 0;
  }));
  const auto setups = seat_setups(s, ann, match_id);
  CHECK(setups.at("Ann") == ready_list(yj::Side::kDark));
  CHECK(setups.at("Ben") == ready_list(yj::Side::kLight));
  auto match = s.server.hub->find_match(match_id);
  bool ben_light_seat = false;
  match->seats_now([&](const server::Match::SeatsNow& now) {
    ben_light_seat = now.players.size() == 2 && now.players[0] && now.players[0]->name() == "Ben";
  });
  REQUIRE(ann.wait_until([&] { return ben_light_seat; }));
}

TEST_CASE("decks: a guest cannot sit down with a saved deck") {
  DeckServer s;
  InProcessClient guest(s.server);
  guest.hello("Cy");
  ClientMessage create;
  create.mutable_create_match()->mutable_settings()->set_ruleset("young_jedi");
  create.mutable_create_match()->mutable_settings()->set_seats(2);
  create.mutable_create_match()->set_join(true);
  create.mutable_create_match()->set_saved_deck(1);
  CHECK(guest.request(create).result() == SIGN_IN_REQUIRED);
}

TEST_CASE("decks: a server without a deck store answers STORAGE_DISABLED") {
  InProcessServer server;
  InProcessClient ann(server);
  ann.hello("Ann");
  CHECK(ann.request(list_message()).result() == STORAGE_DISABLED);
  CHECK(ann.request(get_message(1)).result() == STORAGE_DISABLED);
}
