// Helpers of the protocol 5 tests (event_phrases_test.cpp): open and play a two-seat match, the
// engine's texts of each step for a viewer, and a client's updates read back as texts (phrases
// rendered with the book RulesetList gave, words, or texts) with the bytes they took.
#pragma once

#include <catch2/catch.hpp>
#include <map>
#include <string>
#include <vector>

#include "core/rng.hpp"
#include "event_phrases.hpp"
#include "support/in_process.hpp"
#include "support/open_match.hpp"

namespace duelhall::testing {

// `host` creates a two-seat match of `ruleset` with `params` at seat 0, open to spectators;
// `guest` joins seat 1.
inline uint64_t open_match(InProcessClient& host, InProcessClient& guest,
                           const std::string& ruleset,
                           const std::map<std::string, std::string>& params) {
  return open_two_seat_match(host, guest, ruleset, params, /*spectators_allowed=*/true);
}

// `turns` actions (all of them when 0), the seat to move taking an action drawn from a fixed
// generator; the steps taken are appended to `steps`.
inline void play(InProcessClient& a, InProcessClient& b, uint64_t id, uint64_t pick,
                 std::vector<engine::Step>& steps, int turns = 0) {
  engine::Rng rng(engine::seed_from_number(pick));
  for (int turn = 0; turn < (turns ? turns : 3000); ++turn) {
    if (a.tracker.find(id)->ended) return;
    const bool a_moves = !a.tracker.find(id)->legal.empty();
    InProcessClient& mover = a_moves ? a : b;
    InProcessClient& other = a_moves ? b : a;
    const auto* t = mover.tracker.find(id);
    REQUIRE_FALSE(t->legal.empty());
    const uint64_t code = t->legal[rng.below(static_cast<uint32_t>(t->legal.size()))].code();
    const uint64_t seq = t->seq;
    mover.send(action(id, code, seq));
    REQUIRE(mover.wait_until([&] { return mover.tracker.find(id)->seq > seq; }));
    REQUIRE(other.wait_until([&] { return other.tracker.find(id)->seq > seq; }));
    steps.push_back({a_moves ? 0 : 1, engine::Action::from_code(code)});
  }
}

inline std::string seed_of(InProcessClient& c, uint64_t id) {
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
inline std::vector<Said> engine_steps(const engine::Registry& registry, const std::string& ruleset,
                                      const std::string& seed_hex,
                                      const std::map<std::string, std::string>& params,
                                      const std::vector<engine::Step>& steps,
                                      const engine::Viewer& viewer) {
  engine::Seed seed;
  REQUIRE(engine::seed_from_hex(seed_hex, seed));
  auto created = registry.create(ruleset, 2, seed, params);
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
  size_t bytes = 0;  // the events' fields on the wire
};

inline size_t varint_size(uint64_t v) {
  size_t n = 1;
  for (; v >= 0x80; v >>= 7) ++n;
  return n;
}
inline size_t field_size(size_t len) {
  return 1 + varint_size(len) + len;
}
inline size_t event_bytes(const MatchUpdate& u) {
  size_t n = 0, ids = 0, phrases = 0;
  for (const auto& e : u.events()) n += field_size(e.size());
  for (uint32_t id : u.event_words()) ids += varint_size(id);
  for (const auto& w : u.words()) n += field_size(w.ByteSizeLong());
  for (int32_t v : u.phrases()) {
    phrases += varint_size((static_cast<uint32_t>(v) << 1) ^ static_cast<uint32_t>(v >> 31));
  }
  return n + (ids ? field_size(ids) : 0) + (phrases ? field_size(phrases) : 0);
}

// Every update of match `id` after seq `start` the client received, in order, its events read
// with the book that RulesetList gave (not the tracker's) and the words told before it.
inline std::vector<Read> read_updates(InProcessClient& c, uint64_t id, uint64_t start,
                                      const PhraseBook& book) {
  c.drain();
  std::vector<Read> reads;
  client::EventWordMap words;
  uint64_t seen = 0;  // protocol 5 leaves an update's seq out when it follows the last one told
  for (const std::string& frame : c.frames) {
    ServerMessage m;
    REQUIRE(m.ParseFromString(frame));
    client::normalize_update(m);
    if (m.has_snapshot() && m.snapshot().match().match_id() == id) seen = m.snapshot().seq();
    if (!m.has_update() || m.update().match_id() != id) continue;
    const MatchUpdate& u = m.update();
    client::tell_words(u, words);
    const uint64_t seq = client::update_seq(u, seen);
    if (seq <= start) continue;
    REQUIRE(seq == start + reads.size() + 1);
    Read& r = reads.emplace_back();
    r.phrases = !u.phrases().empty();
    r.words = !u.event_words().empty();
    r.events = !u.events().empty();
    r.bytes = event_bytes(u);
    CHECK(int{r.phrases} + int{r.words} + int{r.events} <= 1);          // one way per update
    if (!r.phrases) client::update_events(u, words, nullptr, r.texts);  // texts or words
    if (r.phrases) {
      CHECK(client::render_phrases(
          book, {u.phrases().data(), static_cast<size_t>(u.phrases().size())}, r.texts));
    }
  }
  return reads;
}

// The book of `ruleset` as a protocol 5 client asks for it (ListRulesets.phrases_of): the list
// carries that book alone.
inline PhraseBook listed_book(InProcessClient& c, const std::string& ruleset) {
  ClientMessage list;
  list.mutable_list_rulesets()->add_phrases_of(ruleset);
  const ServerMessage reply = c.request(list);
  REQUIRE(reply.has_rulesets());
  const RulesetInfo* found = nullptr;
  for (const RulesetInfo& r : reply.rulesets().rulesets()) {
    if (r.name() == kTestRuleset) CHECK_FALSE(r.has_phrase_book());  // says texts
    if (r.name() == ruleset) found = &r;
    else CHECK_FALSE(r.has_phrases());
  }
  REQUIRE(found != nullptr);
  REQUIRE(found->has_phrases());
  return found->phrases();
}

}  // namespace duelhall::testing
