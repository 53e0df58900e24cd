#include "app/store_watch.hpp"

namespace duelhall::server {

StoreWatch::StoreWatch(boost::asio::io_context& io, storage::GroupCommitLog& log,
                       std::chrono::milliseconds period)
    : timer_(io), log_(log), period_(period) {}

void StoreWatch::start() {
  tick();
}

void StoreWatch::tick() {
  timer_.expires_after(period_);
  timer_.async_wait([self = shared_from_this()](boost::system::error_code ec) {
    if (ec) return;
    // The writer records the outcome (store_available()); nothing more to do with it here.
    self->log_.probe([](const storage::WriteResult&) {});
    self->tick();
  });
}

}  // namespace duelhall::server
