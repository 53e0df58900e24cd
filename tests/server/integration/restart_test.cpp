// What a restart must not break (besides the play itself, recovery_test.cpp): match ids are never
// given out twice, spectators stay behind the host's delay, in actions or in seconds, with
// their stream continuing seq by seq and carrying the events of the delayed actions, and a match
// that ended just before (its last step stored, its end stored or not) is shown ended to its
// player who comes back, for as long as it stays listed.
#include <chrono>
#include <optional>
#include <thread>

#include "core/bot.hpp"
#include "core/registry.hpp"
#include "helpers.hpp"
#include "storage/sqlite/sqlite.hpp"
#include "storage/sqlite/sqlite_match_store.hpp"

using namespace duelhall;
using namespace duelhall::testing;

namespace {

constexpr const char* kRuleset = "jedi_duel";

using SystemClock = std::chrono::system_clock;

int64_t unix_ms(SystemClock::time_point t) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count();
}

uint64_t create_waiting(WsClient& client) {
  auto created = client.request(create_match(kRuleset, 2, true, 0));
  REQUIRE(created.result() == OK);
  return created.created().match().match_id();
}

// A match of the host (seat 0) against the bot, watched with the given delay.
uint64_t create_watched(WsClient& host, uint32_t delay_actions, uint32_t delay_seconds) {
  auto m = create_match(kRuleset, 2, true, 1);
  m.mutable_create_match()->mutable_settings()->set_spectator_delay_actions(delay_actions);
  m.mutable_create_match()->mutable_settings()->set_spectator_delay_seconds(delay_seconds);
  auto created = host.request(m);
  REQUIRE(created.result() == OK);
  return created.created().match().match_id();
}

// Plays the host's first legal action (never a resignation) until the match is at `target` or
// later and waits for the host's decision, so that nothing more happens until it acts; without a
// target, until the match has ended.
uint64_t play_until(WsClient& host, uint64_t id, std::optional<uint64_t> target) {
  const auto registry = engine::builtin_registry();
  const auto* info = registry.find(kRuleset);
  for (int guard = 0; guard < 5000; ++guard) {
    REQUIRE(host.wait_until([&] {
      auto* t = host.tracker().find(id);
      return t && (t->ended || !t->legal.empty());
    }));
    const auto* t = host.tracker().find(id);
    if (!target && t->ended) return t->seq;
    REQUIRE_FALSE(t->ended);
    if (target && t->seq >= *target) return t->seq;
    std::vector<engine::Action> legal;
    for (const auto& a : t->legal) legal.push_back(engine::Action::from_code(a.code()));
    engine::drop_avoided(legal, info->resign_kinds);
    const uint64_t seq = t->seq;
    REQUIRE(host.request(action(id, legal.front().code(), seq)).result() == OK);
    REQUIRE(host.wait_until([&] { return host.tracker().find(id)->seq > seq; }));
  }
  FAIL("the match did not get that far");
  return 0;
}

// A match of the host against the bot, played to its end; its token and what the host was shown.
struct EndedMatch {
  uint64_t id = 0;
  std::string token;
  client::TrackedMatch seen;
};

EndedMatch play_ended_match(const std::filesystem::path& data) {
  ServerProcess server({"--grace", "300"}, data, true);
  WsClient host;
  host.connect("127.0.0.1", server.port());
  auto welcome = host.hello("Host");
  REQUIRE(welcome.result() == OK);
  EndedMatch ended;
  ended.token = welcome.welcome().resume_token();
  ended.id = create_watched(host, 0, 0);
  play_until(host, ended.id, std::nullopt);
  ended.seen = *host.tracker().find(ended.id);
  REQUIRE(ended.seen.seq >= 2);
  return ended;
}

// The player comes back one step short of the end, and is shown the end as it was.
void check_shown_the_end(WsClient& back, const EndedMatch& ended) {
  auto resumed = back.request(resume_hello(ended.token, ended.id, ended.seen.seq - 1));
  REQUIRE(resumed.result() == OK);
  CHECK(resumed.welcome().resumed());
  REQUIRE(resumed.welcome().matches_size() == 1);
  CHECK(resumed.welcome().matches(0) == ended.id);
  REQUIRE(back.wait_until([&] {
    const auto* t = back.tracker().find(ended.id);
    return t && t->ended;
  }));
  const client::TrackedMatch& shown = *back.tracker().find(ended.id);
  CHECK(shown.seq == ended.seen.seq);
  CHECK(shown.view == ended.seen.view);
  CHECK(shown.status == FINISHED);
  CHECK(shown.outcome.reason() == ended.seen.outcome.reason());
  CHECK(std::vector<uint32_t>(shown.outcome.winners().begin(), shown.outcome.winners().end()) ==
        std::vector<uint32_t>(ended.seen.outcome.winners().begin(),
                              ended.seen.outcome.winners().end()));
  // Its seed is revealed, as any ended match's.
  auto snapshot = back.request(resync(ended.id));
  REQUIRE(snapshot.has_snapshot());
  CHECK_FALSE(snapshot.snapshot().match().seed().empty());
}

std::unique_ptr<WsClient> resume_as(uint16_t port, const std::string& token) {
  auto c = std::make_unique<WsClient>();
  c->connect("127.0.0.1", port);
  REQUIRE(c->resume(token).result() == OK);
  return c;
}

// What a spectator was shown: its snapshot, then each update, with the view the update made.
struct Shown {
  uint64_t seq = 0;
  std::string view;
  std::vector<std::string> events;
  int64_t at_ms = 0;  // when it arrived
};

Shown spectate_now(WsClient& watcher, uint64_t id) {
  auto reply = watcher.request(spectate(id));
  REQUIRE(reply.result() == OK);
  REQUIRE(reply.has_snapshot());
  return {reply.snapshot().seq(), reply.snapshot().view(), {}, unix_ms(SystemClock::now())};
}

// Collects the spectator's updates until it has been shown `seq`.
void follow_until(WsClient& watcher, uint64_t id, uint64_t seq, std::vector<Shown>& shown,
                  std::chrono::seconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (watcher.tracker().find(id)->seq < seq) {
    REQUIRE(std::chrono::steady_clock::now() < deadline);
    auto m = watcher.receive(std::chrono::milliseconds(200));
    if (!m || !m->has_update() || m->update().match_id() != id) continue;
    REQUIRE_FALSE(watcher.tracker().find(id)->broken);
    shown.push_back({m->update().seq(),
                     watcher.tracker().find(id)->view,
                     {m->update().events().begin(), m->update().events().end()},
                     unix_ms(SystemClock::now())});
  }
}

// The stored match replayed: the public view after each step and the spectators' event texts of
// each step (index = seq).
struct PublicStream {
  std::vector<std::string> views;
  std::vector<std::vector<std::string>> events;
  std::vector<int64_t> stored_ms;  // index = seq - 1
};

PublicStream stored_public_stream(const std::filesystem::path& data, uint64_t id) {
  const auto registry = engine::builtin_registry();
  storage::SqliteMatchStore store((data / "duelhall.db").string());
  auto stored = store.load_match(static_cast<storage::MatchId>(id));
  REQUIRE(stored);
  auto created = registry.create(stored->config.ruleset, stored->config.seats, stored->config.seed,
                                 stored->config.params.values(), stored->config.seat_options);
  REQUIRE(created.state);
  PublicStream stream;
  stream.views.push_back(created.state->view(engine::Viewer::spectator()));
  stream.events.emplace_back();
  for (const auto& step : stored->steps) {
    std::vector<engine::Event> events;
    REQUIRE(created.state->apply(step.seat, step.action, &events).ok());
    stream.views.push_back(created.state->view(engine::Viewer::spectator()));
    stream.events.emplace_back();
    for (const auto& e : events) {
      if (auto text = e.text_for(engine::Viewer::spectator()))
        stream.events.back().emplace_back(*text);
    }
  }
  stream.stored_ms = stored->step_ms;
  return stream;
}

// Every update after the snapshot is the next seq, shows the stored match's public view at that
// seq and carries the events of that step.
void check_stream(const Shown& snapshot, const std::vector<Shown>& updates,
                  const PublicStream& stored) {
  REQUIRE(snapshot.seq < stored.views.size());
  CHECK(snapshot.view == stored.views[snapshot.seq]);
  uint64_t seq = snapshot.seq;
  for (const Shown& u : updates) {
    INFO("update " << u.seq);
    REQUIRE(u.seq == ++seq);
    REQUIRE(u.seq < stored.views.size());
    CHECK(u.view == stored.views[u.seq]);
    CHECK(u.events == stored.events[u.seq]);
  }
}

}  // namespace

TEST_CASE("a match id is never given out twice, not even a waiting match's lost in a restart") {
  const auto data = temp_data_dir("ids");
  uint64_t lost = 0;
  {
    ServerProcess server({}, data, true);
    auto ann = connect_as(server.port(), "Ann");
    lost = create_waiting(*ann);
    server.kill_hard();
  }
  uint64_t second = 0;
  {
    ServerProcess server({}, data, true);
    auto ben = connect_as(server.port(), "Ben");
    second = create_waiting(*ben);
    CHECK(second > lost);
    // A client still holding the old id does not land in the stranger's match.
    auto cat = connect_as(server.port(), "Cat");
    CHECK(cat->request(join_match(lost, -1)).result() == UNKNOWN_MATCH);
    server.kill_hard();
  }
  {
    ServerProcess server({}, data, true);
    auto dan = connect_as(server.port(), "Dan");
    CHECK(create_waiting(*dan) > second);
    server.stop_cleanly();
  }
  std::filesystem::remove_all(data);
}

TEST_CASE("after a restart spectators stay the host's number of actions behind, seq by seq") {
  const auto data = temp_data_dir("delay-actions");
  const std::vector<std::string> flags = {"--grace", "300"};
  std::string token;
  uint64_t id = 0;
  uint64_t total = 0;
  {
    ServerProcess server(flags, data, true);
    auto ann = std::make_unique<WsClient>();
    ann->connect("127.0.0.1", server.port());
    auto welcome = ann->hello("Ann");
    REQUIRE(welcome.result() == OK);
    token = welcome.welcome().resume_token();
    id = create_watched(*ann, 3, 0);
    auto before = connect_as(server.port(), "Before");
    spectate_now(*before, id);
    total = play_until(*ann, id, 12);
    std::vector<Shown> ignored;
    follow_until(*before, id, total - 3, ignored, std::chrono::seconds(10));
    server.kill_hard();
  }
  Shown snapshot;
  std::vector<Shown> updates;
  {
    ServerProcess server(flags, data, true);
    auto watcher = connect_as(server.port(), "Watcher");
    snapshot = spectate_now(*watcher, id);
    CHECK(snapshot.seq == total - 3);  // the view it holds, not the match's seq
    auto ann = resume_as(server.port(), token);
    const uint64_t now = play_until(*ann, id, total + 5);
    follow_until(*watcher, id, now - 3, updates, std::chrono::seconds(10));
    server.stop_cleanly();
  }
  const PublicStream stored = stored_public_stream(data, id);
  check_stream(snapshot, updates, stored);
  // The actions the delay held at the restart reached the spectator with their events.
  REQUIRE(updates.size() >= 3);
  CHECK(updates[0].seq == total - 2);
  std::filesystem::remove_all(data);
}

TEST_CASE("after a restart spectators stay the host's number of seconds behind") {
  constexpr int64_t kDelayMs = 6000;
  const auto data = temp_data_dir("delay-seconds");
  const std::vector<std::string> flags = {"--grace", "300"};
  uint64_t id = 0;
  uint64_t total = 0;
  {
    ServerProcess server(flags, data, true);
    auto ann = connect_as(server.port(), "Ann");
    id = create_watched(*ann, 0, kDelayMs / 1000);
    total = play_until(*ann, id, 6);
    server.kill_hard();
  }
  Shown snapshot;
  std::vector<Shown> updates;
  {
    ServerProcess server(flags, data, true);
    auto watcher = connect_as(server.port(), "Watcher");
    snapshot = spectate_now(*watcher, id);
    // Not the live view the delay holds back (the restart takes far less than the delay).
    CHECK(snapshot.seq < total);
    follow_until(*watcher, id, total, updates, std::chrono::seconds(20));
    server.stop_cleanly();
  }
  const PublicStream stored = stored_public_stream(data, id);
  check_stream(snapshot, updates, stored);
  // Nothing was shown before its time: each step only the delay after it was stored (a little
  // slack for the two clocks the server converts between).
  if (snapshot.seq > 0) CHECK(stored.stored_ms[snapshot.seq - 1] + kDelayMs <= snapshot.at_ms + 50);
  for (const Shown& u : updates) {
    INFO("update " << u.seq);
    CHECK(stored.stored_ms[u.seq - 1] + kDelayMs <= u.at_ms + 50);
  }
  std::filesystem::remove_all(data);
}

TEST_CASE(
    "a match whose last step was stored but not its end comes back ended, shown to its player") {
  const auto data = temp_data_dir("stored-end");
  const EndedMatch ended = play_ended_match(data);
  // The process dies after the last step's commit and before the end's: the store is put back
  // to that moment.
  {
    storage::Database db((data / "duelhall.db").string(), false);
    storage::Statement undo_end(
        db,
        "UPDATE matches SET status = 'live', winners = NULL, scores = NULL, "
        "result = NULL, ended_at = NULL WHERE id = ?");
    undo_end.bind(1, static_cast<int64_t>(ended.id)).run();
    REQUIRE(db.changes() == 1);
  }
  {
    ServerProcess server({"--grace", "300"}, data, true);
    WsClient back;
    back.connect("127.0.0.1", server.port());
    check_shown_the_end(back, ended);
  }
  // The end is stored again, as the match had it.
  storage::SqliteMatchStore store((data / "duelhall.db").string());
  auto stored = store.load_match(static_cast<storage::MatchId>(ended.id));
  REQUIRE(stored);
  CHECK(stored->summary.status == storage::MatchStatus::kFinished);
  REQUIRE(stored->summary.outcome);
  CHECK(stored->summary.outcome->reason == ended.seen.outcome.reason());
  CHECK(stored->summary.revealed_seed);
  std::filesystem::remove_all(data);
}

TEST_CASE("a match that ended just before a restart is listed again and shown to its player") {
  // The process may die after the end's commit and before the frames that show it are written.
  const auto data = temp_data_dir("ended-listed");
  const EndedMatch ended = play_ended_match(data);
  {
    ServerProcess server({"--grace", "300", "--finished-linger", "600"}, data, true);
    auto lobby = connect_as(server.port(), "Lobby");
    ClientMessage list;
    list.mutable_list_matches();
    auto listed = lobby->request(list);
    REQUIRE(listed.result() == OK);
    bool found = false;
    for (const auto& m : listed.matches().matches()) {
      if (m.match_id() == ended.id) found = m.status() == FINISHED;
    }
    CHECK(found);
    WsClient back;
    back.connect("127.0.0.1", server.port());
    check_shown_the_end(back, ended);
  }
  // Once it would no longer be listed, it does not come back, and its token opens nothing: the
  // token's hash is forgotten.
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  {
    ServerProcess server({"--grace", "300", "--finished-linger", "1"}, data, true);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    auto token_kept = [&] {
      storage::Database db((data / "duelhall.db").string(), false);
      storage::Statement seat(db,
                              "SELECT token_hash FROM match_seats WHERE match_id = ? AND seat = 0");
      REQUIRE(seat.bind(1, static_cast<int64_t>(ended.id)).step());
      return !seat.column_null(0);
    };
    while (token_kept() && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    CHECK_FALSE(token_kept());
    WsClient back;
    back.connect("127.0.0.1", server.port());
    CHECK(back.request(resume_hello(ended.token, ended.id, ended.seen.seq)).result() == BAD_TOKEN);
  }
  std::filesystem::remove_all(data);
}
