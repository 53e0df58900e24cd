// duelhall-cli over a failover (docs/cluster.md, Failover; clients/cli/reconnect.hpp): the
// terminal client, playing against a bot on one node of two, comes back to its match on the
// other node without the user doing anything. Once through the 1012 MATCH_MOVED close of a node
// paused past its lease and the resume REDIRECT it answers (a spectator too, through its
// spectate's REDIRECT), once through a kill -9 of its node, after which its own address answers
// CLUSTER_UNAVAILABLE until the survivor has adopted the match (a spectator's spectate too).
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

#include "cluster_harness.hpp"
#include "storage/postgres/postgres_match_store.hpp"

using namespace duelhall;
using namespace duelhall::testing;

namespace {

// duelhall-cli run with `args` against `port`, its output in a file of its own.
class CliProcess {
 public:
  CliProcess(uint16_t port, const std::vector<std::string>& args)
      : out_(temp_data_dir("cli").string() + ".txt") {
    std::vector<std::string> all = {DUELHALL_CLI, "--url",
                                    "ws://127.0.0.1:" + std::to_string(port) + "/ws"};
    all.insert(all.end(), args.begin(), args.end());
    pid_ = ::fork();
    if (pid_ == 0) {
      const int fd = ::open(out_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
      ::dup2(fd, 1);
      ::dup2(fd, 2);
      std::vector<char*> argv;
      for (auto& a : all) argv.push_back(a.data());
      argv.push_back(nullptr);
      ::execv(argv[0], argv.data());
      ::_exit(127);
    }
  }
  ~CliProcess() {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
    std::remove(out_.c_str());
  }
  CliProcess(const CliProcess&) = delete;
  CliProcess& operator=(const CliProcess&) = delete;

  std::string output() const {
    std::ifstream in(out_);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }
  // Waits until the output holds `what`; false after `seconds`.
  bool wait_for(const std::string& what, int seconds) const {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
    while (output().find(what) == std::string::npos) {
      if (std::chrono::steady_clock::now() > deadline) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return true;
  }
  // Its exit status once it ends by itself, -1 when it has not within `seconds`.
  int wait_exit(int seconds) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
    while (std::chrono::steady_clock::now() < deadline) {
      int status = 0;
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return -1;
  }

 private:
  std::string out_;
  pid_t pid_ = -1;
};

// Plays against one bot that waits 800 ms per action, for 6 actions of its own.
std::vector<std::string> player_args() {
  return {"--name", "Solo",    "--bots",        "1", "--bot-delay-ms", "800",      "--auto",
          "first",  "--quiet", "--max-actions", "6", "create",         "jedi_duel"};
}

uint64_t created_id(const CliProcess& cli) {
  const std::string out = cli.output();
  const auto at = out.find("created match ");
  REQUIRE(at != std::string::npos);
  return std::stoull(out.substr(at + 14));
}

void wait_owner(storage::PostgresMatchStore& store, uint64_t id, const std::string& node) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(15);
  auto owner = store.match_owner(static_cast<storage::MatchId>(id));
  while ((!owner || owner->node != node) && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    owner = store.match_owner(static_cast<storage::MatchId>(id));
  }
  REQUIRE(owner.has_value());
  REQUIRE(owner->node == node);
}

}  // namespace

TEST_CASE(
    "duelhall-cli: a player and a spectator whose node was paused past its lease come back "
    "through its 1012 MATCH_MOVED close and the REDIRECT to the adopter, and play on there") {
  RedisServer redis;
  const std::string database = ThrowawayPostgres::shared().new_database();
  ServerProcess a(pg_node_args(redis, "node-a", database));
  ServerProcess b(pg_node_args(redis, "node-b", database));
  wait_node_ready(a);
  wait_node_ready(b);
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));

  // Both nodes are empty: the tie places the match on node-a, where the player is.
  CliProcess player(a.port(), player_args());
  REQUIRE(player.wait_for("created match ", 15));
  const uint64_t id = created_id(player);
  // The spectator comes through node-b, which sends it to node-a.
  CliProcess watcher(b.port(), {"--quiet", "spectate", std::to_string(id)});
  REQUIRE(watcher.wait_for("== match " + std::to_string(id), 15));
  REQUIRE(player.wait_for("> ", 15));

  storage::PostgresMatchStore store(database);
  a.signal(SIGSTOP);
  wait_owner(store, id, "node-b");
  a.signal(SIGCONT);

  const std::string on_b =
      "resumed match " + std::to_string(id) + " on 127.0.0.1:" + std::to_string(b.port());
  CHECK(player.wait_exit(45) == 0);
  INFO(player.output());
  CHECK(player.output().find("connection closed: 1012 MATCH_MOVED") != std::string::npos);
  CHECK(player.output().find(on_b) != std::string::npos);
  CHECK(player.output().find("stopping after 6 actions") != std::string::npos);
  // Its actions after the move went to node-b's log.
  CHECK(store.match_owner(static_cast<storage::MatchId>(id))->node == "node-b");
  const auto stored = store.load_match(static_cast<storage::MatchId>(id));
  REQUIRE(stored.has_value());
  size_t own = 0;
  for (const auto& step : stored->steps) own += step.seat == 0 ? 1 : 0;
  CHECK(own >= 5);  // one may have been answered MATCH_MOVED during the move

  INFO(watcher.output());
  REQUIRE(watcher.wait_for(on_b, 10));
  const std::string seen = watcher.output();
  CHECK(seen.find("== match " + std::to_string(id), seen.find(on_b)) != std::string::npos);
  CHECK(a.alive());
}

TEST_CASE(
    "duelhall-cli: a player and a spectator whose node was killed come back through the address "
    "they started with, waiting out CLUSTER_UNAVAILABLE until the survivor adopted the match") {
  RedisServer redis;
  const std::string database = ThrowawayPostgres::shared().new_database();
  ServerProcess a(pg_node_args(redis, "node-a", database));
  ServerProcess b(pg_node_args(redis, "node-b", database));
  wait_node_ready(a);
  wait_node_ready(b);
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));

  // Started on node-b, the player is sent to node-a, where the placement puts the match.
  CliProcess player(b.port(), player_args());
  REQUIRE(player.wait_for("created match ", 15));
  const uint64_t id = created_id(player);
  // A spectator through node-b too, sent on to node-a.
  CliProcess watcher(b.port(), {"--quiet", "spectate", std::to_string(id)});
  REQUIRE(watcher.wait_for("== match " + std::to_string(id), 15));
  REQUIRE(player.wait_for("> ", 15));
  storage::PostgresMatchStore store(database);
  CHECK(store.match_owner(static_cast<storage::MatchId>(id))->node == "node-a");

  a.kill_hard();
  CHECK(player.wait_exit(45) == 0);
  INFO(player.output());
  CHECK(player.output().find("resumed match " + std::to_string(id) +
                             " on 127.0.0.1:" + std::to_string(b.port())) != std::string::npos);
  CHECK(player.output().find("stopping after 6 actions") != std::string::npos);
  CHECK(store.match_owner(static_cast<storage::MatchId>(id))->node == "node-b");
  const std::string on_b =
      "resumed match " + std::to_string(id) + " on 127.0.0.1:" + std::to_string(b.port());
  INFO(watcher.output());
  REQUIRE(watcher.wait_for(on_b, 10));
  const std::string seen = watcher.output();
  CHECK(seen.find("== match " + std::to_string(id), seen.find(on_b)) != std::string::npos);
}
