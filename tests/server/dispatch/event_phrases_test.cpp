// Protocol 5 (docs/protocol.md, "Events as phrases"): a seat's events travel as phrases of the
// ruleset's book when every event it sees in the update was said as one, and a client renders
// them with the book from RulesetList into exactly the texts protocols 3 and 4 send (the
// engine's text for that viewer); otherwise the update says them as protocol 4 does.
#include <catch2/catch.hpp>
#include <map>

#include "dispatch/phrase_reads.hpp"

using namespace duelhall;
using namespace duelhall::testing;

namespace {

const std::map<std::string, std::string> kAll = {{"hand", "3"}, {"said", "all"}};
const std::map<std::string, std::string> kPlays = {{"hand", "3"}, {"said", "plays"}};

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
  const uint64_t first = open_match(ann, ben, testing::kSaidRuleset, kAll);
  ClientMessage watch;
  watch.mutable_spectate()->set_match_id(first);
  REQUIRE(eve.request(watch).has_snapshot());
  const uint64_t second = open_match(cy, dee, testing::kSaidRuleset, kAll);
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
        engine_steps(server.registry, testing::kSaidRuleset, in_first ? first_seed : second_seed,
                     kAll, in_first ? first_steps : second_steps, engine::Viewer::of_seat(s.seat));
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
  const uint64_t id = open_match(ann, ben, testing::kSaidRuleset, kPlays);
  const uint64_t start = ann.tracker.find(id)->seq;
  std::vector<engine::Step> steps;
  play(ann, ben, id, 5, steps);
  REQUIRE(steps.size() == 8);
  const std::string seed = seed_of(ann, id);
  for (int seat = 0; seat < 2; ++seat) {
    INFO("seat " << seat);
    const auto expected = engine_steps(server.registry, testing::kSaidRuleset, seed, kPlays, steps,
                                       engine::Viewer::of_seat(seat));
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
  const uint64_t id = open_match(ann, ben, testing::kSaidRuleset, kAll);
  std::vector<engine::Step> steps;
  play(ann, ben, id, 6, steps, 1);
  // Ann drops; Ben moves; Ann comes back on a new connection with her cursor and her tracker.
  ann.disconnect();
  const client::MatchTracker kept = ann.tracker;
  const auto* t = ben.tracker.find(id);
  REQUIRE_FALSE(t->legal.empty());
  const uint64_t seq = t->seq;
  const uint64_t code = t->legal.front().code();  // the tracker's legal list changes with the move
  ben.send(testing::action(id, code, seq));
  REQUIRE(ben.wait_until([&] { return ben.tracker.find(id)->seq > seq; }));
  steps.push_back({1, engine::Action::from_code(code)});
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
  for (const auto& step : engine_steps(server.registry, testing::kSaidRuleset, seed_of(again, id),
                                       kAll, steps, engine::Viewer::of_seat(0))) {
    expected.insert(expected.end(), step.texts.begin(), step.texts.end());
  }
  CHECK(again.tracker.find(id)->events == expected);
}

TEST_CASE("protocol 5: Jedi Duel's events as phrases read as protocol 4's texts, in fewer bytes") {
  InProcessServer server;
  InProcessClient ann(server), ben(server);
  ann.hello("Ann", 5);
  ben.hello("Ben", 4);
  const PhraseBook book = listed_book(ann, "jedi_duel");
  const uint64_t id = open_match(ann, ben, "jedi_duel", {});
  const uint64_t start = ann.tracker.find(id)->seq;
  std::vector<engine::Step> steps;
  play(ann, ben, id, 11, steps);
  REQUIRE(ann.tracker.find(id)->ended);
  const std::string seed = seed_of(ann, id);
  std::vector<size_t> phrase_bytes, word_bytes;  // a seat's updates with events
  for (int seat = 0; seat < 2; ++seat) {
    INFO("seat " << seat);
    const auto expected =
        engine_steps(server.registry, "jedi_duel", seed, {}, steps, engine::Viewer::of_seat(seat));
    const auto reads = read_updates(seat == 0 ? ann : ben, id, start, book);
    REQUIRE(reads.size() == expected.size());
    for (size_t i = 0; i < reads.size(); ++i) {
      INFO("update " << i);
      CHECK(reads[i].texts == expected[i].texts);
      if (expected[i].texts.empty()) continue;
      if (seat == 1) {
        CHECK(reads[i].words);
        word_bytes.push_back(reads[i].bytes);
        continue;
      }
      CHECK(reads[i].phrases == expected[i].all_phrases);
      if (reads[i].phrases) phrase_bytes.push_back(reads[i].bytes);
    }
  }
  const auto mean = [](const std::vector<size_t>& v) {
    size_t sum = 0;
    for (size_t x : v) sum += x;
    return v.empty() ? 0.0 : static_cast<double>(sum) / static_cast<double>(v.size());
  };
  INFO("event bytes per update: phrases " << mean(phrase_bytes) << " (" << phrase_bytes.size()
                                          << " updates), words " << mean(word_bytes));
  REQUIRE_FALSE(phrase_bytes.empty());
  // About 8 bytes against 34 (the words told included) when written.
  CHECK(mean(phrase_bytes) * 2 < mean(word_bytes));
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

TEST_CASE("protocol 5: the ruleset list carries only the phrase books a client asks for") {
  InProcessServer server;
  InProcessClient ann(server);
  ann.hello("Ann", 5);
  ClientMessage plain;
  plain.mutable_list_rulesets();
  const ServerMessage listed = ann.request(plain);
  REQUIRE(listed.result() == OK);
  std::map<std::string, bool> has_book;
  for (const RulesetInfo& r : listed.rulesets().rulesets()) {
    CHECK_FALSE(r.has_phrases());
    has_book[r.name()] = r.has_phrase_book();
  }
  CHECK(has_book.at(testing::kSaidRuleset));
  CHECK(has_book.at("jedi_duel"));
  CHECK_FALSE(has_book.at(testing::kTestRuleset));  // says its events as text

  ClientMessage two;
  two.mutable_list_rulesets()->add_phrases_of("jedi_duel");
  two.mutable_list_rulesets()->add_phrases_of(testing::kSaidRuleset);
  const ServerMessage books = ann.request(two);
  REQUIRE(books.result() == OK);
  for (const RulesetInfo& r : books.rulesets().rulesets()) {
    const bool asked = r.name() == "jedi_duel" || r.name() == testing::kSaidRuleset;
    CHECK(r.has_phrases() == asked);
    if (asked) CHECK(r.phrases().templates_size() > 1);
  }
  CHECK(books.ByteSizeLong() > listed.ByteSizeLong());

  ClientMessage unknown;
  unknown.mutable_list_rulesets()->add_phrases_of("chess");
  const ServerMessage refused = ann.request(unknown);
  CHECK(refused.result() == UNKNOWN_RULESET);
  CHECK(refused.reason() == "no ruleset named 'chess'");
  CHECK_FALSE(refused.has_rulesets());
}
