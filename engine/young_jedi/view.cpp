// What each viewer sees (Y10), redrawing what it cannot see, the conserved inventory and the
// state's own serialization.
#include <algorithm>

#include "young_jedi/state.hpp"

namespace duelhall::engine::young_jedi {
namespace {

// Field numbers of proto/young_jedi.proto.
namespace view_field {
constexpr uint32_t kPhase = 1, kPlanet = 2, kActiveSeat = 3, kToAct = 4, kTurn = 5,
                   kCountersLeft = 6, kPlayers = 7, kDuel = 8, kPlanetDestiny = 9,
                   kFirstPlayerDestiny = 10, kWinners = 11, kEndReason = 12;
}
namespace player_field {
constexpr uint32_t kDrawCount = 1, kHandCount = 2, kHand = 3, kInPlay = 4, kDiscardCount = 5,
                   kDiscardTop = 6, kDuelingHandCount = 7, kDuelingHand = 8, kDuelingPile = 9,
                   kHits = 10, kDrawOrder = 11, kDiscardPile = 12, kKnownHand = 13;
}
namespace duel_field {
constexpr uint32_t kInitiator = 1, kCharacters = 2, kWeapons = 3, kAttackCard = 4, kTextCard = 5;
}

// Singular card and position fields carry value + 1, so that "none" is the omitted zero.
uint32_t plus_one(int v) {
  return static_cast<uint32_t>(v + 1);
}

std::vector<uint32_t> widen(const std::vector<uint16_t>& cards) {
  return std::vector<uint32_t>(cards.begin(), cards.end());
}

void write_player(ProtoWriter& w, const Player& p, bool sees_private, bool omniscient) {
  using namespace player_field;
  w.uint_field(kDrawCount, p.draw.size());
  w.uint_field(kHandCount, p.hand.size());
  if (sees_private) w.packed_field(kHand, widen(p.hand));
  w.packed_field(kInPlay, widen(p.in_play));
  w.uint_field(kDiscardCount, p.discard.size());
  w.uint_field(kDiscardTop, p.discard.empty() ? 0 : plus_one(p.discard.back()));
  w.uint_field(kDuelingHandCount, p.dueling_hand.size());
  if (sees_private) w.packed_field(kDuelingHand, widen(p.dueling_hand));
  w.packed_field(kDuelingPile, widen(p.dueling_pile));
  w.uint_field(kHits, static_cast<uint64_t>(p.hits));
  // Deck order is hidden from everyone, the owner included; only the omniscient viewer sees it.
  if (omniscient) {
    std::vector<uint32_t> top_first(p.draw.rbegin(), p.draw.rend());
    w.packed_field(kDrawOrder, top_first);
    w.packed_field(kDiscardPile, widen(p.discard));
  }
  w.packed_field(kKnownHand, widen(p.known_hand));
}

}  // namespace

void YoungJediState::write_view(const Viewer& viewer, std::string& out) const {
  ProtoWriter w(out);
  w.uint_field(view_field::kPhase, static_cast<uint64_t>(table_.phase));
  w.uint_field(view_field::kPlanet, plus_one(table_.planet));
  w.uint_field(view_field::kActiveSeat, static_cast<uint64_t>(table_.active));
  w.uint_field(view_field::kToAct, static_cast<uint64_t>(table_.to_act));
  w.uint_field(view_field::kTurn, static_cast<uint64_t>(table_.turn));
  w.uint_field(view_field::kCountersLeft, static_cast<uint64_t>(table_.counters_left));
  for (int seat = 0; seat < 2; ++seat) {
    w.message_field(view_field::kPlayers, [&](ProtoWriter& pw) {
      write_player(pw, table_.players[seat], viewer.sees_private_of(seat), viewer.is_omniscient());
    });
  }
  if (table_.duel.initiator != kAbsent) {
    const Duel& d = table_.duel;
    w.message_field(view_field::kDuel, [&](ProtoWriter& dw) {
      dw.uint_field(duel_field::kInitiator, plus_one(d.initiator));
      std::vector<uint32_t> characters{plus_one(d.character[0]), plus_one(d.character[1])};
      std::vector<uint32_t> weapons{plus_one(d.weapon[0]), plus_one(d.weapon[1])};
      dw.packed_field(duel_field::kCharacters, characters);
      dw.packed_field(duel_field::kWeapons, weapons);
      dw.uint_field(duel_field::kAttackCard, plus_one(d.attack_card));
      dw.uint_field(duel_field::kTextCard, plus_one(d.text_card));
    });
  }
  auto shown = [](const std::array<int, 2>& cards) {
    std::vector<uint32_t> cards_shown;
    if (cards[0] != kAbsent) cards_shown = {plus_one(cards[0]), plus_one(cards[1])};
    return cards_shown;
  };
  w.packed_field(view_field::kPlanetDestiny, shown(table_.planet_destiny));
  w.packed_field(view_field::kFirstPlayerDestiny, shown(table_.first_player_destiny));
  w.uint_field(view_field::kWinners, table_.winners.bits());
  w.uint_field(view_field::kEndReason, table_.end_reason);
}

void YoungJediState::resample_hidden(const Viewer& viewer, Rng& rng) {
  if (viewer.is_omniscient()) return;
  for (int seat = 0; seat < 2; ++seat) {
    Player& p = table_.players[seat];
    // What the viewer cannot tell apart: the deck order always; another's hand and dueling hand.
    // Hand cards everyone saw arrive stay in the hand.
    std::vector<uint16_t> pool = p.draw;
    const bool knows_hands = viewer.sees_private_of(seat);
    if (!knows_hands) {
      std::vector<uint16_t> unknown = p.hand;
      for (uint16_t c : p.known_hand) unknown.erase(std::find(unknown.begin(), unknown.end(), c));
      pool.insert(pool.end(), unknown.begin(), unknown.end());
      pool.insert(pool.end(), p.dueling_hand.begin(), p.dueling_hand.end());
    }
    std::sort(pool.begin(), pool.end());  // the draw must not depend on the true hidden order
    rng.shuffle(std::span<uint16_t>(pool));
    auto take = [&](std::vector<uint16_t>& zone) {
      size_t n = zone.size();
      zone.assign(pool.end() - static_cast<std::ptrdiff_t>(n), pool.end());
      pool.resize(pool.size() - n);
    };
    if (!knows_hands) {
      std::vector<uint16_t> unknown(p.hand.size() - p.known_hand.size());
      take(unknown);
      p.hand = p.known_hand;
      p.hand.insert(p.hand.end(), unknown.begin(), unknown.end());
      take(p.dueling_hand);
    }
    take(p.draw);
  }
}

std::vector<int32_t> YoungJediState::inventory() const {
  std::vector<int32_t> out;
  for (const Player& p : table_.players) {
    std::vector<int32_t> cards;
    // known_hand is a note about hand cards, not a zone of its own.
    for (const auto* zone :
         {&p.draw, &p.hand, &p.in_play, &p.discard, &p.dueling_hand, &p.dueling_pile}) {
      cards.insert(cards.end(), zone->begin(), zone->end());
    }
    std::sort(cards.begin(), cards.end());
    out.insert(out.end(), cards.begin(), cards.end());
    out.push_back(-1);  // owner separator
  }
  return out;
}

void YoungJediState::save_rules(ByteWriter& out) const {
  for (const Player& p : table_.players) {
    for (const auto* zone : {&p.draw, &p.hand, &p.known_hand, &p.in_play, &p.discard,
                             &p.dueling_hand, &p.dueling_pile}) {
      out.varint(zone->size());
      for (uint16_t c : *zone) out.varint(c);
    }
    out.varint(static_cast<uint64_t>(p.hits));
  }
  auto signed_int = [&](int v) { out.svarint(v); };
  out.u8(static_cast<uint8_t>(table_.phase));
  for (int v :
       {table_.planet, table_.active, table_.to_act, table_.turn, table_.counters_left,
        table_.duel.character[0], table_.duel.character[1], table_.duel.weapon[0],
        table_.duel.weapon[1], table_.duel.initiator, table_.duel.attack_card,
        table_.duel.text_card, table_.duel.text_owner, table_.planet_destiny[0],
        table_.planet_destiny[1], table_.first_player_destiny[0], table_.first_player_destiny[1]}) {
    signed_int(v);
  }
  out.varint(table_.winners.bits());
  out.u8(table_.end_reason);
  out.u8(table_.draw_resumes_deploy ? 1 : 0);
}

void YoungJediState::load_rules(ByteReader& in) {
  const uint64_t max_card = catalogue().size() - 1;
  Table t;
  for (Player& p : t.players) {
    for (auto* zone : {&p.draw, &p.hand, &p.known_hand, &p.in_play, &p.discard, &p.dueling_hand,
                       &p.dueling_pile}) {
      zone->resize(in.bounded(1000));
      for (uint16_t& c : *zone) c = static_cast<uint16_t>(in.bounded(max_card));
    }
    p.hits = static_cast<int>(in.bounded(1000));
  }
  uint8_t phase = in.u8();
  if (phase > static_cast<uint8_t>(Phase::kOptionalDraw)) throw DecodeError("bad phase");
  t.phase = static_cast<Phase>(phase);
  auto read = [&](int& v, int lo, int hi) {
    int64_t x = in.svarint();
    if (x < lo || x > hi) throw DecodeError("value out of range");
    v = static_cast<int>(x);
  };
  const int card_max = static_cast<int>(max_card);
  read(t.planet, kAbsent, kPlanets - 1);
  read(t.active, 0, 1);
  read(t.to_act, 0, 1);
  read(t.turn, 0, 1'000'000);
  read(t.counters_left, 0, kDeployCounters);
  for (int* v :
       {&t.duel.character[0], &t.duel.character[1], &t.duel.weapon[0], &t.duel.weapon[1]}) {
    read(*v, kAbsent, 999);
  }
  read(t.duel.initiator, kAbsent, 1);
  read(t.duel.attack_card, kAbsent, card_max);
  read(t.duel.text_card, kAbsent, card_max);
  read(t.duel.text_owner, kAbsent, 1);
  for (int* v : {&t.planet_destiny[0], &t.planet_destiny[1], &t.first_player_destiny[0],
                 &t.first_player_destiny[1]}) {
    read(*v, kAbsent, card_max);
  }
  t.winners = SeatMask(static_cast<uint32_t>(in.bounded(3)));
  t.end_reason = static_cast<uint8_t>(in.bounded(static_cast<uint64_t>(EndReason::kConceded)));
  t.draw_resumes_deploy = in.bounded(1) == 1;
  table_ = std::move(t);
}

}  // namespace duelhall::engine::young_jedi
