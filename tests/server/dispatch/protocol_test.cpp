// The action's round trip in every protocol version (docs/protocol.md, Compatibility): in
// version 2 the actor's update is its OK and legal actions carry each label once per match, in
// version 3 once per connection for a ruleset whose labels depend on the code alone; version 5
// leaves out what the client can tell, version 6 sends a seat's update in a one-byte field with
// its legal codes as steps, version 7 leaves out the labels the ruleset's book says; version 1
// clients still get a separate OK and every label with every update.
#include <catch2/catch.hpp>
#include <map>
#include <set>

#include "support/in_process.hpp"
#include "support/open_match.hpp"

using namespace duelhall;
using duelhall::testing::InProcessClient;
using duelhall::testing::InProcessServer;
using duelhall::testing::action;

namespace {

// Ann hosts a two-seat match of the test ruleset, Ben joins it; both said hello already.
uint64_t open_duel(InProcessClient& ann, InProcessClient& ben) {
  return duelhall::testing::open_two_seat_match(ann, ben, duelhall::testing::kTestRuleset);
}

// The same, of `ruleset`, after both say hello speaking `version`.
uint64_t start_duel(InProcessClient& ann, InProcessClient& ben, uint32_t version,
                    const std::string& ruleset = duelhall::testing::kTestRuleset) {
  ann.hello("Ann", version);
  ben.hello("Ben", version);
  return duelhall::testing::open_two_seat_match(ann, ben, ruleset);
}

// How many times each code's label came in the updates.
void count_labels(const std::vector<MatchUpdate>& updates, std::map<uint64_t, int>& sent) {
  for (const MatchUpdate& u : updates) {
    for (const auto& a : u.labels()) ++sent[a.code()];
  }
}

// Plays the match to its end, the seat to move taking its first legal action; returns the
// frames each seat received per action (actor, opponent) and every update each got.
struct Played {
  std::vector<std::pair<size_t, size_t>> frames;
  std::vector<MatchUpdate> updates;  // both seats' updates, in order
  std::map<const InProcessClient*, std::vector<MatchUpdate>> updates_of;  // by client
};

Played play_out(InProcessClient& ann, InProcessClient& ben, uint64_t id) {
  Played played;
  for (int guard = 0; guard < 100; ++guard) {
    if (ann.tracker.find(id)->ended && ben.tracker.find(id)->ended) return played;
    const bool ann_moves = !ann.tracker.find(id)->legal.empty();
    InProcessClient& mover = ann_moves ? ann : ben;
    InProcessClient& other = ann_moves ? ben : ann;
    const auto* t = mover.tracker.find(id);
    REQUIRE_FALSE(t->broken);
    REQUIRE_FALSE(t->legal.front().label().empty());
    const uint64_t seq = t->seq;
    mover.send(action(id, t->legal.front().code(), seq));
    REQUIRE(mover.wait_until([&] { return mover.tracker.find(id)->seq > seq; }));
    REQUIRE(other.wait_until([&] { return other.tracker.find(id)->seq > seq; }));
    other.wait_until([] { return false; }, std::chrono::milliseconds(2));
    mover.wait_until([] { return false; }, std::chrono::milliseconds(2));
    played.frames.emplace_back(mover.inbox.size(), other.inbox.size());
    for (auto* c : {&mover, &other}) {
      for (const ServerMessage& m : c->inbox) {
        if (m.has_update()) played.updates.push_back(m.update());
        if (m.has_update()) played.updates_of[c].push_back(m.update());
      }
      c->inbox.clear();
    }
  }
  FAIL("the match did not end");
  return played;
}

}  // namespace

TEST_CASE("protocol 2: the actor's update is its OK, two frames per action for two players") {
  InProcessServer server;
  InProcessClient ann(server);
  InProcessClient ben(server);
  const uint64_t id = start_duel(ann, ben, 2);
  const auto* t = ann.tracker.find(id);
  const ServerMessage answer = ann.request(action(id, t->legal.front().code(), t->seq));
  CHECK(answer.result() == OK);
  REQUIRE(answer.has_update());
  CHECK(answer.update().seq() == 1);
  // A refusal is still a plain reply.
  const ServerMessage refused = ann.request(action(id, 1 | (uint64_t{99} << 8), 0));
  CHECK(refused.result() != OK);
  CHECK_FALSE(refused.has_update());
  REQUIRE(ben.wait_until([&] { return ben.tracker.find(id)->seq == 1; }));
  ann.inbox.clear();
  ben.inbox.clear();

  const Played played = play_out(ann, ben, id);
  REQUIRE_FALSE(played.frames.empty());
  for (const auto& [actor, opponent] : played.frames) {
    CHECK(actor == 1);
    CHECK(opponent == 1);
  }
}

TEST_CASE("protocol 2: each label is sent once, legal codes only when they changed") {
  InProcessServer server;
  InProcessClient ann(server);
  InProcessClient ben(server);
  const uint64_t id = start_duel(ann, ben, 2);
  const Played played = play_out(ann, ben, id);
  size_t unlabelled = 0;
  std::map<uint64_t, int> labels_sent;
  for (const MatchUpdate& u : played.updates) {
    CHECK(u.legal_size() == 0);  // protocol 1's field stays empty
    if (u.legal_unchanged()) CHECK(u.legal_codes_size() == 0);
    std::set<uint64_t> labelled;
    for (const auto& a : u.labels()) {
      labelled.insert(a.code());
      ++labels_sent[a.code()];
    }
    for (uint64_t code : u.legal_codes()) unlabelled += labelled.count(code) == 0;
  }
  // The test ruleset's labels name the card, so a code's label never changes: sent once.
  for (const auto& [code, times] : labels_sent) CHECK(times == 1);
  CHECK(unlabelled > 0);  // codes offered again came without their labels
  CHECK(ann.tracker.find(id)->ended);
  CHECK_FALSE(ann.tracker.find(id)->broken);
  CHECK_FALSE(ben.tracker.find(id)->broken);
}

TEST_CASE("protocol 3: labels told in one match are not told again in the next") {
  InProcessServer server;
  InProcessClient ann(server);
  InProcessClient ben(server);
  ann.hello("Ann", 3);
  ben.hello("Ben", 3);
  // Three matches on the same two connections: the test ruleset labels by code alone, so each
  // connection is told each label once, and the later matches play on without them (a label
  // missing would break the trackers).
  std::map<const InProcessClient*, std::map<uint64_t, int>> told;
  size_t unlabelled_later = 0;
  for (int match = 0; match < 3; ++match) {
    const uint64_t id = open_duel(ann, ben);
    Played played = play_out(ann, ben, id);
    for (auto* c : {&ann, &ben}) {
      count_labels(played.updates_of[c], told[c]);
      CHECK(c->tracker.find(id)->ended);
      CHECK_FALSE(c->tracker.find(id)->broken);
    }
    for (const MatchUpdate& u : played.updates) {
      if (match > 0 && u.labels_size() == 0) unlabelled_later += u.legal_codes_size();
    }
  }
  for (auto* c : {&ann, &ben}) {
    REQUIRE_FALSE(told[c].empty());
    for (const auto& [code, times] : told[c]) CHECK(times == 1);
  }
  CHECK(unlabelled_later > 0);
}

TEST_CASE("protocol 2: each match tells the labels it offers") {
  InProcessServer server;
  InProcessClient ann(server);
  InProcessClient ben(server);
  ann.hello("Ann", 2);
  ben.hello("Ben", 2);
  for (int match = 0; match < 3; ++match) {
    const uint64_t id = open_duel(ann, ben);
    std::map<const InProcessClient*, std::set<uint64_t>> known;
    for (auto* c : {&ann, &ben}) {
      for (const auto& [code, label] : c->tracker.find(id)->labels) known[c].insert(code);
    }
    Played played = play_out(ann, ben, id);
    for (auto* c : {&ann, &ben}) {
      for (const MatchUpdate& u : played.updates_of[c]) {
        for (const auto& a : u.labels()) known[c].insert(a.code());
        for (uint64_t code : u.legal_codes()) CHECK(known[c].count(code) == 1);
      }
    }
  }
}

TEST_CASE("protocol 1: a separate OK before the update, and every label with every update") {
  InProcessServer server;
  InProcessClient ann(server);
  InProcessClient ben(server);
  const uint64_t id = start_duel(ann, ben, 1);
  const Played played = play_out(ann, ben, id);
  for (const auto& [actor, opponent] : played.frames) {
    CHECK(actor == 2);
    CHECK(opponent == 1);
  }
  for (const MatchUpdate& u : played.updates) {
    CHECK(u.legal_codes_size() == 0);
    CHECK(u.labels_size() == 0);
    CHECK_FALSE(u.legal_unchanged());
    for (const auto& a : u.legal()) CHECK_FALSE(a.label().empty());
  }
  CHECK(ann.tracker.find(id)->ended);
}

TEST_CASE("protocol 5: an update leaves out the seq that follows, the status while playing and \"unchanged\" for still no actions") {
  for (const uint32_t version : {4u, 5u, 6u}) {
    INFO("protocol " << version);
    InProcessServer server;
    InProcessClient ann(server);
    InProcessClient ben(server);
    const uint64_t id = start_duel(ann, ben, version);
    const Played played = play_out(ann, ben, id);
    int unchanged_none = 0;  // "unchanged" said for a seat that still had nothing to do
    for (InProcessClient* c : {&ann, &ben}) {
      const auto* t = c->tracker.find(id);
      REQUIRE(t->ended);
      CHECK_FALSE(t->broken);  // the tracker counted the sequence on where it was left out
      CHECK(t->status == FINISHED);
      const std::vector<MatchUpdate>& updates = played.updates_of.at(c);
      REQUIRE(updates.size() >= 2);
      CHECK(t->seq == updates.size());
      bool had_actions = true;  // the seat's legal actions before each update (the snapshot's)
      for (size_t i = 0; i < updates.size(); ++i) {
        const MatchUpdate& u = updates[i];
        const bool last = i + 1 == updates.size();
        if (version >= 5) {
          CHECK(u.seq() == (i == 0 ? 1 : 0));  // the first after the snapshot says it
          CHECK(u.status() == (last ? FINISHED : WAITING));  // WAITING: not on the wire
        } else {
          CHECK(u.seq() == i + 1);
          CHECK(u.status() == (last ? FINISHED : PLAYING));
        }
        if (u.legal_unchanged() && !had_actions) ++unchanged_none;
        if (!u.legal_unchanged()) had_actions = !u.legal_codes().empty();
      }
    }
    // The seat whose hand ran out first has nothing to do while the other plays on: protocol 4
    // says "unchanged" for it, 5 says nothing.
    if (version == 4) CHECK(unchanged_none > 0);
    if (version >= 5) CHECK(unchanged_none == 0);
  }
}

TEST_CASE("protocol 6: a seat's update comes in a one-byte field with its legal codes as steps") {
  InProcessServer server;
  InProcessClient ann(server);
  InProcessClient ben(server);
  const uint64_t id = start_duel(ann, ben, 6);
  ann.frames.clear();
  ben.frames.clear();
  const Played played = play_out(ann, ben, id);
  size_t updates = 0;
  size_t with_steps = 0;
  for (InProcessClient* c : {&ann, &ben}) {
    CHECK(c->tracker.find(id)->ended);
    CHECK_FALSE(c->tracker.find(id)->broken);
    for (const std::string& frame : c->frames) {
      ServerMessage raw;
      REQUIRE(raw.ParseFromString(frame));
      CHECK_FALSE(raw.has_update());  // a seat's updates never take the two-byte field
      if (!raw.has_seat_update()) continue;
      ++updates;
      const MatchUpdate& u = raw.seat_update();
      CHECK(u.legal_codes_size() == 0);  // steps instead
      if (u.legal_steps_size() > 0) ++with_steps;
      for (int i = 1; i < u.legal_steps_size(); ++i) CHECK(u.legal_steps(i) >= 1);
      // The protocol 5 frame of the same update: a two-byte tag and the codes whole.
      ServerMessage older = raw;
      client::normalize_update(older);
      older.mutable_update()->clear_legal_steps();
      CHECK(older.ByteSizeLong() >= frame.size() + 1);
      // The client reads back the codes the steps add up to: sorted and distinct.
      for (int i = 1; i < older.update().legal_codes_size(); ++i) {
        CHECK(older.update().legal_codes(i) > older.update().legal_codes(i - 1));
      }
    }
  }
  // Every action play_out sent was a code the tracker added up from steps, and the match ended.
  CHECK(updates == played.updates.size());
  CHECK(with_steps > 0);
}

TEST_CASE("protocol 7: a seat is sent no label its ruleset's book says, and renders each as the server labels it") {
  InProcessServer server;
  InProcessClient ann(server);
  InProcessClient ben(server);
  // Jedi Duel's book has a label form for every action kind.
  const uint64_t id = start_duel(ann, ben, 7, "jedi_duel");
  size_t compared = 0;
  size_t codes = 0;
  for (int step = 0; step < 40 && !ann.tracker.find(id)->ended; ++step) {
    InProcessClient& mover = ann.tracker.find(id)->legal.empty() ? ben : ann;
    const auto* t = mover.tracker.find(id);
    REQUIRE_FALSE(t->broken);
    // The labels the tracker rendered from the book, against those the server puts in a
    // snapshot (every protocol's snapshot carries its labels).
    const std::vector<LegalAction> rendered = t->legal;
    ClientMessage resync;
    resync.mutable_resync()->set_match_id(id);
    const ServerMessage snapshot = mover.request(resync);
    REQUIRE(snapshot.has_snapshot());
    REQUIRE(static_cast<int>(rendered.size()) == snapshot.snapshot().legal_size());
    for (size_t i = 0; i < rendered.size(); ++i) {
      CHECK(rendered[i].code() == snapshot.snapshot().legal(static_cast<int>(i)).code());
      CHECK(rendered[i].label() == snapshot.snapshot().legal(static_cast<int>(i)).label());
      ++compared;
    }
    const uint64_t seq = mover.tracker.find(id)->seq;
    // A later code than the first, so that the match moves through more kinds of action.
    const auto& legal = mover.tracker.find(id)->legal;
    mover.send(action(id, legal[legal.size() / 2].code(), seq));
    REQUIRE(mover.wait_until([&] { return mover.tracker.find(id)->seq > seq; }));
    for (InProcessClient* c : {&ann, &ben}) {
      c->wait_until([] { return false; }, std::chrono::milliseconds(2));
      for (const ServerMessage& m : c->inbox) {
        if (!m.has_update()) continue;
        CHECK(m.update().labels_size() == 0);
        codes += static_cast<size_t>(m.update().legal_codes_size());
      }
      c->inbox.clear();
    }
  }
  CHECK(codes > 0);
  CHECK(compared > 20);
}
