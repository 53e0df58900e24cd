#include "fairness/server_ending.hpp"

#include <charconv>

namespace duelhall::fairness {
namespace {

constexpr std::string_view kResigns = " resigns";
constexpr std::string_view kForfeits = " ran out of time and forfeits";
constexpr std::string_view kLeftRated = " left the rated match and loses";
constexpr std::string_view kEveryoneLeft = "every player left the match";
constexpr std::string_view kModerator = "aborted by a moderator";
constexpr std::string_view kNotStarted = "the match could not start: ";
constexpr std::string_view kFault = "the match was stopped by a server fault";
constexpr std::string_view kUnstored =
    "the match was stopped: the server could not store an action";

std::string seat_reason(int seat, std::string_view what) {
  std::string reason(1, '@');
  reason.append(std::to_string(seat)).append(what);
  return reason;
}

// "@<seat><what>" exactly, with a seat number of at most two digits and no sign.
std::optional<int> seat_of(std::string_view reason, std::string_view what) {
  if (reason.size() <= what.size() + 1 || reason.front() != '@' || !reason.ends_with(what)) {
    return std::nullopt;
  }
  const std::string_view digits = reason.substr(1, reason.size() - what.size() - 1);
  if (digits.empty() || digits.size() > 2) return std::nullopt;
  int seat = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), seat);
  if (error != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
  return seat;
}

}  // namespace

std::string resigned(int seat) {
  return seat_reason(seat, kResigns);
}
std::string forfeited_on_time(int seat) {
  return seat_reason(seat, kForfeits);
}
std::string left_rated_match(int seat) {
  return seat_reason(seat, kLeftRated);
}
std::string every_player_left() {
  return std::string(kEveryoneLeft);
}
std::string aborted_by_moderator(std::string_view why) {
  std::string reason(kModerator);
  if (!why.empty()) reason.append(": ").append(why);
  return reason;
}
std::string could_not_start(std::string_view error) {
  return std::string(kNotStarted).append(error);
}
std::string stopped_by_fault() {
  return std::string(kFault);
}
std::string stopped_unstored() {
  return std::string(kUnstored);
}

std::optional<ServerEnding> parse_server_ending(std::string_view reason) {
  for (std::string_view what : {kResigns, kForfeits, kLeftRated}) {
    if (auto seat = seat_of(reason, what)) return ServerEnding{*seat};
  }
  if (reason == kEveryoneLeft || reason == kFault || reason == kUnstored ||
      reason.starts_with(kNotStarted)) {
    return ServerEnding{};
  }
  if (reason == kModerator || reason.starts_with(std::string(kModerator) + ": ")) {
    return ServerEnding{};
  }
  return std::nullopt;
}

}  // namespace duelhall::fairness
