// The match's durability contract with its ActionLog: nothing that shows an accepted action (its
// reply, anyone's update) is sent before the log reports the action durable, and a log that
// fails ends the match without ever showing the unstored step.
#include <catch2/catch.hpp>

#include "support/in_process.hpp"
#include "support/open_match.hpp"

using namespace duelhall;
using duelhall::testing::InProcessClient;
using duelhall::testing::InProcessServer;

namespace {

// Holds every append's completion until the test releases it, as a slow disk would.
struct HeldAppends {
  std::mutex mutex;
  std::vector<server::Durable> pending;
  size_t count() {
    std::lock_guard lock(mutex);
    return pending.size();
  }
  void complete_all(const std::string& error) {
    std::vector<server::Durable> done;
    {
      std::lock_guard lock(mutex);
      done.swap(pending);
    }
    for (auto& d : done) d(error);  // from the test's thread, as the writer thread would
  }
};

class HeldLog final : public server::ActionLog {
 public:
  explicit HeldLog(std::shared_ptr<HeldAppends> held) : held_(std::move(held)) {}
  void started(uint64_t, const server::MatchStart&) override {}
  void appended(uint64_t, uint32_t, const engine::Step&, server::Durable durable) override {
    std::lock_guard lock(held_->mutex);
    held_->pending.push_back(std::move(durable));
  }
  void ended(uint64_t, const server::MatchEnd&, server::Durable durable) override { durable({}); }

 private:
  std::shared_ptr<HeldAppends> held_;
};

class HeldLogFactory final : public server::ActionLogFactory {
 public:
  explicit HeldLogFactory(std::shared_ptr<HeldAppends> held) : held_(std::move(held)) {}
  std::unique_ptr<server::ActionLog> open(uint64_t) override {
    return std::make_unique<HeldLog>(held_);
  }

 private:
  std::shared_ptr<HeldAppends> held_;
};

struct TwoPlayers {
  std::shared_ptr<HeldAppends> held = std::make_shared<HeldAppends>();
  InProcessServer server{{}, std::make_shared<HeldLogFactory>(held)};
  InProcessClient ann{server};
  InProcessClient ben{server};
  uint64_t id = 0;

  TwoPlayers() {
    ClientMessage hello;
    hello.mutable_hello()->set_protocol_version(1);
    hello.mutable_hello()->set_display_name("Ann");
    REQUIRE(ann.request(hello).result() == OK);
    hello.mutable_hello()->set_display_name("Ben");
    REQUIRE(ben.request(hello).result() == OK);
    id = testing::open_two_seat_match(ann, ben, testing::kTestRuleset);
  }
  // The seat with a decision acts; returns its request id.
  uint64_t act(InProcessClient*& actor) {
    actor = ann.tracker.find(id)->legal.empty() ? &ben : &ann;
    ClientMessage m;
    m.mutable_action()->set_match_id(id);
    m.mutable_action()->set_code(actor->tracker.find(id)->legal.front().code());
    m.mutable_action()->set_seq(actor->tracker.find(id)->seq);
    return actor->send(m);
  }
};

bool has_reply(InProcessClient& c, uint64_t request) {
  for (const auto& m : c.inbox) {
    if (m.request_id() == request) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("an accepted action's reply and updates wait until the log reports it durable") {
  TwoPlayers t;
  InProcessClient* actor = nullptr;
  const uint64_t request = t.act(actor);
  REQUIRE(t.ann.wait_until([&] { return t.held->count() == 1; }));
  for (int i = 0; i < 20; ++i) t.server.pump();
  t.ann.drain();
  t.ben.drain();
  CHECK_FALSE(has_reply(*actor, request));
  CHECK(t.ann.tracker.find(t.id)->seq == 0);
  CHECK(t.ben.tracker.find(t.id)->seq == 0);

  t.held->complete_all("");
  REQUIRE(actor->wait_until([&] { return has_reply(*actor, request); }));
  REQUIRE(t.ann.wait_until([&] { return t.ann.tracker.find(t.id)->seq == 1; }));
  REQUIRE(t.ben.wait_until([&] { return t.ben.tracker.find(t.id)->seq == 1; }));
}

TEST_CASE("a log that cannot store an action ends the match without showing the step") {
  TwoPlayers t;
  const std::string before = t.ann.tracker.find(t.id)->view;
  InProcessClient* actor = nullptr;
  const uint64_t request = t.act(actor);
  REQUIRE(t.ann.wait_until([&] { return t.held->count() == 1; }));
  t.held->complete_all("disk full");
  // The actor is told its action was not stored, not OK.
  REQUIRE(actor->wait_until([&] { return has_reply(*actor, request); }));
  for (const auto& m : actor->inbox) {
    if (m.request_id() == request) CHECK(m.result() == INTERNAL_ERROR);
  }
  for (InProcessClient* c : {&t.ann, &t.ben}) {
    REQUIRE(c->wait_until([&] { return c->tracker.find(t.id)->ended; }));
    const auto* tracked = c->tracker.find(t.id);
    CHECK_FALSE(tracked->broken);
    CHECK(tracked->status == ABORTED);
    // The abort's update carries no patch: the view is still the one before the action.
    CHECK(tracked->updates == 1);
    CHECK(tracked->seq == 1);
  }
  CHECK(t.ann.tracker.find(t.id)->view == before);
  // A fresh snapshot does not show the unstored step either.
  ClientMessage resync;
  resync.mutable_resync()->set_match_id(t.id);
  auto snapshot = t.ann.request(resync);
  REQUIRE(snapshot.has_snapshot());
  CHECK(snapshot.snapshot().view() == before);
}
