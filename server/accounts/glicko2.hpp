// Glicko-2 (Mark E. Glickman, "Example of the Glicko-2 system", 2013): a player's strength is a
// rating r, a rating deviation RD (how uncertain r is) and a volatility sigma (how erratic the
// player's results are). Results are collected over a rating period and applied together; a
// player who does not play in a period keeps r and sigma while RD grows (step 6 of the paper).
//
// Pure maths: no server, storage or clock. The server applies one period per rated match (see
// docs/accounts.md), after growing RD by the whole idle periods since the player's last game.
#pragma once

#include <span>

namespace duelhall::accounts::glicko2 {

struct Rating {
  double rating = 1500.0;
  double deviation = 350.0;
  double volatility = 0.06;
};

// One game of the period, from the rated player's side.
struct Game {
  Rating opponent;
  double score = 0.0;  // 1 win, 0.5 draw, 0 loss
};

struct Settings {
  double tau = 0.5;            // constrains the change of volatility (0.3 to 1.2)
  double max_deviation = 350;  // RD never grows past an unrated player's
  double epsilon = 0.000001;   // convergence tolerance of the volatility iteration
};

// The player's rating after one rating period with `games` (none: only RD grows).
Rating update(const Rating& player, std::span<const Game> games, const Settings& settings = {});

// RD after `periods` rating periods without a game (step 6 applied `periods` times).
Rating idle(const Rating& player, double periods, const Settings& settings = {});

}  // namespace duelhall::accounts::glicko2
