// The ends a match can reach outside its ruleset's rules: a resignation, a clock forfeit, a rated
// seat left, every player gone, or an abort. The engine never decides these, so a replay of such
// a match stops short of a terminal state; the record carries the reason, and these functions are
// the one place its words are written (by the match) and read back (by `verify`).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace duelhall::fairness {

std::string resigned(int seat);
std::string forfeited_on_time(int seat);
std::string left_rated_match(int seat);
std::string every_player_left();
std::string aborted_by_moderator(std::string_view why);
std::string could_not_start(std::string_view error);
std::string stopped_by_fault();
std::string stopped_unstored();

struct ServerEnding {
  // The seat that loses while every other seat wins; -1 for an end nobody wins.
  int losing_seat = -1;
};
// The ending `reason` names, or nothing when it is not one the server decides.
std::optional<ServerEnding> parse_server_ending(std::string_view reason);

}  // namespace duelhall::fairness
