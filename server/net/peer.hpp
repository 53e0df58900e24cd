// A connected client as the lobby and the matches see it: something frames can be sent to.
// The WebSocket session implements it; tests implement it with a recorder.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace duelhall::server {

using Frame = std::shared_ptr<const std::string>;

class Peer {
 public:
  virtual ~Peer() = default;
  // Queues one binary frame. Thread-safe; frames from one caller arrive in order. The same Frame
  // may be sent to many peers (spectators share their bytes).
  virtual void send(Frame frame) = 0;
  // Queues several frames at once, in order: a connection sends them together (one write).
  virtual void send_all(std::vector<Frame> frames) {
    for (Frame& frame : frames) send(std::move(frame));
  }
  // Ends the connection with a reason (a WebSocket close frame where possible). Thread-safe.
  virtual void close(const std::string& reason) = 0;
  // Ends the connection as one to open again (a WebSocket close 1012, service restart): what it
  // was about is served elsewhere now, as a match another node of a cluster took over.
  virtual void close_to_reconnect(const std::string& reason) { close(reason); }
  virtual uint64_t peer_id() const = 0;
  // Runs `work` on the connection's own strand, where its commands run, or never if the
  // connection has gone by then. Thread-safe. This default, for peers without a strand (tests'
  // recorders), runs it at once.
  virtual void post(std::function<void()> work) { work(); }
};

}  // namespace duelhall::server
