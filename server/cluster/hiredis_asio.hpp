// Runs a hiredis async context on an Asio strand. hiredis says through its ev hooks when it wants
// to read or write; a stream_descriptor on the context's socket waits for that readiness on the
// strand and calls redisAsyncHandleRead/Write. hiredis owns the socket: the descriptor releases
// it when hiredis cleans up, it never closes it.
#pragma once

#include <boost/asio/any_io_executor.hpp>

struct redisAsyncContext;

namespace duelhall::cluster {

// Hooks `context` to `executor` (a strand: every hiredis call on this context must run on it).
// The hooks keep their own state alive until hiredis calls its cleanup hook.
void attach_to_asio(redisAsyncContext* context, const boost::asio::any_io_executor& executor);

}  // namespace duelhall::cluster
