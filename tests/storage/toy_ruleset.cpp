#include "toy_ruleset.hpp"

#include <algorithm>

namespace duelhall::testing {
namespace {

using engine::Action;
using engine::Seat;

constexpr uint8_t kRoll = 1;
constexpr uint8_t kPlay = 2;
constexpr int kMaxSteps = 40;

// Built by appending: GCC 12 warns falsely (-Wrestrict) on "literal" + std::string at -O3.
std::string seat_tag(Seat seat) {
  std::string tag = "@";
  tag += std::to_string(seat);
  return tag;
}

class ToyRace final : public engine::State {
 public:
  explicit ToyRace(const engine::MatchConfig& config) : State(config) {
    target_ = static_cast<int>(config.params.get_int("target"));
    for (uint8_t v = 1; v <= 10; ++v) deck_.push_back(v);
    shuffle(std::span<uint8_t>(deck_), "shuffle deck");
    for (auto& hand : hands_) {
      for (int i = 0; i < 2; ++i) draw(hand);
    }
  }

  engine::SeatMask pending() const override {
    return terminal() ? engine::SeatMask() : engine::SeatMask::only(turn_);
  }

  void legal_actions(Seat seat, std::vector<Action>& out) const override {
    out.clear();
    if (!pending().has(seat)) return;
    out.push_back(Action::make(kRoll));
    for (size_t i = 0; i < hands_[static_cast<size_t>(seat)].size(); ++i) {
      out.push_back(Action::make(kPlay, static_cast<uint8_t>(i)));
    }
  }

  std::string action_label(Seat, Action action) const override {
    if (action.kind == kRoll) return "roll";
    std::string label = "play card ";
    label += std::to_string(action.arg(0));
    return label;
  }

  bool terminal() const override {
    return scores_[0] >= target_ || scores_[1] >= target_ ||
           history().size() >= static_cast<size_t>(kMaxSteps);
  }

  engine::Outcome outcome() const override {
    engine::Outcome o;
    o.scores = {scores_[0], scores_[1]};
    if (scores_[0] >= scores_[1]) o.winners.add(0);
    if (scores_[1] >= scores_[0]) o.winners.add(1);
    o.reason = o.draw() ? "equal scores" : seat_tag(o.winners.first()) + " scored more";
    return o;
  }

  std::unique_ptr<State> clone() const override { return std::make_unique<ToyRace>(*this); }

  void write_view(const engine::Viewer& viewer, std::string& out) const override {
    engine::ProtoWriter w(out);
    std::vector<uint32_t> scores{static_cast<uint32_t>(scores_[0]),
                                 static_cast<uint32_t>(scores_[1])};
    w.packed_field(1, scores);
    w.uint_field(2, deck_.size());
    for (Seat s = 0; s < 2; ++s) {
      const auto& hand = hands_[static_cast<size_t>(s)];
      w.message_field(3, [&](engine::ProtoWriter& seat) {
        seat.uint_field(1, hand.size());
        if (viewer.sees_private_of(s)) seat.packed_field(2, hand);
      });
    }
  }

  void resample_hidden(const engine::Viewer& viewer, engine::Rng& rng) override {
    std::vector<uint8_t> unseen = deck_;
    for (Seat s = 0; s < 2; ++s) {
      if (!viewer.sees_private_of(s)) {
        auto& hand = hands_[static_cast<size_t>(s)];
        unseen.insert(unseen.end(), hand.begin(), hand.end());
      }
    }
    rng.shuffle(std::span<uint8_t>(unseen));
    size_t next = 0;
    for (auto& card : deck_) card = unseen[next++];
    for (Seat s = 0; s < 2; ++s) {
      if (!viewer.sees_private_of(s)) {
        for (auto& card : hands_[static_cast<size_t>(s)]) card = unseen[next++];
      }
    }
  }

  std::vector<int32_t> inventory() const override {
    std::vector<int32_t> cards(deck_.begin(), deck_.end());
    for (const auto& hand : hands_) cards.insert(cards.end(), hand.begin(), hand.end());
    for (const auto& card : played_) cards.push_back(card);
    std::sort(cards.begin(), cards.end());
    return cards;
  }

 protected:
  engine::ApplyResult check_action(Seat seat, Action action) const override {
    if (action.kind != kRoll && action.kind != kPlay) {
      return engine::ApplyResult::refused(engine::RefusalCode::kMalformed, "unknown action kind");
    }
    return State::check_action(seat, action);
  }

  void do_apply(Seat seat, Action action) override {
    auto& score = scores_[static_cast<size_t>(seat)];
    if (action.kind == kRoll) {
      const int value = roll(6, "D6 " + seat_tag(seat));
      score += value;
      emit(engine::Event::public_event(seat_tag(seat) + " rolled " + std::to_string(value)));
    } else {
      auto& hand = hands_[static_cast<size_t>(seat)];
      const uint8_t card = hand[action.arg(0)];
      hand.erase(hand.begin() + action.arg(0));
      played_.push_back(card);
      score += card;
      draw(hand);
    }
    turn_ = 1 - turn_;
  }

  void save_rules(engine::ByteWriter& out) const override {
    out.u8_list(deck_);
    for (const auto& hand : hands_) out.u8_list(hand);
    out.u8_list(played_);
    out.varint(static_cast<uint64_t>(scores_[0]));
    out.varint(static_cast<uint64_t>(scores_[1]));
    out.varint(static_cast<uint64_t>(turn_));
  }

  void load_rules(engine::ByteReader& in) override {
    deck_ = in.u8_list<uint8_t>(10);
    for (auto& hand : hands_) hand = in.u8_list<uint8_t>(10);
    played_ = in.u8_list<uint8_t>(10);
    scores_[0] = static_cast<int>(in.bounded(1000));
    scores_[1] = static_cast<int>(in.bounded(1000));
    turn_ = static_cast<Seat>(in.bounded(1));
  }

 private:
  void draw(std::vector<uint8_t>& hand) {
    if (deck_.empty()) return;
    hand.push_back(deck_.back());
    deck_.pop_back();
  }

  int target_ = 25;
  std::vector<uint8_t> deck_;
  std::array<std::vector<uint8_t>, 2> hands_;
  std::vector<uint8_t> played_;
  std::array<int, 2> scores_{};
  Seat turn_ = 0;
};

}  // namespace

void register_toy_race(engine::Registry& registry) {
  engine::RulesetInfo info;
  info.name = kToyRuleset;
  info.display_name = "Toy race";
  info.summary = "A test-only race of dice and cards.";
  info.params = {engine::ParamSpec::integer("target", "score that wins", 25, 10, 60)};
  info.view_message = "duelhall.toy_race.View";
  info.max_game_length = kMaxSteps;
  info.create = [](const engine::MatchConfig& config) { return std::make_unique<ToyRace>(config); };
  registry.add(std::move(info));
}

engine::Registry toy_registry() {
  engine::Registry registry;
  register_toy_race(registry);
  return registry;
}

}  // namespace duelhall::testing
