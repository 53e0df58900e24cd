#include "young_jedi/state.hpp"

#include <algorithm>

namespace duelhall::engine::young_jedi {
namespace {

// Y12: a destiny contest that ties this often (decks of one destiny number) goes to the Light Side.
constexpr int kMaxDestinyRounds = 50;

Action act(ActionKind kind, int a0 = 0, int a1 = 0, int a2 = 0) {
  return Action::make(static_cast<uint8_t>(kind), static_cast<uint8_t>(a0),
                      static_cast<uint8_t>(a1), static_cast<uint8_t>(a2));
}
Action card_action(ActionKind kind, uint16_t card) {
  return act(kind, card & 0xff, card >> 8);
}
uint16_t card_arg(Action a) {
  return static_cast<uint16_t>(a.arg(0) | a.arg(1) << 8);
}

}  // namespace

YoungJediState::YoungJediState(MatchConfig config) : State(std::move(config)) {
  for (int seat = 0; seat < 2; ++seat) {
    const std::string& option = seat < static_cast<int>(this->config().seat_options.size())
                                    ? this->config().seat_options[seat]
                                    : std::string();
    Player& p = table_.players[seat];
    p.draw = deck_for_seat(seat, option).cards;
    shuffle(std::span<uint16_t>(p.draw), "shuffle draw deck " + seat_ref(seat));
  }
  // Y2: the higher destiny picks the planet.
  table_.to_act = destiny_contest(table_.planet_destiny, "planet");
  table_.phase = Phase::kChoosePlanet;
}

int YoungJediState::destiny_contest(std::array<int, 2>& shown, std::string_view what) {
  for (int round = 0; round < kMaxDestinyRounds; ++round) {
    std::array<int, 2> destiny{};
    for (int seat = 0; seat < 2; ++seat) {
      Player& p = table_.players[seat];
      shown[seat] = p.draw.back();
      destiny[seat] = card(p.draw.back()).destiny;
      // The destiny card goes back and the deck is shuffled (Y2).
      shuffle(std::span<uint16_t>(p.draw),
              "shuffle after " + std::string(what) + " destiny " + seat_ref(seat));
    }
    if (destiny[0] != destiny[1]) return destiny[0] > destiny[1] ? 0 : 1;
  }
  return 0;
}

void YoungJediState::start_first_turn() {
  // Y3: destiny decides who goes first; then both draw six.
  int first = destiny_contest(table_.first_player_destiny, "first player");
  say(Phrase(kSaidGoesFirst).seat(first));
  for (int seat = 0; seat < 2; ++seat) {
    Player& p = table_.players[seat];
    for (int i = 0; i < kStartingHand; ++i) {
      draw_into(seat, p.hand);
      if (settle_deck_outs()) return;  // Y9: a deck victory is immediate
    }
  }
  begin_turn(first);
}

void YoungJediState::begin_turn(int seat) {
  table_.active = seat;
  table_.to_act = seat;
  ++table_.turn;
  table_.counters_left = kDeployCounters;
  table_.phase = Phase::kDeploy;
}

void YoungJediState::to_duel_choice() {
  std::vector<Action> options;
  legal_duel_actions(table_.active, options);
  if (options.empty()) {
    draw_step();  // no duel possible: nothing to decide
    return;
  }
  table_.phase = Phase::kChooseDuel;
  table_.to_act = table_.active;
}

void YoungJediState::draw_step() {
  int seat = table_.active;
  Player& p = table_.players[seat];
  if (draw_into(seat, p.hand) && wants_events()) {
    emit(Event::said_to(phrase_book(), SeatMask::only(seat),
                        named(Phrase(kSaidDrew).seat(seat), p.hand.back()),
                        Phrase(kSaidDrewACard).seat(seat)));
  }
  if (settle_deck_outs()) return;  // Y9: her last card: the other player's turn never begins
  begin_turn(1 - seat);
}

SeatMask YoungJediState::pending() const {
  if (terminal()) return {};
  return SeatMask::only(table_.to_act);
}

void YoungJediState::legal_actions(Seat seat, std::vector<Action>& out) const {
  out.clear();
  if (!pending().has(seat)) return;
  const Player& me = table_.players[seat];
  switch (table_.phase) {
    case Phase::kChoosePlanet:
      for (int planet = 0; planet < kPlanets; ++planet)
        out.push_back(act(ActionKind::kChoosePlanet, planet));
      break;
    case Phase::kDeploy:
      for (uint16_t c : me.hand) {
        const CardData& data = card(c);
        if (data.type != CardType::kBattle && data.counters <= table_.counters_left) {
          out.push_back(card_action(ActionKind::kDeploy, c));
        }
      }
      out.push_back(act(ActionKind::kEndDeploy));
      out.push_back(act(ActionKind::kConcede));
      break;
    default:
      legal_duel_actions(seat, out);
      break;
  }
  // Identical copies of a card give one action.
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
}

void YoungJediState::legal_duel_actions(Seat seat, std::vector<Action>& out) const {
  const Player& me = table_.players[seat];
  const Player& them = table_.players[1 - seat];
  switch (table_.phase) {
    case Phase::kDeploy:  // asked by to_duel_choice, before the phase changes
    case Phase::kChooseDuel: {
      // Seed 003: a dueling character with a lightsaber it can use, against any character.
      size_t before = out.size();
      for (size_t c = 0; c < me.in_play.size(); ++c) {
        const CardData& duelist = card(me.in_play[c]);
        if (!duelist.dueling) continue;
        for (size_t w = 0; w < me.in_play.size(); ++w) {
          const CardData& weapon = card(me.in_play[w]);
          if (!is_lightsaber(weapon) || !weapon_power_dots(weapon, duelist)) continue;
          for (size_t t = 0; t < them.in_play.size(); ++t) {
            if (card(them.in_play[t]).type != CardType::kCharacter) continue;
            out.push_back(act(ActionKind::kInitiateDuel, static_cast<int>(c), static_cast<int>(w),
                              static_cast<int>(t)));
          }
        }
      }
      if (out.size() > before && table_.phase == Phase::kChooseDuel) {
        out.push_back(act(ActionKind::kSkipDuel));
      }
      break;
    }
    case Phase::kChooseDefender: {
      // The chosen character, or any dueling character of the defender there (seed 003).
      int chosen = table_.duel.character[seat];
      out.push_back(act(ActionKind::kDefend, chosen));
      for (size_t c = 0; c < me.in_play.size(); ++c) {
        if (static_cast<int>(c) != chosen && card(me.in_play[c]).dueling) {
          out.push_back(act(ActionKind::kDefend, static_cast<int>(c)));
        }
      }
      break;
    }
    case Phase::kDefenderWeapon: {
      const CardData& defender = card(me.in_play[table_.duel.character[seat]]);
      for (size_t w = 0; w < me.in_play.size(); ++w) {
        if (weapon_power_dots(card(me.in_play[w]), defender)) {
          out.push_back(act(ActionKind::kArmDefender, static_cast<int>(w)));
        }
      }
      out.push_back(act(ActionKind::kDefendUnarmed));
      break;
    }
    case Phase::kAttack:
      for (uint16_t c : me.dueling_hand) out.push_back(card_action(ActionKind::kAttack, c));
      break;
    case Phase::kBlock:
      for (uint16_t c : me.dueling_hand) {
        if (card(c).destiny == card(static_cast<uint16_t>(table_.duel.attack_card)).destiny) {
          out.push_back(card_action(ActionKind::kBlock, c));
        }
      }
      out.push_back(act(ActionKind::kTakeHit));
      break;
    case Phase::kDuelingText:
      out.push_back(act(ActionKind::kUseDuelingText));
      out.push_back(act(ActionKind::kDeclineDuelingText));
      break;
    case Phase::kOptionalDraw:
      out.push_back(act(ActionKind::kDrawCard));
      out.push_back(act(ActionKind::kDeclineDraw));
      break;
    case Phase::kSearchDrawDeck:
      legal_search_actions(out);
      break;
    case Phase::kChoosePlanet:
    case Phase::kOver:
      break;
  }
}

void YoungJediState::do_apply(Seat seat, Action action) {
  Player& me = table_.players[seat];
  switch (static_cast<ActionKind>(action.kind)) {
    case ActionKind::kChoosePlanet:
      table_.planet = action.arg(0);
      say(Phrase(kSaidChosePlanet).seat(seat).entry(table_.planet));
      start_first_turn();
      break;
    case ActionKind::kDeploy: {
      uint16_t c = card_arg(action);
      me.hand.erase(std::find(me.hand.begin(), me.hand.end(), c));
      // Which copy left is not seen: a known copy is gone once the hand holds fewer than known.
      if (std::count(me.hand.begin(), me.hand.end(), c) <
          std::count(me.known_hand.begin(), me.known_hand.end(), c)) {
        me.known_hand.erase(std::find(me.known_hand.begin(), me.known_hand.end(), c));
      }
      me.in_play.push_back(c);
      table_.counters_left -= card(c).counters;
      say(named(Phrase(kSaidDeployed).seat(seat), c));
      deployed_to_planet(seat, c);
      break;
    }
    case ActionKind::kEndDeploy:
      to_duel_choice();
      break;
    case ActionKind::kSkipDuel:
      draw_step();
      break;
    case ActionKind::kInitiateDuel:
      initiate_duel(action.arg(0), action.arg(1), action.arg(2));
      break;
    case ActionKind::kDefend:
      table_.duel.character[seat] = action.arg(0);
      settle_defender();
      break;
    case ActionKind::kArmDefender:
    case ActionKind::kDefendUnarmed:
      if (static_cast<ActionKind>(action.kind) == ActionKind::kArmDefender) {
        table_.duel.weapon[seat] = action.arg(0);
      }
      start_duel();
      break;
    case ActionKind::kAttack:
      play_attack(seat, card_arg(action));
      break;
    case ActionKind::kBlock:
      play_block(seat, card_arg(action));
      break;
    case ActionKind::kTakeHit:
      score_hit(1 - seat);
      break;
    case ActionKind::kUseDuelingText:
      use_dueling_text();
      break;
    case ActionKind::kDeclineDuelingText:
      after_hit(1 - seat);
      break;
    case ActionKind::kDrawCard:
      // Y9: the draw is hers to take; her last card is then a deck victory like any other.
      draw_into(seat, me.hand);
      say(Phrase(kSaidTakesOfferedDraw).seat(seat));
      if (!settle_deck_outs()) after_optional_draw();
      break;
    case ActionKind::kDeclineDraw:
      say(Phrase(kSaidDoesNotDraw).seat(seat));
      after_optional_draw();
      break;
    case ActionKind::kDeployFromDeck:
      end_search(seat, card_arg(action));
      break;
    case ActionKind::kEndSearch:
      end_search(seat, kAbsent);
      break;
    case ActionKind::kConcede:
      table_.phase = Phase::kOver;
      table_.winners = SeatMask::only(1 - seat);
      table_.end_reason = static_cast<uint8_t>(EndReason::kConceded);
      say(Phrase(kSaidConceded).seat(seat));
      break;
  }
  settle_deck_outs();
}

std::string YoungJediState::action_label(Seat seat, Action action) const {
  const Player& me = table_.players[seat < 0 || seat > 1 ? 0 : seat];
  const Player& them = table_.players[seat == 1 ? 0 : 1];
  auto in_play = [](const Player& p, int pos) {
    return pos < static_cast<int>(p.in_play.size()) ? std::string(card(p.in_play[pos]).title)
                                                    : std::string("?");
  };
  switch (static_cast<ActionKind>(action.kind)) {
    case ActionKind::kChoosePlanet:
      return std::string("choose ") +
             (action.arg(0) < kPlanets ? kPlanetNames[action.arg(0)] : "?");
    case ActionKind::kDeploy:
      return "deploy " + card_name(card_arg(action));
    case ActionKind::kEndDeploy:
      return "end deploying";
    case ActionKind::kInitiateDuel:
      return "duel with " + in_play(me, action.arg(0)) + " using " + in_play(me, action.arg(1)) +
             " against " + in_play(them, action.arg(2));
    case ActionKind::kSkipDuel:
      return "no duel this turn";
    case ActionKind::kDefend:
      return "defend with " + in_play(me, action.arg(0));
    case ActionKind::kArmDefender:
      return "defend using " + in_play(me, action.arg(0));
    case ActionKind::kDefendUnarmed:
      return "defend without a weapon";
    case ActionKind::kAttack:
      return "attack with " + card_name(card_arg(action));
    case ActionKind::kBlock:
      return "block with " + card_name(card_arg(action));
    case ActionKind::kTakeHit:
      return "take the hit";
    case ActionKind::kUseDuelingText:
      return "use the card's dueling text";
    case ActionKind::kDeclineDuelingText:
      return "do not use the dueling text";
    case ActionKind::kConcede:
      return "concede";
    case ActionKind::kDrawCard:
      return "draw a card";
    case ActionKind::kDeclineDraw:
      return "do not draw";
    case ActionKind::kDeployFromDeck:
      return "deploy " + card_name(card_arg(action)) + " from your draw deck";
    case ActionKind::kEndSearch:
      return "deploy nothing from your draw deck";
  }
  return "unknown action";
}

void YoungJediState::say(const Phrase& phrase) {
  if (wants_events()) emit(Event::said(phrase_book(), phrase));
}

std::string YoungJediState::card_name(int index) const {
  if (index < 0 || index >= static_cast<int>(catalogue().size())) return "?";
  const CardData& c = card(static_cast<uint16_t>(index));
  return std::string(c.title) + " (destiny " + std::to_string(c.destiny) + ")";
}

Outcome YoungJediState::outcome() const {
  Outcome o;
  o.winners = table_.winners;
  o.scores = {table_.winners.has(0) ? 1 : 0, table_.winners.has(1) ? 1 : 0};
  switch (static_cast<EndReason>(table_.end_reason)) {
    case EndReason::kDeckVictory:
      o.reason = "deck victory";
      break;
    case EndReason::kBothDeckedOut:
      o.reason = "both decked out in the same fight: a tie";
      break;
    case EndReason::kConceded:
      o.reason = "conceded";
      break;
    case EndReason::kNone:
      o.reason = terminal() ? "over" : "";
      break;
  }
  return o;
}

std::unique_ptr<State> YoungJediState::clone() const {
  return std::make_unique<YoungJediState>(*this);
}

std::unique_ptr<State> create_state(const MatchConfig& config) {
  return std::make_unique<YoungJediState>(config);
}

}  // namespace duelhall::engine::young_jedi
