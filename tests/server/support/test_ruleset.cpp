#include "support/test_ruleset.hpp"

#include <algorithm>
#include <optional>
#include <stdexcept>

namespace duelhall::testing {
namespace {

using namespace engine;

// said_cards's phrase book: the card list's index is the card's value.
constexpr std::string_view kTemplates[] = {"", "{s} played {n}", "{s} drew {card}",
                                           "{s} drew a card", "{s} holds {card*}"};
constexpr std::string_view kCards[] = {"zero", "one", "two",   "three", "four",
                                       "five", "six", "seven", "eight"};
constexpr PhraseList kLists[] = {{"card", kCards}};
constexpr PhraseBook kBook{kTemplates, kLists};

// How a HighCards match says its events: high_cards as texts; said_cards as phrases of kBook,
// all of them or only the plays (its parameter `said`).
enum class Saying : uint8_t { kTexts, kPhrases, kPlaysOnly };

class HighCards final : public State {
 public:
  HighCards(MatchConfig config, Saying saying) : State(std::move(config)), saying_(saying) {
    const int cards = num_seats() <= 2 ? 8 : 16;
    for (int c = 1; c <= cards; ++c) deck_.push_back(static_cast<uint8_t>((c - 1) % 8 + 1));
    shuffle(std::span<uint8_t>(deck_), "shuffle deck");
    hands_.resize(num_seats());
    played_.resize(num_seats());
    const auto hand = this->config().params.get_int("hand");
    for (int s = 0; s < num_seats(); ++s) {
      for (int i = 0; i < hand; ++i) draw(s);
    }
  }

  SeatMask pending() const override { return terminal() ? SeatMask() : SeatMask::only(turn_); }
  void legal_actions(Seat seat, std::vector<Action>& out) const override {
    out.clear();
    if (terminal() || seat != turn_) return;
    for (uint8_t card : hands_[seat]) {
      Action a = Action::make(1, card);
      if (out.empty() || out.back() != a) out.push_back(a);
    }
  }
  std::string action_label(Seat, Action action) const override {
    return "play " + std::to_string(action.arg(0));
  }
  bool terminal() const override {
    for (const auto& h : hands_) {
      if (!h.empty()) return false;
    }
    return true;
  }
  Outcome outcome() const override {
    Outcome o;
    int best = -1;
    for (int s = 0; s < num_seats(); ++s) {
      o.scores.push_back(score(s));
      best = std::max(best, score(s));
    }
    for (int s = 0; s < num_seats(); ++s) {
      if (score(s) == best) o.winners.add(s);
    }
    o.reason = "highest total";
    return o;
  }
  std::unique_ptr<State> clone() const override { return std::make_unique<HighCards>(*this); }

  void write_view(const Viewer& viewer, std::string& out) const override {
    ProtoWriter w(out);
    w.uint_field(1, static_cast<uint64_t>(turn_));
    if (viewer.kind == Viewer::Kind::kSeat) w.packed_field(2, hands_[viewer.seat]);
    for (int s = 0; s < num_seats(); ++s) {
      w.message_field(3, [&](ProtoWriter& p) {
        p.uint_field(1, hands_[s].size());
        p.packed_field(2, played_[s]);
        p.uint_field(3, static_cast<uint64_t>(score(s)));
        if (viewer.sees_private_of(s)) p.packed_field(4, hands_[s]);
      });
    }
    w.uint_field(4, deck_.size());
    w.bool_field(5, terminal());
  }

  void resample_hidden(const Viewer& viewer, Rng& rng) override {
    std::vector<uint8_t> unseen = deck_;
    for (int s = 0; s < num_seats(); ++s) {
      if (!viewer.sees_private_of(s))
        unseen.insert(unseen.end(), hands_[s].begin(), hands_[s].end());
    }
    rng.shuffle(std::span<uint8_t>(unseen));
    size_t at = 0;
    for (auto& c : deck_) c = unseen[at++];
    for (int s = 0; s < num_seats(); ++s) {
      if (viewer.sees_private_of(s)) continue;
      for (auto& c : hands_[s]) c = unseen[at++];
      std::sort(hands_[s].begin(), hands_[s].end());
    }
  }
  std::vector<int32_t> inventory() const override {
    std::vector<int32_t> all(deck_.begin(), deck_.end());
    for (int s = 0; s < num_seats(); ++s) {
      all.insert(all.end(), hands_[s].begin(), hands_[s].end());
      all.insert(all.end(), played_[s].begin(), played_[s].end());
    }
    std::sort(all.begin(), all.end());
    return all;
  }

 protected:
  void do_apply(Seat seat, Action action) override {
    const auto explode_at = config().params.get_int("explode_at");
    if (explode_at > 0 && static_cast<int64_t>(history().size()) == explode_at) {
      throw std::logic_error("test engine fault");
    }
    auto& hand = hands_[seat];
    hand.erase(std::find(hand.begin(), hand.end(), action.arg(0)));
    played_[seat].push_back(action.arg(0));
    say_play(seat, action.arg(0));
    if (!deck_.empty()) {
      const uint8_t card = deck_.back();
      draw(seat);
      say_draw(seat, card);
    }
    for (int i = 1; i <= num_seats(); ++i) {
      const int next = (turn_ + i) % num_seats();
      if (!hands_[next].empty()) {
        turn_ = next;
        break;
      }
    }
  }
  void save_rules(ByteWriter& out) const override {
    out.varint(static_cast<uint64_t>(turn_));
    out.u8_list(deck_);
    for (int s = 0; s < num_seats(); ++s) {
      out.u8_list(hands_[s]);
      out.u8_list(played_[s]);
    }
  }
  void load_rules(ByteReader& in) override {
    turn_ = static_cast<int>(in.bounded(static_cast<uint64_t>(num_seats() - 1)));
    deck_ = in.u8_list<uint8_t>(16);
    for (int s = 0; s < num_seats(); ++s) {
      hands_[s] = in.u8_list<uint8_t>(16);
      played_[s] = in.u8_list<uint8_t>(16);
    }
  }

 private:
  void say_play(int seat, int card) {
    if (saying_ == Saying::kTexts) {
      emit(Event::public_event("@" + std::to_string(seat) + " played " + std::to_string(card)));
      return;
    }
    emit(Event::said(kBook, Phrase(1).seat(seat).number(card)));
  }
  // The drawer sees the card and its hand; the others that a card was drawn.
  void say_draw(int seat, int card) {
    if (saying_ != Saying::kPhrases) {
      emit(Event::private_event(SeatMask::only(seat),
                                "@" + std::to_string(seat) + " drew " + std::to_string(card),
                                "@" + std::to_string(seat) + " drew a card"));
      return;
    }
    emit(Event::said_to(kBook, SeatMask::only(seat), Phrase(2).seat(seat).entry(card),
                        Phrase(3).seat(seat)));
    emit(Event::said_to(kBook, SeatMask::only(seat),
                        Phrase(4).seat(seat).entries(hands_[seat], [](uint8_t c) { return c; })));
  }
  void draw(int seat) {
    hands_[seat].push_back(deck_.back());
    deck_.pop_back();
    std::sort(hands_[seat].begin(), hands_[seat].end());
  }
  int score(int seat) const {
    int total = 0;
    for (uint8_t c : played_[seat]) total += c;
    return total;
  }

  Saying saying_;
  int turn_ = 0;
  std::vector<uint8_t> deck_;
  std::vector<std::vector<uint8_t>> hands_;
  std::vector<std::vector<uint8_t>> played_;
};

// What high_cards and said_cards share: the game, its seats, parameters, view and bot.
RulesetInfo high_cards_info(std::string name, std::string display_name, std::string summary) {
  RulesetInfo info;
  info.name = std::move(name);
  info.display_name = std::move(display_name);
  info.summary = std::move(summary);
  info.min_seats = 2;
  info.max_seats = 3;
  info.params = {ParamSpec::integer("hand", "cards in hand", 2, 1, 3),
                 ParamSpec::integer("explode_at", "fault on this action (tests)", 0, 0, 100)};
  info.view_message = "duelhall.test.HighCardsView";
  info.max_game_length = 100;
  info.make_bot = [](std::string_view) { return std::make_unique<RandomBot>(); };
  info.labels_by_code = true;  // "play N"
  return info;
}

}  // namespace

void register_high_cards(Registry& registry) {
  RulesetInfo info = high_cards_info(kTestRuleset, "High Cards (test)", "A test-only card game.");
  info.create = [](const MatchConfig& config) {
    return std::make_unique<HighCards>(config, Saying::kTexts);
  };
  // Seat options: a colour, "red" or "blue" (or none); two seats may not bring the same one.
  info.check_seat_option = [](const Params&, const std::string& option) {
    if (option.empty() || option == "red" || option == "blue") return std::optional<std::string>();
    return std::optional<std::string>("the colour must be red or blue");
  };
  info.check_seat_options = [](const Params&, const std::vector<std::string>& options) {
    for (size_t i = 0; i < options.size(); ++i) {
      for (size_t j = i + 1; j < options.size(); ++j) {
        if (!options[i].empty() && options[i] == options[j]) {
          return std::optional<std::string>("two seats bring " + options[i]);
        }
      }
    }
    return std::optional<std::string>();
  };
  registry.add(std::move(info));
}

void register_said_cards(Registry& registry) {
  RulesetInfo info =
      high_cards_info(kSaidRuleset, "Said Cards (test)", "High Cards, its events said as phrases.");
  info.params.push_back(ParamSpec::choice("said", "the events said as phrases", {"all", "plays"}));
  info.phrases = &kBook;
  info.create = [](const MatchConfig& config) {
    const bool all = config.params.get_choice("said") == "all";
    return std::make_unique<HighCards>(config, all ? Saying::kPhrases : Saying::kPlaysOnly);
  };
  registry.add(std::move(info));
}

Registry registry_with_test_ruleset() {
  Registry registry = builtin_registry();
  register_high_cards(registry);
  register_said_cards(registry);
  return registry;
}

}  // namespace duelhall::testing
