// One tournament as the room holds it: its settings, its entrants (accounts, with the setups they
// locked at registration), the format that pairs and ranks them (tournaments/format.hpp), and a
// note per game the room handed out: its seats, its match once made, its result. The whole is
// saved as versioned text (encode/decode) after every change, so a restart resumes it exactly.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "envelope.pb.h"
#include "tournaments/format.hpp"

namespace duelhall::server {

// The engine's bot as an entrant (a host's bot_fill): no account has this id.
inline constexpr int64_t kBotEntrant = -1;

struct Entrant {
  int64_t account = 0;
  std::string name;
  int32_t rating = 1500;
  std::vector<std::string> setups;  // locked at registration; empty when the ruleset takes none
  bool operator==(const Entrant&) const = default;
};

// A game the room handed out, from the moment the format made it.
struct GameNote {
  uint64_t key = 0;  // the format's game key
  uint32_t round = 0;
  std::vector<int64_t> seats;  // accounts, seat 0 first
  uint64_t match_id = 0;       // 0 while its players are awaited
  int64_t made_ms = 0;         // when the format made it (the show-up clock starts)
  std::vector<uint8_t> places;  // empty until the result
  bool forfeit = false;        // decided without play
  bool reversed = false;       // its match seats the note's seats the other way round (a bot last)
  bool done() const { return !places.empty(); }
  bool operator==(const GameNote&) const = default;
};

struct Tournament {
  uint64_t id = 0;
  TournamentSettings settings;
  std::string created_by;
  TournamentStatus status = TOURNAMENT_REGISTERING;
  int64_t started_ms = 0;        // when the first round was paired (the arena's clock)
  int64_t round_started_ms = 0;  // when the current Swiss round was paired
  uint32_t round_seen = 0;       // the round round_started_ms belongs to
  std::vector<Entrant> entrants;
  std::unique_ptr<tournaments::Format> format;
  std::vector<GameNote> games;  // in the order handed out

  const Entrant* entrant(int64_t account) const;
  Entrant* entrant(int64_t account);
  GameNote* note(uint64_t key);
  bool open() const { return status == TOURNAMENT_REGISTERING || status == TOURNAMENT_RUNNING; }
  // Entrants registered and still in.
  uint32_t active_players() const;
};

tournaments::FormatConfig format_config(const TournamentSettings& settings);

// "duelhall-tournament-room 1" and its lines; the format's own text last.
std::string encode(const Tournament& tournament);
// False on anything that is not an encode() of version 1 (the tournament is left unusable).
bool decode(const std::string& text, uint64_t id, Tournament& out);

}  // namespace duelhall::server
