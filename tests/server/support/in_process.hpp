// Drives the server's hub and dispatcher in-process, on one thread, with recording peers in
// place of sockets: for unit tests of dispatch and match logic.
#pragma once

#include <spdlog/spdlog.h>
#include <boost/asio/io_context.hpp>
#include <chrono>
#include <deque>
#include <functional>
#include <mutex>

#include "lobby/dispatch.hpp"
#include "lobby/hub.hpp"
#include "match_tracker.hpp"
#include "net/messages.hpp"
#include "support/test_ruleset.hpp"

namespace duelhall::testing {

class RecordingPeer final : public server::Peer {
 public:
  explicit RecordingPeer(uint64_t id) : id_(id) {}
  void send(server::Frame frame) override {
    std::lock_guard lock(mutex_);
    frames_.push_back(*frame);
  }
  void close(const std::string& reason) override {
    std::lock_guard lock(mutex_);
    closed_ = reason;
  }
  uint64_t peer_id() const override { return id_; }
  std::vector<std::string> take() {
    std::lock_guard lock(mutex_);
    return std::exchange(frames_, {});
  }
  std::string closed() {
    std::lock_guard lock(mutex_);
    return closed_;
  }

 private:
  const uint64_t id_;
  std::mutex mutex_;
  std::vector<std::string> frames_;
  std::string closed_;
};

class InProcessServer {
 public:
  explicit InProcessServer(server::Config config = {},
                           std::shared_ptr<server::ActionLogFactory> logs = nullptr)
      : registry(registry_with_test_ruleset()),
        hub(std::make_shared<server::Hub>(
            io, registry, std::move(config),
            logs ? std::move(logs) : std::make_shared<server::MemoryActionLogFactory>())),
        dispatcher(*hub) {
    spdlog::set_level(spdlog::level::warn);  // match start and end lines would drown the output
  }
  // Runs ready handlers and due timers for a short while.
  void pump(std::chrono::milliseconds slice = std::chrono::milliseconds(2)) {
    if (io.stopped()) io.restart();
    io.run_for(slice);
  }

  boost::asio::io_context io;
  engine::Registry registry;
  std::shared_ptr<server::Hub> hub;
  server::Dispatcher dispatcher;
  uint64_t next_peer = 1;
};

class InProcessClient {
 public:
  explicit InProcessClient(InProcessServer& server)
      : server_(server),
        peer_(std::make_shared<RecordingPeer>(server.next_peer++)),
        state_(server.hub->config().limits) {
    // The tracker knows the rulesets' phrase books, as a client that listed them (protocol 5).
    RulesetList listed;
    for (const auto& info : server.registry.all())
      server::fill_ruleset(info, *listed.add_rulesets(), /*with_book=*/true);
    tracker.learn_rulesets(listed);
  }

  uint64_t send(ClientMessage message) {
    if (message.request_id() == 0) message.set_request_id(next_request_++);
    server::Outbox out;
    server_.dispatcher.dispatch(peer_, state_, message, out);
    out.flush();
    return message.request_id();
  }
  ServerMessage request(ClientMessage message) {
    const uint64_t id = send(std::move(message));
    std::optional<ServerMessage> found;
    wait_until([&] {
      for (auto it = inbox.begin(); it != inbox.end(); ++it) {
        if (it->request_id() == id) {
          found = *it;
          inbox.erase(it);
          return true;
        }
      }
      return false;
    });
    if (!found) throw std::runtime_error("no reply");
    return *found;
  }
  bool wait_until(const std::function<bool()>& done,
                  std::chrono::milliseconds timeout = std::chrono::milliseconds(5000)) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (true) {
      drain();
      if (done()) return true;
      if (std::chrono::steady_clock::now() > deadline) return false;
      server_.pump();
    }
  }
  void drain() {
    for (const std::string& frame : peer_->take()) {
      ServerMessage m;
      if (!m.ParseFromString(frame)) throw std::runtime_error("server sent a non-message");
      client::normalize_update(m);  // as every client does: frames keeps what came
      tracker.handle(m);
      if (on_message) on_message(m);
      frames.push_back(frame);
      inbox.push_back(std::move(m));
    }
  }
  void disconnect() { server_.dispatcher.disconnected(peer_.get(), state_); }
  // Called with each message once the tracker has it (a test that watches every seq).
  std::function<void(const ServerMessage&)> on_message;

  ServerMessage hello(const std::string& name, uint32_t version = server::kProtocolVersion) {
    ClientMessage m;
    m.mutable_hello()->set_protocol_version(version);
    m.mutable_hello()->set_display_name(name);
    return request(m);
  }

  RecordingPeer& peer() { return *peer_; }
  client::MatchTracker tracker;
  std::deque<ServerMessage> inbox;
  std::vector<std::string> frames;

 private:
  InProcessServer& server_;
  std::shared_ptr<RecordingPeer> peer_;
  server::ClientState state_;
  uint64_t next_request_ = 1;
};

// A CreateMatch of the test ruleset with `seats` seats (spectators allowed), the sender joining
// when `join`, and `bots` seats given to bots.
inline ClientMessage create_message(int seats, bool join, int bots) {
  ClientMessage m;
  CreateMatch* c = m.mutable_create_match();
  c->mutable_settings()->set_ruleset(duelhall::testing::kTestRuleset);
  c->mutable_settings()->set_seats(static_cast<uint32_t>(seats));
  c->mutable_settings()->set_spectators_allowed(true);
  c->set_join(join);
  c->set_bot_seats(static_cast<uint32_t>(bots));
  return m;
}

// A SubmitAction of `code` in match `id`, at `seq` (0: the client does not say).
inline ClientMessage action(uint64_t id, uint64_t code, uint64_t seq = 0) {
  ClientMessage m;
  m.mutable_action()->set_match_id(id);
  m.mutable_action()->set_code(code);
  m.mutable_action()->set_seq(seq);
  return m;
}

}  // namespace duelhall::testing
