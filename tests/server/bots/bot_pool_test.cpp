// The expert bots think off the I/O threads (server/match/bot_pool.*, match_bots.cpp): the
// pool's bound, another match's latency while a bot thinks, the heuristic move when the queue is
// full, and an answer that comes after the match ended.
#include <catch2/catch.hpp>

#include <spdlog/sinks/ostream_sink.h>

#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <future>
#include <sstream>

#include "match/bot_pool.hpp"
#include "support/in_process.hpp"

using namespace duelhall;
using duelhall::testing::InProcessClient;
using duelhall::testing::InProcessServer;
using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

namespace {

// Long enough that a search on the I/O thread would show in any latency measured meanwhile.
constexpr uint32_t kThinkingMs = 1500;

server::Config thinking_config(uint32_t threads, uint32_t queue) {
  server::Config config;
  config.bots = {.threads = threads, .queue = queue, .iterations = 0, .milliseconds = kThinkingMs};
  return config;
}

uint64_t create(InProcessClient& host, const std::string& ruleset, int bots, bool join = true) {
  ClientMessage m;
  CreateMatch* c = m.mutable_create_match();
  c->mutable_settings()->set_ruleset(ruleset);
  c->mutable_settings()->set_seats(2);
  c->mutable_settings()->set_bot_level("expert");
  c->set_join(join);
  c->set_bot_seats(static_cast<uint32_t>(bots));
  auto reply = host.request(m);
  REQUIRE(reply.result() == OK);
  return reply.created().match().match_id();
}

ServerMessage act_first(InProcessClient& c, uint64_t id) {
  const auto* t = c.tracker.find(id);
  ClientMessage m;
  m.mutable_action()->set_match_id(id);
  m.mutable_action()->set_code(t->legal.front().code());
  m.mutable_action()->set_seq(t->seq);
  return c.request(m);
}

// Plays the human's seat (first legal action) until the match's expert bot is thinking on the
// pool; false if the match ended first.
bool until_bot_thinks(InProcessServer& server, InProcessClient& c, uint64_t id) {
  server::BotPool& pool = *server.hub->bot_pool();
  for (int guard = 0; guard < 400; ++guard) {
    bool mine = false;
    bool ended = false;
    REQUIRE(c.wait_until([&] {
      const auto* t = c.tracker.find(id);
      ended = t && t->ended;
      mine = t && !ended && !t->legal.empty();
      return pool.busy() > 0 || ended || mine;
    }));
    if (pool.busy() > 0) {
      // A search, not a move answered at once (a single legal action): still busy a while later.
      std::this_thread::sleep_for(milliseconds(100));
      if (pool.busy() > 0) return true;
      continue;
    }
    if (ended) return false;
    if (mine) REQUIRE(act_first(c, id).result() == OK);
  }
  return false;
}

uint64_t actions_of(InProcessServer& server, uint64_t id) {
  MatchInfo info;
  server.hub->find_match(id)->describe(info);
  return info.actions();
}

}  // namespace

TEST_CASE("the bot pool runs jobs on its threads and refuses them past its queue bound") {
  server::BotPool pool(1, 2);
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  std::atomic<int> started{0};
  std::atomic<int> done{0};
  auto job = [&] {
    ++started;
    released.wait();
    ++done;
  };
  REQUIRE(pool.submit(job));
  while (started.load() == 0) std::this_thread::yield();
  // The thread is busy: two may wait, the third is refused and never runs.
  CHECK(pool.submit(job));
  CHECK(pool.submit(job));
  CHECK_FALSE(pool.submit(job));
  CHECK(pool.busy() == 3);
  release.set_value();
  const auto deadline = Clock::now() + std::chrono::seconds(10);
  while (pool.busy() > 0 && Clock::now() < deadline) std::this_thread::yield();
  CHECK(pool.busy() == 0);
  CHECK(done.load() == 3);
  // Room again once the jobs have run.
  CHECK(pool.submit([] {}));
}

TEST_CASE("a bot pool with no queue takes a job only for an idle thread") {
  server::BotPool pool(1, 0);
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  std::atomic<int> started{0};
  // The job holds its own copy of the future: the thread may still be in wait() when this test's
  // locals are gone (ThreadSanitizer saw the shared state freed under it).
  REQUIRE(pool.submit([&started, released] {
    ++started;
    released.wait();
  }));
  while (started.load() == 0) std::this_thread::yield();
  CHECK_FALSE(pool.submit([] {}));
  release.set_value();
}

#ifdef __linux__
TEST_CASE("the bot pool's threads run below the priority of the thread that made the pool") {
  // Linux keeps a nice value per thread: the pool's threads lower their own, not the process's.
  errno = 0;
  const int own = ::getpriority(PRIO_PROCESS, static_cast<id_t>(::syscall(SYS_gettid)));
  REQUIRE(errno == 0);
  server::BotPool pool(2, 4, 3);
  std::promise<int> seen;
  std::future<int> answer = seen.get_future();
  REQUIRE(pool.submit([&seen] {
    seen.set_value(::getpriority(PRIO_PROCESS, static_cast<id_t>(::syscall(SYS_gettid))));
  }));
  CHECK(answer.get() == std::min(own + 3, 19));
  // The caller's own priority is left as it was.
  CHECK(::getpriority(PRIO_PROCESS, static_cast<id_t>(::syscall(SYS_gettid))) == own);
}
#endif

TEST_CASE("an expert bot thinking does not delay another match's action") {
  InProcessServer server(thinking_config(1, 64));
  InProcessClient ann(server);
  InProcessClient bob(server);
  InProcessClient cid(server);
  ann.hello("Ann");
  bob.hello("Bob");
  cid.hello("Cid");
  // Bob and Cid play each other; Ann plays the expert bot.
  const uint64_t duel = create(bob, "jedi_duel", 0);
  ClientMessage join;
  join.mutable_join_match()->set_match_id(duel);
  join.mutable_join_match()->set_seat(1);
  REQUIRE(cid.request(join).result() == OK);
  const uint64_t versus_bot = create(ann, "jedi_duel", 1);
  REQUIRE(until_bot_thinks(server, ann, versus_bot));

  // Whoever of Bob and Cid is due acts while the bot thinks.
  InProcessClient* due = nullptr;
  REQUIRE(bob.wait_until([&] {
    cid.drain();
    for (InProcessClient* c : {&bob, &cid}) {
      const auto* t = c->tracker.find(duel);
      if (t && !t->legal.empty()) due = c;
    }
    return due != nullptr;
  }));
  const auto sent = Clock::now();
  REQUIRE(act_first(*due, duel).result() == OK);
  const auto latency = std::chrono::duration_cast<milliseconds>(Clock::now() - sent);
  INFO("latency " << latency.count() << " ms while the bot thinks for " << kThinkingMs << " ms");
  CHECK(latency < milliseconds(kThinkingMs / 3));
  CHECK(server.hub->bot_pool()->busy() == 1);  // the bot was still thinking meanwhile

  // The bot's move comes back through its match and the game goes on.
  const uint64_t before = actions_of(server, versus_bot);
  REQUIRE(ann.wait_until([&] { return actions_of(server, versus_bot) > before; },
                         milliseconds(kThinkingMs * 4)));
}

TEST_CASE("with every thinking thread busy and the queue full, a bot plays its heuristic move") {
  InProcessServer server(thinking_config(1, 0));
  InProcessClient ann(server);
  InProcessClient bob(server);
  ann.hello("Ann");
  bob.hello("Bob");
  const uint64_t first = create(ann, "jedi_duel", 1);
  REQUIRE(until_bot_thinks(server, ann, first));

  // Two expert bots play each other meanwhile: each finds the pool full and moves at once,
  // without waiting for Ann's bot, and /metrics counts those moves.
  const metrics::Counter& pool_full = metrics::server_metrics().registry.counter(
      "duelhall_bot_moves_total", "", {{"how", "pool_full"}});
  const uint64_t pool_full_before = pool_full.value();
  const auto start = Clock::now();
  const uint64_t second = create(bob, "jedi_duel", 2, false);
  REQUIRE(bob.wait_until([&] { return actions_of(server, second) >= 10; },
                         milliseconds(kThinkingMs / 2)));
  CHECK(Clock::now() - start < milliseconds(kThinkingMs / 2));
  CHECK(server.hub->bot_pool()->busy() == 1);  // only Ann's bot is thinking
  CHECK(pool_full.value() >= pool_full_before + 10);
  (void)first;
}

TEST_CASE("a thinking bot's answer that comes after its match ended is dropped") {
  InProcessServer server(thinking_config(1, 64));
  InProcessClient ann(server);
  ann.hello("Ann");
  const uint64_t id = create(ann, "jedi_duel", 1);
  REQUIRE(until_bot_thinks(server, ann, id));
  const uint64_t actions = actions_of(server, id);

  ClientMessage resign;
  resign.mutable_resign()->set_match_id(id);
  REQUIRE(ann.request(resign).result() == OK);
  REQUIRE(ann.wait_until([&] { return ann.tracker.find(id)->ended; }));
  const uint64_t seq = ann.tracker.find(id)->seq;

  // The bot finishes thinking; its move must not be applied to the ended match.
  server::BotPool& pool = *server.hub->bot_pool();
  REQUIRE(ann.wait_until([&] { return pool.busy() == 0; }, milliseconds(kThinkingMs * 4)));
  ann.wait_until([] { return false; }, milliseconds(200));
  CHECK(actions_of(server, id) == actions);
  CHECK(ann.tracker.find(id)->seq == seq);
  CHECK(ann.tracker.find(id)->outcome.reason().find("resigns") != std::string::npos);
}

// A whole match between searching bots takes under a second in a plain build. Under
// ThreadSanitizer it took 9 s alone and once more than 120 s for one ruleset beside the rest of
// the suite on a loaded machine, so a sanitizer build waits longer (ctest's limit there is 600 s).
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr auto kWholeMatch = std::chrono::seconds(400);
#else
constexpr auto kWholeMatch = std::chrono::seconds(120);
#endif

TEST_CASE("expert bots of every ruleset play a match to its end through the pool") {
  server::Config config;
  config.bots = {.threads = 2, .queue = 4, .iterations = 30, .milliseconds = 0};
  InProcessServer server(config);
  // A move the bot's copy allowed but the match refuses is logged (and replaced): none may be.
  std::ostringstream log;
  auto previous = spdlog::default_logger();
  auto capture = std::make_shared<spdlog::logger>(
      "capture", std::make_shared<spdlog::sinks::ostream_sink_mt>(log));
  capture->set_level(spdlog::level::warn);
  spdlog::set_default_logger(capture);
  InProcessClient host(server);
  host.hello("Host");
  for (const char* ruleset : {"jedi_duel", "force_battles", "young_jedi"}) {
    INFO(ruleset);
    const uint64_t id = create(host, ruleset, 2, false);
    CHECK(host.wait_until(
        [&] {
          MatchInfo info;
          server.hub->find_match(id)->describe(info);
          return info.status() == FINISHED;
        },
        kWholeMatch));
    CHECK(actions_of(server, id) > 2);
  }
  spdlog::set_default_logger(previous);
  CHECK(log.str().find("refused") == std::string::npos);
  CHECK(log.str().find("fault") == std::string::npos);
}
