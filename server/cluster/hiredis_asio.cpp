#include "cluster/hiredis_asio.hpp"

#include <hiredis/async.h>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <memory>

namespace duelhall::cluster {
namespace {

namespace asio = boost::asio;

// The state behind one context's hooks. Waits hold a shared_ptr, so a wait that completes after
// the cleanup finds `context_` null and does nothing.
class AsioEvents : public std::enable_shared_from_this<AsioEvents> {
 public:
  AsioEvents(redisAsyncContext* context, const asio::any_io_executor& executor)
      : context_(context), socket_(executor, context->c.fd) {}

  static AsioEvents* of(void* data) { return static_cast<AsioEvents*>(data); }

  void want_read(bool on) {
    want_read_ = on;
    if (on) wait(asio::posix::descriptor_base::wait_read, reading_, want_read_, true);
  }
  void want_write(bool on) {
    want_write_ = on;
    if (on) wait(asio::posix::descriptor_base::wait_write, writing_, want_write_, false);
  }
  void cleanup() {
    context_ = nullptr;
    want_read_ = want_write_ = false;
    socket_.release();  // cancels the waits; hiredis closes the socket itself
    self_.reset();
  }
  void keep_alive() { self_ = shared_from_this(); }

 private:
  // One wait per direction at a time; `busy` and `wanted` are that direction's flags.
  void wait(asio::posix::descriptor_base::wait_type type, bool& busy, bool& wanted, bool read) {
    if (busy || !wanted || !context_) return;
    busy = true;
    socket_.async_wait(type, [self = shared_from_this(), type, &busy, &wanted,
                              read](boost::system::error_code ec) {
      busy = false;
      if (ec || !self->context_ || !wanted) return;
      if (read) {
        redisAsyncHandleRead(self->context_);  // may free the context (cleanup runs)
      } else {
        redisAsyncHandleWrite(self->context_);
      }
      self->wait(type, busy, wanted, read);
    });
  }

  redisAsyncContext* context_;
  asio::posix::stream_descriptor socket_;
  bool want_read_ = false;
  bool want_write_ = false;
  bool reading_ = false;
  bool writing_ = false;
  std::shared_ptr<AsioEvents> self_;  // held from attach to cleanup
};

}  // namespace

void attach_to_asio(redisAsyncContext* context, const asio::any_io_executor& executor) {
  auto events = std::make_shared<AsioEvents>(context, executor);
  events->keep_alive();
  context->ev.data = events.get();
  context->ev.addRead = [](void* data) { AsioEvents::of(data)->want_read(true); };
  context->ev.delRead = [](void* data) { AsioEvents::of(data)->want_read(false); };
  context->ev.addWrite = [](void* data) { AsioEvents::of(data)->want_write(true); };
  context->ev.delWrite = [](void* data) { AsioEvents::of(data)->want_write(false); };
  context->ev.cleanup = [](void* data) { AsioEvents::of(data)->cleanup(); };
}

}  // namespace duelhall::cluster
