// The server's data file at start: a damaged file stops it with the reason (and is left as it
// was), and --prune applies the retention settings.
#include <sys/stat.h>

#include <fstream>

#include "helpers.hpp"
#include "storage/sqlite/sqlite_match_store.hpp"

using namespace duelhall;
using namespace duelhall::testing;

namespace {

// Plays `count` bots-only matches to their end on a server over `data`, then stops it.
void store_finished_matches(const std::filesystem::path& data, int count) {
  ServerProcess server({}, data, true);
  auto host = connect_as(server.port(), "Host");
  for (int i = 0; i < count; ++i) {
    auto m = create_match("jedi_duel", 2, false, 2);
    auto created = host->request(m);
    REQUIRE(created.result() == OK);
    const uint64_t id = created.created().match().match_id();
    REQUIRE(host->request(spectate(id)).result() == OK);
    REQUIRE(host->wait_until(
        [&] {
          auto* t = host->tracker().find(id);
          return t && t->ended;
        },
        std::chrono::seconds(60)));
  }
  server.stop_cleanly();
}

std::vector<std::string> data_flags(const std::filesystem::path& data) {
  return {"--data",    data.string(), "--bind",
          "127.0.0.1", "--port",      std::to_string(free_loopback_port())};
}

std::string file_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

TEST_CASE("a data file that is not a database stops the server at start with the reason") {
  const auto data = temp_data_dir("garbage");
  std::filesystem::create_directories(data);
  const std::string garbage(4096, 'x');
  std::ofstream(data / "duelhall.db", std::ios::binary) << garbage;
  const ExitResult result = run_to_exit(data_flags(data));
  CHECK(result.status == 1);
  CHECK_THAT(result.output, Catch::Contains("not a SQLite database"));
  CHECK(file_bytes(data / "duelhall.db") == garbage);  // left for the operator to inspect
  std::filesystem::remove_all(data);
}

TEST_CASE("an unreachable PostgreSQL database stops the server at start with the reason") {
  const auto data = temp_data_dir("no-database");
  auto flags = data_flags(data);
  // A port nothing listens on, and a password that must not reach the log.
  const std::string url =
      "postgresql://duelhall:secret@127.0.0.1:" + std::to_string(free_loopback_port()) +
      "/duelhall";
  flags.insert(flags.end(), {"--database", url});
  const ExitResult result = run_to_exit(flags);
  CHECK(result.status == 1);
  CHECK_THAT(result.output, Catch::Contains("cannot connect to PostgreSQL at") &&
                                Catch::Contains("Connection refused"));
  CHECK_THAT(result.output, !Catch::Contains("secret"));
  CHECK_FALSE(std::filesystem::exists(data / "duelhall.db"));
  std::filesystem::remove_all(data);
}

TEST_CASE("a truncated data file stops the server at start with the reason, untouched") {
  const auto data = temp_data_dir("truncated");
  store_finished_matches(data, 2);
  const auto db = data / "duelhall.db";
  const std::string whole = file_bytes(db);
  REQUIRE(whole.size() > 8192);
  std::filesystem::resize_file(db, whole.size() / 2);
  const ExitResult result = run_to_exit(data_flags(data));
  CHECK(result.status == 1);
  CHECK_THAT(result.output, Catch::Contains("truncated"));
  CHECK(file_bytes(db) == whole.substr(0, whole.size() / 2));
  // Emptied to nothing is refused too: SQLite would take it for a new store.
  std::filesystem::resize_file(db, 0);
  const ExitResult empty = run_to_exit(data_flags(data));
  CHECK(empty.status == 1);
  CHECK(std::filesystem::file_size(db) == 0);
  std::filesystem::remove_all(data);
}

TEST_CASE("the prune command keeps the newest ended matches as the retention settings say") {
  const auto data = temp_data_dir("prune");
  store_finished_matches(data, 3);
  auto flags = data_flags(data);
  flags.insert(flags.end(), {"--prune", "--retention-matches", "1"});
  const ExitResult result = run_to_exit(flags);
  CHECK(result.status == 0);
  CHECK_THAT(result.output, Catch::Contains("pruned 2 ended matches"));
  storage::SqliteMatchStore store((data / "duelhall.db").string());
  const auto left = store.list_ended({});
  REQUIRE(left.size() == 1);
  CHECK(left[0].id == 3);  // the newest
  CHECK(left[0].revealed_seed.has_value());
  std::filesystem::remove_all(data);
}

TEST_CASE("with storage in memory nothing is written and replays answer STORAGE_DISABLED") {
  ServerProcess server({"--storage", "memory"});
  auto client = connect_as(server.port(), "Ann");
  ClientMessage list;
  list.mutable_list_replays();
  CHECK(client->request(list).result() == STORAGE_DISABLED);
  ClientMessage import;
  import.mutable_import_match()->set_record("duelhall-match 1\n");
  CHECK(client->request(import).result() == STORAGE_DISABLED);
  CHECK_FALSE(std::filesystem::exists(server.data_dir() / "duelhall.db"));
}

TEST_CASE(
    "item 15: the data folder is created 0700 and duelhall.db, -wal and -shm 0600 under umask "
    "022") {
  namespace fs = std::filesystem;
  const fs::path data = temp_data_dir("modes");
  const mode_t old = ::umask(022);
  {
    ServerProcess server({}, data, true);
    auto host = connect_as(server.port(), "Host");
    REQUIRE(host->request(create_match("jedi_duel", 2, false, 2)).result() == OK);
    const auto mode = [](const fs::path& p) {
      return static_cast<unsigned>(fs::status(p).permissions() & fs::perms::all);
    };
    CHECK(mode(data) == 0700u);
    CHECK(mode(data / "duelhall.db") == 0600u);
    REQUIRE(fs::exists(data / "duelhall.db-wal"));
    CHECK(mode(data / "duelhall.db-wal") == 0600u);
    REQUIRE(fs::exists(data / "duelhall.db-shm"));
    CHECK(mode(data / "duelhall.db-shm") == 0600u);
  }
  ::umask(old);
  fs::remove_all(data);
}
