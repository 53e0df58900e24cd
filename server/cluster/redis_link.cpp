#include "cluster/redis_link.hpp"

#include <hiredis/async.h>
#include <hiredis/hiredis.h>
#include <spdlog/spdlog.h>
#include <boost/asio/post.hpp>
#include <charconv>

#include "cluster/hiredis_asio.hpp"

namespace duelhall::cluster {

namespace asio = boost::asio;
using Clock = std::chrono::steady_clock;

bool parse_redis_url(const std::string& url, RedisEndpoint& out, std::string& error) {
  const std::string scheme = "redis://";
  if (url.rfind(scheme, 0) != 0) {
    error = "a cluster address is redis://HOST:PORT, not '" + url + "'";
    return false;
  }
  std::string rest = url.substr(scheme.size());
  if (!rest.empty() && rest.back() == '/') rest.pop_back();
  std::string host = rest;
  std::string port;
  if (!rest.empty() && rest.front() == '[') {  // [IPv6]:port
    const auto close = rest.find(']');
    if (close == std::string::npos) {
      error = "unclosed '[' in " + url;
      return false;
    }
    host = rest.substr(1, close - 1);
    if (close + 1 < rest.size() && rest[close + 1] == ':') port = rest.substr(close + 2);
  } else if (const auto colon = rest.rfind(':'); colon != std::string::npos) {
    host = rest.substr(0, colon);
    port = rest.substr(colon + 1);
  }
  if (host.empty() || host.find_first_of("/@ ") != std::string::npos) {
    error = "no host in " + url + " (redis://HOST:PORT; passwords and databases are not taken)";
    return false;
  }
  uint32_t number = 6379;
  if (!port.empty()) {
    auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), number);
    if (ec != std::errc() || end != port.data() + port.size() || number == 0 || number > 65535) {
      error = "bad port in " + url;
      return false;
    }
  }
  out.host = host;
  out.port = static_cast<uint16_t>(number);
  return true;
}

std::string probe_redis(const RedisEndpoint& endpoint, std::chrono::milliseconds timeout) {
  timeval tv{static_cast<time_t>(timeout.count() / 1000),
             static_cast<suseconds_t>((timeout.count() % 1000) * 1000)};
  redisContext* c = redisConnectWithTimeout(endpoint.host.c_str(), endpoint.port, tv);
  if (!c || c->err) {
    std::string why = c ? c->errstr : "out of memory";
    if (c) redisFree(c);
    return "cannot reach Redis at " + endpoint.text() + ": " + why;
  }
  redisSetTimeout(c, tv);
  auto* reply = static_cast<redisReply*>(redisCommand(c, "PING"));
  std::string problem;
  if (!reply) {
    problem = "Redis at " + endpoint.text() + " did not answer PING: " + c->errstr;
  } else if (reply->type == REDIS_REPLY_ERROR) {
    problem = "Redis at " + endpoint.text() + " refused PING: " + std::string(reply->str);
  }
  if (reply) freeReplyObject(reply);
  redisFree(c);
  return problem;
}

struct RedisLink::Waiting {
  ReplyHandler handler;
};

RedisLink::RedisLink(asio::io_context& io, RedisEndpoint endpoint, Options options)
    : strand_(asio::make_strand(io)),
      endpoint_(std::move(endpoint)),
      options_(std::move(options)),
      retry_timer_(strand_),
      watchdog_(strand_) {}

RedisLink::~RedisLink() {
  stopped_ = true;
  if (context_) redisAsyncFree(context_);
}

void RedisLink::start() {
  asio::post(strand_, [self = shared_from_this()] { self->connect(); });
}

void RedisLink::stop() {
  asio::post(strand_, [self = shared_from_this()] {
    self->stopped_ = true;
    self->retry_timer_.cancel();
    self->watchdog_.cancel();
    if (redisAsyncContext* context = self->context_) {
      self->context_ = nullptr;
      redisAsyncFree(context);  // awaited replies get nullopt
    }
    self->up_ = false;
  });
}

void RedisLink::on_state(std::function<void(bool)> handler) {
  asio::post(strand_, [self = shared_from_this(), handler = std::move(handler)]() mutable {
    self->on_state_ = std::move(handler);
  });
}

void RedisLink::command(std::vector<std::string> args, ReplyHandler handler) {
  asio::post(strand_, [self = shared_from_this(), args = std::move(args),
                       handler = std::move(handler)]() mutable {
    self->send(std::move(args), std::move(handler));
  });
}

void RedisLink::subscribe(const std::string& channel, std::function<void(std::string)> on_message) {
  asio::post(strand_, [self = shared_from_this(), channel, on_message = std::move(on_message)] {
    self->subscriptions_[channel] = on_message;
    if (self->up_) self->send_subscribe(channel);
  });
}

void RedisLink::connect() {
  if (stopped_ || context_) return;
  redisAsyncContext* context = redisAsyncConnect(endpoint_.host.c_str(), endpoint_.port);
  if (!context || context->err) {
    const std::string why = context ? context->errstr : "out of memory";
    if (context) redisAsyncFree(context);
    lost(why);
    return;
  }
  context->data = this;
  redisEnableKeepAlive(&context->c);
  attach_to_asio(context, strand_);
  context_ = context;
  redisAsyncSetDisconnectCallback(context, &RedisLink::on_disconnect);
  redisAsyncSetConnectCallback(context, &RedisLink::on_connect);  // waits for writability
}

void RedisLink::on_connect(const redisAsyncContext* context, int status) {
  auto* self = static_cast<RedisLink*>(context->data);
  if (status != REDIS_OK) {
    self->context_ = nullptr;  // hiredis frees a context whose connect failed
    self->lost(context->errstr);
    return;
  }
  self->connected();
}

void RedisLink::on_disconnect(const redisAsyncContext* context, int status) {
  auto* self = static_cast<RedisLink*>(context->data);
  self->context_ = nullptr;
  self->lost(status == REDIS_OK ? "closed" : context->errstr);
}

void RedisLink::connected() {
  if (failures_ > 0 || !options_.name.empty()) {
    spdlog::info("cluster: {} connected to Redis at {}", options_.name, endpoint_.text());
  }
  failures_ = 0;
  up_ = true;
  for (const auto& [channel, handler] : subscriptions_) send_subscribe(channel);
  arm_watchdog();
  if (on_state_) on_state_(true);
}

void RedisLink::lost(const std::string& why) {
  sent_at_.clear();
  const bool was_up = up_.exchange(false);
  if (stopped_) return;
  if (was_up) {
    spdlog::warn("cluster: {} lost Redis at {} ({}); reconnecting", options_.name, endpoint_.text(),
                 why);
    if (on_state_) on_state_(false);
  } else if (failures_ == 0) {
    spdlog::warn("cluster: {} cannot reach Redis at {} ({}); retrying with back-off", options_.name,
                 endpoint_.text(), why);
  }
  retry_later();
}

void RedisLink::retry_later() {
  auto delay = options_.backoff_first * (1LL << std::min(failures_, 16));
  if (delay > options_.backoff_max) delay = options_.backoff_max;
  ++failures_;
  retry_timer_.expires_after(delay);
  retry_timer_.async_wait([self = shared_from_this()](boost::system::error_code ec) {
    if (!ec) self->connect();
  });
}

void RedisLink::send(std::vector<std::string> args, ReplyHandler handler) {
  if (!context_ || !up_ || sent_at_.size() >= options_.max_waiting) {
    handler(std::nullopt);
    return;
  }
  std::vector<const char*> argv;
  std::vector<size_t> lengths;
  for (const auto& arg : args) {
    argv.push_back(arg.data());
    lengths.push_back(arg.size());
  }
  auto* waiting = new Waiting{std::move(handler)};
  if (redisAsyncCommandArgv(context_, &RedisLink::on_reply, waiting, static_cast<int>(argv.size()),
                            argv.data(), lengths.data()) != REDIS_OK) {
    ReplyHandler failed = std::move(waiting->handler);
    delete waiting;
    failed(std::nullopt);
    return;
  }
  sent_at_.push_back(Clock::now());
}

void RedisLink::on_reply(redisAsyncContext* context, void* reply, void* data) {
  auto* self = static_cast<RedisLink*>(context->data);
  std::unique_ptr<Waiting> waiting(static_cast<Waiting*>(data));
  if (!self->sent_at_.empty()) self->sent_at_.pop_front();
  if (reply) {
    waiting->handler(copy_reply(reply));
  } else {
    waiting->handler(std::nullopt);  // the connection went before the reply came
  }
}

void RedisLink::send_subscribe(const std::string& channel) {
  if (!context_) return;
  auto it = subscriptions_.find(channel);
  redisAsyncCommand(context_, &RedisLink::on_message, &it->second, "SUBSCRIBE %b", channel.data(),
                    channel.size());
}

void RedisLink::on_message(redisAsyncContext*, void* reply, void* data) {
  const auto* r = static_cast<const redisReply*>(reply);
  if (!r || r->type != REDIS_REPLY_ARRAY || r->elements != 3) return;
  const redisReply* kind = r->element[0];
  const redisReply* payload = r->element[2];
  if (kind->type != REDIS_REPLY_STRING || std::string(kind->str, kind->len) != "message") return;
  if (payload->type != REDIS_REPLY_STRING) return;
  (*static_cast<std::function<void(std::string)>*>(data))(std::string(payload->str, payload->len));
}

void RedisLink::arm_watchdog() {
  watchdog_.expires_after(std::chrono::milliseconds(500));
  watchdog_.async_wait([self = shared_from_this()](boost::system::error_code ec) {
    if (ec || !self->context_ || !self->up_) return;
    if (!self->sent_at_.empty() &&
        Clock::now() - self->sent_at_.front() > self->options_.reply_timeout) {
      self->drop_connection("no reply within " +
                            std::to_string(self->options_.reply_timeout.count()) + " ms");
      return;
    }
    self->arm_watchdog();
  });
}

void RedisLink::drop_connection(const std::string& why) {
  redisAsyncContext* context = context_;
  if (!context) return;
  redisAsyncFree(context);  // awaited replies get nullopt; on_disconnect clears context_
  if (context_ == context) {
    context_ = nullptr;
    lost(why);
  }
}

}  // namespace duelhall::cluster
