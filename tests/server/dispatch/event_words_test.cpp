// Protocol 4 (docs/protocol.md, Compatibility): a seat's events travel as the ids of their words,
// each word told once per match seat, and the client joins them back into exactly the texts
// protocol 3 sends (the engine's text for that viewer), so a Jedi Duel update costs a few bytes
// of events instead of its sentences.
#include <catch2/catch.hpp>
#include <map>
#include <set>

#include "core/rng.hpp"
#include "match/event_words.hpp"
#include "support/in_process.hpp"
#include "support/open_match.hpp"

using namespace duelhall;
using duelhall::testing::InProcessClient;
using duelhall::testing::InProcessServer;

namespace {

// Ann hosts a Jedi Duel, Ben joins it; both said hello already.
uint64_t open_jedi_duel(InProcessClient& ann, InProcessClient& ben) {
  return duelhall::testing::open_two_seat_match(ann, ben, "jedi_duel");
}

struct Game {
  std::vector<engine::Step> steps;
  std::string seed;                 // hex, published at the end
  std::vector<size_t> frame_bytes;  // every update frame either seat received
  std::vector<size_t> event_bytes;  // of it, the events' fields (texts, or word ids and words)
  std::vector<size_t> known_event_bytes;  // of the updates that tell no word: ids alone
};

size_t field_size(size_t len) {
  return 1 + (len < 128 ? 1 : 2) + len;
}

size_t event_bytes(const MatchUpdate& u) {
  size_t n = 0;
  for (const auto& e : u.events()) n += field_size(e.size());
  size_t ids = 0;
  for (uint32_t id : u.event_words()) ids += id < 128 ? 1 : 2;
  if (ids) n += field_size(ids);
  for (const auto& w : u.words()) n += field_size(w.ByteSizeLong());
  return n;
}

// Plays the match out, the seat to move taking an action drawn from a fixed generator.
Game play_out(InProcessClient& ann, InProcessClient& ben, uint64_t id, uint64_t pick) {
  Game game;
  engine::Rng rng(engine::seed_from_number(pick));
  for (int guard = 0; guard < 2000; ++guard) {
    if (ann.tracker.find(id)->ended && ben.tracker.find(id)->ended) break;
    const bool ann_moves = !ann.tracker.find(id)->legal.empty();
    InProcessClient& mover = ann_moves ? ann : ben;
    InProcessClient& other = ann_moves ? ben : ann;
    const auto* t = mover.tracker.find(id);
    REQUIRE_FALSE(t->broken);
    REQUIRE_FALSE(t->legal.empty());
    const uint64_t code = t->legal[rng.below(static_cast<uint32_t>(t->legal.size()))].code();
    const uint64_t seq = t->seq;
    ClientMessage m;
    m.mutable_action()->set_match_id(id);
    m.mutable_action()->set_code(code);
    m.mutable_action()->set_seq(seq);
    mover.send(m);
    REQUIRE(mover.wait_until([&] { return mover.tracker.find(id)->seq > seq; }));
    REQUIRE(other.wait_until([&] { return other.tracker.find(id)->seq > seq; }));
    game.steps.push_back({ann_moves ? 0 : 1, engine::Action::from_code(code)});
  }
  REQUIRE(ann.tracker.find(id)->ended);
  for (auto* c : {&ann, &ben}) {
    c->drain();
    std::set<uint32_t> told;  // each word told once to a seat in a match
    for (const std::string& frame : c->frames) {
      ServerMessage m;
      REQUIRE(m.ParseFromString(frame));
      if (!m.has_update() || m.update().match_id() != id) continue;
      game.frame_bytes.push_back(frame.size());
      game.event_bytes.push_back(event_bytes(m.update()));
      for (const auto& w : m.update().words()) CHECK(told.insert(w.id()).second);
      if (m.update().words().empty()) game.known_event_bytes.push_back(game.event_bytes.back());
    }
    c->frames.clear();
  }
  ClientMessage resync;
  resync.mutable_resync()->set_match_id(id);
  const ServerMessage snapshot = ann.request(resync);
  REQUIRE(snapshot.has_snapshot());
  game.seed = snapshot.snapshot().match().seed();
  REQUIRE_FALSE(game.seed.empty());
  return game;
}

// The texts the engine lets each seat read in that game: what protocol 3 sends.
std::vector<std::vector<std::string>> engine_texts(const engine::Registry& registry,
                                                   const Game& game) {
  engine::Seed seed;
  REQUIRE(engine::seed_from_hex(game.seed, seed));
  auto created = registry.create("jedi_duel", 2, seed, {});
  REQUIRE(created.state != nullptr);
  std::vector<std::vector<std::string>> texts(2);
  for (const engine::Step& step : game.steps) {
    std::vector<engine::Event> events;
    REQUIRE(created.state->apply(step.seat, step.action, &events).ok());
    for (int s = 0; s < 2; ++s) {
      for (const auto& e : events) {
        if (auto text = e.text_for(engine::Viewer::of_seat(s))) texts[s].emplace_back(*text);
      }
    }
  }
  return texts;
}

double mean(const std::vector<size_t>& v) {
  size_t sum = 0;
  for (size_t x : v) sum += x;
  return v.empty() ? 0 : static_cast<double>(sum) / static_cast<double>(v.size());
}

}  // namespace

TEST_CASE(
    "protocol 4: Jedi Duel events as words read back as protocol 3's texts, in small frames") {
  InProcessServer server;
  InProcessClient ann(server), ben(server), cy(server), dee(server);
  ann.hello("Ann", 4);
  ben.hello("Ben", 4);
  cy.hello("Cy", 3);
  dee.hello("Dee", 3);
  // Two matches on the same protocol 4 connections (each tells its own words), one in protocol 3
  // beside them.
  std::vector<Game> words;
  std::vector<uint64_t> ids;
  for (int match = 0; match < 2; ++match) {
    ids.push_back(open_jedi_duel(ann, ben));
    words.push_back(play_out(ann, ben, ids.back(), 7 + match));
  }
  const uint64_t texts_id = open_jedi_duel(cy, dee);
  const Game texts = play_out(cy, dee, texts_id, 9);

  for (size_t m = 0; m < 2; ++m) {
    INFO("protocol 4 match " << m);
    const auto expected = engine_texts(server.registry, words[m]);
    REQUIRE_FALSE(expected[0].empty());
    CHECK(ann.tracker.find(ids[m])->events == expected[0]);
    CHECK(ben.tracker.find(ids[m])->events == expected[1]);
  }
  const auto expected = engine_texts(server.registry, texts);
  CHECK(cy.tracker.find(texts_id)->events == expected[0]);
  CHECK(dee.tracker.find(texts_id)->events == expected[1]);

  // A typical action's update, once the seat was told the words it uses: the events take a few
  // bytes (about a byte a word), not their sentences (about 40 bytes an event in protocol 3).
  const double known_events = mean(words[1].known_event_bytes);
  const double text_events = mean(texts.event_bytes);
  INFO("event bytes per update: protocol 4 "
       << mean(words[1].event_bytes) << " (" << known_events << " telling no word), protocol 3 "
       << text_events << "; frames " << mean(words[1].frame_bytes) << " against "
       << mean(texts.frame_bytes));
  CHECK(text_events > 40);
  CHECK(known_events < 24);
}

TEST_CASE("protocol 4: words split at single spaces and join back, the table bounded") {
  server::EventWords table;
  std::vector<uint32_t> ids;
  const std::string text = "@0 takes a  Middle Stance with 5\xe2\x99\xa5 ";  // empty words too
  REQUIRE(table.encode(text, ids));
  std::string joined;
  for (size_t i = 0; i < ids.size(); ++i) {
    CHECK(ids[i] != 0);
    if (i > 0) joined += ' ';
    joined += table.word(ids[i]);
  }
  CHECK(joined == text);
  const size_t told = table.size();
  ids.clear();
  REQUIRE(table.encode("a Middle", ids));
  CHECK(table.size() == told);  // known words get their ids again
  CHECK(table.word(ids[0]) == "a");
  ids.clear();
  std::string too_long = "a ";
  too_long.append(server::EventWords::kMaxWordBytes + 1, 'x');
  CHECK_FALSE(table.encode(too_long, ids));
  CHECK(ids.empty());
  for (uint32_t i = 0; table.size() < server::EventWords::kMaxWords; ++i) {
    REQUIRE(table.encode(std::to_string(i).append("w"), ids));
  }
  ids.clear();
  CHECK_FALSE(table.encode("a fresh-word", ids));  // full: the event goes as its text
  CHECK(table.encode("a Middle", ids));
}

namespace {

// Whether every update of match `id` in `frames` (in the order they reached the client) uses
// only words told in that match's own updates up to and including it.
bool words_told_in_match_first(const std::vector<std::string>& frames, uint64_t id, size_t& updates,
                               size_t& words_used) {
  std::set<uint32_t> told;
  for (const std::string& frame : frames) {
    ServerMessage m;
    REQUIRE(m.ParseFromString(frame));
    if (!m.has_update() || m.update().match_id() != id) continue;
    ++updates;
    for (const auto& w : m.update().words()) told.insert(w.id());
    for (uint32_t word : m.update().event_words()) {
      if (word == 0) continue;
      ++words_used;
      if (!told.count(word)) {
        UNSCOPED_INFO("match " << id << " seq " << m.update().seq() << " uses word " << word
                               << " not told in its own updates");
        return false;
      }
    }
  }
  return true;
}

// `turns` actions in match `id`, the seat to move (of `a` and `b`) taking its first legal one.
void play_turns(InProcessClient& a, InProcessClient& b, uint64_t id, int turns) {
  for (int turn = 0; turn < turns; ++turn) {
    const bool a_moves = !a.tracker.find(id)->legal.empty();
    InProcessClient& mover = a_moves ? a : b;
    InProcessClient& other = a_moves ? b : a;
    const auto* t = mover.tracker.find(id);
    REQUIRE_FALSE(t->legal.empty());
    const uint64_t seq = t->seq;
    ClientMessage m;
    m.mutable_action()->set_match_id(id);
    m.mutable_action()->set_code(t->legal.front().code());
    m.mutable_action()->set_seq(seq);
    mover.send(m);
    REQUIRE(mover.wait_until([&] { return mover.tracker.find(id)->seq > seq; }));
    REQUIRE(other.wait_until([&] { return other.tracker.find(id)->seq > seq; }));
  }
}

}  // namespace

TEST_CASE("protocol 4: a client in two matches at once is told each word in that match first") {
  // Matches run on strands of their own: a word told in one match's frame could reach the
  // client after another match's frame that uses it, so the words are told per match seat and
  // each match's frames, which arrive in order, tell the words they use.
  InProcessServer server;
  InProcessClient ann(server), ben(server);
  ann.hello("Ann", 4);
  ben.hello("Ben", 4);
  const uint64_t first = open_jedi_duel(ann, ben);
  const uint64_t second = open_jedi_duel(ann, ben);
  // The same moves in both, turn about: their first updates use the same words.
  for (int turn = 0; turn < 6; ++turn) {
    for (const uint64_t id : {first, second}) play_turns(ann, ben, id, 1);
  }
  for (auto* c : {&ann, &ben}) {
    c->drain();
    for (const uint64_t id : {first, second}) {
      size_t updates = 0, words_used = 0;
      CHECK(words_told_in_match_first(c->frames, id, updates, words_used));
      CHECK(updates >= 6);
      CHECK(words_used > 0);
    }
  }
}

TEST_CASE("protocol 4: a seat on a new connection is told the words of its match again") {
  InProcessServer server;
  InProcessClient ann(server), ben(server);
  const std::string token = ann.hello("Ann", 4).welcome().resume_token();
  ben.hello("Ben", 4);
  const uint64_t id = open_jedi_duel(ann, ben);
  play_turns(ann, ben, id, 4);
  // Ann comes back on a new connection, as a new client told nothing (no cursor: a snapshot).
  ann.disconnect();
  InProcessClient again(server);
  ClientMessage hello;
  hello.mutable_hello()->set_protocol_version(4);
  hello.mutable_hello()->set_resume_token(token);
  REQUIRE(again.request(hello).result() == OK);
  ClientMessage resync;
  resync.mutable_resync()->set_match_id(id);
  REQUIRE(again.request(resync).has_snapshot());
  play_turns(again, ben, id, 4);
  again.drain();
  size_t updates = 0, words_used = 0;
  CHECK(words_told_in_match_first(again.frames, id, updates, words_used));
  CHECK(updates >= 4);
  CHECK(words_used > 0);
}
