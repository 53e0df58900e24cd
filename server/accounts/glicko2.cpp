#include "accounts/glicko2.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace duelhall::accounts::glicko2 {
namespace {

// The Glicko-2 scale: mu = (r - 1500) / 173.7178, phi = RD / 173.7178.
constexpr double kScale = 173.7178;

double g(double phi) {
  return 1.0 / std::sqrt(1.0 + 3.0 * phi * phi / (std::numbers::pi * std::numbers::pi));
}

double expected(double mu, double mu_j, double phi_j) {
  return 1.0 / (1.0 + std::exp(-g(phi_j) * (mu - mu_j)));
}

// Step 5: the new volatility, by the Illinois algorithm as the paper gives it.
double new_volatility(double phi, double sigma, double delta, double v, const Settings& s) {
  const double a = std::log(sigma * sigma);
  const double tau2 = s.tau * s.tau;
  auto f = [&](double x) {
    const double ex = std::exp(x);
    const double d = phi * phi + v + ex;
    return ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / tau2;
  };
  double big_a = a;
  double big_b = 0.0;
  if (delta * delta > phi * phi + v) {
    big_b = std::log(delta * delta - phi * phi - v);
  } else {
    double k = 1.0;
    while (f(a - k * s.tau) < 0.0) k += 1.0;
    big_b = a - k * s.tau;
  }
  double f_a = f(big_a);
  double f_b = f(big_b);
  for (int i = 0; i < 1000 && std::abs(big_b - big_a) > s.epsilon; ++i) {
    const double big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
    const double f_c = f(big_c);
    if (f_c * f_b <= 0.0) {
      big_a = big_b;
      f_a = f_b;
    } else {
      f_a /= 2.0;
    }
    big_b = big_c;
    f_b = f_c;
  }
  return std::exp(big_a / 2.0);
}

}  // namespace

Rating idle(const Rating& player, double periods, const Settings& settings) {
  if (periods <= 0.0) return player;
  const double phi = player.deviation / kScale;
  const double grown = std::sqrt(phi * phi + periods * player.volatility * player.volatility);
  Rating out = player;
  out.deviation = std::min(grown * kScale, settings.max_deviation);
  return out;
}

Rating update(const Rating& player, std::span<const Game> games, const Settings& settings) {
  if (games.empty()) return idle(player, 1.0, settings);
  const double mu = (player.rating - 1500.0) / kScale;
  const double phi = player.deviation / kScale;
  // Steps 3 and 4: the estimated variance v and improvement delta.
  double inverse_v = 0.0;
  double sum = 0.0;
  for (const Game& game : games) {
    const double mu_j = (game.opponent.rating - 1500.0) / kScale;
    const double phi_j = game.opponent.deviation / kScale;
    const double e = expected(mu, mu_j, phi_j);
    inverse_v += g(phi_j) * g(phi_j) * e * (1.0 - e);
    sum += g(phi_j) * (game.score - e);
  }
  const double v = 1.0 / inverse_v;
  const double delta = v * sum;
  // Steps 5 to 7.
  const double sigma = new_volatility(phi, player.volatility, delta, v, settings);
  const double phi_star = std::sqrt(phi * phi + sigma * sigma);
  const double new_phi = 1.0 / std::sqrt(1.0 / (phi_star * phi_star) + 1.0 / v);
  const double new_mu = mu + new_phi * new_phi * sum;
  Rating out;
  out.rating = new_mu * kScale + 1500.0;
  out.deviation = std::min(new_phi * kScale, settings.max_deviation);
  out.volatility = sigma;
  return out;
}

}  // namespace duelhall::accounts::glicko2
