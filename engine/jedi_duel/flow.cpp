// Setup, the turn's steps and drawing: seed "Setup", "Playing the Game", J14-J17.
#include <algorithm>

#include "jedi_duel/jedi_duel.hpp"

namespace duelhall::engine::jedi_duel {

JediDuelState::JediDuelState(MatchConfig config)
    : State(std::move(config)), tables_(Tables::from(this->config().params)) {
  players_.resize(static_cast<size_t>(num_seats()));
  for (PlayerState& player : players_) player.fatigue = tables_.fatigue_start;
  deal();
}

int JediDuelState::alive_count() const {
  int alive = 0;
  for (const PlayerState& player : players_) alive += player.out ? 0 : 1;
  return alive;
}

// J17: the dealer is drawn by chance; five cards each, dealt from the left of the dealer.
void JediDuelState::deal() {
  dealer_ = roll(num_seats(), "dealer") - 1;
  deck_.resize(kDeckSize);
  for (int i = 0; i < kDeckSize; ++i) deck_[static_cast<size_t>(i)] = static_cast<Card>(i + 1);
  shuffle(std::span<Card>(deck_), "shuffle draw deck");
  deck_known_.assign(deck_.size(), 0);
  for (int round = 0; round < 5; ++round) {
    for (int i = 1; i <= num_seats(); ++i) draw_one((dealer_ + i) % num_seats(), nullptr);
  }
  // J17, J22: everyone but the player left of the dealer picks a Stance, going round from the
  // player after them and ending with the dealer.
  phase_ = Phase::kSetup;
  decider_ = (dealer_ + 2) % num_seats();
}

void JediDuelState::advance_setup(Seat after) {
  if (after == dealer_) {
    begin_turn(next_seat(dealer_));
    return;
  }
  decider_ = next_seat(after);
}

void JediDuelState::begin_turn(Seat seat) {
  turn_ = seat;
  decider_ = seat;
  attack_ = {};
  owes_replacement_ = {};
  sense_target_ = -1;
  low_drawn_ = 0;
  p(seat).shielded = false;  // J10: the Queen's shield lasts until this player's next turn
  const auto& hand = p(seat).hand;
  const bool can_change =
      std::any_of(hand.begin(), hand.end(), [](Card c) { return !is_joker(c); });
  if (can_change) {
    phase_ = Phase::kStance;
    return;
  }
  // J16: no card may go to a Stance, so the old one stays and step 1 is skipped.
  phase_ = Phase::kAction;
  if (wants_events()) say(Phrase(kSaidKeepsStance).seat(seat));
}

void JediDuelState::take_from_hand(Seat seat, Card card) {
  auto& hand = p(seat).hand;
  hand.erase(std::find(hand.begin(), hand.end(), card));
}

// Steps 1 and 2 (and J17's initial Stance, which has nothing to discard).
void JediDuelState::play_stance(Seat seat, Card card, Area declared, bool replace_old) {
  PlayerState& player = p(seat);
  if (replace_old && player.stance != kNoCard) discard_.push_back(player.stance);
  take_from_hand(seat, card);
  player.stance = card;
  player.area = is_club(card) ? declared : area_of_suit(suit_of(card));  // J3
  if (wants_events()) {
    say(Phrase(kSaidTakesStance).seat(seat).entry(player.area).entry(card));
  }
}

// J14: an empty draw deck is refilled from the discard pile but its top card; each refill
// completes a pass. J19: with no card to refill from, the draw falls short.
bool JediDuelState::draw_one(Seat seat, std::vector<Card>* drawn) {
  if (deck_.empty()) {
    if (discard_.size() <= 1) return false;
    deck_.assign(discard_.begin(), discard_.end() - 1);
    discard_.erase(discard_.begin(), discard_.end() - 1);
    shuffle(std::span<Card>(deck_), "reshuffle discard pile into draw deck");
    deck_known_.assign(deck_.size(), 0);
    ++passes_;
    if (wants_events()) {
      say(Phrase(kSaidReshuffle).number(passes_).number(num_seats()));
    }
  }
  const Card card = deck_.back();
  deck_.pop_back();
  deck_known_.pop_back();
  p(seat).hand.push_back(card);
  if (drawn) drawn->push_back(card);
  return true;
}

void JediDuelState::emit_draw(Seat seat, const std::vector<Card>& drawn) {
  if (!wants_events()) return;
  say_to(SeatMask::only(seat),
         drawn.empty() ? Phrase(kSaidDrewNothing).seat(seat)
                       : Phrase(kSaidDrew).seat(seat).entries(drawn, [](Card c) { return c; }),
         Phrase(kSaidDrewCount).seat(seat).number(static_cast<int>(drawn.size())));
}

// Step 4 for the turn player: two cards, or three in Low Stance with one to put back (J14).
void JediDuelState::after_action() {
  if (phase_ == Phase::kOver) return;
  const Seat seat = turn_;
  // J30: the Stance as it is now, after any fumble of this turn.
  const int want = p(seat).area == kLow ? 3 : 2;
  std::vector<Card> drawn;
  for (int i = 0; i < want && draw_one(seat, &drawn); ++i) {
  }
  emit_draw(seat, drawn);
  // J19: a Low Stance player who could not draw all three keeps what was drawn.
  if (want == 3 && drawn.size() == 3) {
    low_drawn_ = 3;
    phase_ = Phase::kReturn;
    decider_ = seat;
    return;
  }
  finish_turn();
}

// Then the defenders' replacement draws in seat order from the attacker's left (J14), the
// pass-count end (J15), and the next living player's turn.
void JediDuelState::finish_turn() {
  low_drawn_ = 0;
  for (int i = 1; i < num_seats(); ++i) {
    const Seat seat = (turn_ + i) % num_seats();
    if (!owes_replacement_.has(seat) || p(seat).out) continue;
    std::vector<Card> drawn;
    draw_one(seat, &drawn);
    emit_draw(seat, drawn);
  }
  owes_replacement_ = {};
  // J15, J31: "as many times as there are players" counts every player who started the game,
  // fallen ones included.
  if (passes_ >= num_seats()) {
    end_by_passes();
    return;
  }
  Seat next = next_seat(turn_);
  while (p(next).out) next = next_seat(next);
  begin_turn(next);
}

void JediDuelState::end_by_passes() {
  int best = 0;
  bool any = false;
  for (const PlayerState& player : players_) {
    if (player.out) continue;
    if (!any || player.fatigue > best) best = player.fatigue;
    any = true;
  }
  winners_ = {};
  for (Seat s = 0; s < num_seats(); ++s) {
    if (!p(s).out && p(s).fatigue == best) winners_.add(s);
  }
  phase_ = Phase::kOver;
  end(winners_.count() == 1 ? kMostFatigue : kTiedForMostFatigue);
}

void JediDuelState::end(EndReason reason) {
  end_reason_ = end_reason_text(reason);
  if (wants_events()) say(Phrase(kSaidGameOver).entry(reason));
}

void JediDuelState::eliminate(Seat seat) {
  PlayerState& player = p(seat);
  player.out = true;
  // J9: hand, then Stance, go to the discard pile (J20: in that order, the Stance on top).
  discard_.insert(discard_.end(), player.hand.begin(), player.hand.end());
  player.hand.clear();
  if (player.stance != kNoCard) discard_.push_back(player.stance);
  player.stance = kNoCard;
  player.area = kNoArea;
  player.shielded = false;
  owes_replacement_.remove(seat);
  if (wants_events()) say(Phrase(kSaidOut).seat(seat));
  if (alive_count() == 1) {
    phase_ = Phase::kOver;
    for (Seat s = 0; s < num_seats(); ++s) {
      if (!p(s).out) winners_ = SeatMask::only(s);
    }
    end(kLastWithFatigue);
  }
}

void JediDuelState::arrange(const TableSetup& setup) {
  std::vector<bool> used(kDeckSize + 1, false);
  auto claim = [&used](Card c) { used[c] = true; };
  players_.assign(static_cast<size_t>(num_seats()), PlayerState{});
  for (Seat s = 0; s < num_seats(); ++s) {
    const TableSetup::PlayerSetup& in = setup.seats.at(static_cast<size_t>(s));
    PlayerState& player = p(s);
    player.hand = in.hand;
    for (Card c : in.hand) claim(c);
    player.stance = in.stance;
    if (in.stance != kNoCard) {
      claim(in.stance);
      player.area = is_club(in.stance) ? in.area : area_of_suit(suit_of(in.stance));
    }
    player.fatigue = in.fatigue;
    player.out = in.out;
    player.shielded = in.shielded;
  }
  discard_ = setup.discard_from_bottom;
  for (Card c : discard_) claim(c);
  deck_.clear();
  for (Card c = 1; c <= kDeckSize; ++c) {
    if (!used[c] && std::find(setup.deck_from_top.begin(), setup.deck_from_top.end(), c) ==
                        setup.deck_from_top.end()) {
      deck_.push_back(c);
    }
  }
  std::sort(deck_.begin(), deck_.end(), std::greater<>());
  for (auto it = setup.deck_from_top.rbegin(); it != setup.deck_from_top.rend(); ++it) {
    deck_.push_back(*it);
  }
  deck_known_.assign(deck_.size(), 0);
  passes_ = setup.passes;
  dealer_ = setup.dealer >= 0 ? setup.dealer : (setup.turn + num_seats() - 1) % num_seats();
  winners_ = {};
  end_reason_.clear();
  lightning_left_ = {};
  begin_turn(setup.turn);
  if (setup.skip_stance_step) phase_ = Phase::kAction;
}

}  // namespace duelhall::engine::jedi_duel
