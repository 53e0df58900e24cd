// Match play: starting, applying actions, per-viewer updates and the end of a match, including
// the end of a decision clock (a forfeit or the bot's move). The spectators' delayed stream and
// the arming of bots and clocks are in match_timers.cpp.
#include <spdlog/spdlog.h>
#include <boost/asio/post.hpp>

#include "core/version.hpp"
#include "fairness/commitment.hpp"
#include "match/match.hpp"
#include "net/messages.hpp"
#include "wire_diff.hpp"

namespace duelhall::server {

namespace net = boost::asio;
using engine::Viewer;

void Match::start(Outbox& out) {
  std::map<std::string, std::string> raw(settings_.params().begin(), settings_.params().end());
  std::vector<std::string> options;
  for (const auto& seat : seats_) options.push_back(seat.option);
  auto created = hub_.registry().create(settings_.ruleset(), static_cast<int>(seats_.size()), seed_,
                                        raw, options);
  if (!created.state) {
    spdlog::warn("match {} could not start: {}", id_, created.error);
    force_end("the match could not start: " + created.error, {}, true, out);
    return;
  }
  state_ = std::move(created.state);
  status_ = PLAYING;
  MatchStart record{state_->config(), {}, {}, hosted_record()};
  for (const auto& seat : seats_) {
    const bool human = seat.occupant == SeatInfo::HUMAN;
    record.names.push_back(human ? seat.player->name() : "bot");
    record.tokens.push_back(human ? seat.player->token() : std::string());
  }
  log_->started(id_, record);
  record_accounts();  // for the players' histories and ratings (match_rated.cpp)
  spdlog::info("match {} started: {}, {} seats", id_, settings_.ruleset(), seats_.size());
  arm_clocks();
  for (size_t i = 0; i < seats_.size(); ++i) {
    SeatSlot& slot = seats_[i];
    if (slot.occupant != SeatInfo::HUMAN) continue;
    slot.view = state_->view(Viewer::of_seat(static_cast<int>(i)));
    out.add(slot.player->peer(), frame_of(snapshot(static_cast<int>(i))));
  }
  spectator_view_ = state_->view(Viewer::spectator());
  for (const auto& s : spectators_) out.add(s.peer.lock(), frame_of(snapshot(-1)));
  publish();
  schedule_bots();
}

void Match::act(std::shared_ptr<Peer> peer, std::shared_ptr<Player> player, SubmitAction request,
                uint64_t request_id) {
  const auto received = std::chrono::steady_clock::now();
  run([this, peer, player, request, request_id, received](Outbox& out) {
    current_peer_ = peer;
    current_request_ = request_id;
    answered_ = false;
    const int seat = seat_of(player.get());
    ResultCode code = OK;
    std::string reason;
    Outbox updates;
    if (seat < 0) {
      code = is_spectator(peer->peer_id()) ? NOT_ALLOWED_FOR_SPECTATORS : NOT_IN_MATCH;
      reason = "you have no seat in this match";
    } else if (status_ == WAITING) {
      code = WRONG_MATCH_STATE;
      reason = "the match has not started";
    } else if (status_ != PLAYING) {
      code = MATCH_OVER;
      reason = "the match has ended";
    } else if (request.seq() != 0 && request.seq() != seq_) {
      code = STALE_SEQ;
      reason = "the match has moved on since that view";
    } else {
      apply(seat, engine::Action::from_code(request.code()), updates, code, reason);
    }
    current_peer_.reset();
    if (!answered_) out.add(peer, frame_of(reply(request_id, code, reason)));
    // The OK waits for the log; should the log fail, the actor is told so instead.
    if (code == OK && durable_ticket_ < logged_ticket_) {
      held_replies_.push_back({logged_ticket_, peer, request_id, received});
    } else if (code == OK) {
      counts_.action_latency_since(received);
    }
    out.append(std::move(updates));
  });
}

bool Match::apply(int seat, engine::Action action, Outbox& out, ResultCode& code,
                  std::string& reason) {
  // Reused by every match on this thread: apply is never re-entered (bots and clocks post).
  thread_local std::vector<engine::Event> events;
  events.clear();
  engine::ApplyResult result = state_->apply(seat, action, &events);
  if (!result.ok()) {
    code = result_of(result.code);
    reason = result.reason;
    return false;
  }
  stop_clock(seats_[seat]);
  counts_.actions.add();
  // Whatever shows the step is held until the log has it on disk (release()).
  const uint64_t ticket = ++logged_ticket_;
  const auto index = static_cast<uint32_t>(state_->history().size() - 1);
  log_->appended(id_, index, {seat, action},
                 [self = shared_from_this(), ticket](const std::string& error) {
                   self->durable(ticket, error);
                 });
  after_step(events, out);
  return true;
}

void Match::after_step(const std::vector<engine::Event>& events, Outbox& out) {
  ++seq_;
  if (state_->terminal()) {
    status_ = FINISHED;
  } else {
    arm_clocks();
  }
  for (size_t i = 0; i < seats_.size(); ++i) {
    if (seats_[i].occupant == SeatInfo::HUMAN) {
      send_seat_update(static_cast<int>(i), events, true, out);
    }
  }
  queue_spectator_step(events, true, out);
  if (status_ == FINISHED) {
    ended(state_->outcome().reason);
  } else {
    schedule_bots();
  }
}

namespace {

// The frame of `update` as a ServerMessage (its `update` field), with `request_id` before it
// when not 0 (`prefix` then says how many bytes that field takes): the same bytes as serializing
// a ServerMessage holding a copy of it, without building one.
Frame update_frame(const MatchUpdate& update, uint64_t request_id, uint32_t& prefix) {
  const auto put_varint = [](uint64_t v, uint8_t* p) {
    for (; v >= 0x80; v >>= 7) *p++ = static_cast<uint8_t>((v & 0x7f) | 0x80);
    *p++ = static_cast<uint8_t>(v);
    return p;
  };
  uint8_t head[32];
  uint8_t* end = head;
  if (request_id != 0) {
    end = put_varint(uint64_t{ServerMessage::kRequestIdFieldNumber} << 3, end);
    end = put_varint(request_id, end);
  }
  prefix = static_cast<uint32_t>(end - head);
  const size_t size = update.ByteSizeLong();
  end = put_varint(uint64_t{ServerMessage::kUpdateFieldNumber} << 3 | 2, end);
  end = put_varint(size, end);
  auto bytes = std::make_shared<std::string>();
  bytes->resize(static_cast<size_t>(end - head) + size);
  auto* out = reinterpret_cast<uint8_t*>(bytes->data());
  std::copy(head, end, out);
  update.SerializeWithCachedSizesToArray(out + (end - head));
  return bytes;
}

}  // namespace

void Match::send_seat_update(int seat, const std::vector<engine::Event>& events, bool fresh_view,
                             Outbox& out) {
  SeatSlot& slot = seats_[seat];
  const Viewer viewer = Viewer::of_seat(seat);
  // Reused by every match on this thread (Clear keeps the strings' and lists' capacity), and
  // the view is written into the buffer the seat's previous view frees: once warm an update
  // allocates only its frame.
  thread_local MatchUpdate update;
  thread_local std::string view;
  MatchUpdate& u = update;
  u.Clear();
  u.set_match_id(id_);
  u.set_seq(seq_);
  if (fresh_view) {
    view.clear();
    state_->write_view(viewer, view);
    wire::make_patch(slot.view, view, *u.mutable_patch());
    slot.view.swap(view);
  }
  for (const auto& e : events) {
    if (auto text = e.text_for(viewer)) u.add_events(text->data(), text->size());
  }
  const uint32_t protocol = slot.player->protocol();
  if (protocol != slot.protocol) {
    slot.held.clear();  // built for the other version: a resume gets a snapshot instead
    slot.protocol = protocol;
  }
  if (protocol >= 2) {
    fill_legal_changes(seat, u);
  } else {
    fill_legal(seat, *u.mutable_legal());
  }
  u.set_status(status_);
  if (status_ != PLAYING) fill_outcome(*u.mutable_outcome());
  if (slot.deadline != Clock::time_point{}) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(slot.deadline - Clock::now());
    u.set_clock_ms(static_cast<uint32_t>(std::max<int64_t>(left.count(), 0)));
  }
  std::shared_ptr<Peer> peer = slot.connected ? slot.player->peer() : nullptr;
  // The actor's update is its OK (protocol 2 on): one frame, held without its request_id.
  const bool answers =
      peer && protocol >= 2 && current_peer_ && peer == current_peer_ && !answered_;
  uint32_t prefix = 0;
  Frame frame = update_frame(u, answers ? current_request_ : 0, prefix);
  slot.held.push_back({seq_, frame, prefix});
  while (slot.held.size() > hub_.config().limits.updates_held) slot.held.pop_front();
  if (!peer) return;
  answered_ = answered_ || answers;
  out.add(std::move(peer), std::move(frame));
}

namespace {
uint64_t legal_hash(const std::vector<engine::Action>& legal) {
  uint64_t h = 0xcbf29ce484222325ull ^ legal.size();
  for (const engine::Action& a : legal) h = (h ^ a.code()) * 0x100000001b3ull;
  return h | 1;  // 0 means nothing told yet
}

// A code's key in the connection's set of told labels (Player::with_labels_told).
uint32_t label_key(uint64_t ruleset_hash, uint64_t code) {
  uint64_t h = (ruleset_hash ^ code) * 0x9e3779b97f4a7c15ull;
  return static_cast<uint32_t>(h >> 32);
}
}  // namespace

bool Match::tell_label(const SeatSlot& slot, uint64_t code, const std::string& label) {
  constexpr size_t kLabelsTold = 48;
  const auto label_hash = static_cast<uint32_t>(std::hash<std::string>{}(label));
  auto& told = slot.labels_told;
  for (auto& [c, h] : told) {
    if (c != code) continue;
    if (h == label_hash) return false;
    h = label_hash;
    return true;
  }
  if (told.size() >= kLabelsTold) told.clear();
  told.emplace_back(code, label_hash);
  return true;
}

void Match::fill_legal_changes(int seat, MatchUpdate& update) {
  SeatSlot& slot = seats_[seat];
  // Reused by every match on this thread: no allocation per update once warm.
  thread_local std::vector<engine::Action> legal;
  legal.clear();
  if (status_ == PLAYING && state_ && state_->pending().has(seat)) {
    state_->legal_actions(seat, legal);
  }
  const uint64_t hash = legal_hash(legal);
  if (hash == slot.legal_told) {
    update.set_legal_unchanged(true);
    return;
  }
  slot.legal_told = hash;
  if (slot.protocol >= 3 && ruleset_.labels_by_code) {
    // Told once per connection; a told code's label is not even built.
    const uint64_t ruleset_hash = std::hash<std::string_view>{}(ruleset_.name);
    slot.player->with_labels_told([&](auto fresh) {
      for (const engine::Action& action : legal) {
        update.add_legal_codes(action.code());
        if (!fresh(label_key(ruleset_hash, action.code()))) continue;
        LegalAction* a = update.add_labels();
        a->set_code(action.code());
        a->set_label(state_->action_label(seat, action));
      }
    });
    return;
  }
  for (const engine::Action& action : legal) {
    update.add_legal_codes(action.code());
    std::string label = state_->action_label(seat, action);
    if (tell_label(slot, action.code(), label)) {
      LegalAction* a = update.add_labels();
      a->set_code(action.code());
      a->set_label(std::move(label));
    }
  }
}

void Match::fill_legal(int seat, google::protobuf::RepeatedPtrField<LegalAction>& out) const {
  if (status_ != PLAYING || !state_ || !state_->pending().has(seat)) return;
  for (const engine::Action& action : state_->legal_actions(seat)) {
    LegalAction* a = out.Add();
    a->set_code(action.code());
    a->set_label(state_->action_label(seat, action));
  }
}

void Match::fill_outcome(Outcome& out) const {
  if (forced_outcome_) {
    out = *forced_outcome_;
    return;
  }
  if (!state_ || !state_->terminal()) return;
  const engine::Outcome outcome = state_->outcome();
  for (int s = 0; s < state_->num_seats(); ++s) {
    if (outcome.winners.has(s)) out.add_winners(static_cast<uint32_t>(s));
  }
  for (int32_t score : outcome.scores) out.add_scores(score);
  out.set_reason(outcome.reason);
}

ServerMessage Match::snapshot(int seat) const {
  ServerMessage m;
  MatchSnapshot* s = m.mutable_snapshot();
  fill_match_info(*s->mutable_match());
  s->set_seat(seat);
  if (seat >= 0) {
    const SeatSlot& slot = seats_[seat];
    s->set_seq(seq_);
    s->set_view(slot.view);
    fill_legal(seat, *s->mutable_legal());
    std::vector<engine::Action> legal;
    for (const LegalAction& a : s->legal()) {
      legal.push_back(engine::Action::from_code(a.code()));
      tell_label(slot, a.code(), a.label());
    }
    if (slot.player && slot.player->protocol() >= 3 && ruleset_.labels_by_code) {
      const uint64_t ruleset_hash = std::hash<std::string_view>{}(ruleset_.name);
      slot.player->with_labels_told([&](auto fresh) {
        for (const LegalAction& a : s->legal()) fresh(label_key(ruleset_hash, a.code()));
      });
    }
    slot.legal_told = legal_hash(legal);
    if (slot.deadline != Clock::time_point{}) {
      auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(slot.deadline - Clock::now());
      s->set_clock_ms(static_cast<uint32_t>(std::max<int64_t>(left.count(), 0)));
    }
  } else {
    s->set_seq(spectator_seq_);
    s->set_view(spectator_view_);
  }
  // Spectators behind a delay learn the outcome when their stream reaches the end.
  if (status_ != PLAYING && status_ != WAITING && (seat >= 0 || delayed_.empty())) {
    fill_outcome(*s->mutable_outcome());
  }
  return m;
}

void Match::clock_expired(int seat, uint64_t generation, Outbox& out) {
  SeatSlot& slot = seats_[seat];
  if (generation != slot.clock_generation || status_ != PLAYING) return;
  stop_clock(slot);
  if (settings_.clock_policy() == CLOCK_FORFEIT) {
    engine::SeatMask winners;
    for (int s = 0; s < static_cast<int>(seats_.size()); ++s) {
      if (s != seat) winners.add(s);
    }
    force_end("@" + std::to_string(seat) + " ran out of time and forfeits", winners, false, out);
    return;
  }
  // The clock's move is made now, on the strand: a searching level gives way to its heuristic.
  std::unique_ptr<engine::Bot> bot = hub_.registry().make_bot(ruleset_.name, settings_.bot_level());
  if (bot->searches()) bot = hub_.registry().make_bot(ruleset_.name, "heuristic");
  ResultCode code = OK;
  std::string reason;
  if (!apply(seat, bot->choose(*state_, seat, bot_rng_), out, code, reason)) {
    throw std::logic_error("the clock's bot chose a refused action: " + reason);
  }
}

void Match::force_end(std::string reason, engine::SeatMask winners, bool aborted, Outbox& out) {
  Outcome outcome;
  for (int s = 0; s < static_cast<int>(seats_.size()); ++s) {
    if (winners.has(s)) outcome.add_winners(static_cast<uint32_t>(s));
  }
  outcome.set_reason(reason);
  forced_outcome_ = outcome;
  status_ = aborted ? ABORTED : FINISHED;
  ++seq_;
  const std::vector<engine::Event> events{engine::Event::public_event(reason)};
  for (size_t i = 0; i < seats_.size(); ++i) {
    if (seats_[i].occupant == SeatInfo::HUMAN) {
      send_seat_update(static_cast<int>(i), events, false, out);
    }
  }
  queue_spectator_step(events, false, out);
  ended(reason);
}

void Match::ended(const std::string& result) {
  live_.release();
  for (auto& slot : seats_) {
    stop_clock(slot);
    // A pending wait would keep the match alive until the clock ran out, long after it is gone
    // from the listing.
    if (slot.clock) slot.clock->cancel();
    // Nothing changes any more: a player who comes back gets a snapshot (it carries the
    // outcome), so what was held for reconnects goes now, not when the listing ends.
    Fifo<HeldUpdate>().swap(slot.held);
    std::vector<std::pair<uint64_t, uint32_t>>().swap(slot.labels_told);
  }
  if (bot_timer_) bot_timer_->cancel();
  if (state_) {
    MatchEnd end;
    end.aborted = status_ == ABORTED;
    end.reason = result;
    if (forced_outcome_) {
      for (uint32_t s : forced_outcome_->winners()) end.winners.add(static_cast<int>(s));
    } else {
      const engine::Outcome outcome = state_->outcome();
      end.winners = outcome.winners;
      end.scores = outcome.scores;
    }
    log_->ended(id_, end);
    report_rated_end(end);
  }
  spdlog::info("match {} ended after {} actions: {} ({})", id_,
               state_ ? state_->history().size() : 0, result,
               status_ == ABORTED ? "aborted" : "finished");
  publish();
  linger_timer_->expires_after(std::chrono::seconds(hub_.config().finished_linger_seconds));
  linger_timer_->async_wait([self = shared_from_this()](boost::system::error_code ec) {
    if (!ec) self->hub_.remove_match(self->id_);
  });
}

void Match::fault(const std::string& what, Outbox& out) {
  spdlog::error("match {}: engine fault, ending the match: {}", id_, what);
  if (current_peer_) {
    out.add(current_peer_, frame_of(reply(current_request_, INTERNAL_ERROR,
                                          "the server stopped this match after a fault")));
  }
  if (status_ == PLAYING || status_ == WAITING) {
    force_end("the match was stopped by a server fault", {}, true, out);
  }
}

}  // namespace duelhall::server
