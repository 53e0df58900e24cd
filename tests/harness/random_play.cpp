#include "harness/random_play.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <sstream>

namespace duelhall::testing {
namespace {

using engine::Action;
using engine::RefusalCode;
using engine::Seat;
using engine::State;
using engine::Viewer;

struct GameContext {
  std::string ruleset;
  uint64_t seed = 0;
  int seats = 0;
  size_t step = 0;
  std::string describe() const {
    std::ostringstream s;
    s << ruleset << " seats=" << seats << " seed=" << seed << " step=" << step;
    return s.str();
  }
};

#define HARNESS_CHECK(cond, ctx, what)        \
  do {                                        \
    if (!(cond)) {                            \
      FAIL((ctx).describe() << ": " << what); \
    }                                         \
  } while (false)

void check_legal_lists(const State& state, const GameContext& ctx) {
  std::vector<Action> legal;
  for (Seat seat = 0; seat < state.num_seats(); ++seat) {
    legal.clear();
    state.legal_actions(seat, legal);
    bool pending = state.pending().has(seat);
    HARNESS_CHECK(pending == !legal.empty(), ctx,
                  "seat " << seat << " pending=" << pending << " but has " << legal.size()
                          << " legal actions");
    HARNESS_CHECK(std::is_sorted(legal.begin(), legal.end()), ctx, "legal list not sorted");
    HARNESS_CHECK(std::adjacent_find(legal.begin(), legal.end()) == legal.end(), ctx,
                  "legal list has duplicates");
  }
}

// labels_by_code: each code keeps the label it had the first time, in any game and seat.
void check_code_labels(const State& state, const GameContext& ctx,
                       std::map<uint64_t, std::string>& labels, HarnessReport& report) {
  std::vector<Action> legal;
  for (Seat seat = 0; seat < state.num_seats(); ++seat) {
    legal.clear();
    state.legal_actions(seat, legal);
    for (const Action& action : legal) {
      const std::string label = state.action_label(seat, action);
      const auto [it, first] = labels.emplace(action.code(), label);
      HARNESS_CHECK(
          first || it->second == label, ctx,
          "code " << action.code() << " labelled '" << label << "', before '" << it->second << "'");
      ++report.label_checks;
    }
  }
}

void check_refusals(State& state, engine::Rng& rng, const GameContext& ctx) {
  const std::string before = state.serialize();
  std::vector<Action> legal;
  for (Seat seat = 0; seat < state.num_seats(); ++seat) {
    legal.clear();
    state.legal_actions(seat, legal);
    for (int attempt = 0; attempt < 4; ++attempt) {
      // Half near-misses (a legal action with one byte changed), half random codes.
      Action probe = Action::from_code(rng.next_u64());
      if (!legal.empty() && attempt % 2 == 0) {
        probe = legal[rng.below(static_cast<uint32_t>(legal.size()))];
        probe.args[rng.below(7)] ^= static_cast<uint8_t>(1 + rng.below(255));
      }
      if (std::binary_search(legal.begin(), legal.end(), probe)) continue;
      auto result = state.apply(seat, probe);
      HARNESS_CHECK(!result.ok(), ctx, "accepted an unlisted action " << probe.code());
      HARNESS_CHECK(!result.reason.empty(), ctx, "refusal without a reason");
      if (!state.pending().has(seat)) {
        HARNESS_CHECK(result.code == RefusalCode::kNotYourDecision, ctx,
                      "non-pending seat refused with " << engine::to_string(result.code));
      }
    }
  }
  auto no_seat = state.apply(state.num_seats(), Action{});
  HARNESS_CHECK(no_seat.code == RefusalCode::kNoSuchSeat, ctx, "bad seat not refused");
  HARNESS_CHECK(state.serialize() == before, ctx, "a refused action changed the state");
}

void check_round_trips(const engine::Registry& registry, const State& state,
                       const GameContext& ctx) {
  const std::string bytes = state.serialize();
  HARNESS_CHECK(state.clone()->serialize() == bytes, ctx, "clone differs");
  auto restored = registry.deserialize(bytes);
  HARNESS_CHECK(restored->serialize() == bytes, ctx, "serialize round trip differs");
  for (Seat seat = 0; seat < state.num_seats(); ++seat) {
    HARNESS_CHECK(restored->view(Viewer::of_seat(seat)) == state.view(Viewer::of_seat(seat)), ctx,
                  "restored view differs for seat " << seat);
  }
}

void check_leaks(const State& state, engine::Rng& rng, const GameContext& ctx,
                 HarnessReport& report) {
  std::vector<Viewer> viewers{Viewer::spectator()};
  for (Seat seat = 0; seat < state.num_seats(); ++seat) viewers.push_back(Viewer::of_seat(seat));
  const std::string omniscient = state.view(Viewer::omniscient());
  for (const Viewer& viewer : viewers) {
    auto redrawn = state.clone();
    redrawn->resample_hidden(viewer, rng);
    ++report.leak_checks;
    if (redrawn->view(Viewer::omniscient()) != omniscient) {
      ++report.hidden_redraws_that_changed_something;
    }
    HARNESS_CHECK(redrawn->view(viewer) == state.view(viewer), ctx,
                  "view of " << engine::to_string(viewer) << " depends on what it cannot see");
    HARNESS_CHECK(redrawn->inventory() == state.inventory(), ctx,
                  "redrawing hidden information changed the inventory");
  }
}

// An event said as a phrase renders its text (and its redacted one) from the ruleset's book.
void check_phrases(const engine::RulesetInfo& info, const std::vector<engine::Event>& events,
                   const GameContext& ctx, HarnessReport& report) {
  for (const auto& e : events) {
    ++report.events;
    if (!e.phrase) continue;
    HARNESS_CHECK(info.phrases != nullptr, ctx, "a phrase, but the ruleset has no phrase book");
    ++report.events_said_as_phrases;
    HARNESS_CHECK(engine::render(*info.phrases, e.phrase) == e.text, ctx,
                  "phrase " << e.phrase.id() << " renders '"
                            << engine::render(*info.phrases, e.phrase) << "', the text is '"
                            << e.text << "'");
    HARNESS_CHECK(!e.redacted.empty() == static_cast<bool>(e.redacted_phrase), ctx,
                  "a redacted text without its phrase, or the other way round: '" << e.text
                                                                                  << "'");
    if (e.redacted_phrase) {
      HARNESS_CHECK(engine::render(*info.phrases, e.redacted_phrase) == e.redacted, ctx,
                    "redacted phrase " << e.redacted_phrase.id() << " renders '"
                                       << engine::render(*info.phrases, e.redacted_phrase)
                                       << "', the redacted text is '" << e.redacted << "'");
    }
  }
}

}  // namespace

int scaled_games(int games) {
  const char* share_text = std::getenv("DUELHALL_RANDOM_PLAY_SHARE");
  if (share_text == nullptr || *share_text == '\0') return games;
  const double share = std::strtod(share_text, nullptr);
  // A share the run cannot mean (zero, negative, above one, not a number) plays every game.
  if (!(share > 0.0 && share <= 1.0)) return games;
  return std::max(1, static_cast<int>(games * share));
}

HarnessReport run_random_play(const engine::Registry& registry, const std::string& ruleset,
                              const HarnessOptions& options) {
  HarnessReport report;
  const engine::RulesetInfo* info = registry.find(ruleset);
  REQUIRE(info != nullptr);
  const int seat_choices = info->max_seats - info->min_seats + 1;
  std::map<uint64_t, std::string> code_labels;  // labels_by_code: each code's first label
  const int games = scaled_games(options.games);
  for (int game = 0; game < games; ++game) {
    GameContext ctx;
    ctx.ruleset = ruleset;
    ctx.seed = options.first_seed + static_cast<uint64_t>(game);
    ctx.seats = info->min_seats + game % seat_choices;
    std::vector<std::string> seat_options;
    if (options.seat_options) seat_options = options.seat_options(ctx.seats, ctx.seed);
    auto created = registry.create(ruleset, ctx.seats, engine::seed_from_number(ctx.seed),
                                   options.params, seat_options);
    HARNESS_CHECK(created.state != nullptr, ctx, "create failed: " << created.error);
    State& state = *created.state;
    engine::Rng rng(engine::seed_from_number(ctx.seed ^ 0x9e3779b97f4a7c15ull));
    const auto inventory = state.inventory();
    std::vector<Action> legal;
    std::vector<engine::Event> events;
    while (!state.terminal()) {
      ++ctx.step;
      HARNESS_CHECK(ctx.step <= static_cast<size_t>(info->max_game_length), ctx,
                    "game did not end within " << info->max_game_length << " actions");
      HARNESS_CHECK(!state.pending().empty(), ctx, "not terminal but nobody is pending");
      check_legal_lists(state, ctx);
      if (ctx.step % static_cast<size_t>(options.check_every) == 0) {
        check_refusals(state, rng, ctx);
        check_round_trips(registry, state, ctx);
        check_leaks(state, rng, ctx, report);
        if (info->labels_by_code) check_code_labels(state, ctx, code_labels, report);
      }
      HARNESS_CHECK(state.inventory() == inventory, ctx, "inventory changed");
      // A random pending seat acts: with several pending, any order must work.
      std::vector<Seat> pending;
      for (Seat s = 0; s < state.num_seats(); ++s) {
        if (state.pending().has(s)) pending.push_back(s);
      }
      Seat seat = pending[rng.below(static_cast<uint32_t>(pending.size()))];
      legal.clear();
      state.legal_actions(seat, legal);
      if (game % options.resign_every != 0) engine::drop_avoided(legal, info->resign_kinds);
      Action action = legal[rng.below(static_cast<uint32_t>(legal.size()))];
      events.clear();
      auto result = state.apply(seat, action, &events);
      HARNESS_CHECK(result.ok(), ctx, "legal action refused: " << result.reason);
      check_phrases(*info, events, ctx, report);
      ++report.actions;
    }
    HARNESS_CHECK(state.inventory() == inventory, ctx, "inventory changed by the last action");
    HARNESS_CHECK(state.pending().empty(), ctx, "terminal state has pending seats");
    auto outcome = state.outcome();
    HARNESS_CHECK((outcome.winners.bits() >> ctx.seats) == 0, ctx, "winner outside the seats");
    HARNESS_CHECK(!outcome.reason.empty(), ctx, "outcome without a reason");
    std::string error;
    auto replayed = engine::replay(registry, state.config(), state.history(), error);
    HARNESS_CHECK(replayed != nullptr, ctx, "replay failed: " << error);
    HARNESS_CHECK(replayed->serialize() == state.serialize(), ctx, "replay differs");
    check_round_trips(registry, state, ctx);
    ++report.games;
    ++report.games_by_seats[ctx.seats];
  }
  if (options.expects_hidden_information) {
    CHECK(report.hidden_redraws_that_changed_something > 0);
  }
  return report;
}

}  // namespace duelhall::testing
