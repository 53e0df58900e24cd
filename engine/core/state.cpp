#include "core/state.hpp"

#include <algorithm>

#include "core/serialize_config.hpp"

namespace duelhall::engine {

const char* to_string(RefusalCode code) {
  switch (code) {
    case RefusalCode::kNone:
      return "ok";
    case RefusalCode::kNoSuchSeat:
      return "no such seat";
    case RefusalCode::kNotYourDecision:
      return "not your decision";
    case RefusalCode::kMatchOver:
      return "match over";
    case RefusalCode::kMalformed:
      return "malformed action";
    case RefusalCode::kIllegal:
      return "illegal action";
  }
  return "unknown";
}

State::State(MatchConfig config) : config_(std::move(config)), rng_(config_.seed) {}

std::vector<Action> State::legal_actions(Seat seat) const {
  std::vector<Action> out;
  legal_actions(seat, out);
  return out;
}

ApplyResult State::check_action(Seat seat, Action action) const {
  if (action.kind == 0 || action.kind > last_action_kind()) {
    return ApplyResult::refused(RefusalCode::kMalformed,
                                "unknown action kind " + std::to_string(action.kind));
  }
  std::vector<Action> legal;
  legal.reserve(64);  // one allocation instead of one per doubling on every action
  legal_actions(seat, legal);
  if (std::binary_search(legal.begin(), legal.end(), action)) return ApplyResult::accepted();
  return explain_refusal(seat, action);
}

ApplyResult State::explain_refusal(Seat, Action) const {
  return ApplyResult::refused(RefusalCode::kIllegal, "not one of your legal actions now");
}

ApplyResult State::apply(Seat seat, Action action, std::vector<Event>* events) {
  if (seat < 0 || seat >= num_seats()) {
    return ApplyResult::refused(RefusalCode::kNoSuchSeat,
                                "seat " + std::to_string(seat) + " is not in this match");
  }
  if (terminal()) return ApplyResult::refused(RefusalCode::kMatchOver, "the match has ended");
  if (!pending().has(seat)) {
    return ApplyResult::refused(RefusalCode::kNotYourDecision, "it is not your decision now");
  }
  ApplyResult check = check_action(seat, action);
  if (!check.ok()) return check;
  if (recording_) history_.push_back({seat, action});
  events_ = events;
  do_apply(seat, action);
  events_ = nullptr;
  return ApplyResult::accepted();
}

void State::stop_recording() {
  recording_ = false;
  history_.clear();
  history_.shrink_to_fit();
  chance_log_.clear();
  chance_log_.shrink_to_fit();
}

void State::apply_known_legal(Seat seat, Action action) {
  events_ = nullptr;
  do_apply(seat, action);
}

std::string State::view(const Viewer& viewer) const {
  std::string out;
  write_view(viewer, out);
  return out;
}

int State::roll(int sides, std::string_view what) {
  int value = rng_.between(1, sides);
  record_chance(what, {static_cast<uint16_t>(value)});
  return value;
}

void State::record_chance(std::string_view what, std::vector<uint16_t> values) {
  if (!recording_) return;
  chance_log_.push_back(
      {static_cast<uint32_t>(history_.size()), std::string(what), std::move(values)});
}

std::string State::serialize() const {
  ByteWriter out;
  write_config(out, config_);
  out.varint(rng_.position());
  out.varint(history_.size());
  for (const Step& step : history_) {
    out.varint(static_cast<uint64_t>(step.seat));
    out.varint(step.action.code());
  }
  out.varint(chance_log_.size());
  for (const ChanceRecord& record : chance_log_) {
    out.varint(record.after_step);
    out.str(record.what);
    out.varint(record.values.size());
    for (uint16_t v : record.values) out.varint(v);
  }
  save_rules(out);
  return out.take();
}

void State::load(ByteReader& in) {
  rng_.set_position(in.varint());
  history_.resize(in.bounded(10'000'000));
  for (Step& step : history_) {
    step.seat = static_cast<Seat>(in.bounded(kMaxSeats - 1));
    step.action = Action::from_code(in.varint());
  }
  chance_log_.resize(in.bounded(10'000'000));
  for (ChanceRecord& record : chance_log_) {
    record.after_step = static_cast<uint32_t>(in.bounded(history_.size()));
    record.what = in.str();
    record.values.resize(in.bounded(1'000'000));
    for (uint16_t& v : record.values) v = static_cast<uint16_t>(in.bounded(0xffff));
  }
  load_rules(in);
  in.expect_done();
}

}  // namespace duelhall::engine
