// Young Jedi: Duel of the Fates, the Lightsaber Dueling rules (docs/rules/young-jedi-duel.md).
//
// Two players, seat 0 the Light Side and seat 1 the Dark Side, each with a deck list (ruling Y1;
// an empty seat option plays a ready deck). Destiny picks the planet and the first player; each
// draws six. A turn: deploy characters and weapons with six counters, then optionally initiate
// one lightsaber duel (a dueling character with a lightsaber it can use against any opposing
// character, whom the defender may swap for one of their dueling characters), then draw a card.
// In a duel both draw a dueling hand of their character's total power and trade attacks and
// blocks by destiny number; a character with hits at or above its printed DAMAGE is defeated.
// Damage is discarding from the draw deck; a player who draws or discards the last card of her
// draw deck (not into a dueling hand), or must draw from an empty one, loses at once (deck
// victory); both in the same fight's destiny draws is a tie. No parameters.
#pragma once

#include <memory>
#include <string>

#include "core/state.hpp"
#include "young_jedi/deck.hpp"
#include "young_jedi/phrases.hpp"
#include "young_jedi/table.hpp"

namespace duelhall::engine::young_jedi {

class YoungJediState final : public State {
 public:
  explicit YoungJediState(MatchConfig config);

  SeatMask pending() const override;
  using State::legal_actions;
  void legal_actions(Seat seat, std::vector<Action>& out) const override;
  std::string action_label(Seat seat, Action action) const override;
  bool terminal() const override { return table_.phase == Phase::kOver; }
  Outcome outcome() const override;
  std::unique_ptr<State> clone() const override;
  void write_view(const Viewer& viewer, std::string& out) const override;
  void resample_hidden(const Viewer& viewer, Rng& rng) override;
  std::vector<int32_t> inventory() const override;

  const Table& table() const { return table_; }
  // Scenario tests set up a position directly; the match's own play never uses this.
  Table& scenario_table() { return table_; }

 protected:
  void do_apply(Seat seat, Action action) override;
  uint8_t last_action_kind() const override;                             // refusals.cpp
  ApplyResult explain_refusal(Seat seat, Action action) const override;  // refusals.cpp
  void save_rules(ByteWriter& out) const override;
  void load_rules(ByteReader& in) override;

 private:
  // Setup (Y2, Y3).
  int destiny_contest(std::array<int, 2>& shown, std::string_view what);
  void start_first_turn();
  // The turn (Y4).
  void begin_turn(int seat);
  void to_duel_choice();
  void draw_step();
  // Y29's deploy texts, in deploy_texts.cpp.
  void deployed_to_planet(int seat, uint16_t deployed);
  void after_optional_draw();
  void legal_search_actions(std::vector<Action>& out) const;
  void end_search(int seat, int found);  // found: the card deployed from the deck, or kAbsent
  // The duel (Y5-Y7), in duel.cpp.
  void initiate_duel(int character, int weapon, int target);
  void settle_defender();
  void start_duel();
  void next_attack(int seat);
  void play_attack(int seat, uint16_t card);
  void play_block(int seat, uint16_t card);
  void score_hit(int hitter);
  void use_dueling_text();
  void after_hit(int hit_seat);
  void end_duel(int defeated);
  int dueling_power(int seat) const;
  int damage_for_defeat(int defeated) const;
  bool uses_lightsaber(int seat) const;
  bool offers_dueling_text(int seat, int card) const;
  // Card movement, in end.cpp. A deck-out is settled at once by the caller (Y9); only a fight's
  // destiny draws are all made before the check.
  bool draw_into(int seat, std::vector<uint16_t>& zone, bool dueling = false);
  void take_damage(int seat, int amount);
  void reshuffle_dueling_cards(int seat);
  bool settle_deck_outs();  // true when the game is over
  void legal_duel_actions(Seat seat, std::vector<Action>& out) const;
  std::string card_name(int index) const;
  // A public event, said as a phrase of the ruleset's book (phrases.hpp).
  void say(const Phrase& phrase);

  Table table_;
  SeatMask decked_out_;  // until the caller settles it (Y9)
};

std::unique_ptr<State> create_state(const MatchConfig& config);

// While a deploy text has its player search her draw deck (Y29): the characters there it names,
// sorted so that nothing tells their order (Y10). Empty in any other phase.
std::vector<uint16_t> search_candidates(const Table& table);

}  // namespace duelhall::engine::young_jedi
