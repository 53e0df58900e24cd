#include <catch2/catch.hpp>
#include <vector>

#include "accounts/glicko2.hpp"

using namespace duelhall::accounts::glicko2;

TEST_CASE("the worked example of Glickman's paper: 1464.06, 151.52, 0.05999") {
  const Rating player{1500, 200, 0.06};
  const std::vector<Game> games{
      {{1400, 30, 0.06}, 1.0}, {{1550, 100, 0.06}, 0.0}, {{1700, 300, 0.06}, 0.0}};
  const Rating after = update(player, games, Settings{0.5});
  CHECK(after.rating == Approx(1464.06).margin(0.01));
  CHECK(after.deviation == Approx(151.52).margin(0.01));
  CHECK(after.volatility == Approx(0.05999).margin(0.00001));
}

TEST_CASE("a period without games keeps the rating and widens the deviation (step 6)") {
  const Rating player{1700, 50, 0.06};
  const Rating after = update(player, {}, Settings{0.5});
  CHECK(after.rating == 1700);
  CHECK(after.volatility == 0.06);
  // phi* = sqrt(phi^2 + sigma^2) on the Glicko-2 scale.
  CHECK(after.deviation == Approx(std::sqrt(50.0 * 50.0 + 0.06 * 0.06 * 173.7178 * 173.7178)));
  CHECK(idle(player, 3).deviation > after.deviation);
  CHECK(idle(Rating{1500, 340, 0.06}, 1000).deviation == 350);  // never past an unrated player's
}

TEST_CASE("a win against an equal raises the winner as much as it lowers the loser") {
  const Rating a{1500, 350, 0.06};
  const Game win{a, 1.0};
  const Game loss{a, 0.0};
  const Rating up = update(a, std::span(&win, 1));
  const Rating down = update(a, std::span(&loss, 1));
  CHECK(up.rating > 1500);
  CHECK(down.rating < 1500);
  CHECK(up.rating - 1500 == Approx(1500 - down.rating));
  CHECK(up.deviation < 350);
}
