// duelhall-loadgen's connections mode (--connections N): N connections that say Hello and then
// wait, nothing else, so the server's memory before and with them tells what a waiting
// connection costs it (issue 36, bytes per connection). Opened at most --max-opening at a time,
// spread over --threads io_contexts, held for --warmup plus --duration seconds, then closed.
#pragma once

#include <boost/asio/ip/tcp.hpp>

#include "options.hpp"

namespace duelhall::loadgen {

// Runs the mode against `endpoint` and prints its figures and the RESULT line; the exit code.
int run_idle_connections(const Options& o, const boost::asio::ip::tcp::endpoint& endpoint);

}  // namespace duelhall::loadgen
