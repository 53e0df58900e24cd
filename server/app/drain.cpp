#include "app/drain.hpp"

#include <spdlog/spdlog.h>

#include "metrics/server_metrics.hpp"
#include "net/messages.hpp"

namespace duelhall::server {

Drain::Drain(boost::asio::io_context& io, Hub& hub, HttpContext& context,
             std::function<void()> stop)
    : hub_(hub), context_(context), stop_(std::move(stop)), timer_(io) {}

void Drain::begin(const std::string& reason) {
  if (begun_) {
    spdlog::warn("second stop signal: stopping without waiting for the drain");
    return finish();
  }
  begun_ = true;
  metrics::server_metrics().drains.add();
  const uint32_t seconds = hub_.config().drain_seconds;
  spdlog::info("draining ({}): no new matches, telling {} connections, stopping within {} s",
               reason, context_.sessions->size(), seconds);
  hub_.stop_taking_matches();
  context_.draining = true;
  ServerMessage notice = reply(0, OK);
  notice.mutable_closing()->set_reason("the server is restarting; matches in play will resume");
  notice.mutable_closing()->set_reconnect_after_seconds(seconds + 5);
  const Frame frame = frame_of(notice);
  context_.sessions->each(
      [&](Drainable& session) { session.going_away(frame, "server restarting"); });
  deadline_ = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  poll();
}

void Drain::poll() {
  if (finished_) return;
  if (context_.sessions->size() == 0 || std::chrono::steady_clock::now() >= deadline_) {
    return finish();
  }
  timer_.expires_after(std::chrono::milliseconds(50));
  timer_.async_wait([this](boost::system::error_code ec) {
    if (!ec) poll();
  });
}

void Drain::finish() {
  if (finished_) return;
  finished_ = true;
  timer_.cancel();
  spdlog::info("drain done, {} connections still open: stopping", context_.sessions->size());
  stop_();
}

}  // namespace duelhall::server
