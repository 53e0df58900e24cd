// Opening a two-seat match between two in-process clients, as the dispatch tests need it often.
#pragma once

#include <catch2/catch.hpp>
#include <map>
#include <string>

#include "support/in_process.hpp"

namespace duelhall::testing {

// Ann hosts a two-seat match of `ruleset` with `params` and takes seat 0, Ben joins seat 1 (both
// said hello already); returns once both follow it, with their inboxes emptied.
inline uint64_t open_two_seat_match(InProcessClient& ann, InProcessClient& ben,
                                    const std::string& ruleset,
                                    const std::map<std::string, std::string>& params = {},
                                    bool spectators_allowed = false) {
  ClientMessage create;
  CreateMatch* c = create.mutable_create_match();
  c->mutable_settings()->set_ruleset(ruleset);
  c->mutable_settings()->set_seats(2);
  c->mutable_settings()->set_spectators_allowed(spectators_allowed);
  for (const auto& [k, v] : params) (*c->mutable_settings()->mutable_params())[k] = v;
  c->set_join(true);
  const ServerMessage created = ann.request(create);
  REQUIRE(created.result() == OK);
  const uint64_t id = created.created().match().match_id();
  ClientMessage join;
  join.mutable_join_match()->set_match_id(id);
  join.mutable_join_match()->set_seat(1);
  REQUIRE(ben.request(join).result() == OK);
  REQUIRE(ann.wait_until([&] { return ann.tracker.find(id) != nullptr; }));
  REQUIRE(ben.wait_until([&] { return ben.tracker.find(id) != nullptr; }));
  ann.inbox.clear();
  ben.inbox.clear();
  return id;
}

}  // namespace duelhall::testing
