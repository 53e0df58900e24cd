#include "tournament_room/tournament.hpp"

#include <iterator>
#include <sstream>
#include <utility>

namespace duelhall::server {
namespace {

constexpr const char* kHeader = "duelhall-tournament-room";
constexpr int kVersion = 1;

// Names, setups and the settings go as hex: any byte, no whitespace to split on.
std::string hex(const std::string& bytes) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2 + 1);
  out.push_back('x');  // never empty, so the reader always finds a word
  for (unsigned char c : bytes) {
    out.push_back(digits[c >> 4]);
    out.push_back(digits[c & 15]);
  }
  return out;
}

bool unhex(const std::string& word, std::string& out) {
  if (word.empty() || word[0] != 'x' || word.size() % 2 != 1) return false;
  out.clear();
  auto value = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
  };
  for (size_t i = 1; i < word.size(); i += 2) {
    const int high = value(word[i]), low = value(word[i + 1]);
    if (high < 0 || low < 0) return false;
    out.push_back(static_cast<char>(high * 16 + low));
  }
  return true;
}

template <typename T>
bool field(std::istream& in, const char* word, T& value) {
  std::string got;
  return static_cast<bool>(in >> got >> value) && got == word;
}

bool hex_field(std::istream& in, const char* word, std::string& value) {
  std::string encoded;
  return field(in, word, encoded) && unhex(encoded, value);
}

}  // namespace

const Entrant* Tournament::entrant(int64_t account) const {
  for (const Entrant& e : entrants) {
    if (e.account == account) return &e;
  }
  return nullptr;
}

Entrant* Tournament::entrant(int64_t account) {
  return const_cast<Entrant*>(std::as_const(*this).entrant(account));
}

GameNote* Tournament::note(uint64_t key) {
  for (GameNote& g : games) {
    if (g.key == key) return &g;
  }
  return nullptr;
}

uint32_t Tournament::active_players() const {
  uint32_t count = 0;
  for (const tournaments::Player& p : format->ledger().players()) count += p.active() ? 1 : 0;
  return count;
}

tournaments::FormatConfig format_config(const TournamentSettings& s) {
  tournaments::FormatConfig c;
  c.kind = s.format() == FORMAT_ARENA      ? tournaments::FormatKind::kArena
           : s.format() == FORMAT_KNOCKOUT ? tournaments::FormatKind::kKnockout
                                           : tournaments::FormatKind::kSwiss;
  c.max_players = s.max_players();
  c.min_players = s.min_players();
  c.rounds = s.rounds();
  c.table_seats = s.table_seats() > 2 ? s.table_seats() : 2;
  c.duration_ms = uint64_t{s.duration_minutes()} * 60'000;
  c.best_of = s.best_of() == 3 ? 3 : 1;
  return c;
}

std::string encode(const Tournament& t) {
  std::ostringstream out;
  out << kHeader << ' ' << kVersion << '\n';
  out << "settings " << hex(t.settings.SerializeAsString()) << '\n';
  out << "created_by " << hex(t.created_by) << '\n';
  out << "status " << static_cast<int>(t.status) << '\n';
  out << "started " << t.started_ms << ' ' << t.round_started_ms << ' ' << t.round_seen << '\n';
  out << "entrants " << t.entrants.size() << '\n';
  for (const Entrant& e : t.entrants) {
    out << "entrant " << e.account << ' ' << e.rating << ' ' << hex(e.name) << ' '
        << e.setups.size();
    for (const std::string& setup : e.setups) out << ' ' << hex(setup);
    out << '\n';
  }
  out << "games " << t.games.size() << '\n';
  for (const GameNote& g : t.games) {
    out << "game " << g.key << ' ' << g.round << ' ' << g.match_id << ' ' << g.made_ms << ' '
        << (g.forfeit ? 1 : 0) << ' ' << (g.reversed ? 1 : 0) << ' ' << g.seats.size();
    for (int64_t seat : g.seats) out << ' ' << seat;
    out << ' ' << g.places.size();
    for (uint8_t place : g.places) out << ' ' << static_cast<int>(place);
    out << '\n';
  }
  out << "format\n" << t.format->serialize();
  return out.str();
}

bool decode(const std::string& text, uint64_t id, Tournament& t) {
  std::istringstream in(text);
  int version = 0, status = 0;
  std::string settings;
  size_t count = 0;
  if (!field(in, kHeader, version) || version != kVersion) return false;
  if (!hex_field(in, "settings", settings) || !t.settings.ParseFromString(settings)) return false;
  if (!hex_field(in, "created_by", t.created_by) || !field(in, "status", status)) return false;
  if (!TournamentStatus_IsValid(status)) return false;
  t.id = id;
  t.status = static_cast<TournamentStatus>(status);
  if (!field(in, "started", t.started_ms) || !(in >> t.round_started_ms >> t.round_seen)) {
    return false;
  }
  if (!field(in, "entrants", count)) return false;
  t.entrants.assign(count, Entrant{});
  for (Entrant& e : t.entrants) {
    size_t setups = 0;
    if (!field(in, "entrant", e.account) || !(in >> e.rating)) return false;
    std::string name;
    if (!(in >> name) || !unhex(name, e.name) || !(in >> setups) || setups > 16) return false;
    e.setups.assign(setups, std::string());
    for (std::string& setup : e.setups) {
      if (!(in >> name) || !unhex(name, setup)) return false;
    }
  }
  if (!field(in, "games", count)) return false;
  t.games.assign(count, GameNote{});
  for (GameNote& g : t.games) {
    int forfeit = 0, reversed = 0;
    size_t seats = 0, places = 0;
    if (!field(in, "game", g.key) ||
        !(in >> g.round >> g.match_id >> g.made_ms >> forfeit >> reversed >> seats)) {
      return false;
    }
    g.reversed = reversed != 0;
    if (seats > 64) return false;
    g.forfeit = forfeit != 0;
    g.seats.assign(seats, 0);
    for (int64_t& seat : g.seats) {
      if (!(in >> seat)) return false;
    }
    if (!(in >> places) || places > 64) return false;
    for (size_t i = 0; i < places; ++i) {
      int place = 0;
      if (!(in >> place) || place < 1 || place > 64) return false;
      g.places.push_back(static_cast<uint8_t>(place));
    }
  }
  std::string word;
  if (!(in >> word) || word != "format") return false;
  in.get();  // the line's end
  const std::string rest(std::istreambuf_iterator<char>(in), {});
  return tournaments::restore_format(format_config(t.settings).kind, rest, t.format) ==
         tournaments::Refusal::kOk;
}

}  // namespace duelhall::server
