// Protocol 5 (docs/protocol.md, "Events as phrases"): a seat's events travel as phrases of the
// ruleset's book when every event it sees in the update was said as one, and a client renders
// them with the book from RulesetList into exactly the texts protocols 3 and 4 send (the
// engine's text for that viewer); otherwise the update says them as protocol 4 does.
#include <catch2/catch.hpp>
#include <map>

#include "core/rng.hpp"
#include "event_phrases.hpp"
#include "support/in_process.hpp"

using namespace duelhall;
using duelhall::testing::InProcessClient;
using duelhall::testing::InProcessServer;

namespace {

const std::map<std::string, std::string> kAll = {{"hand", "3"}, {"said", "all"}};
const std::map<std::string, std::string> kPlays = {{"hand", "3"}, {"said", "plays"}};

// `host` creates a said_cards match with `params` at seat 0, `guest` joins seat 1.
uint64_t open_said_cards(InProcessClient& host, InProcessClient& guest,
                         const std::map<std::string, std::string>& params) {
  ClientMessage create;
  CreateMatch* c = create.mutable_create_match();
  c->mutable_settings()->set_ruleset(testing::kSaidRuleset);
  c->mutable_settings()->set_seats(2);
  c->mutable_settings()->set_spectators_allowed(true);
  for (const auto& [k, v] : params) (*c->mutable_settings()->mutable_params())[k] = v;
  c->set_join(true);
  const ServerMessage created = host.request(create);
  REQUIRE(created.result() == OK);
  const uint64_t id = created.created().match().match_id();
  ClientMessage join;
  join.mutable_join_match()->set_match_id(id);
  join.mutable_join_match()->set_seat(1);
  REQUIRE(guest.request(join).result() == OK);
  REQUIRE(host.wait_until([&] { return host.tracker.find(id) != nullptr; }));
  REQUIRE(guest.wait_until([&] { return guest.tracker.find(id) != nullptr; }));
  return id;
}

// `turns` actions (all of them when 0), the seat to move taking an action drawn from a fixed
// generator; the steps taken are appended to `steps`.
void play(InProcessClient& a, InProcessClient& b, uint64_t id, uint64_t pick,
          std::vector<engine::Step>& steps, int turns = 0) {
  engine::Rng rng(engine::seed_from_number(pick));
  for (int turn = 0; turns == 0 || turn < turns; ++turn) {
    if (a.tracker.find(id)->ended) return;
    const bool a_moves = !a.tracker.find(id)->legal.empty();
    InProcessClient& mover = a_moves ? a : b;
    InProcessClient& other = a_moves ? b : a;
    const auto* t = mover.tracker.find(id);
    REQUIRE_FALSE(t->legal.empty());
    const uint64_t code = t->legal[rng.below(static_cast<uint32_t>(t->legal.size()))].code();
    const uint64_t seq = t->seq;
    mover.send(testing::action(id, code, seq));
    REQUIRE(mover.wait_until([&] { return mover.tracker.find(id)->seq > seq; }));
    REQUIRE(other.wait_until([&] { return other.tracker.find(id)->seq > seq; }));
    steps.push_back({a_moves ? 0 : 1, engine::Action::from_code(code)});
  }
}

std::string seed_of(InProcessClient& c, uint64_t id) {
  ClientMessage resync;
  resync.mutable_resync()->set_match_id(id);
  const ServerMessage snapshot = c.request(resync);
  REQUIRE(snapshot.has_snapshot());
  REQUIRE_FALSE(snapshot.snapshot().match().seed().empty());
  return snapshot.snapshot().match().seed();
}

// Each step's events as the engine says them to `viewer`: what protocol 3 sends.
struct Said {
  std::vector<std::string> texts;
  bool all_phrases = true;  // every event the viewer sees was said as a phrase
};
std::vector<Said> engine_steps(const engine::Registry& registry, const std::string& seed_hex,
                               const std::map<std::string, std::string>& params,
                               const std::vector<engine::Step>& steps,
                               const engine::Viewer& viewer) {
  engine::Seed seed;
  REQUIRE(engine::seed_from_hex(seed_hex, seed));
  auto created = registry.create(testing::kSaidRuleset, 2, seed, params);
  REQUIRE(created.state != nullptr);
  std::vector<Said> said;
  for (const engine::Step& step : steps) {
    std::vector<engine::Event> events;
    REQUIRE(created.state->apply(step.seat, step.action, &events).ok());
    Said& s = said.emplace_back();
    for (const auto& e : events) {
      if (auto text = e.text_for(viewer)) s.texts.emplace_back(*text);
      if (const engine::Phrase* p = e.phrase_for(viewer); p && !*p) s.all_phrases = false;
    }
  }
  return said;
}

// How a client read one update's events.
struct Read {
  std::vector<std::string> texts;
  bool phrases = false;  // it came as phrases (rendered with the listed book)
  bool words = false;
  bool events = false;
};

// Every update of match `id` after seq `start` the client received, in order, its events read
// with the book that RulesetList gave (not the tracker's) and the words told before it.
std::vector<Read> read_updates(InProcessClient& c, uint64_t id, uint64_t start,
                               const PhraseBook& book) {
  c.drain();
  std::vector<Read> reads;
  client::EventWordMap words;
  for (const std::string& frame : c.frames) {
    ServerMessage m;
    REQUIRE(m.ParseFromString(frame));
    if (!m.has_update() || m.update().match_id() != id) continue;
    const MatchUpdate& u = m.update();
    client::tell_words(u, words);
    if (u.seq() <= start) continue;
    REQUIRE(u.seq() == start + reads.size() + 1);
    Read& r = reads.emplace_back();
    r.phrases = !u.phrases().empty();
    r.words = !u.event_words().empty();
    r.events = !u.events().empty();
    CHECK(int{r.phrases} + int{r.words} + int{r.events} <= 1);          // one way per update
    if (!r.phrases) client::update_events(u, words, nullptr, r.texts);  // texts or words
    if (r.phrases) {
      CHECK(client::render_phrases(
          book, {u.phrases().data(), static_cast<size_t>(u.phrases().size())}, r.texts));
    }
  }
  return reads;
}

PhraseBook listed_book(InProcessClient& c, const std::string& ruleset) {
  ClientMessage list;
  list.mutable_list_rulesets();
  const ServerMessage reply = c.request(list);
  REQUIRE(reply.has_rulesets());
  const RulesetInfo* found = nullptr;
  for (const RulesetInfo& r : reply.rulesets().rulesets()) {
    if (r.name() == testing::kTestRuleset) CHECK_FALSE(r.has_phrases());  // says texts
    if (r.name() == ruleset) found = &r;
  }
  REQUIRE(found != nullptr);
  REQUIRE(found->has_phrases());
  return found->phrases();
}

bool any_starts(const std::vector<Read>& reads, const std::string& start) {
  for (const Read& r : reads) {
    for (const std::string& t : r.texts) {
      if (t.starts_with(start)) return true;
    }
  }
  return false;
}

}  // namespace

TEST_CASE("protocol 5: phrases rendered with the listed book read as protocol 4's and 3's texts") {
  InProcessServer server;
  InProcessClient ann(server), ben(server), cy(server), dee(server), eve(server);
  ann.hello("Ann", 5);
  ben.hello("Ben", 4);
  cy.hello("Cy", 3);
  dee.hello("Dee", 5);
  eve.hello("Eve", 5);
  const PhraseBook book = listed_book(ann, testing::kSaidRuleset);
  CHECK(book.templates(0).empty());  // index 0 is listed, unused
  CHECK(book.templates_size() == 5);
  REQUIRE(book.lists_size() == 1);
  CHECK(book.lists(0).name() == "card");
  CHECK(book.lists(0).entries(5) == "five");

  // A protocol 5 seat beside a protocol 4 one, and a protocol 3 seat beside a protocol 5 one, so
  // each seat is read in protocol 5 once; a protocol 5 spectator watches the first match.
  const uint64_t first = open_said_cards(ann, ben, kAll);
  ClientMessage watch;
  watch.mutable_spectate()->set_match_id(first);
  REQUIRE(eve.request(watch).has_snapshot());
  const uint64_t second = open_said_cards(cy, dee, kAll);
  const uint64_t first_start = ann.tracker.find(first)->seq;
  const uint64_t second_start = cy.tracker.find(second)->seq;
  const uint64_t watch_start = eve.tracker.find(first)->seq;
  std::vector<engine::Step> first_steps, second_steps;
  play(ann, ben, first, 3, first_steps);
  play(cy, dee, second, 4, second_steps);
  REQUIRE(ann.tracker.find(first)->ended);
  REQUIRE(cy.tracker.find(second)->ended);
  REQUIRE(eve.wait_until([&] { return eve.tracker.find(first)->ended; }));

  struct Seat {
    InProcessClient* client;
    uint64_t match;
    int seat;
    uint32_t protocol;
  };
  const std::string first_seed = seed_of(ann, first), second_seed = seed_of(cy, second);
  for (const Seat& s : {Seat{&ann, first, 0, 5}, Seat{&ben, first, 1, 4}, Seat{&cy, second, 0, 3},
                        Seat{&dee, second, 1, 5}}) {
    INFO("seat " << s.seat << " in protocol " << s.protocol);
    const bool in_first = s.match == first;
    const auto expected =
        engine_steps(server.registry, in_first ? first_seed : second_seed, kAll,
                     in_first ? first_steps : second_steps, engine::Viewer::of_seat(s.seat));
    const auto reads =
        read_updates(*s.client, s.match, in_first ? first_start : second_start, book);
    REQUIRE(reads.size() == expected.size());
    for (size_t i = 0; i < reads.size(); ++i) {
      INFO("update " << i);
      CHECK(reads[i].texts == expected[i].texts);
      CHECK(expected[i].all_phrases);
      if (expected[i].texts.empty()) continue;
      CHECK(reads[i].phrases == (s.protocol == 5));
      CHECK(reads[i].words == (s.protocol == 4));
      CHECK(reads[i].events == (s.protocol == 3));
    }
    // A draw: the drawer reads its card by name and its hand, the other seat a redacted text.
    const std::string self = "@" + std::to_string(s.seat), other = "@" + std::to_string(1 - s.seat);
    CHECK(any_starts(reads, self + " drew "));
    CHECK_FALSE(any_starts(reads, self + " drew a card"));
    CHECK(any_starts(reads, self + " holds "));
    CHECK(any_starts(reads, other + " drew a card"));
    CHECK_FALSE(any_starts(reads, other + " holds "));
  }
  // Spectators keep their shared texts.
  const auto watched = read_updates(eve, first, watch_start, book);
  REQUIRE_FALSE(watched.empty());
  for (const Read& r : watched) CHECK_FALSE(r.phrases);
  CHECK(any_starts(watched, "@0 drew a card"));
}

TEST_CASE("protocol 5: an update with an event said as text says them all as words") {
  InProcessServer server;
  InProcessClient ann(server), ben(server);
  ann.hello("Ann", 5);
  ben.hello("Ben", 5);
  const PhraseBook book = listed_book(ann, testing::kSaidRuleset);
  // Three cards each from a deck of eight: the first two plays draw (said as text), the last six
  // do not (every event a phrase).
  const uint64_t id = open_said_cards(ann, ben, kPlays);
  const uint64_t start = ann.tracker.find(id)->seq;
  std::vector<engine::Step> steps;
  play(ann, ben, id, 5, steps);
  REQUIRE(steps.size() == 8);
  const std::string seed = seed_of(ann, id);
  for (int seat = 0; seat < 2; ++seat) {
    INFO("seat " << seat);
    const auto expected =
        engine_steps(server.registry, seed, kPlays, steps, engine::Viewer::of_seat(seat));
    const auto reads = read_updates(seat == 0 ? ann : ben, id, start, book);
    REQUIRE(reads.size() == expected.size());
    size_t as_phrases = 0, as_words = 0;
    for (size_t i = 0; i < reads.size(); ++i) {
      INFO("update " << i);
      CHECK(reads[i].texts == expected[i].texts);
      CHECK(reads[i].phrases == expected[i].all_phrases);
      CHECK(reads[i].words == !expected[i].all_phrases);
      as_phrases += reads[i].phrases;
      as_words += reads[i].words;
    }
    CHECK(as_words == 2);
    CHECK(as_phrases == 6);
  }
}

TEST_CASE("protocol 5: a resume resends held updates as phrases the client renders") {
  InProcessServer server;
  InProcessClient ann(server), ben(server);
  const std::string token = ann.hello("Ann", 5).welcome().resume_token();
  ben.hello("Ben", 5);
  const uint64_t id = open_said_cards(ann, ben, kAll);
  std::vector<engine::Step> steps;
  play(ann, ben, id, 6, steps, 1);
  // Ann drops; Ben moves; Ann comes back on a new connection with her cursor and her tracker.
  ann.disconnect();
  const client::MatchTracker kept = ann.tracker;
  const auto* t = ben.tracker.find(id);
  REQUIRE_FALSE(t->legal.empty());
  const uint64_t seq = t->seq;
  ben.send(testing::action(id, t->legal.front().code(), seq));
  REQUIRE(ben.wait_until([&] { return ben.tracker.find(id)->seq > seq; }));
  steps.push_back({1, engine::Action::from_code(t->legal.front().code())});
  InProcessClient again(server);
  again.tracker = kept;
  ClientMessage hello;
  hello.mutable_hello()->set_protocol_version(5);
  hello.mutable_hello()->set_resume_token(token);
  auto* cursor = hello.mutable_hello()->add_cursors();
  cursor->set_match_id(id);
  cursor->set_seq(seq);
  REQUIRE(again.request(hello).result() == OK);
  REQUIRE(again.wait_until([&] { return again.tracker.find(id)->seq == seq + 1; }));
  size_t resent = 0;
  for (const ServerMessage& m : again.inbox) {
    CHECK_FALSE(m.has_snapshot());
    if (m.has_update()) resent += !m.update().phrases().empty();
  }
  CHECK(resent == 1);
  // Played out (the seed is published at the end): every event Ann read, before the drop, resent
  // and after, is the engine's text for her.
  play(again, ben, id, 7, steps);
  std::vector<std::string> expected;
  for (const auto& step :
       engine_steps(server.registry, seed_of(again, id), kAll, steps, engine::Viewer::of_seat(0))) {
    expected.insert(expected.end(), step.texts.begin(), step.texts.end());
  }
  CHECK(again.tracker.find(id)->events == expected);
}

TEST_CASE("protocol 5: the listed book renders a phrase as the engine does, or says it cannot") {
  const engine::Registry registry = testing::registry_with_test_ruleset();
  const engine::PhraseBook& engine_book = *registry.find(testing::kSaidRuleset)->phrases;
  PhraseBook book;
  server::fill_phrase_book(engine_book, book);
  const int hand[] = {2, 5, 8};
  std::vector<int32_t> wire;
  std::vector<std::string> expected;
  for (const engine::Phrase& p :
       {engine::Phrase(1).seat(1).number(-3), engine::Phrase(2).seat(0).entry(8),
        engine::Phrase(3).seat(2), engine::Phrase(4).seat(0).entries(hand, [](int c) { return c; }),
        engine::Phrase(4).seat(1).entries(std::vector<int>{}, [](int c) { return c; })}) {
    wire.push_back(p.id());
    wire.insert(wire.end(), p.args().begin(), p.args().end());
    expected.push_back(engine::render(engine_book, p));
  }
  std::vector<std::string> texts;
  CHECK(client::render_phrases(book, wire, texts));
  CHECK(texts == expected);
  CHECK(texts[3] == "@0 holds two, five, eight");

  // Phrases that do not fit the book: the events before stay, one "?" for the rest.
  for (const std::vector<int32_t>& bad :
       {std::vector<int32_t>{3, 0, 9, 1}, {3, 0, 2, 1, 9}, {3, 0, 4, 0, 2, 1}, {3, 0, 1, 0}}) {
    texts.clear();
    CHECK_FALSE(client::render_phrases(book, bad, texts));
    CHECK(texts == std::vector<std::string>{"@0 drew a card", "?"});
  }
}
