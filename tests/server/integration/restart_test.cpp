// What a restart must not break (besides the play itself, recovery_test.cpp): match ids are never
// given out twice, and spectators stay behind the host's delay, in actions or in seconds, with
// their stream continuing seq by seq and carrying the events of the delayed actions.
#include "core/registry.hpp"
#include "helpers.hpp"
#include "storage/match_store.hpp"

using namespace duelhall;
using namespace duelhall::testing;

namespace {

constexpr const char* kRuleset = "jedi_duel";

uint64_t create_waiting(WsClient& client) {
  auto created = client.request(create_match(kRuleset, 2, true, 0));
  REQUIRE(created.result() == OK);
  return created.created().match().match_id();
}

}  // namespace

TEST_CASE("a match id is never given out twice, not even a waiting match's lost in a restart") {
  const auto data = temp_data_dir("ids");
  uint64_t lost = 0;
  {
    ServerProcess server({}, data, true);
    auto ann = connect_as(server.port(), "Ann");
    lost = create_waiting(*ann);
    server.kill_hard();
  }
  uint64_t second = 0;
  {
    ServerProcess server({}, data, true);
    auto ben = connect_as(server.port(), "Ben");
    second = create_waiting(*ben);
    CHECK(second > lost);
    // A client still holding the old id does not land in the stranger's match.
    auto cat = connect_as(server.port(), "Cat");
    CHECK(cat->request(join_match(lost, -1)).result() == UNKNOWN_MATCH);
    server.kill_hard();
  }
  {
    ServerProcess server({}, data, true);
    auto dan = connect_as(server.port(), "Dan");
    CHECK(create_waiting(*dan) > second);
    server.stop_cleanly();
  }
  std::filesystem::remove_all(data);
}
