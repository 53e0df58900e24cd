// Ruling Y29 with seed 001's "Deploying cards from your draw deck": text that deploys a card from
// the draw deck when its card deploys to the duel's planet. One copy of a card the text names,
// paid with deploy counters; the deck is then reshuffled (a recorded chance step); deploying none
// costs 1 DAMAGE after the reshuffle. What the search finds is the searcher's alone (Y10).
#include "scenario.hpp"

using namespace yj_test;

namespace {

constexpr int kLight = 0;
constexpr int kDark = 1;

// `seat`'s deploy step on `planet` with `hand`; her draw deck is `found` on top of five fillers
// that no search text names (Qui-Gon Jinn, Jedi Master; Darth Maul, Sith Apprentice).
std::unique_ptr<YoungJediState> deploying(int seat, int planet, std::vector<uint16_t> hand,
                                          std::vector<uint16_t> found) {
  auto s = duel_position(seat, {}, {}, copies(5, "1_2"), copies(5, "1_71"));
  Table& t = s->scenario_table();
  t.planet = planet;
  t.phase = Phase::kDeploy;
  t.counters_left = kDeployCounters;
  t.players[seat].hand = std::move(hand);
  std::vector<uint16_t>& draw = t.players[seat].draw;
  draw.insert(draw.end(), found.begin(), found.end());
  return s;
}

std::set<uint16_t> deployable(const State& s, int seat) {
  std::set<uint16_t> out;
  for (Action a : s.legal_actions(seat)) {
    if (static_cast<ActionKind>(a.kind) == ActionKind::kDeployFromDeck)
      out.insert(static_cast<uint16_t>(a.arg(0) | a.arg(1) << 8));
  }
  return out;
}

std::set<uint16_t> as_set(std::initializer_list<const char*> names) {
  std::vector<uint16_t> v = cards(names);
  return {v.begin(), v.end()};
}

// Deploys `searcher` from the hand, then `found` from the draw deck, and checks what seed 001 asks.
void search_deploys(int seat, int planet, const char* searcher, const char* found,
                    std::set<uint16_t> offered) {
  auto s = deploying(seat, planet, cards({searcher}), {});
  for (uint16_t c : offered) s->scenario_table().players[seat].draw.push_back(c);
  const size_t deck = s->table().players[seat].draw.size();
  apply_ok(*s, seat, card_act(ActionKind::kDeploy, searcher));
  REQUIRE(s->table().phase == Phase::kSearchDrawDeck);
  CHECK(s->pending() == SeatMask::only(seat));
  CHECK(deployable(*s, seat) == offered);
  CHECK(legal(*s, seat, act(ActionKind::kEndSearch)));
  const size_t chance_steps = s->chance_log().size();
  apply_ok(*s, seat, card_act(ActionKind::kDeployFromDeck, found));
  const Player& p = s->table().players[seat];
  CHECK(p.in_play == cards({searcher, found}));
  CHECK(p.draw.size() == deck - 1);
  CHECK(p.discard.empty());  // no penalty
  CHECK(s->table().counters_left ==
        kDeployCounters - card(id(searcher)).counters - card(id(found)).counters);
  // The reshuffle is a chance step of the match's own generator.
  REQUIRE(s->chance_log().size() == chance_steps + 1);
  CHECK(s->chance_log().back().what == "shuffle draw deck after a search " + seat_ref(seat));
}

}  // namespace

TEST_CASE("Y29: Valorum deploying to Coruscant deploys a card from the draw deck") {
  // "one senator": Light's senators, not Qui-Gon Jinn.
  search_deploys(kLight, kCoruscant, "Valorum, Leader of the Senate", "Alderaan Diplomat, Senator",
                 as_set({"Alderaan Diplomat, Senator", "Galactic Senator, Delegate"}));
}

TEST_CASE("Y29: Nute Gunray deploying to Naboo deploys Rune Haako from the draw deck") {
  for (const char* nute : {"6_P18", "7_52"}) {
    INFO(nute);
    // Rune Haako only, not another Neimoidian.
    auto s = deploying(kDark, kNaboo, cards({nute}),
                       cards({"3_78", "Tey How, Neimoidian Command Officer"}));
    apply_ok(*s, kDark, card_act(ActionKind::kDeploy, nute));
    REQUIRE(s->table().phase == Phase::kSearchDrawDeck);
    CHECK(deployable(*s, kDark) == as_set({"3_78"}));
    apply_ok(*s, kDark, card_act(ActionKind::kDeployFromDeck, "3_78"));
    CHECK(s->table().players[kDark].in_play == cards({nute, "3_78"}));
    CHECK(s->table().counters_left == kDeployCounters - 2 - 3);
    CHECK(s->table().phase == Phase::kDeploy);
  }
}

TEST_CASE("Y29: Nute Gunray's Rune Haako found in the draw deck searches again for a Neimoidian") {
  auto s = deploying(kDark, kNaboo, cards({"6_P18"}),
                     cards({"6_P19", "Tey How, Neimoidian Command Officer"}));
  apply_ok(*s, kDark, card_act(ActionKind::kDeploy, "6_P18"));
  apply_ok(*s, kDark, card_act(ActionKind::kDeployFromDeck, "6_P19"));
  // Rune Haako, Neimoidian Lieutenant deployed to Naboo too: his own text acts.
  REQUIRE(s->table().phase == Phase::kSearchDrawDeck);
  CHECK(deployable(*s, kDark) == as_set({"Tey How, Neimoidian Command Officer"}));
  apply_ok(*s, kDark, card_act(ActionKind::kDeployFromDeck, "Tey How, Neimoidian Command Officer"));
  CHECK(s->table().players[kDark].in_play.size() == 3);
  CHECK(s->table().counters_left == kDeployCounters - 2 - 2 - 1);
}

TEST_CASE("Y29: Rune Haako deploying to Naboo deploys a Neimoidian from the draw deck") {
  for (const char* rune : {"6_P19", "7_53"}) {
    INFO(rune);
    // Neimoidian characters, never the weapon Neimoidian Viewscreen.
    auto s = deploying(kDark, kNaboo, cards({rune}),
                       cards({"Neimoidian Viewscreen", "Sil Unch, Neimoidian Comm Officer",
                              "Daultay Dofine, Neimoidian Attendant"}));
    apply_ok(*s, kDark, card_act(ActionKind::kDeploy, rune));
    REQUIRE(s->table().phase == Phase::kSearchDrawDeck);
    CHECK(deployable(*s, kDark) ==
          as_set({"Sil Unch, Neimoidian Comm Officer", "Daultay Dofine, Neimoidian Attendant"}));
    apply_ok(*s, kDark, card_act(ActionKind::kDeployFromDeck, "Sil Unch, Neimoidian Comm Officer"));
    CHECK(s->table().players[kDark].in_play == cards({rune, "Sil Unch, Neimoidian Comm Officer"}));
  }
}

TEST_CASE("Y29: Orr'UrRuuR'R deploying to Tatooine deploys a Tusken Raider from the draw deck") {
  for (const char* orr : {"8_36", "7_58"}) {
    INFO(orr);
    search_deploys(kDark, kTatooine, orr, "Tusken Raider, Nomad",
                   as_set({"Tusken Raider, Nomad", "RuuR'Ur, Tusken Raider Sniper"}));
  }
}

TEST_CASE(
    "Y29: Corix Venne deploying to Tatooine deploys a musician, singer or dancer from the draw "
    "deck") {
  search_deploys(kDark, kTatooine, "Corix Venne, Bith Musician", "Diva Funquita, Dancer",
                 as_set({"Bith, Musician", "Diva Shaliqua, Singer", "Diva Funquita, Dancer"}));
}

TEST_CASE("Y29: a search that deploys nothing reshuffles the draw deck, then costs 1 DAMAGE") {
  auto s = deploying(kDark, kTatooine, cards({"8_36"}), cards({"Tusken Raider, Nomad"}));
  apply_ok(*s, kDark, card_act(ActionKind::kDeploy, "8_36"));
  const size_t chance_steps = s->chance_log().size();
  apply_ok(*s, kDark, act(ActionKind::kEndSearch));
  const Player& p = s->table().players[kDark];
  CHECK(p.in_play == cards({"8_36"}));
  CHECK(p.draw.size() == 5);  // six, one discarded as the penalty
  CHECK(p.discard.size() == 1);
  CHECK(s->chance_log().size() == chance_steps + 1);
  CHECK(s->table().phase == Phase::kDeploy);
  CHECK(s->table().counters_left == kDeployCounters - 2);
}

TEST_CASE("Y29: a search that finds nothing still searches, and costs 1 DAMAGE") {
  // The opponent cannot tell an empty search from a declined one: the phase is entered anyway.
  auto s = deploying(kDark, kTatooine, cards({"Corix Venne, Bith Musician"}), {});
  apply_ok(*s, kDark, card_act(ActionKind::kDeploy, "Corix Venne, Bith Musician"));
  REQUIRE(s->table().phase == Phase::kSearchDrawDeck);
  CHECK(s->legal_actions(kDark) == std::vector<Action>{act(ActionKind::kEndSearch)});
  apply_ok(*s, kDark, act(ActionKind::kEndSearch));
  CHECK(s->table().players[kDark].discard.size() == 1);
}

TEST_CASE("Y29: the search's penalty DAMAGE that empties the draw deck is a deck victory") {
  auto s = deploying(kDark, kTatooine, cards({"8_36"}), {});
  s->scenario_table().players[kDark].draw = cards({"1_71"});
  apply_ok(*s, kDark, card_act(ActionKind::kDeploy, "8_36"));
  apply_ok(*s, kDark, act(ActionKind::kEndSearch));
  REQUIRE(s->terminal());
  CHECK(s->outcome().winners == SeatMask::only(kLight));
}

TEST_CASE("Y29: a search deploys only a card the counters left pay for, and refuses others") {
  // Corix Venne costs 2 of 6; Bith, Musician (3) fits, then a second search finds 1 left.
  auto s = deploying(kDark, kTatooine, cards({"Corix Venne, Bith Musician"}),
                     cards({"Bith, Musician", "Diva Shaliqua, Singer"}));
  s->scenario_table().counters_left = 4;
  apply_ok(*s, kDark, card_act(ActionKind::kDeploy, "Corix Venne, Bith Musician"));
  CHECK(deployable(*s, kDark) == as_set({"Diva Shaliqua, Singer"}));  // 2 left: Bith costs 3
  ApplyResult r = s->apply(kDark, card_act(ActionKind::kDeployFromDeck, "Bith, Musician"));
  CHECK(r.code == RefusalCode::kIllegal);
  r = s->apply(kDark, card_act(ActionKind::kDeployFromDeck, "Tusken Raider, Nomad"));
  CHECK(r.code == RefusalCode::kIllegal);
  r = s->apply(kDark, act(ActionKind::kDeployFromDeck, 0xff, 0xff));
  CHECK(r.code == RefusalCode::kMalformed);
  CHECK(s->table().phase == Phase::kSearchDrawDeck);
}

TEST_CASE("Y29: a deck-search text naming another planet does nothing") {
  auto s = deploying(kLight, kNaboo, cards({"Valorum, Leader of the Senate"}),
                     cards({"Alderaan Diplomat, Senator"}));
  apply_ok(*s, kLight, card_act(ActionKind::kDeploy, "Valorum, Leader of the Senate"));
  CHECK(s->table().phase == Phase::kDeploy);
  CHECK(s->table().players[kLight].draw.size() == 6);
}

TEST_CASE("Y29: only the searcher sees what her search finds") {
  auto s = deploying(kDark, kTatooine, cards({"8_36"}),
                     cards({"Tusken Raider, Nomad", "RuuR'Ur, Tusken Raider Sniper"}));
  s->scenario_table().players[kDark].hand.push_back(id("Tusken Raider, Marksman"));
  apply_ok(*s, kDark, card_act(ActionKind::kDeploy, "8_36"));
  REQUIRE(s->table().phase == Phase::kSearchDrawDeck);
  // The candidates reach the searcher's view (and the omniscient one) only.
  const std::string with = s->view(Viewer::of_seat(kDark));
  auto hidden = s->clone();
  auto& other = static_cast<YoungJediState&>(*hidden).scenario_table();
  std::swap(other.players[kDark].draw[5], other.players[kDark].hand[0]);  // Nomad <-> Marksman
  CHECK(hidden->view(Viewer::of_seat(kLight)) == s->view(Viewer::of_seat(kLight)));
  CHECK(hidden->view(Viewer::spectator()) == s->view(Viewer::spectator()));
  CHECK(hidden->view(Viewer::of_seat(kDark)) != with);
  // The leak test: redrawing what each viewer cannot see keeps its view byte-identical.
  Rng rng(seed_from_number(29));
  for (Viewer viewer : {Viewer::of_seat(0), Viewer::of_seat(1), Viewer::spectator()}) {
    for (int i = 0; i < 20; ++i) {
      auto redrawn = s->clone();
      redrawn->resample_hidden(viewer, rng);
      CHECK(redrawn->view(viewer) == s->view(viewer));
      CHECK(redrawn->inventory() == s->inventory());
    }
  }
  // The search's events name the card deployed, never the deck.
  std::vector<Event> events;
  REQUIRE(
      s->apply(kDark, card_act(ActionKind::kDeployFromDeck, "Tusken Raider, Nomad"), &events).ok());
  for (const Event& e : events) {
    CHECK(e.text_for(Viewer::of_seat(kLight)).value_or("").find("Sniper") == std::string::npos);
  }
}

TEST_CASE("Y29: a match saved mid-search loads the same") {
  auto s = deploying(kDark, kTatooine, cards({"8_36"}), cards({"Tusken Raider, Nomad"}));
  apply_ok(*s, kDark, card_act(ActionKind::kDeploy, "8_36"));
  Registry registry = builtin_registry();
  auto loaded = registry.deserialize(s->serialize());
  REQUIRE(loaded);
  CHECK(static_cast<YoungJediState&>(*loaded).table() == s->table());
}
