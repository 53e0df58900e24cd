// Outbox (server/net/outbox.hpp): a peer's frames of one outbox reach it in one hand-over, in
// order, so that its connection writes them together; other peers' frames are not delayed.
#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <vector>

#include "net/outbox.hpp"

using duelhall::server::Frame;
using duelhall::server::Outbox;
using duelhall::server::Peer;

namespace {

class Recorder final : public Peer {
 public:
  std::vector<std::vector<std::string>> handovers;
  void send(Frame frame) override { handovers.push_back({*frame}); }
  void send_all(std::vector<Frame> frames) override {
    handovers.emplace_back();
    for (const Frame& f : frames) handovers.back().push_back(*f);
  }
  void close(const std::string&) override {}
  uint64_t peer_id() const override { return 0; }
};

Frame frame(const std::string& text) {
  return std::make_shared<const std::string>(text);
}

}  // namespace

TEST_CASE("outbox: a peer's frames of one outbox are handed over together, in order") {
  auto a = std::make_shared<Recorder>();
  auto b = std::make_shared<Recorder>();
  Outbox out;
  out.add(a, frame("a1"));
  out.add(b, frame("b1"));
  out.add(a, frame("a2"));
  out.add(a, frame("a3"));
  out.flush();
  CHECK(a->handovers == std::vector<std::vector<std::string>>{{"a1", "a2", "a3"}});
  CHECK(b->handovers == std::vector<std::vector<std::string>>{{"b1"}});
  CHECK(out.empty());
}

TEST_CASE("outbox: a long outbox (a broadcast) goes frame by frame") {
  auto a = std::make_shared<Recorder>();
  Outbox out;
  for (int i = 0; i < 20; ++i) out.add(a, frame(std::to_string(i)));
  out.flush();
  REQUIRE(a->handovers.size() == 20);
  CHECK(a->handovers.front() == std::vector<std::string>{"0"});
  CHECK(a->handovers.back() == std::vector<std::string>{"19"});
}
