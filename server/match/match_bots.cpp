// A bot's move. A bot that answers at once (random, heuristic) moves on the match's strand. A
// searching bot (expert) thinks on the host's BotPool instead, so that its budget never holds
// up the other matches of this I/O thread: the match hands the pool the bot and a copy of the
// position as the bot's seat may see it, and the pool posts the chosen move back to the strand
// (bot_moved), where it is applied only if the match is still where it was when the bot began:
// still playing, at the same step, that seat still a bot's and pending. Otherwise the answer is
// dropped (a resignation, a forfeit, an abort, or another seat's simultaneous move came first),
// and the bot thinks again if it still has a decision. The job holds the match only weakly: a
// match that is gone by then is simply not told.
//
// A searching bot's moves are counted on /metrics by how they were chosen
// (duelhall_bot_moves_total{how}): "searched", or "pool_full" when every thinking thread was busy
// and the queue full, so the heuristic moved instead; under a crowd of expert bots the second
// tells how much weaker they played.
#include <spdlog/spdlog.h>

#include <stdexcept>

#include "match/match.hpp"

namespace duelhall::server {
namespace {

engine::Seed draw_seed(engine::Rng& rng) {
  engine::Seed seed{};
  for (size_t i = 0; i < seed.size(); i += 4) {
    const uint32_t word = rng.next_u32();
    for (size_t b = 0; b < 4; ++b) seed[i + b] = static_cast<uint8_t>(word >> (8 * b));
  }
  return seed;
}

metrics::Counter& searching_bot_moves(const char* how) {
  return metrics::server_metrics().registry.counter(
      "duelhall_bot_moves_total",
      "Moves of searching (expert) bots: searched, pool_full (the heuristic's, the bot pool "
      "being full) or paced (the heuristic's, the server being busy).",
      {{"how", how}});
}

// Looked up once each: the registry's counters live as long as the process.
metrics::Counter& searched_moves() {
  static metrics::Counter& counter = searching_bot_moves("searched");
  return counter;
}
metrics::Counter& pool_full_moves() {
  static metrics::Counter& counter = searching_bot_moves("pool_full");
  return counter;
}
metrics::Counter& paced_moves() {
  static metrics::Counter& counter = searching_bot_moves("paced");
  return counter;
}

}  // namespace

engine::SearchBudget Match::bot_budget() const {
  const BotSettings& bots = hub_.config().bots;
  return {.iterations = static_cast<int>(bots.iterations),
          .milliseconds = static_cast<int>(bots.milliseconds)};
}

void Match::bot_step(Outbox& out) {
  bot_scheduled_ = false;
  if (status_ != PLAYING || storage_wait_) return;  // the resume schedules it again
  const engine::SeatMask pending = state_->pending();
  for (size_t i = 0; i < seats_.size(); ++i) {
    const int seat = static_cast<int>(i);
    SeatSlot& slot = seats_[i];
    if (slot.occupant != SeatInfo::BOT || !pending.has(seat)) continue;
    BotPool* pool = hub_.bot_pool();
    if (!slot.bot->searches()) {
      play_bot_move(seat, slot.bot->choose(*state_, seat, bot_rng_), out);
    } else if (hub_.bot_pace_ms() > 0) {
      // The server is busy with its own work (bot_pacer.hpp): no core goes to a search.
      paced_moves().add();
      play_heuristic_move(seat, out);
    } else if (!pool) {
      searched_moves().add();
      play_bot_move(seat, slot.bot->choose(*state_, seat, bot_rng_), out);
    } else if (pool->has_room() && think_elsewhere(seat, *pool)) {
      bot_scheduled_ = true;  // until its answer comes back
    } else {
      // Every thinking thread is busy and the queue full (checked before the position is
      // copied, which would be wasted): the heuristic's move, at once.
      pool_full_moves().add();
      play_heuristic_move(seat, out);
    }
    return;  // one action per step; after_step schedules the next
  }
}

bool Match::think_elsewhere(int seat, BotPool& pool) {
  // The thinking thread gets a copy holding only what the seat may see (everything hidden from
  // it redrawn) and a random source of its own, never the match's hidden cards or future dice.
  std::shared_ptr<engine::State> position = state_->clone();
  position->stop_recording();
  position->resample_hidden(engine::Viewer::of_seat(seat), bot_rng_);
  position->reseed_chance(draw_seed(bot_rng_));
  return pool.submit([weak = weak_from_this(), bot = seats_[seat].bot, position, seat, seq = seq_,
                      rng = engine::Rng(draw_seed(bot_rng_))]() mutable {
    engine::Action action;
    std::string error;
    try {
      action = bot->choose(*position, seat, rng);
    } catch (const std::exception& e) {
      error = e.what();
      if (error.empty()) error = "unknown error";
    }
    position.reset();
    auto self = weak.lock();
    if (!self) return;  // the match is gone
    self->run([self, seat, seq, action, error = std::move(error)](Outbox& out) {
      self->bot_moved(seat, seq, action, error, out);
    });
  });
}

void Match::bot_moved(int seat, uint64_t seq, engine::Action action, const std::string& error,
                      Outbox& out) {
  bot_scheduled_ = false;
  if (status_ != PLAYING) return;  // ended while the bot thought
  if (storage_wait_) return;       // the resume schedules it again
  if (seq != seq_ || seats_[seat].occupant != SeatInfo::BOT || !state_->pending().has(seat)) {
    schedule_bots();  // the match moved on: whoever is due now thinks again from here
    return;
  }
  if (!error.empty()) throw std::runtime_error("the bot's search failed: " + error);
  ResultCode code = OK;
  std::string reason;
  if (apply(seat, action, out, code, reason)) {
    searched_moves().add();
    return;
  }
  // Legal in the bot's copy of the position but not in the match's: its copy differed in what
  // the seat can see, a bug to log; the match goes on with the heuristic's move.
  spdlog::error("match {}: the thinking bot of seat {} chose a refused action: {}", id_, seat,
                reason);
  play_heuristic_move(seat, out);
}

void Match::play_heuristic_move(int seat, Outbox& out) {
  auto quick = hub_.registry().make_bot(ruleset_.name, "heuristic");
  play_bot_move(seat, quick->choose(*state_, seat, bot_rng_), out);
}

void Match::play_bot_move(int seat, engine::Action action, Outbox& out) {
  ResultCode code = OK;
  std::string reason;
  if (!apply(seat, action, out, code, reason)) {
    throw std::logic_error("the bot chose a refused action: " + reason);
  }
}

}  // namespace duelhall::server
