// What each viewer sees, what is refused and why (docs/rules/jedi-duel.md "Views", "Refusals").
#include "table.hpp"

using namespace jedi_test;

namespace {
Table midgame() {
  TableSetup setup;
  setup.seats.resize(3);
  setup.seats[0].stance = C(8);
  setup.seats[0].area = kLow;
  setup.seats[0].hand = {H(2), S(12)};
  setup.seats[0].fatigue = 17;
  setup.seats[1].stance = D(9);
  setup.seats[1].hand = {D(3), kJ1, C(13)};
  setup.seats[2].stance = H(10);
  setup.seats[2].hand = {S(4)};
  setup.seats[2].shielded = true;
  setup.discard_from_bottom = {D(7), H(6)};
  setup.skip_stance_step = true;
  return make_table(3, setup);
}
}  // namespace

TEST_CASE("Views show a hand to its owner only and hidden cards as counts") {
  Table t = midgame();
  for (Seat viewer = 0; viewer < 3; ++viewer) {
    const Wire v = view_of(t, Viewer::of_seat(viewer));
    CHECK(v.get(1) == static_cast<uint64_t>(viewer + 1));
    const auto players = v.messages(3);
    REQUIRE(players.size() == 3);
    for (Seat s = 0; s < 3; ++s) {
      CHECK(players[s].get(5) == t.player(s).hand.size());
      CHECK(players[s].get(2) == t.player(s).stance);
      CHECK(players[s].has(6) == (s == viewer));
    }
    CHECK(players[viewer].packed(6) == as_ids(t.player(viewer).hand));
  }
  const Wire spectator = view_of(t, Viewer::spectator());
  for (const Wire& player : spectator.messages(3)) CHECK_FALSE(player.has(6));
  CHECK_FALSE(spectator.has(20));
  const Wire all = view_of(t, Viewer::omniscient());
  CHECK(all.messages(3)[1].packed(6) == as_ids({D(3), kJ1, C(13)}));
  CHECK(all.packed(20).size() == t.s->deck().size());
}

TEST_CASE("Views carry the public table: Stance area, fatigue, shield, piles, turn and phase") {
  Table t = midgame();
  const Wire v = view_of(t, Viewer::of_seat(2));
  const auto players = v.messages(3);
  CHECK(players[0].get(3) == kLow);    // the club's declared area
  CHECK(players[0].get(4) == 17 * 2);  // sint32 zigzag
  CHECK(players[2].get(8) == 1);
  CHECK(v.get(4) == t.s->deck().size());
  CHECK(v.get(5) == 2);
  CHECK(v.get(6) == H(6));
  CHECK(v.get(8) == 3);
  CHECK(v.get(10) == 0);
  CHECK(v.get(11) == static_cast<uint64_t>(Phase::kAction));
  t.act(0, Action::make(kAttack, H(2), 1));
  const Wire during = view_of(t, Viewer::of_seat(2));
  CHECK(during.get(12) == 1);  // seat 1 decides
  const auto attack = during.messages(13);
  REQUIRE(attack.size() == 1);
  CHECK(attack[0].get(3) == 1);
  CHECK(attack[0].get(4) == H(2));
  CHECK(attack[0].get(5) == kMiddle);
  CHECK(attack[0].get(6) == 2 * (2 + 2));  // Low attacker into Middle: +2
  CHECK(attack[0].get(7) == 2 * (9 + 3));  // High defender, one step: +3
  CHECK(attack[0].get(8) == kLow);
}

TEST_CASE("Events name seats as @N and redact private draws") {
  Table t = midgame();
  t.act(0, Action::make(kAttack, H(2), 1));
  t.act(1, Action::make(kNoDefence));
  const auto public_texts = t.texts_for(Viewer::of_seat(2));
  CHECK(public_texts.at(0) == "@0 attacks @1 Middle with 2\u2665: attack 4 against defence 12");
  CHECK(public_texts.at(1) == "@0 hits @1: 8 fatigue, 13 left");
  CHECK(public_texts.at(2) == "@0 drew 3 card(s)");
  CHECK(t.texts_for(Viewer::of_seat(0)).at(2).rfind("@0 drew ", 0) == 0);
  CHECK(t.texts_for(Viewer::of_seat(0)).at(2) != "@0 drew 3 card(s)");
}

TEST_CASE("Refusals: malformed, illegal and out-of-turn actions change nothing") {
  Table t = midgame();
  const std::string before = t.s->serialize();
  ApplyResult r = t.try_act(0, Action::make(200));
  CHECK(r.code == RefusalCode::kMalformed);
  CHECK(r.reason == "unknown action kind 200");
  r = t.try_act(0, Action::make(kAttack, H(2), 2));  // seat 2 is shielded
  CHECK(r.code == RefusalCode::kIllegal);
  CHECK(r.reason.find("attack @2") != std::string::npos);
  r = t.try_act(0, Action::make(kAttack, D(3), 1));  // not in this hand
  CHECK(r.code == RefusalCode::kIllegal);
  r = t.try_act(0, Action::make(kForcePush, S(12), 9));  // a stray argument byte
  CHECK(r.code == RefusalCode::kIllegal);
  r = t.try_act(1, Action::make(kNoDefence));
  CHECK(r.code == RefusalCode::kNotYourDecision);
  r = t.try_act(5, Action::make(kNoDefence));
  CHECK(r.code == RefusalCode::kNoSuchSeat);
  CHECK(t.s->serialize() == before);
  CHECK(t.events.empty());
}

TEST_CASE("Serialization round-trips a hand-built table mid-decision") {
  Table t = midgame();
  t.act(0, Action::make(kAttack, H(2), 1));
  Registry registry = builtin_registry();
  auto restored = registry.deserialize(t.s->serialize());
  CHECK(restored->serialize() == t.s->serialize());
  CHECK(restored->view(Viewer::omniscient()) == t.s->view(Viewer::omniscient()));
  CHECK(restored->legal_actions(1) == t.s->legal_actions(1));
}
