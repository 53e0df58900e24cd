// Building positions for the Young Jedi scenario tests.
#pragma once

#include <catch2/catch.hpp>
#include <map>
#include <memory>
#include <set>

#include "core/registry.hpp"
#include "young_jedi/state.hpp"

namespace yj_test {

using namespace duelhall::engine;
using namespace duelhall::engine::young_jedi;

// The duel's three planets, in the table's order.
constexpr int kTatooine = 0;
constexpr int kNaboo = 1;
constexpr int kCoruscant = 2;

inline uint16_t id(const char* id_or_title) {
  auto index = find_card(id_or_title);
  REQUIRE(index);
  return *index;
}

inline std::vector<uint16_t> cards(std::initializer_list<const char*> names) {
  std::vector<uint16_t> out;
  for (const char* n : names) out.push_back(id(n));
  return out;
}

inline std::vector<uint16_t> copies(int n, const char* name) {
  return std::vector<uint16_t>(static_cast<size_t>(n), id(name));
}

inline Action act(ActionKind kind, int a0 = 0, int a1 = 0, int a2 = 0) {
  return Action::make(static_cast<uint8_t>(kind), static_cast<uint8_t>(a0),
                      static_cast<uint8_t>(a1), static_cast<uint8_t>(a2));
}
inline Action card_act(ActionKind kind, const char* name) {
  uint16_t c = id(name);
  return act(kind, c & 0xff, c >> 8);
}

// A match with the ready decks whose table the test then replaces.
inline std::unique_ptr<YoungJediState> new_match(uint64_t seed = 1) {
  Registry registry = builtin_registry();
  auto created = registry.create("young_jedi", 2, seed_from_number(seed), {}, {});
  REQUIRE(created.state);
  return std::unique_ptr<YoungJediState>(static_cast<YoungJediState*>(created.state.release()));
}

// A position where `active` may initiate a duel: both sides' cards in play and draw decks given
// (the back of a deck is its top).
inline std::unique_ptr<YoungJediState> duel_position(int active, std::vector<uint16_t> light_play,
                                                     std::vector<uint16_t> dark_play,
                                                     std::vector<uint16_t> light_deck,
                                                     std::vector<uint16_t> dark_deck) {
  auto state = new_match();
  Table& t = state->scenario_table();
  t = Table{};
  t.planet = 0;
  t.turn = 3;
  t.active = active;
  t.to_act = active;
  t.phase = Phase::kChooseDuel;
  t.players[0].in_play = std::move(light_play);
  t.players[1].in_play = std::move(dark_play);
  t.players[0].draw = std::move(light_deck);
  t.players[1].draw = std::move(dark_deck);
  return state;
}

// The usual duelists with their weapons: Qui-Gon Jinn, Jedi Mentor (Light) and Darth Maul, Student
// of the Dark Side (Dark).
inline std::vector<uint16_t> qui_gon() {
  return cards({"Qui-Gon Jinn, Jedi Mentor", "Qui-Gon Jinn's Lightsaber"});
}
inline std::vector<uint16_t> maul() {
  return cards({"Darth Maul, Student of the Dark Side", "Sith Lightsaber"});
}

// Mid-duel: Dark (active, initiator) attacks next with `dark_hand`; Light holds `light_hand`. The
// duelists are the first cards in play, their weapons at `light_weapon` and `dark_weapon`.
inline std::unique_ptr<YoungJediState> duel_at(std::vector<uint16_t> light_play,
                                               std::vector<uint16_t> dark_play,
                                               std::vector<uint16_t> light_hand,
                                               std::vector<uint16_t> dark_hand,
                                               std::vector<uint16_t> light_deck,
                                               std::vector<uint16_t> dark_deck,
                                               int light_weapon = 1, int dark_weapon = 1) {
  auto s = duel_position(1, std::move(light_play), std::move(dark_play), std::move(light_deck),
                         std::move(dark_deck));
  Table& t = s->scenario_table();
  t.phase = Phase::kAttack;
  t.to_act = 1;
  t.duel = Duel{{0, 0}, {light_weapon, dark_weapon}, 1, kAbsent, kAbsent, kAbsent};
  t.players[0].dueling_hand = std::move(light_hand);
  t.players[1].dueling_hand = std::move(dark_hand);
  return s;
}

inline bool legal(const State& s, Seat seat, Action a) {
  auto list = s.legal_actions(seat);
  return std::find(list.begin(), list.end(), a) != list.end();
}

inline void apply_ok(State& s, Seat seat, Action a) {
  auto result = s.apply(seat, a);
  INFO(result.reason);
  REQUIRE(result.ok());
}

}  // namespace yj_test
