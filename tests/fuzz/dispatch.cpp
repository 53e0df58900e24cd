// ClientMessage frames straight into the command dispatcher of a live in-process hub (no
// sockets): several connections, any sequence of frames on each. Besides raw frames the input
// may ask a connection to play a legal action of a match it follows (so that fuzzing reaches
// deep into matches), to drop, or to come back with its resume token. The hub's replies must
// always parse, and nothing may crash, leak or trip a sanitizer.
#include <google/protobuf/stubs/logging.h>
#include <spdlog/spdlog.h>
#include <algorithm>

#include <boost/asio/io_context.hpp>

#include "lobby/dispatch.hpp"
#include "lobby/hub.hpp"
#include "match_tracker.hpp"
#include "net/messages.hpp"
#include "support.hpp"

using namespace duelhall;

namespace {

class Recorder final : public server::Peer {
 public:
  explicit Recorder(uint64_t id) : id_(id) {}
  void send(server::Frame frame) override { frames.push_back(*frame); }
  void close(const std::string&) override { closed = true; }
  uint64_t peer_id() const override { return id_; }
  std::vector<std::string> frames;
  bool closed = false;

 private:
  uint64_t id_;
};

struct Connection {
  std::shared_ptr<Recorder> peer;
  std::unique_ptr<server::ClientState> state;
  client::MatchTracker tracker;
  std::string token;
};

class Harness {
 public:
  Harness()
      : hub_(std::make_shared<server::Hub>(io_, fuzz::registry(), config(),
                                           std::make_shared<server::MemoryActionLogFactory>())),
        dispatcher_(*hub_) {}
  ~Harness() {
    for (auto& c : connections_) drop(c);
    hub_.reset();  // before the io_context: pending handlers still hold the matches
  }

  // The input: one byte for the number of connections (1 to 4), then operations, each a byte
  // whose low two bits name the connection and whose high bits the operation: 0 to 3 play the
  // legal action numbered by the next byte, 4 drops and reconnects afresh, 5 drops and resumes
  // with the token, anything else is a frame of the length in the next two bytes
  // (little-endian). make_seeds.cpp writes inputs in this format.
  void run(std::string_view in) {
    if (in.empty()) return;
    connections_.resize(1 + static_cast<uint8_t>(in[0]) % 4);
    in.remove_prefix(1);
    for (auto& c : connections_) open(c, "");
    while (!in.empty()) {
      const auto head = static_cast<uint8_t>(in[0]);
      in.remove_prefix(1);
      Connection& c = connections_[(head & 3) % connections_.size()];
      const int op = head >> 2;
      if (op < 4) {
        play(c, in.empty() ? 0 : static_cast<uint8_t>(in[0]));
        if (!in.empty()) in.remove_prefix(1);
      } else if (op < 6) {
        drop(c);
        open(c, op == 5 ? c.token : "");
      } else {
        size_t length = 0;
        if (in.size() >= 2) {
          length = static_cast<uint8_t>(in[0]) | static_cast<size_t>(static_cast<uint8_t>(in[1]))
                                                     << 8;
          in.remove_prefix(2);
        }
        length = std::min(length, in.size());
        ClientMessage message;
        if (message.ParseFromArray(in.data(), static_cast<int>(length))) send(c, message);
        in.remove_prefix(length);
      }
      io_.poll();
      for (auto& each : connections_) receive(each);
    }
  }

 private:
  static server::Config config() {
    server::Config config;
    config.storage = "memory";
    config.grace_seconds = 1;
    return config;
  }

  void open(Connection& c, const std::string& token) {
    c.peer = std::make_shared<Recorder>(next_peer_++);
    c.state = std::make_unique<server::ClientState>(hub_->config().limits);
    c.tracker = {};
    ClientMessage hello;
    hello.mutable_hello()->set_protocol_version(server::kProtocolVersion);
    hello.mutable_hello()->set_display_name("P" + std::to_string(c.peer->peer_id()));
    hello.mutable_hello()->set_resume_token(token);
    send(c, hello);
    receive(c);
  }
  void drop(Connection& c) {
    if (!c.peer) return;
    dispatcher_.disconnected(c.peer.get(), *c.state);
    c.peer.reset();
  }
  void send(Connection& c, const ClientMessage& message) {
    server::Outbox out;
    dispatcher_.dispatch(c.peer, *c.state, message, out);
    out.flush();
  }
  void receive(Connection& c) {
    for (const std::string& frame : std::exchange(c.peer->frames, {})) {
      ServerMessage m;
      if (!m.ParseFromString(frame)) __builtin_trap();  // the server sent a non-message
      client::normalize_update(m);
      if (m.has_welcome() && !m.welcome().resume_token().empty())
        c.token = m.welcome().resume_token();
      c.tracker.handle(m);
    }
  }
  // Submits the `which`-th legal action of the first match `c` may act in.
  void play(Connection& c, uint8_t which) {
    for (const auto& [id, match] : c.tracker.matches()) {
      if (match.legal.empty() || match.ended) continue;
      ClientMessage m;
      m.set_request_id(++request_);
      m.mutable_action()->set_match_id(id);
      m.mutable_action()->set_code(match.legal[which % match.legal.size()].code());
      m.mutable_action()->set_seq(match.seq);
      send(c, m);
      return;
    }
  }

  boost::asio::io_context io_;
  std::shared_ptr<server::Hub> hub_;
  server::Dispatcher dispatcher_;
  std::vector<Connection> connections_;
  uint64_t next_peer_ = 1;
  uint64_t request_ = 1'000'000;
};

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  spdlog::set_level(spdlog::level::off);
  // Protobuf logs every string field that is not UTF-8: most mutated frames; the logging would
  // cost more than the dispatching.
  google::protobuf::SetLogHandler(nullptr);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Harness harness;
  harness.run(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
