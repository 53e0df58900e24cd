// A throw-away redis-server for one test: Debian's binary on a free loopback port (redis-server
// cannot take port 0), nothing saved (--save '' --appendonly no), its folder a temporary one.
// stop() and start() again on the same port play a Redis that goes and comes back.
#pragma once

#include <hiredis/hiredis.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "../integration/server_process.hpp"

namespace duelhall::testing {

class RedisServer {
 public:
  RedisServer() : port_(free_loopback_port()), dir_(temp_data_dir("redis")) {
    std::filesystem::create_directories(dir_);
    start();
  }
  ~RedisServer() {
    stop();
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  RedisServer(const RedisServer&) = delete;
  RedisServer& operator=(const RedisServer&) = delete;

  uint16_t port() const { return port_; }
  // The redis-server process (to pause it with SIGSTOP: a Redis that does not answer).
  pid_t pid() const { return pid_; }
  std::string url() const { return "redis://127.0.0.1:" + std::to_string(port_); }

  void start() {
    if (pid_ > 0) return;
    pid_ = ::fork();
    if (pid_ == 0) {
      std::vector<std::string> args = {"redis-server",
                                       "--port",
                                       std::to_string(port_),
                                       "--bind",
                                       "127.0.0.1",
                                       "--save",
                                       "",
                                       "--appendonly",
                                       "no",
                                       "--dir",
                                       dir_.string(),
                                       "--loglevel",
                                       "warning"};
      std::vector<char*> argv;
      for (auto& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      const std::string log = (dir_ / "redis.log").string();
      if (std::FILE* out = std::freopen(log.c_str(), "a", stdout)) ::dup2(::fileno(out), 2);
      ::execvp("redis-server", argv.data());
      ::_exit(127);
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (std::chrono::steady_clock::now() < deadline) {
      if (answers()) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    stop();
    throw std::runtime_error("redis-server did not come up (is it installed?)");
  }

  void stop() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGKILL);
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
  }

  bool answers() const {
    redisContext* c = redisConnectWithTimeout("127.0.0.1", port_, {0, 200'000});
    bool ok = false;
    if (c && !c->err) {
      auto* reply = static_cast<redisReply*>(redisCommand(c, "PING"));
      ok = reply && reply->type == REDIS_REPLY_STATUS;
      if (reply) freeReplyObject(reply);
    }
    if (c) redisFree(c);
    return ok;
  }

 private:
  uint16_t port_;
  std::filesystem::path dir_;
  pid_t pid_ = -1;
};

}  // namespace duelhall::testing
