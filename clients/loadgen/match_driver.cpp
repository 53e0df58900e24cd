#include "match_driver.hpp"

#include <iostream>

#include "match_tracker.hpp"  // clients/common: update_seq
#include "wire_diff.hpp"

namespace duelhall::loadgen {

namespace net = boost::asio;

namespace {
// Setup errors printed before going quiet (the count is in the report).
std::atomic<int> errors_printed{0};

size_t varint_size(uint64_t v) {
  size_t n = 1;
  for (; v >= 0x80; v >>= 7) ++n;
  return n;
}
// The bytes a length-delimited field of `len` bytes takes on the wire (one-byte tag).
size_t field_size(size_t len) {
  return 1 + varint_size(len) + len;
}

// The bytes of an update frame that carry its legal actions' codes, and their labels.
size_t legal_size(const MatchUpdate& u) {
  size_t n = u.legal_unchanged() ? 2 : 0;
  for (const auto& a : u.legal())
    n += 1 + varint_size(a.ByteSizeLong()) + 1 + varint_size(a.code());
  // Protocol 6's steps when they were sent (client::normalize_update keeps them beside the codes
  // it rebuilds), else the codes.
  size_t codes = 0;
  if (u.legal_steps_size() > 0) {
    for (uint64_t step : u.legal_steps()) codes += varint_size(step);
  } else {
    for (uint64_t code : u.legal_codes()) codes += varint_size(code);
  }
  return n + (codes ? field_size(codes) : 0);
}
// The events' fields: protocols 1 to 3's texts, protocol 4's packed word ids and the words
// told, protocol 5's packed phrases (zigzag varints).
size_t event_fields_size(const MatchUpdate& u) {
  size_t n = 0;
  for (const auto& e : u.events()) n += field_size(e.size());
  size_t ids = 0;
  for (uint32_t id : u.event_words()) ids += varint_size(id);
  n += ids ? field_size(ids) : 0;
  for (const auto& w : u.words()) n += field_size(w.ByteSizeLong());
  size_t phrases = 0;
  for (int32_t v : u.phrases()) {
    phrases += varint_size((static_cast<uint32_t>(v) << 1) ^ static_cast<uint32_t>(v >> 31));
  }
  return n + (phrases ? field_size(phrases) : 0);
}
size_t label_size(const MatchUpdate& u) {
  size_t n = 0;
  for (const auto& a : u.legal()) n += field_size(a.label().size());
  for (const auto& a : u.labels()) n += field_size(a.ByteSizeLong());
  return n;
}
}  // namespace

void Shard::start_some() {
  while (opening < max_opening && !waiting.empty()) {
    MatchDriver* driver = waiting.front();
    waiting.pop_front();
    ++opening;
    driver->start();
  }
}

void Shard::set_up_done() {
  --opening;
  start_some();
}

MatchDriver::MatchDriver(Shard& shard, Shared& shared, const Setup& setup, uint64_t seed)
    : shard_(shard),
      shared_(shared),
      setup_(setup),
      stats_(setup.bot_seats ? shard.bot_stats : shard.stats),
      rng_state_(seed * 0x9E3779B97F4A7C15ull + 1),
      seats_(setup.seats - setup.bot_seats),
      pace_timer_(shard.io) {}

uint64_t MatchDriver::random() {
  // xorshift64*: only for choosing among offered actions; the match's randomness is the server's.
  rng_state_ ^= rng_state_ >> 12;
  rng_state_ ^= rng_state_ << 25;
  rng_state_ ^= rng_state_ >> 27;
  return rng_state_ * 2685821657736338717ull;
}

void MatchDriver::start() {
  for (size_t i = 0; i < seats_.size(); ++i) {
    auto connection = std::make_shared<Connection>(shard_.io);
    seats_[i].connection = connection;
    connection->open(
        setup_.endpoint,
        [this, i](const std::string& error) {
          if (!error.empty()) return give_up(error);
          ClientMessage hello;
          hello.mutable_hello()->set_protocol_version(setup_.protocol);
          hello.mutable_hello()->set_display_name("load" + std::to_string(i));
          seats_[i].connection->send(std::move(hello));
        },
        [this, i](const ServerMessage& m, size_t bytes) { on_message(i, m, bytes); },
        [this](const std::string& why) {
          if (!shared_.stopping) give_up("connection lost: " + why);
        });
  }
}

void MatchDriver::stop() {
  pace_timer_.cancel();
  for (auto& seat : seats_) {
    if (seat.connection) seat.connection->close();
  }
}

void MatchDriver::give_up(const std::string& why) {
  if (dead_) return;
  dead_ = true;
  ++stats_.connection_errors;
  if (errors_printed++ < 5) std::cerr << "duelhall-loadgen: a match slot gave up: " << why << "\n";
  if (live_) --shared_.live;
  live_ = false;
  ++shared_.failed;
  if (!ever_live_) shard_.set_up_done();
  stop();
}

void MatchDriver::on_message(size_t i, const ServerMessage& m, size_t frame_bytes) {
  if (dead_) return;
  if (m.request_id() != 0 && m.has_update()) {
    // Protocol 2: the actor's update is its action's OK.
    if (shared_.recording) ++stats_.actions;
    return on_update(i, m.update(), frame_bytes, true);
  }
  if (m.request_id() != 0) return on_reply(i, m);
  if (m.has_update()) return on_update(i, m.update(), frame_bytes, false);
  if (m.has_snapshot()) return on_snapshot(i, m.snapshot());
}

void MatchDriver::on_reply(size_t i, const ServerMessage& m) {
  if (m.has_snapshot()) return on_snapshot(i, m.snapshot());  // a Resync's answer
  if (m.result() != OK) {
    const bool refused_action =
        m.result() <= ILLEGAL_ACTION || m.result() == STALE_SEQ || m.result() == WRONG_MATCH_STATE;
    if (!refused_action) {
      return give_up(std::string("refused: ") + ResultCode_Name(m.result()) + ": " + m.reason());
    }
    // No update will follow a refused action (usually another seat acted first).
    for (auto it = in_flight_.begin(); it != in_flight_.end(); ++it) {
      if (it->actor == i && it->request_id == m.request_id()) {
        in_flight_.erase(it);
        break;
      }
    }
    ++stats_.refused;
    // Choose again, unless this answers an older action whose update was already acted on.
    if (m.request_id() != seats_[i].action_request) return;
    seats_[i].acted_seq = UINT64_MAX;
    return maybe_act(i);
  }
  switch (m.body_case()) {
    case ServerMessage::kWelcome:
      if (++welcomed_ == seats_.size()) create_match();
      return;
    case ServerMessage::kCreated: {
      match_id_ = m.created().match().match_id();
      seats_[0].seat = m.created().seat();
      for (size_t s = 1; s < seats_.size(); ++s) {
        ClientMessage join;
        join.mutable_join_match()->set_match_id(match_id_);
        join.mutable_join_match()->set_seat(-1);
        seats_[s].connection->send(std::move(join));
      }
      return;
    }
    case ServerMessage::kJoined:
      seats_[i].seat = m.joined().seat();
      return;
    default:
      if (shared_.recording) ++stats_.actions;  // an action's OK
      return;
  }
}

void MatchDriver::create_match() {
  ClientMessage create;
  CreateMatch* c = create.mutable_create_match();
  c->mutable_settings()->set_ruleset(setup_.ruleset);
  c->mutable_settings()->set_seats(setup_.seats);
  c->set_join(true);
  if (setup_.bot_seats > 0) {
    c->set_bot_seats(setup_.bot_seats);
    c->mutable_settings()->set_bot_level(setup_.bot_level);
    c->mutable_settings()->set_bot_delay_ms(0);  // the bot answers as soon as it has chosen
  }
  for (auto& seat : seats_) {
    auto connection = std::move(seat.connection);
    seat = Seat();
    seat.connection = std::move(connection);
  }
  in_flight_.clear();
  seats_[0].connection->send(std::move(create));
}

void MatchDriver::on_snapshot(size_t i, const MatchSnapshot& s) {
  if (s.match().match_id() != match_id_) return;
  Seat& seat = seats_[i];
  seat.seq = seat.seen = s.seq();
  seat.view = s.view();
  seat.legal.clear();
  for (const auto& a : s.legal()) seat.legal.push_back(a.code());
  ++stats_.snapshots;
  stats_.snapshot_view_bytes += seat.view.size();
  if (!seat.has_view) {
    seat.has_view = true;
    bool all = true;
    for (const auto& other : seats_) all = all && other.has_view;
    if (all && !live_) {
      live_ = true;
      ++shared_.live;
      if (!ever_live_) {
        ever_live_ = true;
        ++shared_.first_live;
        // Spread the paced matches over their interval.
        next_paced_ = Clock::now() + std::chrono::nanoseconds(
                                         random() % static_cast<uint64_t>(setup_.interval.count()));
        shard_.set_up_done();
      }
    }
  }
  if (live_) {
    for (size_t k = 0; k < seats_.size(); ++k) maybe_act(k);
  }
}

void MatchDriver::on_update(size_t i, const MatchUpdate& u, size_t frame_bytes, bool answer) {
  if (u.match_id() != match_id_) return;
  Seat& seat = seats_[i];
  const uint64_t seq = client::update_seq(u, seat.seen);
  std::string next;
  if (seq != seat.seq + 1 || !wire::apply_patch(seat.view, u.patch(), next)) {
    ++stats_.bad_patches;
    ClientMessage resync;
    resync.mutable_resync()->set_match_id(match_id_);
    seat.connection->send(std::move(resync));
    return;
  }
  const auto now = Clock::now();
  Stats& stats = stats_;
  if (shared_.recording) {
    // In a bot slot every update not answering a seat's own action is the bot's move.
    if (setup_.bot_seats > 0 && !answer) ++stats.bot_moves;
    ++stats.diffs;
    stats.diff_bytes += u.patch().size();
    stats.update_bytes += frame_bytes;
    stats.event_bytes += event_fields_size(u);
    stats.legal_bytes += legal_size(u);
    stats.label_bytes += label_size(u);
    ++stats.views;
    stats.view_bytes += next.size();
  }
  seat.view = std::move(next);
  seat.seq = seq;
  // The oldest action of another seat that this update is the answer to.
  for (auto it = in_flight_.begin(); it != in_flight_.end(); ++it) {
    if (it->actor != i && it->base_seq < seq) {
      if (shared_.recording) {
        stats.latency_us.push_back(static_cast<uint32_t>(
            std::chrono::duration_cast<std::chrono::microseconds>(now - it->sent).count()));
      }
      in_flight_.erase(it);
      break;
    }
  }
  if (!u.legal_unchanged()) {
    seat.legal.clear();
    for (const auto& a : u.legal()) seat.legal.push_back(a.code());  // protocol 1
    for (uint64_t code : u.legal_codes()) seat.legal.push_back(code);
  }
  if (u.status() == FINISHED || u.status() == ABORTED) {
    seat.ended = true;
    bool all = true;
    for (const auto& other : seats_) all = all && other.ended;
    if (all) match_over();
    return;
  }
  maybe_act(i);
}

void MatchDriver::match_over() {
  if (live_) --shared_.live;
  live_ = false;
  if (shared_.recording) ++stats_.matches_finished;
  pace_timer_.cancel();
  pace_armed_ = false;
  if (!shared_.stopping) create_match();
}

void MatchDriver::maybe_act(size_t i) {
  if (!live_ || shared_.stopping || setup_.pace == Pace::kIdle) return;
  if (setup_.pace == Pace::kFast) {
    const Seat& seat = seats_[i];
    if (!seat.legal.empty() && seat.acted_seq != seat.seq) act(i);
    return;
  }
  if (pace_armed_) return;
  pace_armed_ = true;
  pace_timer_.expires_at(std::max(next_paced_, Clock::now()));
  pace_timer_.async_wait([this](boost::system::error_code ec) {
    pace_armed_ = false;
    if (!ec && !dead_) paced_tick();
  });
}

void MatchDriver::paced_tick() {
  if (!live_ || shared_.stopping) return;
  const size_t first = static_cast<size_t>(random() % seats_.size());
  for (size_t k = 0; k < seats_.size(); ++k) {
    const size_t i = (first + k) % seats_.size();
    const Seat& seat = seats_[i];
    if (!seat.legal.empty() && seat.acted_seq != seat.seq) {
      next_paced_ = std::max(next_paced_, Clock::now()) + setup_.interval;
      act(i);
      return;
    }
  }
}

void MatchDriver::act(size_t i) {
  Seat& seat = seats_[i];
  ClientMessage m;
  SubmitAction* a = m.mutable_action();
  a->set_match_id(match_id_);
  a->set_code(seat.legal[random() % seat.legal.size()]);
  a->set_seq(seat.seq);
  seat.acted_seq = seat.seq;
  const auto sent = Clock::now();
  const uint64_t request = seat.connection->send(std::move(m));
  seat.action_request = request;
  // A bot slot's actions have no other connected seat to see them: no latency sample.
  if (setup_.bot_seats == 0) in_flight_.push_back({sent, i, seat.seq, request});
}

}  // namespace duelhall::loadgen
