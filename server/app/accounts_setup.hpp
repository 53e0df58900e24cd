// The accounts' part of start-up: their settings from the configuration, and the hourly sweep
// of unused guest identities, run on the password-hashing threads (never an I/O thread).
#pragma once

#include <boost/asio/io_context.hpp>
#include <memory>

#include "accounts/account_service.hpp"
#include "accounts/hashing_pool.hpp"
#include "config/config.hpp"

namespace duelhall::server {

accounts::AccountsConfig accounts_config_of(const Config& config);

// Sweeps now and every hour while `io` runs; the sweep stops with the returned handle.
std::shared_ptr<void> sweep_unused_guests(boost::asio::io_context& io,
                                          accounts::AccountService& service,
                                          accounts::HashingPool& pool);

}  // namespace duelhall::server
