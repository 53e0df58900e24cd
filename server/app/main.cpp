// duelhall: the match server. See `duelhall --help` and docs/protocol.md.
#include <google/protobuf/stubs/logging.h>
#include <spdlog/spdlog.h>
#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/thread_pool.hpp>
#include <filesystem>
#include <iostream>
#include <string_view>
#include <thread>

#include "accounts/account_service.hpp"
#include "accounts/hashing_pool.hpp"
#include "accounts/name_skeleton.hpp"
#include "app/accounts_setup.hpp"
#include "app/admin_command.hpp"
#include "app/cluster_setup.hpp"
#include "app/drain.hpp"
#include "app/recovery.hpp"
#include "app/store_watch.hpp"
#include "app/stores.hpp"
#include "config/config.hpp"
#include "core/registry.hpp"
#include "lobby/dispatch.hpp"
#include "lobby/gateway.hpp"
#include "lobby/hub.hpp"
#include "match/durable_log.hpp"
#include "metrics/log_field.hpp"
#include "metrics/server_metrics.hpp"
#include "moderation/moderation_service.hpp"
#include "pairing/pairing_room.hpp"
#include "tournament_room/tournament_room.hpp"
#include "net/listener.hpp"
#include "net/static_files.hpp"
#include "storage/group_commit.hpp"

namespace net = boost::asio;
using namespace duelhall::server;
using duelhall::metrics::log_field;

namespace {

void set_up_logging(const Config& config) {
  spdlog::set_level(spdlog::level::from_str(config.log_level));
  if (config.log_format == "json") {
    // Messages are the server's own texts (no client strings, no tokens), so they need no escaping.
    spdlog::set_pattern(R"({"time":"%Y-%m-%dT%H:%M:%S.%e","level":"%l","msg":"%v"})");
  } else {
    spdlog::set_pattern("%Y-%m-%d %H:%M:%S.%e %^%l%$ %v");
  }
  // Protobuf complains on stderr about malformed client frames (invalid UTF-8 and the like);
  // those are the client's mistakes, already answered with MALFORMED_FRAME: debug level.
  google::protobuf::SetLogHandler(
      [](google::protobuf::LogLevel, const char*, int, const std::string& message) {
        spdlog::debug("protobuf: {}", message);
      });
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::string_view(argv[1]) == "admin") {
    return run_admin_command(std::vector<std::string>(argv + 2, argv + argc), std::cout, std::cerr);
  }
  ParsedArgs parsed = parse_args(std::vector<std::string>(argv + 1, argv + argc));
  if (parsed.help) {
    std::cout << help_text();
    return 0;
  }
  if (!parsed.error.empty()) {
    std::cerr << "duelhall: " << parsed.error << "\n";
    return 2;
  }
  Config config = parsed.config;
  set_up_logging(config);

  std::error_code fs_error;
  // A new data folder is the server's alone (0700, whatever the umask); one the host made is left
  // as it is.
  if (std::filesystem::create_directories(config.data_dir, fs_error)) {
    std::filesystem::permissions(config.data_dir, std::filesystem::perms::owner_all,
                                 std::filesystem::perm_options::replace, fs_error);
  }
  if (fs_error) {
    spdlog::critical("cannot create the data folder {}: {}", config.data_dir, fs_error.message());
    return 1;
  }
  if (config.web_root.empty()) config.web_root = default_web_root();

  const auto registry = duelhall::engine::builtin_registry();
  // Every ruleset's series exist from the start, at 0, so a scrape shows them all.
  for (const auto& ruleset : registry.all()) {
    duelhall::metrics::server_metrics().ruleset(ruleset.name);
  }
  const unsigned threads =
      config.threads ? config.threads : std::max(1u, std::thread::hardware_concurrency());
  // Declared before the store's log: the log's last callbacks post to the matches' strands.
  net::io_context io(static_cast<int>(threads));

  // The stores: a damaged file or an unreachable database stops the server here, with the
  // reason, before anything is served.
  Stores stores;
  try {
    stores = open_stores(config, parsed.prune);
  } catch (const std::exception& e) {
    spdlog::critical("{}", e.what());
    return 1;
  }
  duelhall::storage::MatchStore* store = stores.matches.get();
  if (store) {
    const auto pruned = store->prune(retention_of(config), unix_now_ms());
    if (pruned.matches > 0 || parsed.prune) {
      spdlog::info("pruned {} ended matches ({} actions) from {}", pruned.matches, pruned.actions,
                   stores.where);
    }
    if (parsed.prune) return 0;
  }
  std::unique_ptr<duelhall::storage::GroupCommitLog> commit_log;
  std::shared_ptr<ActionLogFactory> logs = std::make_shared<MemoryActionLogFactory>();
  if (store) {
    commit_log = std::make_unique<duelhall::storage::GroupCommitLog>(*store);
    logs = std::make_shared<DurableLogFactory>(*commit_log, io.get_executor());
  }
  auto hub = std::make_shared<Hub>(io, registry, config, logs);
  hub->set_store(store);
  std::shared_ptr<StoreWatch> store_watch;
  if (commit_log) {
    store_watch = std::make_shared<StoreWatch>(io, *commit_log, std::chrono::seconds(1));
    // The log outlives the hub (declared first).
    hub->set_store_available([log = commit_log.get()] { return log->store_available(); });
  }
  std::unique_ptr<duelhall::accounts::AccountService> accounts;
  std::unique_ptr<duelhall::accounts::ModerationService> moderation;
  accounts = std::make_unique<duelhall::accounts::AccountService>(
      *stores.accounts, accounts_config_of(config), unix_now_ms);
  // Password hashes run here, off the I/O threads (docs/accounts.md); it goes before the
  // accounts it hashes for.
  duelhall::accounts::HashingPool hashing(config.hash_threads, std::max(1U, config.hash_queue));
  hub->set_hashing(&hashing);
  auto guest_sweep = sweep_unused_guests(io, *accounts, hashing);
  try {
    // Names are compared by their look-alike skeleton: a store from before keeps lower-cased keys.
    const auto rekeyed = duelhall::accounts::rekey_names(*stores.accounts);
    if (rekeyed.changed > 0) spdlog::info("{} account name keys rebuilt", rekeyed.changed);
    for (const auto& name : rekeyed.look_alikes) {
      spdlog::warn("account {} looks like an older account's name", log_field(name));
    }
    // Bans, mutes, reports and the audit log live beside the accounts (docs/moderation.md); the
    // service reads the bans and mutes in force at start.
    moderation = std::make_unique<duelhall::accounts::ModerationService>(
        *accounts, *stores.moderation, unix_now_ms);
  } catch (const std::exception& e) {
    spdlog::critical("cannot read the moderation data: {}", e.what());
    return 1;
  }
  hub->set_accounts(accounts.get());
  hub->set_moderation(moderation.get());
  hub->set_decks(stores.decks);
  hub->set_tournament_store(stores.tournaments);
  // Cluster mode (docs/cluster.md): a Redis that does not answer stops the start here. Adopted
  // matches are read from the shared store and rebuilt on their own thread, never on an I/O
  // thread; joined (at the end of main) before the hub and the store go.
  net::thread_pool adoptions(1);
  std::shared_ptr<duelhall::cluster::ClusterNode> cluster;
  try {
    cluster = join_cluster(config, io, adoptions.get_executor(), *hub, store, registry);
  } catch (const std::exception& e) {
    spdlog::critical("cannot join the cluster: {}", e.what());
    return 1;
  }
  if (store) {
    try {
      // In a cluster the store is every node's: only this node's matches are taken.
      const RecoveryReport report = recover_matches(
          *store, registry, *hub, cluster ? cluster_recovery_filter(*cluster, *store) : nullptr);
      spdlog::info(
          "recovery: {} matches resumed, {} finished, {} abandoned, {} ended and listed, {} left "
          "to other nodes ({})",
          report.resumed, report.finished, report.abandoned, report.ended, report.left,
          stores.where);
    } catch (const std::exception& e) {
      spdlog::critical("cannot recover the unfinished matches: {}", e.what());
      return 1;
    }
  }
  if (cluster) {
    try {
      release_unhosted(*cluster, *hub);
    } catch (const std::exception& e) {
      spdlog::critical("cannot join the cluster: {}", e.what());
      return 1;
    }
  }
  // The tokens of ended matches open them only while they are listed (and back after a restart).
  if (store)
    forget_unlisted_tokens(io, adoptions.get_executor(), *store, config.finished_linger_seconds);
  Dispatcher dispatcher(*hub);
  LobbyGateway gateway(*hub, dispatcher);
  HttpContext context{gateway,
                      std::make_shared<ConnectionCounter>(config.limits.max_connections,
                                                          config.limits.max_connections_per_ip),
                      config.web_root,
                      nullptr,
                      {},
                      std::make_shared<LiveSessions>()};
  for (const std::string& cidr : config.trusted_proxies) {
    std::string problem;
    if (!context.proxies.add(cidr, problem)) {
      spdlog::critical("bad --trusted-proxy: {}", problem);
      return 1;
    }
  }
  if (!config.tls_cert.empty()) {
    try {
      context.tls = std::make_shared<TlsContext>(config.tls_cert, config.tls_key);
    } catch (const std::exception& e) {
      spdlog::critical("{}", e.what());
      return 1;
    }
  }

  boost::system::error_code ec;
  const auto address = net::ip::make_address(config.bind, ec);
  if (ec) {
    spdlog::critical("bad bind address '{}'", config.bind);
    return 1;
  }
  auto listener = std::make_shared<Listener>(io, context);
  std::string error;
  if (!listener->open({address, config.port}, error)) {
    spdlog::critical("cannot listen on {}:{}: {}", config.bind, config.port, error);
    return 1;
  }
  listener->run();
  hub->friends().start();      // presence, challenges' expiry and the TV (docs/pairing.md)
  hub->pairing().start();      // quick pairing's waves (docs/pairing.md)
  hub->tournaments().start();  // resumes the open tournaments (docs/tournaments.md)
  hub->bot_pacer().start();    // bots wait while the I/O threads lag (docs/bots.md)
  if (store_watch) store_watch->start();
  if (cluster) cluster->start(listener->port());
  spdlog::info("duelhall listening on {}:{}{} ({} rulesets, {} threads, web root '{}', data '{}')",
               config.bind, listener->port(), context.tls ? " with TLS" : "", registry.all().size(),
               threads, config.web_root, config.data_dir);

  Drain drain(io, *hub, context, [&io, &listener, &cluster, &hub] {
    listener->close();
    hub->pairing().stop();
    hub->tournaments().stop();
    hub->bot_pacer().stop();
    if (cluster) cluster->stop();
    io.stop();
  });
  net::signal_set signals(io, SIGINT, SIGTERM);
  std::function<void(boost::system::error_code, int)> on_signal =
      [&](boost::system::error_code signal_ec, int number) {
        if (signal_ec) return;
        drain.begin(number == SIGTERM ? "SIGTERM" : "SIGINT");
        signals.async_wait(on_signal);
      };
  signals.async_wait(on_signal);
  // SIGHUP: new TLS handshakes use the files as they are now; open connections keep theirs.
  net::signal_set hangups(io, SIGHUP);
  std::function<void(boost::system::error_code, int)> on_hangup =
      [&](boost::system::error_code signal_ec, int) {
        if (signal_ec) return;
        std::string problem;
        if (!context.tls) {
          spdlog::info("SIGHUP: no TLS files to reload");
        } else if (context.tls->reload(problem)) {
          spdlog::info("SIGHUP: TLS certificate and key reloaded");
        } else {
          spdlog::error("SIGHUP: TLS files not reloaded, the old ones stay: {}", problem);
        }
        hangups.async_wait(on_hangup);
      };
  hangups.async_wait(on_hangup);

  // A handler that throws must not take the process down: log it and keep serving.
  auto serve = [&io] {
    while (true) {
      try {
        io.run();
        return;
      } catch (const std::exception& e) {
        spdlog::error("unhandled exception in a handler: {}", e.what());
      }
    }
  };
  std::vector<std::thread> pool;
  for (unsigned i = 1; i < threads; ++i) pool.emplace_back(serve);
  serve();
  for (auto& t : pool) t.join();
  spdlog::info("duelhall stopped");
  return 0;
}
