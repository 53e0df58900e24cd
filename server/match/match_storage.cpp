// A match whose store cannot take writes (its PostgreSQL is unreachable, its disk is full) waits
// for it rather than end: a store outage pauses play, it never loses or aborts a match.
//
// The steps the store could not take are taken back (the state, the seq and every viewer's view
// go back to the last stored step, each player and spectator gets a snapshot of it) and the
// actions that made them are refused with STORAGE_UNAVAILABLE, so nothing was acknowledged that
// is not stored and nothing changed. Everyone is told the match waits (a StorageWait push); new
// actions and resignations are refused the same way, the decision clocks stand still and the
// bots wait. The match asks its log every kStorageRetry whether the store takes writes again;
// once it does, everyone is told (StorageWait, waiting false), the clocks start again and play
// goes on by itself. An end the store could not take is not taken back (it was decided on
// stored steps): it is written again once the store is back, and told only then.
#include <spdlog/spdlog.h>
#include <boost/asio/post.hpp>

#include "match/match.hpp"
#include "net/messages.hpp"

namespace duelhall::server {

namespace net = boost::asio;

namespace {

constexpr std::chrono::milliseconds kStorageRetry{1000};
constexpr const char* kWaitingWhy =
    "the match's store cannot take writes: play resumes when it is back";

}  // namespace

void Match::store_end() {
  end_ticket_ = log_ticket(state_->history().size());
  log_->ended(id_, *end_to_store_,
              [self = shared_from_this(), ticket = end_ticket_](const LogOutcome& outcome) {
                self->durable(ticket, outcome);
              });
}

ServerMessage Match::storage_refusal(uint64_t request_id) const {
  ServerMessage m = reply(request_id, STORAGE_UNAVAILABLE,
                          "the match is waiting for its store: nothing was taken, try again");
  m.set_retry_after_ms(static_cast<uint32_t>(kStorageRetry.count()));
  return m;
}

void Match::on_unstored(uint64_t ticket, const LogOutcome& outcome) {
  Outbox out;
  if (ticket == end_ticket_ && end_to_store_) {
    // Every step before the end is stored: the end stands, and waits (held) to be told.
    wait_for_storage(outcome.error, out);
    out.flush();
    return;
  }
  // The logs complete in order: this write and every later one are not stored (the store
  // refuses a step after a missing one, and an end after a step it does not hold).
  std::optional<Unstored> failed;
  while (!unstored_.empty() && unstored_.front().ticket <= ticket) {
    failed = unstored_.front();
    unstored_.pop_front();
  }
  unstored_.clear();
  stale_through_ = logged_ticket_;
  durable_ticket_ = logged_ticket_;
  held_out_.clear();  // each shows this step or a later one
  for (const HeldReply& r : held_replies_) out.add(r.peer, frame_of(storage_refusal(r.request_id)));
  held_replies_.clear();
  if (status_ != PLAYING && status_ != WAITING) {
    // An unstored step ended the match (or came before its end): the end is taken back too.
    spdlog::warn("match {}: its end is taken back with the step the store did not take", id_);
    end_to_store_.reset();
    end_ticket_ = 0;
    forced_outcome_.reset();
    linger_timer_->cancel();
    status_ = PLAYING;
    live_.hold(counts_.live_matches);
    publish();
  }
  if (failed) forget_unstored(*failed);
  for (auto& slot : seats_) {
    // The frames that told these were never sent.
    while (!slot.held.empty() && slot.held.back().seq > seq_) slot.held.pop_back();
    std::vector<std::pair<uint64_t, uint32_t>>().swap(slot.labels_told);
    slot.words_told.clear();
    if (slot.occupant == SeatInfo::HUMAN && slot.player) slot.player->forget_labels_told();
  }
  for (size_t i = 0; i < seats_.size(); ++i) {
    const SeatSlot& slot = seats_[i];
    if (slot.occupant == SeatInfo::HUMAN && slot.player) {
      out.add(slot.player->peer(), frame_of(snapshot(static_cast<int>(i))));
    }
  }
  if (!spectators_.empty()) {
    const Frame frame = frame_of(snapshot(-1));
    for (const auto& s : spectators_) out.add(s.peer.lock(), frame);
  }
  wait_for_storage(outcome.error, out);
  out.flush();
}

void Match::wait_for_storage(const std::string& why, Outbox& out) {
  if (storage_wait_) return;
  storage_wait_ = true;
  storage_lost_ = Clock::now();
  spdlog::warn("match {}: waiting for its store: {}", id_, why);
  for (auto& slot : seats_) stop_clock(slot);
  bot_timer_->cancel();
  bot_scheduled_ = false;
  tell_storage(true, kWaitingWhy, out);
  probe_storage();
}

void Match::probe_storage() {
  storage_timer_->expires_after(kStorageRetry);
  storage_timer_->async_wait([self = shared_from_this()](boost::system::error_code ec) {
    if (ec) return;
    self->log_->probe([self](const LogOutcome& outcome) {
      net::post(self->strand_, [self, outcome] {
        if (!self->storage_wait_) return;
        if (!outcome.error.empty()) {
          self->probe_storage();
          return;
        }
        Outbox out;
        self->storage_back(out);
        self->release(std::move(out));
      });
    });
  });
}

void Match::tell_storage_waiting(const std::shared_ptr<Peer>& peer, Outbox& out) const {
  if (storage_wait_) out.add(peer, frame_of(storage_news(true, kWaitingWhy)));
}

void Match::storage_back(Outbox& out) {
  storage_wait_ = false;
  const auto waited =
      std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - storage_lost_);
  spdlog::info("match {}: its store is back after {} ms, play resumes", id_, waited.count());
  // Told before anything the resumed play sends (the end's news waits for its write).
  tell_storage(false, "the match's store is back", out);
  out.flush();
  if (end_to_store_) {
    store_end();  // what is held behind the failed end is released with this one
    return;
  }
  arm_clocks();
  schedule_bots();
}

ServerMessage Match::storage_news(bool waiting, const std::string& why) const {
  ServerMessage m;
  StorageWait* wait = m.mutable_storage_wait();
  wait->set_match_id(id_);
  wait->set_waiting(waiting);
  wait->set_retry_after_ms(static_cast<uint32_t>(kStorageRetry.count()));
  wait->set_reason(why);
  return m;
}

void Match::tell_storage(bool waiting, const std::string& why, Outbox& out) {
  const Frame frame = frame_of(storage_news(waiting, why));
  for (const auto& slot : seats_) {
    if (slot.occupant == SeatInfo::HUMAN && slot.player) out.add(slot.player->peer(), frame);
  }
  for (const auto& s : spectators_) out.add(s.peer.lock(), frame);
}

}  // namespace duelhall::server
