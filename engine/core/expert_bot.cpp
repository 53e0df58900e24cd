#include "core/expert_bot.hpp"

#include <chrono>
#include <stdexcept>
#include <string>

namespace duelhall::engine {
namespace {

using Clock = std::chrono::steady_clock;

Seed draw_seed(Rng& rng) {
  Seed seed{};
  for (size_t i = 0; i < seed.size(); i += 4) {
    const uint32_t word = rng.next_u32();
    for (size_t b = 0; b < 4; ++b) seed[i + b] = static_cast<uint8_t>(word >> (8 * b));
  }
  return seed;
}

// FNV-1a over the searcher's view: what it can tell apart after a step.
uint64_t observation(const State& state, Seat me, std::string& buffer) {
  buffer.clear();
  state.write_view(Viewer::of_seat(me), buffer);
  uint64_t h = 1469598103934665603ull;
  for (char c : buffer) {
    h ^= static_cast<uint8_t>(c);
    h *= 1099511628211ull;
  }
  return h;
}

}  // namespace

ExpertBot::ExpertBot(ExpertSettings settings, std::unique_ptr<Bot> rollout)
    : settings_(std::move(settings)), rollout_(std::move(rollout)) {
  if (settings_.budget.iterations <= 0 && settings_.budget.milliseconds <= 0) {
    throw std::invalid_argument("an expert bot needs a limit in iterations or in milliseconds");
  }
  if (!rollout_) throw std::invalid_argument("an expert bot needs a rollout policy");
}

Action ExpertBot::choose(const State& state, Seat seat, Rng& rng) {
  const auto start = Clock::now();
  report_ = {};
  std::vector<Action> legal;
  state.legal_actions(seat, legal);
  if (legal.empty()) throw std::logic_error("bot asked to move with no legal action");
  drop_avoided(legal, settings_.resign_kinds);
  if (legal.size() == 1) return legal.front();

  // The search's own generator, seeded once from the caller's: the same caller seed gives the
  // same search, whatever the hidden cards are.
  Rng search(draw_seed(rng));
  tree_.clear();
  // One copy that records nothing, so that each iteration's copy is only the position.
  std::unique_ptr<State> quiet = state.clone();
  quiet->stop_recording();
  const SearchBudget& budget = settings_.budget;
  const auto deadline = start + std::chrono::milliseconds(budget.milliseconds);
  while (budget.iterations <= 0 || report_.iterations < static_cast<uint64_t>(budget.iterations)) {
    if (budget.milliseconds > 0 && report_.iterations > 0 && Clock::now() >= deadline) break;
    iterate(*quiet, seat, search);
    ++report_.iterations;
  }
  report_.nodes = tree_.node_count();
  report_.tree_bytes = tree_.bytes();
  report_.milliseconds = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  return tree_.best_root_action(seat, legal);
}

void ExpertBot::iterate(const State& state, Seat me, Rng& rng) {
  std::unique_ptr<State> world = state.clone();
  world->resample_hidden(Viewer::of_seat(me), rng);
  world->reseed_chance(draw_seed(rng));
  path_.clear();
  std::string view;
  uint32_t node = SearchTree::kRoot;
  bool expanded = false;
  while (!world->terminal() && !expanded) {
    const SeatMask pending = world->pending();
    const Seat actor = pending.has(me) ? me : pending.first();
    if (actor != me && pending.count() > 1) {
      // A simultaneous, secret decision of another seat: played as a chance step (see header).
      world->apply_known_legal(actor, rollout_move(*world, actor, rng));
      continue;
    }
    world->legal_actions(actor, legal_);
    drop_avoided(legal_, settings_.resign_kinds);
    const Action hint = settings_.policy_bias > 0 ? rollout_->choose(*world, actor, rng) : Action{};
    const SearchTree::Pick pick =
        tree_.select(node, actor, legal_, hint, settings_.exploration, settings_.policy_bias, rng);
    path_.push_back({node, pick.edge});
    world->apply_known_legal(actor, tree_.edge(node, pick.edge).action);
    node = tree_.child(node, pick.edge, observation(*world, me, view), expanded);
  }
  rollout(*world, rng);
  for (const Visit& visit : path_) {
    const Seat seat = tree_.edge(visit.node, visit.edge).seat;
    tree_.update(visit.node, visit.edge, rewards_[static_cast<size_t>(seat)]);
  }
}

Action ExpertBot::rollout_move(const State& state, Seat seat, Rng& rng) {
  // A fixed-point comparison keeps the draw independent of floating-point rounding.
  const auto threshold = static_cast<uint32_t>(settings_.rollout_randomness * 1'000'000);
  if (threshold > 0 && rng.below(1'000'000) < threshold) {
    state.legal_actions(seat, legal_);
    drop_avoided(legal_, settings_.resign_kinds);
    return legal_[rng.below(static_cast<uint32_t>(legal_.size()))];
  }
  return rollout_->choose(state, seat, rng);
}

void ExpertBot::rollout(State& state, Rng& rng) {
  const auto seats = static_cast<size_t>(state.num_seats());
  int steps = 0;
  while (!state.terminal() && steps < settings_.rollout_cap) {
    const Seat seat = state.pending().first();
    state.apply_known_legal(seat, rollout_move(state, seat, rng));
    ++steps;
  }
  rewards_.assign(seats, 1.0 / static_cast<double>(seats));
  if (!state.terminal()) return;
  const SeatMask winners = state.outcome().winners;
  if (winners.empty()) return;
  for (size_t s = 0; s < seats; ++s) {
    rewards_[s] = winners.has(static_cast<Seat>(s)) ? 1.0 / winners.count() : 0.0;
  }
}

}  // namespace duelhall::engine
