// Hand-built Jedi Duel tables for scenario tests, and a small protobuf wire reader to look
// inside views without linking protobuf.
#pragma once

#include <catch2/catch.hpp>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/registry.hpp"
#include "jedi_duel/jedi_duel.hpp"

namespace jedi_test {

using namespace duelhall::engine;
using namespace duelhall::engine::jedi_duel;

inline Card C(int rank) {
  return make_card(kClubs, rank);
}
inline Card D(int rank) {
  return make_card(kDiamonds, rank);
}
inline Card H(int rank) {
  return make_card(kHearts, rank);
}
inline Card S(int rank) {
  return make_card(kSpades, rank);
}
inline constexpr Card kJ1 = kFirstJoker;
inline constexpr Card kJ2 = kSecondJoker;

struct Table {
  std::unique_ptr<State> owner;
  JediDuelState* s = nullptr;
  std::vector<Event> events;

  const PlayerState& player(Seat seat) const { return s->player(seat); }
  ApplyResult try_act(Seat seat, Action action) { return s->apply(seat, action, &events); }
  void act(Seat seat, Action action) {
    ApplyResult result = try_act(seat, action);
    INFO("seat " << seat << " " << s->action_label(seat, action) << ": " << result.reason);
    REQUIRE(result.ok());
  }
  bool legal(Seat seat, Action action) const {
    auto list = s->legal_actions(seat);
    return std::find(list.begin(), list.end(), action) != list.end();
  }
  // The texts `viewer` sees of the events so far.
  std::vector<std::string> texts_for(const Viewer& viewer) const {
    std::vector<std::string> out;
    for (const Event& e : events) {
      if (auto t = e.text_for(viewer)) out.emplace_back(*t);
    }
    return out;
  }
};

inline Table make_table(int seats, const TableSetup& setup, uint64_t seed = 1) {
  Registry registry = builtin_registry();
  auto created = registry.create("jedi_duel", seats, seed_from_number(seed), {});
  REQUIRE(created.state);
  Table table;
  table.owner = std::move(created.state);
  table.s = dynamic_cast<JediDuelState*>(table.owner.get());
  table.s->arrange(setup);
  std::vector<int32_t> each_card_once(kDeckSize + 1, 1);
  each_card_once[kNoCard] = 0;
  REQUIRE(table.s->inventory() == each_card_once);  // the hand-built table lists no card twice
  return table;
}

// Puts every card not yet placed on the discard pile, leaving the draw deck empty.
inline void everything_else_discarded(TableSetup& setup) {
  std::vector<bool> used(kDeckSize + 1, false);
  for (const auto& seat : setup.seats) {
    for (Card c : seat.hand) used[c] = true;
    used[seat.stance] = true;
  }
  for (Card c : setup.deck_from_top) used[c] = true;
  for (Card c : setup.discard_from_bottom) used[c] = true;
  std::vector<Card> rest;
  for (Card c = 1; c <= kDeckSize; ++c) {
    if (!used[c]) rest.push_back(c);
  }
  setup.discard_from_bottom.insert(setup.discard_from_bottom.begin(), rest.begin(), rest.end());
}

// A decoded protobuf message: varint fields and length-delimited fields by number.
struct Wire {
  std::multimap<uint32_t, uint64_t> varints;
  std::multimap<uint32_t, std::string> blobs;

  static Wire parse(std::string_view bytes) {
    Wire w;
    size_t pos = 0;
    auto varint = [&] {
      uint64_t v = 0;
      for (int shift = 0;; shift += 7) {
        REQUIRE(pos < bytes.size());
        uint8_t b = static_cast<uint8_t>(bytes[pos++]);
        v |= static_cast<uint64_t>(b & 0x7f) << shift;
        if (!(b & 0x80)) return v;
      }
    };
    while (pos < bytes.size()) {
      uint64_t tag = varint();
      uint32_t field = static_cast<uint32_t>(tag >> 3);
      if ((tag & 7) == 0) {
        w.varints.emplace(field, varint());
      } else {
        REQUIRE((tag & 7) == 2);
        uint64_t len = varint();
        w.blobs.emplace(field, std::string(bytes.substr(pos, len)));
        pos += len;
      }
    }
    return w;
  }
  uint64_t get(uint32_t field) const {
    auto it = varints.find(field);
    return it == varints.end() ? 0 : it->second;
  }
  bool has(uint32_t field) const { return varints.count(field) + blobs.count(field) > 0; }
  std::vector<Wire> messages(uint32_t field) const {
    std::vector<Wire> out;
    auto [lo, hi] = blobs.equal_range(field);
    for (auto it = lo; it != hi; ++it) out.push_back(parse(it->second));
    return out;
  }
  std::vector<uint64_t> packed(uint32_t field) const {
    std::vector<uint64_t> out;
    auto it = blobs.find(field);
    if (it == blobs.end()) return out;
    Wire inner;
    const std::string& b = it->second;
    size_t pos = 0;
    while (pos < b.size()) {
      uint64_t v = 0;
      for (int shift = 0;; shift += 7) {
        uint8_t x = static_cast<uint8_t>(b[pos++]);
        v |= static_cast<uint64_t>(x & 0x7f) << shift;
        if (!(x & 0x80)) break;
      }
      out.push_back(v);
    }
    return out;
  }
};

inline Wire view_of(const Table& t, const Viewer& viewer) {
  return Wire::parse(t.s->view(viewer));
}

inline std::vector<uint64_t> as_ids(const std::vector<Card>& cards) {
  return std::vector<uint64_t>(cards.begin(), cards.end());
}

}  // namespace jedi_test
