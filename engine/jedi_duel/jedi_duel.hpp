// Jedi Duel: a duel for 2 to 6 players with 52 playing cards and two Jokers.
//
// Every player has a Stance card (its suit is the area: ♦ High, ♥ Middle, ♠ Low; a ♣ is declared
// to any area) and a fatigue counter starting at 21. On a turn a player (1) discards the old
// Stance, (2) plays a new one, (3) attacks, uses a Force power or discards to regain fatigue, and
// (4) draws two, or in Low Stance draws three and puts one back on top of the deck, known only to
// them. An attack's total is the card's rank plus a speed modifier; the defence total is the
// defender's Stance rank plus a defensive modifier when another area is attacked; a faster
// (lower) attack takes the difference from the defender's fatigue. The defender may answer with a
// ♣ (its rank replaces the defence) or a Force Defence royal (negates; not against ♦ High), and a
// defender in a lower fatigue column may then make the attacker fumble. Royals are Force powers:
// Jack heals to the top of the column, Queen shields until the next turn, King looks at an
// opponent's hand and may swap a card. Four royals or both Jokers cast Lightning at everyone; one
// Joker wounds one opponent; both drop fatigue to the bottom of the column. The game ends when one
// player alone has fatigue, or after as many passes through the deck as there are players (most
// fatigue wins; ties share a draw). docs/rules/jedi-duel.md cites the seed or ruling of each rule.
//
// Parameters (cards.hpp, `jedi_duel_params`): the attack speed modifiers (J4, default +1 own
// area, +2 other), the defensive modifiers (J5, default Middle +2, High/Low +3 one step, +5 two
// steps), and the fatigue track (J9, default start 21 in columns of 7).
#pragma once

#include <vector>

#include "core/registry.hpp"
#include "core/state.hpp"
#include "jedi_duel/cards.hpp"
#include "jedi_duel/phrases.hpp"

namespace duelhall::engine::jedi_duel {

// Action kinds; proto/jedi_duel.proto documents each kind's argument bytes.
enum Kind : uint8_t {
  kStance = 1,           // card, declared area (♣ only, else 0)
  kAttack = 2,           // card, target seat, declared area (♣ only, else 0)
  kJokerAttack = 3,      // card, target seat
  kForceHeal = 4,        // card
  kForcePush = 5,        // card
  kForceSense = 6,       // card, target seat
  kLightningRoyals = 7,  // four cards, ascending
  kLightningJokers = 8,  // -
  kDiscard = 9,          // card
  kPassAction = 10,      // -
  kNoDefence = 11,       // -
  kClubDefence = 12,     // card
  kForceDefence = 13,    // card
  kFumble = 14,          // card
  kNoFumble = 15,        // -
  kSenseSwap = 16,       // own card, opponent's card
  kNoSwap = 17,          // -
  kReturnCard = 18,      // card
  kSetupStance = 19,     // card, declared area (♣ only, else 0)
};
inline constexpr uint8_t kLastKind = kSetupStance;

enum class Phase : uint8_t {
  kSetup = 1,   // a setup player picks an initial Stance (J17)
  kStance = 2,  // step 2: the turn player plays a new Stance
  kAction = 3,  // step 3: attack, Force power, discard, or pass
  kDefend = 4,  // the attacked player answers
  kFumble = 5,  // a successful Force Defender may make the attacker fumble
  kSense = 6,   // the Force Sense caster sees the hand and may swap
  kReturn = 7,  // a Low Stance player puts one of three drawn cards back
  kOver = 8,
};

enum class AttackKind : uint8_t { kNone = 0, kNormal = 1, kJoker = 2, kLightning = 3 };

struct PlayerState {
  std::vector<Card> hand;  // in the order received; fresh draws at the end
  Card stance = kNoCard;
  Area area = kNoArea;
  int fatigue = 21;
  bool out = false;
  bool shielded = false;  // Force Push/Pull until this player's next turn (J10)
  bool operator==(const PlayerState&) const = default;
};

// The attack being answered (kDefend, kFumble).
struct PendingAttack {
  AttackKind kind = AttackKind::kNone;
  Seat attacker = 0;
  Seat target = 0;
  Card card = kNoCard;  // the attack card; for Lightning the last royal or Joker played
  Area area = kNoArea;  // the attacked area (normal attacks)
  int attack_total = 0;
  int defence_total = 0;         // the Stance's total, before any ♣ replaces it
  Area attacker_area = kNoArea;  // the attacker's Stance area when the attack was made (J18)
  bool operator==(const PendingAttack&) const = default;
};

// A hand-built table for scenario tests. Cards not listed anywhere go under the listed deck
// cards, so the 54 cards are always all there.
struct TableSetup {
  struct PlayerSetup {
    std::vector<Card> hand;
    Card stance = kNoCard;
    Area area = kNoArea;  // for a ♣ Stance; otherwise taken from the suit
    int fatigue = 21;
    bool out = false;
    bool shielded = false;
  };
  std::vector<PlayerSetup> seats;
  std::vector<Card> deck_from_top;
  std::vector<Card> discard_from_bottom;
  int turn = 0;
  int dealer = -1;  // default: the seat right of `turn`
  int passes = 0;
  bool skip_stance_step = false;  // start at step 3 with the Stances as given
};

class JediDuelState final : public State {
 public:
  explicit JediDuelState(MatchConfig config);

  SeatMask pending() const override;
  void legal_actions(Seat seat, std::vector<Action>& out) const override;
  using State::legal_actions;
  std::string action_label(Seat seat, Action action) const override;
  bool terminal() const override { return phase_ == Phase::kOver; }
  Outcome outcome() const override;
  std::unique_ptr<State> clone() const override;
  void write_view(const Viewer& viewer, std::string& out) const override;
  void resample_hidden(const Viewer& viewer, Rng& rng) override;
  std::vector<int32_t> inventory() const override;

  // Replaces the dealt table with a hand-built one and starts `setup.turn`'s turn.
  void arrange(const TableSetup& setup);

  // Read access for tests and the heuristic bot (which reads only what its view shows).
  const Tables& tables() const { return tables_; }
  const PlayerState& player(Seat seat) const { return players_[static_cast<size_t>(seat)]; }
  const std::vector<Card>& deck() const { return deck_; }  // back is the top
  const std::vector<Card>& discard_pile() const { return discard_; }
  Phase phase() const { return phase_; }
  Seat turn() const { return turn_; }
  Seat decider() const { return decider_; }
  Seat dealer() const { return dealer_; }
  int passes() const { return passes_; }
  const PendingAttack& attack() const { return attack_; }
  Seat sense_target() const { return sense_target_; }
  // True when `seat` knows which card lies `depth` cards below the top of the deck.
  bool knows_deck_card(Seat seat, size_t depth) const;

 protected:
  void do_apply(Seat seat, Action action) override;
  uint8_t last_action_kind() const override { return kLastKind; }
  ApplyResult explain_refusal(Seat seat, Action action) const override;
  void save_rules(ByteWriter& out) const override;
  void load_rules(ByteReader& in) override;

 private:
  PlayerState& p(Seat seat) { return players_[static_cast<size_t>(seat)]; }
  const PlayerState& p(Seat seat) const { return players_[static_cast<size_t>(seat)]; }
  Seat next_seat(Seat seat) const { return (seat + 1) % num_seats(); }
  int alive_count() const;

  // Setup and turn flow (flow.cpp).
  void deal();
  void begin_setup_or_turn(Seat first_setup);
  void advance_setup(Seat after);
  void begin_turn(Seat seat);
  void play_stance(Seat seat, Card card, Area declared, bool replace_old);
  void after_action();
  void draw_for_turn_player();
  void finish_turn();
  void end_by_passes();
  bool draw_one(Seat seat, std::vector<Card>* drawn);
  void take_from_hand(Seat seat, Card card);
  void emit_draw(Seat seat, const std::vector<Card>& drawn);

  // Step 3 actions and their answers (combat.cpp).
  void start_attack(Seat attacker, Card card, Seat target, Area declared);
  void start_joker(Seat attacker, Card card, Seat target);
  void start_lightning(Seat caster);
  void next_lightning_target();
  void resolve_defence(Seat defender, Action action);
  void resolve_fumble(Seat defender, Action action);
  void after_defence();
  void regain(Seat seat, Card card);
  // `behind`: the ♣ whose rank replaced the defence (J6), or kNoCard.
  void lose_fatigue(Seat seat, int amount, Card behind);
  void drop_to_column_bottom(Seat seat, DropCause cause);
  // Records why the game ended and says so.
  void end(EndReason reason);
  void say(const Phrase& phrase) { emit(Event::said(phrase_book(), phrase)); }
  void say_to(SeatMask audience, const Phrase& phrase, const Phrase& redacted) {
    emit(Event::said_to(phrase_book(), audience, phrase, redacted));
  }
  void eliminate(Seat seat);
  bool can_force_defend(Seat defender, Card card) const;
  bool fumble_allowed(Seat defender) const;

  // Legal-action lists per phase (legal.cpp).
  void stance_actions(Seat seat, Kind kind, std::vector<Action>& out) const;
  void step3_actions(Seat seat, std::vector<Action>& out) const;
  void defence_actions(Seat seat, std::vector<Action>& out) const;

  Tables tables_;
  std::vector<PlayerState> players_;
  std::vector<Card> deck_;           // back is the top
  std::vector<uint8_t> deck_known_;  // per deck position: seats (bits) that know the card
  std::vector<Card> discard_;        // back is the top
  int passes_ = 0;
  Seat dealer_ = 0;
  Seat turn_ = 0;
  Seat decider_ = 0;
  Phase phase_ = Phase::kSetup;
  PendingAttack attack_;
  SeatMask lightning_left_;    // opponents still to answer the Lightning being cast
  SeatMask owes_replacement_;  // defenders who played a ♣ or Force Defence this turn (J14)
  Seat sense_target_ = -1;
  int low_drawn_ = 0;  // cards at the end of the turn player's hand drawn in Low Stance
  SeatMask winners_;
  std::string end_reason_;
};

void register_jedi_duel(Registry& registry);

}  // namespace duelhall::engine::jedi_duel
