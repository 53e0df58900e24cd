// A seat's recent updates are held for a reconnect (Config::Limits::updates_held, 4 by
// default): a resume whose cursor is within them gets exactly the updates it missed, one from
// further back gets a snapshot of its view instead, and either way the client ends with exactly
// the view the server has for it.
#include <catch2/catch.hpp>
#include <map>

#include "support/in_process.hpp"

using namespace duelhall;
using duelhall::testing::InProcessClient;
using duelhall::testing::InProcessServer;

namespace {

struct Resumed {
  size_t updates = 0;
  size_t snapshots = 0;
  bool same_view = false;
};

// A new connection resumes with the token and the tracked match as it was at `kept`.
Resumed resume(InProcessServer& server, const std::string& token, uint64_t id,
               const client::MatchTracker& kept) {
  InProcessClient again(server);
  again.tracker = kept;
  ClientMessage hello;
  hello.mutable_hello()->set_protocol_version(server::kProtocolVersion);
  hello.mutable_hello()->set_resume_token(token);
  auto* cursor = hello.mutable_hello()->add_cursors();
  cursor->set_match_id(id);
  cursor->set_seq(kept.matches().at(id).seq);
  REQUIRE(again.request(hello).result() == OK);
  ClientMessage resync;
  resync.mutable_resync()->set_match_id(id);
  const ServerMessage snapshot = again.request(resync);
  Resumed r;
  for (const ServerMessage& m : again.inbox) {
    r.updates += m.has_update();
    r.snapshots += m.has_snapshot();
  }
  const auto* t = again.tracker.find(id);
  r.same_view =
      !t->broken && t->seq == snapshot.snapshot().seq() && t->view == snapshot.snapshot().view();
  again.disconnect();
  return r;
}

}  // namespace

TEST_CASE("a resume within the held updates gets them, from further back a snapshot") {
  InProcessServer server;
  REQUIRE(server.hub->config().limits.updates_held == 4);
  InProcessClient ann(server);
  const std::string token = ann.hello("Ann").welcome().resume_token();
  ClientMessage create;
  CreateMatch* c = create.mutable_create_match();
  c->mutable_settings()->set_ruleset("jedi_duel");
  c->mutable_settings()->set_seats(2);
  c->set_join(true);
  c->set_bot_seats(1);
  const ServerMessage created = ann.request(create);
  REQUIRE(created.result() == OK);
  const uint64_t id = created.created().match().match_id();
  REQUIRE(ann.wait_until([&] { return ann.tracker.find(id) != nullptr; }));
  // Ann plays against the bot, keeping her tracker as it was at every sequence she saw (the
  // bot's steps included: it may take several in a row).
  std::map<uint64_t, client::MatchTracker> at;
  auto keep = [&] {
    if (const auto* t = ann.tracker.find(id)) at.emplace(t->seq, ann.tracker);
  };
  keep();
  ann.on_message = [&](const ServerMessage&) { keep(); };
  for (int guard = 0; guard < 200 && ann.tracker.find(id)->seq < 12; ++guard) {
    REQUIRE(ann.wait_until([&] {
      const auto* t = ann.tracker.find(id);
      return t->ended || !t->legal.empty();
    }));
    const auto* t = ann.tracker.find(id);
    if (t->ended) break;
    const uint64_t seq = t->seq;
    ClientMessage m;
    m.mutable_action()->set_match_id(id);
    m.mutable_action()->set_code(t->legal.front().code());
    m.mutable_action()->set_seq(seq);
    REQUIRE(ann.request(m).result() == OK);
    REQUIRE(ann.wait_until([&] { return ann.tracker.find(id)->seq > seq; }));
  }
  // The bot's steps after Ann's last action are all in before the match is counted.
  REQUIRE(ann.wait_until([&] {
    const auto* t = ann.tracker.find(id);
    return t->ended || !t->legal.empty();
  }));
  REQUIRE_FALSE(ann.tracker.find(id)->ended);
  ann.on_message = nullptr;
  const uint64_t now = ann.tracker.find(id)->seq;
  REQUIRE(now >= 8);
  ann.disconnect();
  size_t within = 0, beyond = 0;
  for (const auto& [seq, kept] : at) {
    INFO("resumed at " << seq << " of " << now);
    const Resumed r = resume(server, token, id, kept);
    CHECK(r.same_view);
    if (now - seq <= 4) {
      ++within;
      CHECK(r.snapshots == 0);
      CHECK(r.updates == now - seq);
    } else {
      ++beyond;
      CHECK(r.snapshots == 1);
      CHECK(r.updates == 0);
    }
  }
  CHECK(within > 0);
  CHECK(beyond > 0);
}
