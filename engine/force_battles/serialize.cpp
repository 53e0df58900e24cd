// Saving and loading the rule state (State::serialize). One field list, visited by both.
#include <type_traits>

#include "force_battles/force_battles.hpp"

namespace duelhall::engine::force_battles {
namespace {

struct Saver {
  ByteWriter& out;
  template <typename T>
  void num(const T& v) {
    out.svarint(static_cast<int64_t>(v));
  }
  void str(const std::string& s) { out.str(s); }
  template <typename T>
  void count(const std::vector<T>& v) {
    out.varint(v.size());
  }
};

struct Loader {
  ByteReader& in;
  template <typename T>
  void num(T& v) {
    const int64_t x = in.svarint();
    if (x < -32768 || x > 65535) throw DecodeError("force battles: value out of range");
    v = static_cast<T>(x);
  }
  void str(std::string& s) { s = in.str(); }
  template <typename T>
  void count(std::vector<T>& v) {
    v.resize(in.bounded(256));
  }
};

template <typename IO, typename P>
void visit_pile(IO& io, P& pile) {
  io.num(pile.by_owner[0]);
  io.num(pile.by_owner[1]);
}

template <typename IO, typename B>
void visit_board(IO& io, B& b) {
  for (auto& p : b.spheres) visit_pile(io, p);
  for (auto& p : b.targets) visit_pile(io, p);
  visit_pile(io, b.att);
  visit_pile(io, b.def);
  for (auto& p : b.geas) visit_pile(io, p);
  visit_pile(io, b.pool);
}

template <typename IO, typename M>
void visit_match(IO& io, M& m) {
  for (auto& p : m.players) {
    visit_board(io, p.board);
    io.num(p.stage), io.num(p.side), io.num(p.hand), io.num(p.colour), io.num(p.free_geas);
    io.num(p.used), io.num(p.free_used), io.num(p.hiding), io.num(p.speed), io.num(p.bonus);
  }
  io.num(m.phase), io.num(m.round), io.num(m.winner);
  io.str(m.end_reason);
  io.num(m.last_defender), io.num(m.kick_initiative), io.num(m.free_target_next);
  io.num(m.initiative), io.num(m.attacker), io.num(m.actor), io.num(m.target), io.num(m.chooser);
  io.num(m.kicking), io.num(m.passes), io.num(m.jumped), io.num(m.pushed), io.num(m.pulled);
  io.num(m.choked), io.num(m.protect), io.num(m.rage), io.num(m.hit), io.num(m.block);
  io.num(m.strike_sphere), io.num(m.strike), io.num(m.strike_victim), io.num(m.gift_given);
  for (auto& p : m.pulled_from) visit_pile(io, p);
  io.count(m.rolls);
  for (auto& r : m.rolls) {
    io.num(r.seat);
    io.str(r.what);
    io.count(r.dice);
    for (auto& d : r.dice) io.num(d);
  }
  io.count(m.tasks);
  for (auto& t : m.tasks) io.num(t.kind), io.num(t.seat);
  visit_pile(io, m.buffer);
  io.num(m.place_mask), io.num(m.place_pool), io.num(m.place_spread);
}

}  // namespace

void ForceBattlesState::save_rules(ByteWriter& out) const {
  Saver saver{out};
  visit_match(saver, m_);
}

void ForceBattlesState::load_rules(ByteReader& in) {
  Loader loader{in};
  visit_match(loader, m_);
  // Stored bytes may be damaged: refuse anything the rules could index out of range.
  const auto in_range = [](int v, int lo, int hi) { return v >= lo && v <= hi; };
  bool ok = in_range(static_cast<int>(m_.phase), 0, static_cast<int>(Phase::kOver)) &&
            in_range(m_.actor, -1, 1) && in_range(m_.attacker, -1, 1) &&
            in_range(m_.initiative, -1, 1) && in_range(m_.chooser, -1, 1) &&
            in_range(m_.target, -1, kTargets - 1) && in_range(m_.strike_sphere, -1, kSpheres - 1) &&
            in_range(m_.strike_victim, -1, 1) && in_range(m_.last_defender, -1, 1) &&
            in_range(m_.kick_initiative, -1, 1) && in_range(m_.winner, -1, 2);
  for (const Player& p : m_.players) {
    ok = ok && p.stage <= kStageDone && p.side <= kDark && p.hand <= kRight &&
         p.colour < kColours && in_range(p.free_geas, -1, kGeasCount - 1);
  }
  for (const Task& t : m_.tasks) {
    ok = ok && t.seat <= 1 && static_cast<int>(t.kind) <= static_cast<int>(TaskKind::kEndRound);
  }
  if (!ok) throw DecodeError("force battles: state out of range");
}

}  // namespace duelhall::engine::force_battles
