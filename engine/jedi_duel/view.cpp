// The one door from the state to the wire (proto/jedi_duel.proto `View`), the leak test's
// redraw of what a viewer cannot see, conservation, and the state's own serialization.
#include <algorithm>

#include "jedi_duel/jedi_duel.hpp"

namespace duelhall::engine::jedi_duel {

void JediDuelState::write_view(const Viewer& viewer, std::string& out) const {
  ProtoWriter w(out);
  const bool all = viewer.is_omniscient();
  const Seat me = viewer.kind == Viewer::Kind::kSeat ? viewer.seat : -1;
  w.uint_field(1, me >= 0 ? static_cast<uint64_t>(me + 1) : 0);
  w.bool_field(2, all);
  for (Seat s = 0; s < num_seats(); ++s) {
    const PlayerState& player = p(s);
    w.message_field(3, [&](ProtoWriter& m) {
      m.uint_field(1, static_cast<uint64_t>(s));
      m.uint_field(2, player.stance);
      m.uint_field(3, player.area);
      m.sint_field(4, player.fatigue);
      m.uint_field(5, player.hand.size());
      if (viewer.sees_private_of(s)) m.packed_field(6, player.hand);
      m.bool_field(7, player.out);
      m.bool_field(8, player.shielded);
      m.bool_field(9, owes_replacement_.has(s));
    });
  }
  w.uint_field(4, deck_.size());
  w.uint_field(5, discard_.size());
  w.uint_field(6, discard_.empty() ? kNoCard : discard_.back());
  w.uint_field(7, static_cast<uint64_t>(passes_));
  w.uint_field(8, static_cast<uint64_t>(num_seats()));
  w.uint_field(9, static_cast<uint64_t>(dealer_));
  w.uint_field(10, static_cast<uint64_t>(turn_));
  w.uint_field(11, static_cast<uint64_t>(phase_));
  w.uint_field(12, phase_ == Phase::kOver ? 0 : static_cast<uint64_t>(decider_));
  if (attack_.kind != AttackKind::kNone) {
    w.message_field(13, [&](ProtoWriter& m) {
      m.uint_field(1, static_cast<uint64_t>(attack_.kind));
      m.uint_field(2, static_cast<uint64_t>(attack_.attacker));
      m.uint_field(3, static_cast<uint64_t>(attack_.target));
      m.uint_field(4, attack_.card);
      m.uint_field(5, attack_.area);
      m.sint_field(6, attack_.attack_total);
      m.sint_field(7, attack_.defence_total);
      m.uint_field(8, attack_.attacker_area);
      uint8_t waiting[kMaxSeats];
      size_t n = 0;
      for (Seat s = 0; s < num_seats(); ++s) {
        if (lightning_left_.has(s)) waiting[n++] = static_cast<uint8_t>(s);
      }
      m.packed_field(9, std::span<const uint8_t>(waiting, n));
    });
  }
  // J14: a card put back on the deck is shown to the player who put it there.
  for (size_t depth = 0; depth < deck_.size(); ++depth) {
    const size_t at = deck_.size() - 1 - depth;
    if (deck_known_[at] == 0) continue;
    if (!all && (me < 0 || !((deck_known_[at] >> me) & 1u))) continue;
    w.message_field(14, [&](ProtoWriter& m) {
      m.uint_field(1, depth);
      m.uint_field(2, deck_[at]);
    });
  }
  // J10: the hand seen by Force Sense, for the caster while the swap is being chosen.
  if (phase_ == Phase::kSense && (all || me == decider_)) {
    w.uint_field(15, static_cast<uint64_t>(sense_target_ + 1));
    w.packed_field(16, p(sense_target_).hand);
  }
  if (phase_ == Phase::kReturn && viewer.sees_private_of(decider_)) {
    const auto& hand = p(decider_).hand;
    w.packed_field(17, std::span<const Card>(hand.data() + hand.size() - low_drawn_,
                                             static_cast<size_t>(low_drawn_)));
  }
  if (phase_ == Phase::kOver) {
    uint8_t winners[kMaxSeats];
    size_t n = 0;
    for (Seat s = 0; s < num_seats(); ++s) {
      if (winners_.has(s)) winners[n++] = static_cast<uint8_t>(s);
    }
    w.packed_field(18, std::span<const uint8_t>(winners, n));
    w.string_field(19, end_reason_);
  }
  if (all) {
    std::vector<Card> from_top(deck_.rbegin(), deck_.rend());
    w.packed_field(20, from_top);
  }
}

// Redraws opponents' hands and the unknown deck positions from one pool, keeping every count,
// what the viewer holds, the deck cards it knows and a hand it is looking at by Force Sense.
void JediDuelState::resample_hidden(const Viewer& viewer, Rng& rng) {
  if (viewer.is_omniscient()) return;
  const Seat me = viewer.kind == Viewer::Kind::kSeat ? viewer.seat : -1;
  const auto hidden_hand = [&](Seat s) {
    if (s == me) return false;
    return !(phase_ == Phase::kSense && me == decider_ && s == sense_target_);
  };
  const auto hidden_deck = [&](size_t at) { return me < 0 || !((deck_known_[at] >> me) & 1u); };
  std::vector<Card> pool;
  for (Seat s = 0; s < num_seats(); ++s) {
    if (hidden_hand(s)) pool.insert(pool.end(), p(s).hand.begin(), p(s).hand.end());
  }
  for (size_t at = 0; at < deck_.size(); ++at) {
    if (hidden_deck(at)) pool.push_back(deck_[at]);
  }
  std::sort(pool.begin(), pool.end());  // the draw must not depend on where the cards truly are
  rng.shuffle(std::span<Card>(pool));
  size_t next = 0;
  for (Seat s = 0; s < num_seats(); ++s) {
    if (!hidden_hand(s)) continue;
    for (Card& c : p(s).hand) c = pool[next++];
  }
  for (size_t at = 0; at < deck_.size(); ++at) {
    if (hidden_deck(at)) deck_[at] = pool[next++];
  }
}

// Every card exactly once across deck, discard pile, hands and Stances: per card id, how many.
std::vector<int32_t> JediDuelState::inventory() const {
  std::vector<int32_t> count(kDeckSize + 1, 0);
  for (Card c : deck_) ++count[c];
  for (Card c : discard_) ++count[c];
  for (const PlayerState& player : players_) {
    for (Card c : player.hand) ++count[c];
    ++count[player.stance];  // kNoCard is counted at index 0, which is not a card
  }
  count[kNoCard] = 0;
  return count;
}

void JediDuelState::save_rules(ByteWriter& out) const {
  for (const PlayerState& player : players_) {
    out.u8_list(player.hand);
    out.u8(player.stance);
    out.u8(player.area);
    out.svarint(player.fatigue);
    out.boolean(player.out);
    out.boolean(player.shielded);
  }
  out.u8_list(deck_);
  out.u8_list(deck_known_);
  out.u8_list(discard_);
  out.varint(static_cast<uint64_t>(passes_));
  out.u8(static_cast<uint8_t>(dealer_));
  out.u8(static_cast<uint8_t>(turn_));
  out.u8(static_cast<uint8_t>(decider_));
  out.u8(static_cast<uint8_t>(phase_));
  out.u8(static_cast<uint8_t>(attack_.kind));
  out.u8(static_cast<uint8_t>(attack_.attacker));
  out.u8(static_cast<uint8_t>(attack_.target));
  out.u8(attack_.card);
  out.u8(attack_.area);
  out.svarint(attack_.attack_total);
  out.svarint(attack_.defence_total);
  out.u8(attack_.attacker_area);
  out.varint(lightning_left_.bits());
  out.varint(owes_replacement_.bits());
  out.svarint(sense_target_);
  out.varint(static_cast<uint64_t>(low_drawn_));
  out.varint(winners_.bits());
  out.str(end_reason_);
}

void JediDuelState::load_rules(ByteReader& in) {
  const auto card = [&in] { return static_cast<Card>(in.bounded(kDeckSize)); };
  const auto seat = [&in, this] {
    return static_cast<Seat>(in.bounded(static_cast<uint64_t>(num_seats() - 1)));
  };
  for (PlayerState& player : players_) {
    player.hand = in.u8_list<Card>(kDeckSize);
    player.stance = card();
    player.area = static_cast<Area>(in.bounded(kLow));
    player.fatigue = static_cast<int>(in.svarint());
    player.out = in.boolean();
    player.shielded = in.boolean();
  }
  deck_ = in.u8_list<Card>(kDeckSize);
  deck_known_ = in.u8_list<uint8_t>(kDeckSize);
  discard_ = in.u8_list<Card>(kDeckSize);
  if (deck_known_.size() != deck_.size()) throw DecodeError("deck knowledge does not match");
  passes_ = static_cast<int>(in.bounded(1000));
  dealer_ = seat();
  turn_ = seat();
  decider_ = seat();
  phase_ = static_cast<Phase>(in.bounded(static_cast<uint64_t>(Phase::kOver)));
  attack_.kind = static_cast<AttackKind>(in.bounded(static_cast<uint64_t>(AttackKind::kLightning)));
  attack_.attacker = seat();
  attack_.target = seat();
  attack_.card = card();
  attack_.area = static_cast<Area>(in.bounded(kLow));
  attack_.attack_total = static_cast<int>(in.svarint());
  attack_.defence_total = static_cast<int>(in.svarint());
  attack_.attacker_area = static_cast<Area>(in.bounded(kLow));
  lightning_left_ = SeatMask(static_cast<uint32_t>(in.bounded(0xff)));
  owes_replacement_ = SeatMask(static_cast<uint32_t>(in.bounded(0xff)));
  sense_target_ = static_cast<Seat>(in.svarint());
  if (sense_target_ < -1 || sense_target_ >= num_seats()) throw DecodeError("bad sense target");
  low_drawn_ = static_cast<int>(in.bounded(3));
  winners_ = SeatMask(static_cast<uint32_t>(in.bounded(0xff)));
  end_reason_ = in.str();
}

}  // namespace duelhall::engine::jedi_duel
