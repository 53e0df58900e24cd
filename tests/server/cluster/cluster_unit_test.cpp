// The cluster's pure parts: tickets, placement, the lobby channel's messages, the options.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "cluster/cluster_directory.hpp"
#include "cluster/cluster_options.hpp"
#include "cluster/placement.hpp"
#include "cluster/ticket.hpp"

using namespace duelhall::cluster;

namespace {

Ticket join_ticket(int64_t expires_ms) {
  Ticket t;
  t.match = 42;
  t.role = TicketRole::kJoin;
  t.seat = 1;
  t.node = "node-b";
  t.expires_ms = expires_ms;
  return t;
}

}  // namespace

TEST_CASE("tickets: a genuine ticket for this match, role and node is good and says its seat") {
  TicketSigner signer("a cluster secret of some length");
  const std::string bytes = signer.sign(join_ticket(10'000));
  Ticket read;
  CHECK(signer.check(bytes, 42, TicketRole::kJoin, "node-b", 9'999, &read) == TicketCheck::kGood);
  CHECK(read.seat == 1);
  CHECK(read.node == "node-b");
  CHECK(read.match == 42);
}

TEST_CASE("tickets: a forged ticket is refused (another secret, a flipped bit, garbage)") {
  TicketSigner signer("a cluster secret of some length");
  TicketSigner stranger("another cluster's secret here");
  const std::string bytes = signer.sign(join_ticket(10'000));
  CHECK(signer.check(stranger.sign(join_ticket(10'000)), 42, TicketRole::kJoin, "node-b", 0) ==
        TicketCheck::kForged);
  for (size_t i = 0; i < bytes.size(); i += 7) {
    std::string flipped = bytes;
    flipped[i] = static_cast<char>(flipped[i] ^ 0x01);
    CHECK(signer.check(flipped, 42, TicketRole::kJoin, "node-b", 0) == TicketCheck::kForged);
  }
  CHECK(signer.check("", 42, TicketRole::kJoin, "node-b", 0) == TicketCheck::kForged);
  CHECK(signer.check(std::string(300, 'x'), 42, TicketRole::kJoin, "node-b", 0) ==
        TicketCheck::kForged);
  CHECK(signer.check(bytes.substr(0, bytes.size() - 1), 42, TicketRole::kJoin, "node-b", 0) ==
        TicketCheck::kForged);
}

TEST_CASE("tickets: an expired ticket is refused") {
  TicketSigner signer("a cluster secret of some length");
  const std::string bytes = signer.sign(join_ticket(10'000));
  CHECK(signer.check(bytes, 42, TicketRole::kJoin, "node-b", 10'000) == TicketCheck::kExpired);
  CHECK(signer.check(bytes, 42, TicketRole::kJoin, "node-b", 50'000) == TicketCheck::kExpired);
}

TEST_CASE("tickets: a ticket for another match, role or node is refused") {
  TicketSigner signer("a cluster secret of some length");
  const std::string bytes = signer.sign(join_ticket(10'000));
  CHECK(signer.check(bytes, 43, TicketRole::kJoin, "node-b", 0) == TicketCheck::kWrongMatch);
  CHECK(signer.check(bytes, 42, TicketRole::kSpectate, "node-b", 0) == TicketCheck::kWrongMatch);
  CHECK(signer.check(bytes, 42, TicketRole::kJoin, "node-c", 0) == TicketCheck::kWrongNode);
  // A create ticket names the id the match gets: the node takes it from the ticket.
  Ticket create = join_ticket(10'000);
  create.role = TicketRole::kCreate;
  Ticket read;
  CHECK(signer.check(signer.sign(create), 0, TicketRole::kCreate, "node-b", 0, &read) ==
        TicketCheck::kGood);
  CHECK(read.match == 42);
}

TEST_CASE("placement: the least-loaded node with room, the same choice on every node") {
  std::vector<NodeInfo> nodes = {{"node-a", "ws://a/ws", 10, 90},
                                 {"node-b", "ws://b/ws", 3, 0},
                                 {"node-c", "ws://c/ws", 5, 5}};
  auto chosen = least_loaded(nodes);
  REQUIRE(chosen);
  CHECK(chosen->name == "node-c");  // node-b has fewer matches but no room
  nodes.push_back({"node-d", "ws://d/ws", 5, 50});
  CHECK(least_loaded(nodes)->name == "node-d");  // as loaded as node-c, more room
  nodes.push_back({"node-0", "ws://0/ws", 5, 50});
  CHECK(least_loaded(nodes)->name == "node-0");  // a full tie: the first name
  CHECK_FALSE(least_loaded({{"full", "ws://f/ws", 9, 0}}));
  CHECK_FALSE(least_loaded({}));
}

TEST_CASE("lobby channel: listings and removals round-trip, malformed messages are dropped") {
  Listing listing{17, "node-a", std::string("\x0a\x02\x08\x11\n binary", 13), false};
  auto back = decode_listing(encode_listing(listing));
  REQUIRE(back);
  CHECK(back->match == 17);
  CHECK(back->node == "node-a");
  CHECK(back->info == listing.info);
  CHECK_FALSE(back->removed);
  auto removed = decode_listing(encode_listing({17, "node-a", "", true}));
  REQUIRE(removed);
  CHECK(removed->removed);
  CHECK_FALSE(decode_listing(""));
  CHECK_FALSE(decode_listing("L 17 node-a"));
  CHECK_FALSE(decode_listing("X 17 node-a\n"));
  CHECK_FALSE(decode_listing("L 0 node-a\n"));
  CHECK_FALSE(decode_listing("L 17 bad/name\n"));
  CHECK_FALSE(decode_listing("L x17 node-a\n"));
}

TEST_CASE("cluster options: a bad address, node name, advertised address or secret is refused") {
  duelhall::server::Config config;
  ClusterOptions options;
  std::string error;
  CHECK_FALSE(cluster_options_from(config, options, error));
  CHECK(error.empty());  // no --cluster: no cluster, no error
  config.cluster = "redis://127.0.0.1:7000";
  config.node_name = "node-a";
  config.advertise_address = "ws://127.0.0.1:8080/ws";
  config.cluster_secret = "sixteen chars ok";
  REQUIRE(cluster_options_from(config, options, error));
  CHECK(options.redis.host == "127.0.0.1");
  CHECK(options.redis.port == 7000);
  config.cluster = "http://127.0.0.1:7000";
  CHECK_FALSE(cluster_options_from(config, options, error));
  CHECK(error.find("redis://") != std::string::npos);
  config.cluster = "redis://127.0.0.1:99999";
  CHECK_FALSE(cluster_options_from(config, options, error));
  config.cluster = "redis://127.0.0.1";
  config.node_name = "bad name";
  CHECK_FALSE(cluster_options_from(config, options, error));
  config.node_name = "node-a";
  config.advertise_address = "127.0.0.1:8080";
  CHECK_FALSE(cluster_options_from(config, options, error));
  config.advertise_address = "";  // the default: the bind address and the port
  config.bind = "127.0.0.1";
  config.port = 0;
  REQUIRE(cluster_options_from(config, options, error));
  CHECK(options.advertise_host == "127.0.0.1");  // the port is the one it listens on
  config.advertise_address = "wss://play.example.com/n/node-a/ws";
  REQUIRE(cluster_options_from(config, options, error));
  CHECK(options.advertise == "wss://play.example.com/n/node-a/ws");
  CHECK(options.advertise_host.empty());
  config.cluster_secret = "short";
  CHECK_FALSE(cluster_options_from(config, options, error));
  CHECK(error.find("secret") != std::string::npos);
}

TEST_CASE("cluster options: the flags and the config file's [cluster] keys set them") {
  auto parsed = duelhall::server::parse_args(
      {"--cluster", "redis://10.0.0.5:6380", "--node-name", "node-7", "--advertise-address",
       "ws://10.0.0.7:8080/ws", "--cluster-secret", "0123456789abcdef"});
  REQUIRE(parsed.error.empty());
  CHECK(parsed.config.cluster == "redis://10.0.0.5:6380");
  CHECK(parsed.config.node_name == "node-7");
  CHECK(parsed.config.advertise_address == "ws://10.0.0.7:8080/ws");
  CHECK(parsed.config.cluster_secret == "0123456789abcdef");
  const auto path = std::filesystem::temp_directory_path() / "duelhall-cluster-options.toml";
  {
    std::ofstream file(path);
    file << "[cluster]\nredis = \"redis://r:1\"\nnode_name = \"n1\"\n"
            "advertise_address = \"ws://n1:80/ws\"\nsecret = \"from the file, long\"\n";
  }
  auto from_file = duelhall::server::parse_args({"--config", path.string()});
  std::filesystem::remove(path);
  REQUIRE(from_file.error.empty());
  CHECK(from_file.config.cluster == "redis://r:1");
  CHECK(from_file.config.node_name == "n1");
  CHECK(from_file.config.advertise_address == "ws://n1:80/ws");
  CHECK(from_file.config.cluster_secret == "from the file, long");
  CHECK(duelhall::server::help_text().find("--cluster-secret") != std::string::npos);
  CHECK(parsed.config.placement == "least-loaded");
  auto local = duelhall::server::parse_args({"--placement", "local"});
  REQUIRE(local.error.empty());
  CHECK(local.config.placement == "local");
  CHECK_FALSE(duelhall::server::parse_args({"--placement", "random"}).error.empty());
  ClusterOptions options;
  std::string error;
  local.config.cluster = "redis://r:1";
  local.config.cluster_secret = "0123456789abcdef";
  REQUIRE(cluster_options_from(local.config, options, error));
  CHECK(options.place_locally);
}

TEST_CASE(
    "tickets: item 14: a ticket holds only for the player it was issued to, and for no longer than "
    "a ticket's life") {
  TicketSigner signer("a cluster secret of some length");
  Ticket ticket = join_ticket(40'000);
  ticket.holder = holder_digest("name Joiner");
  const std::string bytes = signer.sign(ticket);
  CHECK(signer.check_for(bytes, 42, TicketRole::kJoin, "node-b", 10'000, "name Joiner", 60'000) ==
        TicketCheck::kGood);
  CHECK(signer.check_for(bytes, 42, TicketRole::kJoin, "node-b", 10'000, "name Other", 60'000) ==
        TicketCheck::kWrongHolder);
  CHECK(signer.check_for(bytes, 42, TicketRole::kJoin, "node-b", 10'000, "account 7", 60'000) ==
        TicketCheck::kWrongHolder);
  // Signed (with the secret) to expire in 2100: refused however genuine.
  Ticket forever = ticket;
  forever.expires_ms = 4'102'444'800'000;
  CHECK(signer.check_for(signer.sign(forever), 42, TicketRole::kJoin, "node-b", 10'000,
                         "name Joiner", 60'000) == TicketCheck::kTooLong);
}

TEST_CASE("cluster options: item 14: the example secrets deploy/ ships are refused") {
  duelhall::server::Config config;
  config.cluster = "redis://127.0.0.1:7000";
  config.node_name = "node-a";
  config.advertise_address = "ws://127.0.0.1:8080/ws";
  ClusterOptions options;
  std::string error;
  for (const char* example :
       {"change-this-secret-before-going-public", "replace-with-a-long-random-secret"}) {
    config.cluster_secret = example;
    CHECK_FALSE(cluster_options_from(config, options, error));
    CHECK(error.find("example") != std::string::npos);
  }
}

TEST_CASE("cluster channels: a moderation message is sealed with the secret and its time") {
  TicketSigner signer("a cluster secret of some length");
  TicketSigner stranger("another cluster's secret here");
  const std::string sealed = signer.seal("kick 7\nspam", 100'000);
  CHECK(signer.unseal(sealed, 100'500, 60'000) == "kick 7\nspam");
  CHECK_FALSE(signer.unseal("kick 7\nspam", 100'000, 60'000));  // as anyone with Redis writes it
  CHECK_FALSE(signer.unseal(stranger.seal("kick 7\nspam", 100'000), 100'000, 60'000));
  CHECK_FALSE(signer.unseal(sealed, 200'000, 60'000));  // replayed later
  std::string altered = sealed;
  altered.back() = 'X';
  CHECK_FALSE(signer.unseal(altered, 100'000, 60'000));
}
