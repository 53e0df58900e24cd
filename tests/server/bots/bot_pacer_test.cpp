// Bot pacing (server/match/bot_pacer.*): the rule, the probes' lag, and a bot's move held back
// by the pace while matches between people go on.
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <boost/asio/post.hpp>
#include <thread>

#include "match/bot_pacer.hpp"
#include "metrics/server_metrics.hpp"
#include "support/in_process.hpp"

using namespace duelhall;
using duelhall::testing::InProcessClient;
using duelhall::testing::InProcessServer;
using server::PaceSample;
using Clock = std::chrono::steady_clock;
using std::chrono::microseconds;
using std::chrono::milliseconds;

namespace {

const PaceSample kBusy{.worst_lag = milliseconds(5), .cores_used = 1.5};
const PaceSample kCalm{.worst_lag = microseconds(300), .cores_used = 1.5};

}  // namespace

TEST_CASE("bot pacing: the delay doubles per busy window up to its cap and falls by a quarter per calm one") {
  const server::BotSettings bots;  // pace_lag_ms 1, pace_max_ms 1000
  uint32_t pace = 0;
  std::vector<uint32_t> rising;
  for (int i = 0; i < 8; ++i) rising.push_back(pace = server::next_bot_pace_ms(pace, kBusy, bots));
  CHECK(rising == std::vector<uint32_t>{25, 50, 100, 200, 400, 800, 1000, 1000});
  std::vector<uint32_t> falling;
  for (int i = 0; i < 3; ++i) falling.push_back(pace = server::next_bot_pace_ms(pace, kCalm, bots));
  CHECK(falling == std::vector<uint32_t>{750, 563, 423});
  // Under the first step it ends: bots answer at once again.
  CHECK(server::next_bot_pace_ms(32, kCalm, bots) == 0);
  CHECK(server::next_bot_pace_ms(0, kCalm, bots) == 0);
}

TEST_CASE("bot pacing: lag the server's own work does not cause, or pacing turned off, leaves bots alone") {
  server::BotSettings bots;
  // The cores busy with another process: the server used a tenth of one.
  CHECK(server::next_bot_pace_ms(0, {.worst_lag = milliseconds(50), .cores_used = 0.1}, bots) == 0);
  CHECK(server::next_bot_pace_ms(100, {.worst_lag = milliseconds(50), .cores_used = 0.1}, bots) == 75);
  // Just under the lag: calm.
  CHECK(server::next_bot_pace_ms(0, {.worst_lag = microseconds(999), .cores_used = 2}, bots) == 0);
  CHECK(server::next_bot_pace_ms(0, {.worst_lag = milliseconds(1), .cores_used = 2}, bots) == 25);
  bots.pace_lag_ms = 0;
  CHECK(server::next_bot_pace_ms(400, kBusy, bots) == 0);
  bots = {};
  bots.pace_max_ms = 10;  // a cap under the first step is the cap
  CHECK(server::next_bot_pace_ms(0, kBusy, bots) == 10);
}

TEST_CASE("bot pacing: the probes see how late a busy I/O thread runs them") {
  boost::asio::io_context io;
  auto pacer = std::make_shared<server::BotPacer>(io, server::BotSettings{}, nullptr);
  pacer->start();
  std::atomic<bool> spinning{true};
  // Each handler holds the only I/O thread 30 ms, as a burst of work would.
  std::function<void()> spin = [&] {
    const auto until = Clock::now() + milliseconds(30);
    while (Clock::now() < until) {
    }
    if (spinning) boost::asio::post(io, spin);
  };
  boost::asio::post(io, spin);
  std::thread thread([&] { io.run(); });
  const auto deadline = Clock::now() + std::chrono::seconds(20);
  while (pacer->last_lag() < milliseconds(15) && Clock::now() < deadline) {
    std::this_thread::sleep_for(milliseconds(20));
  }
  const microseconds lag = pacer->last_lag();
  spinning = false;
  pacer->stop();
  thread.join();
  INFO("lag " << lag.count() << " us");
  CHECK(lag >= milliseconds(15));
}

TEST_CASE("bot pacing: a bot's move waits the pace, and goes at once when the server is calm, and a paced expert does not search") {
  InProcessServer server;
  InProcessClient ann(server);
  ann.hello("Ann");
  // A match against a bot; the heuristic answers on the match's strand.
  const auto new_match = [&](const char* level = "heuristic") {
    ClientMessage m;
    CreateMatch* c = m.mutable_create_match();
    c->mutable_settings()->set_ruleset("jedi_duel");
    c->mutable_settings()->set_seats(2);
    c->mutable_settings()->set_bot_level(level);
    c->set_join(true);
    c->set_bot_seats(1);
    auto created = ann.request(m);
    REQUIRE(created.result() == OK);
    return created.created().match().match_id();
  };
  const auto actions = [&](uint64_t id) {
    MatchInfo info;
    server.hub->find_match(id)->describe(info);
    return info.actions();
  };
  // Plays Ann's seat (never conceding) until the bot is due, then times the bot's answer from
  // Ann's last action.
  const auto bot_answer = [&](uint64_t id) -> std::optional<milliseconds> {
    for (int guard = 0; guard < 200; ++guard) {
      REQUIRE(ann.wait_until([&] {
        const auto* t = ann.tracker.find(id);
        return t && (t->ended || !t->legal.empty());
      }));
      const auto* t = ann.tracker.find(id);
      if (t->ended) return std::nullopt;
      const auto move = std::find_if(t->legal.begin(), t->legal.end(), [](const auto& a) {
        return a.label().rfind("concede", 0) != 0;
      });
      REQUIRE(move != t->legal.end());
      ClientMessage act;
      act.mutable_action()->set_match_id(id);
      act.mutable_action()->set_code(move->code());
      act.mutable_action()->set_seq(t->seq);
      const uint64_t before = actions(id);
      const auto sent = Clock::now();
      const auto answered = [&] { return std::chrono::duration_cast<milliseconds>(Clock::now() - sent); };
      REQUIRE(ann.request(act).result() == OK);
      if (actions(id) > before + 1) return answered();  // the bot moved while the reply came
      const auto* now = ann.tracker.find(id);
      if (now->ended) return std::nullopt;
      if (!now->legal.empty()) continue;  // still Ann's move
      REQUIRE(ann.wait_until([&] { return actions(id) > before + 1; }, milliseconds(10'000)));
      return answered();
    }
    return std::nullopt;
  };

  server::BotPacer& pacer = server.hub->bot_pacer();
  for (int i = 0; i < 5; ++i) pacer.observe(kBusy);
  REQUIRE(pacer.pace_ms() == 400);
  const auto paced = bot_answer(new_match());
  REQUIRE(paced);
  CHECK(*paced >= milliseconds(400));

  while (pacer.pace_ms() > 0) pacer.observe(kCalm);
  const auto calm = bot_answer(new_match());
  REQUIRE(calm);
  CHECK(*calm < milliseconds(400));

  // Paced, an expert plays its heuristic move after the wait: no search takes a core.
  const auto moves = [](const char* how) {
    return metrics::server_metrics()
        .registry.counter("duelhall_bot_moves_total", "", {{"how", how}})
        .value();
  };
  const uint64_t searched = moves("searched");
  const uint64_t paced_moves = moves("paced");
  pacer.observe(kBusy);
  REQUIRE(pacer.pace_ms() == 25);
  const auto expert = bot_answer(new_match("expert"));
  REQUIRE(expert);
  CHECK(*expert >= milliseconds(25));
  CHECK(moves("paced") > paced_moves);
  CHECK(moves("searched") == searched);
}
