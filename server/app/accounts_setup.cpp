#include "app/accounts_setup.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/steady_timer.hpp>
#include <chrono>

namespace duelhall::server {
namespace {

constexpr std::chrono::hours kSweepEvery{1};

struct GuestSweep : std::enable_shared_from_this<GuestSweep> {
  GuestSweep(boost::asio::io_context& io, accounts::AccountService& owner,
             accounts::HashingPool& hashing)
      : timer(io), service(owner), pool(hashing) {}

  void run() {
    // The sweep is a store write: on the hashing threads, not the I/O thread the timer fires on.
    pool.submit([&accounts_service = service] {
      try {
        if (const size_t removed = accounts_service.expire_guests(); removed > 0) {
          spdlog::info("removed {} unused guest identities", removed);
        }
      } catch (const std::exception& e) {
        spdlog::warn("could not remove unused guests: {}", e.what());
      }
    });
    timer.expires_after(kSweepEvery);
    timer.async_wait([weak = weak_from_this()](boost::system::error_code ec) {
      auto self = weak.lock();
      if (!ec && self) self->run();
    });
  }

  boost::asio::steady_timer timer;
  accounts::AccountService& service;
  accounts::HashingPool& pool;
};

}  // namespace

accounts::AccountsConfig accounts_config_of(const Config& config) {
  accounts::AccountsConfig out;
  out.session_days = config.session_days;
  out.max_failures = config.sign_in_failures;
  out.max_address_failures = config.address_failures;
  out.account_failures = config.account_failures;
  out.account_delay_max_seconds = config.account_delay_seconds;
  out.max_password_checks = config.password_checks;
  out.max_new_guests = config.new_guests;
  out.guest_days = config.guest_days;
  out.provisional_deviation = config.provisional_rd;
  return out;
}

std::shared_ptr<void> sweep_unused_guests(boost::asio::io_context& io,
                                          accounts::AccountService& service,
                                          accounts::HashingPool& pool) {
  auto sweep = std::make_shared<GuestSweep>(io, service, pool);
  sweep->run();
  return sweep;
}

}  // namespace duelhall::server
