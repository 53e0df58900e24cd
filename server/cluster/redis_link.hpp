// One connection to Redis on the server's Asio loop (hiredis's async API, hiredis_asio.hpp),
// reconnecting with exponential back-off for as long as it runs. Everything it does runs on its
// own strand; its public calls may come from any thread, and every handler runs on that strand
// (so a handler must not block). A command either gets its reply or, when there is no
// connection, too many replies are awaited, or the reply is late, nullopt: callers never wait on
// a Redis that is gone. A subscriber link (subscribe()) renews its subscriptions on reconnect.
#pragma once

#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <chrono>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cluster/redis_reply.hpp"

struct redisAsyncContext;

namespace duelhall::cluster {

struct RedisEndpoint {
  std::string host;
  uint16_t port = 6379;
  std::string text() const { return host + ":" + std::to_string(port); }
};

// "redis://HOST:PORT" (the port defaults to 6379); false with `error` otherwise.
bool parse_redis_url(const std::string& url, RedisEndpoint& out, std::string& error);

// Connects once, synchronously, and sends PING: the start-up check, so that a Redis that cannot
// be reached stops the server with the reason before it serves anything. Empty when it answered.
std::string probe_redis(const RedisEndpoint& endpoint, std::chrono::milliseconds timeout);

using ReplyHandler = std::function<void(std::optional<RedisReply>)>;

class RedisLink : public std::enable_shared_from_this<RedisLink> {
 public:
  struct Options {
    std::string name = "redis";  // for the log: "commands", "lobby feed"
    std::chrono::milliseconds backoff_first{100};
    std::chrono::milliseconds backoff_max{5000};
    std::chrono::milliseconds reply_timeout{3000};
    size_t max_waiting = 10'000;  // replies awaited at once
  };

  RedisLink(boost::asio::io_context& io, RedisEndpoint endpoint, Options options);
  ~RedisLink();
  RedisLink(const RedisLink&) = delete;
  RedisLink& operator=(const RedisLink&) = delete;

  // Connects, and reconnects after every loss until stop().
  void start();
  // Closes the connection; awaited replies get nullopt. Call before the io_context goes.
  void stop();
  bool up() const { return up_; }

  // Sends one command, its arguments binary-safe ("SET", key, bytes).
  void command(std::vector<std::string> args, ReplyHandler handler);
  // Subscriber links: every message on `channel` goes to `on_message` (the payload).
  void subscribe(const std::string& channel, std::function<void(std::string)> on_message);
  // Called on the strand each time the connection comes up (true) or is lost (false).
  void on_state(std::function<void(bool)> handler);

 private:
  struct Waiting;
  static void on_reply(redisAsyncContext* context, void* reply, void* data);
  static void on_message(redisAsyncContext* context, void* reply, void* data);
  static void on_connect(const redisAsyncContext* context, int status);
  static void on_disconnect(const redisAsyncContext* context, int status);

  void connect();
  void connected();
  void lost(const std::string& why);
  void retry_later();
  void send(std::vector<std::string> args, ReplyHandler handler);
  void send_subscribe(const std::string& channel);
  void arm_watchdog();
  void drop_connection(const std::string& why);

  boost::asio::strand<boost::asio::io_context::executor_type> strand_;
  const RedisEndpoint endpoint_;
  const Options options_;
  redisAsyncContext* context_ = nullptr;
  bool connecting_ = false;
  bool stopped_ = false;
  std::atomic<bool> up_{false};
  int failures_ = 0;  // in a row, for the back-off
  boost::asio::steady_timer retry_timer_;
  boost::asio::steady_timer watchdog_;
  std::deque<std::chrono::steady_clock::time_point> sent_at_;  // of each awaited reply, in order
  std::map<std::string, std::function<void(std::string)>> subscriptions_;
  std::function<void(bool)> on_state_;
};

}  // namespace duelhall::cluster
