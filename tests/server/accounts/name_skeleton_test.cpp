// Look-alike names (issue 29, item 11): ICU's UTS #39 skeleton makes names that pass for one
// another share a key, so two such accounts cannot both exist and a guest cannot take one's name;
// invisible and text-direction characters are refused in display names.
#include <catch2/catch.hpp>

#include "accounts/account_service.hpp"
#include "accounts/name_skeleton.hpp"
#include "storage/sqlite/sqlite_account_store.hpp"

using namespace duelhall;
using accounts::display_name_problem;
using accounts::name_skeleton;

TEST_CASE("names: item 11: look-alike names share a skeleton, different names do not") {
  CHECK(name_skeleton("aIice") == name_skeleton("alice"));  // capital I for l
  CHECK(name_skeleton("ALICE") == name_skeleton("alice"));  // case
  CHECK(name_skeleton("\xd0\xb0"
                      "dmin1") == name_skeleton("admin1"));   // Cyrillic a
  CHECK(name_skeleton("adminl") == name_skeleton("admin1"));  // 1 for l
  CHECK(name_skeleton("\xef\xbd\x81\xef\xbd\x84\xef\xbd\x8d\xef\xbd\x89\xef\xbd\x8e") ==
        name_skeleton("admin"));                                          // fullwidth
  CHECK(name_skeleton("b0b") == name_skeleton("bob"));                    // zero for o
  CHECK(name_skeleton("rnoon") == name_skeleton("moon"));                 // rn for m
  CHECK(name_skeleton("admin1\xe2\x80\x8b") == name_skeleton("admin1"));  // zero-width space
  CHECK(name_skeleton("alice") != name_skeleton("alicia"));
  CHECK(name_skeleton("bob") != name_skeleton("rob"));
}

TEST_CASE("names: item 11: display names without invisible, bidirectional or end spaces") {
  CHECK_FALSE(display_name_problem("Ann"));
  CHECK_FALSE(display_name_problem("Zo\xc3\xab the 2nd"));
  CHECK(display_name_problem("admin1 "));
  CHECK(display_name_problem(" admin1"));
  CHECK(display_name_problem("admin1\xe2\x80\x8b"));  // zero-width space
  CHECK(
      display_name_problem("\xe2\x80\xae"
                           "1nimda"));               // right-to-left override
  CHECK(display_name_problem("ad\xe2\x81\xa6min"));  // left-to-right isolate
  CHECK(display_name_problem("ad\xc2\xadmin"));      // soft hyphen
  CHECK(display_name_problem("bad\xff"));            // not UTF-8
}

TEST_CASE("names: item 11: aIice cannot be registered beside alice") {
  int64_t now = 1'700'000'000'000;
  storage::SqliteAccountStore store(":memory:");
  accounts::AccountService service(store, accounts::AccountsConfig{}, [&] { return now; });
  REQUIRE(service.register_account("alice", "long enough", "a", std::nullopt).answer.code == OK);
  CHECK(service.register_account("aIice", "long enough", "a", std::nullopt).answer.code ==
        NAME_TAKEN);
  CHECK(service.register_account("a1ice", "long enough", "a", std::nullopt).answer.code ==
        NAME_TAKEN);
  REQUIRE(service.register_account("admin1", "long enough", "a", std::nullopt).answer.code == OK);
  // A guest may not go by a look-alike of an account's name.
  CHECK(
      service.find("\xd0\xb0"
                   "dmin1"));
  CHECK(service.find("adminl"));
}

TEST_CASE(
    "names: item 11: a store with lower-cased keys is rekeyed, look-alikes keep their old key") {
  storage::SqliteAccountStore store(":memory:");
  // As a store from before: keys lower-cased, two names that now look alike.
  const auto alice = store.create_account("alice", "alice", "hash", 1);
  const auto aiice = store.create_account("aIice", "aiice", "hash", 2);
  REQUIRE(alice);
  REQUIRE(aiice);
  const auto report = accounts::rekey_names(store);
  CHECK(report.changed == 1);
  REQUIRE(report.look_alikes.size() == 1);
  CHECK(report.look_alikes.front() == "aIice");
  CHECK(store.find_by_key(name_skeleton("alice"))->id == *alice);
  CHECK(store.find_by_key("aiice")->id == *aiice);   // still signs in by its old key
  CHECK(accounts::rekey_names(store).changed == 0);  // once is enough
}
