#include "config/config_options.hpp"

#include <charconv>
#include <cstdint>

namespace duelhall::server {
namespace {

bool parse_uint(const std::string& text, uint64_t max, uint64_t& out) {
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, out);
  return ec == std::errc() && ptr == end && out <= max;
}

template <typename T>
std::function<bool(Config&, const std::string&)> number(T Config::*field, uint64_t max) {
  return [field, max](Config& c, const std::string& v) {
    uint64_t n = 0;
    if (!parse_uint(v, max, n)) return false;
    c.*field = static_cast<T>(n);
    return true;
  };
}

std::function<bool(Config&, const std::string&)> limit(uint32_t Limits::*field) {
  return [field](Config& c, const std::string& v) {
    uint64_t n = 0;
    if (!parse_uint(v, UINT32_MAX, n)) return false;
    c.limits.*field = static_cast<uint32_t>(n);
    return true;
  };
}

std::function<bool(Config&, const std::string&)> bots(uint32_t BotSettings::*field, uint64_t max) {
  return [field, max](Config& c, const std::string& v) {
    uint64_t n = 0;
    if (!parse_uint(v, max, n)) return false;
    c.bots.*field = static_cast<uint32_t>(n);
    return true;
  };
}

// "ruleset:name:seconds", a host's clock preset for that ruleset's pools.
bool add_clock_preset(Config& c, const std::string& v) {
  const size_t first = v.find(':');
  const size_t last = v.rfind(':');
  if (first == std::string::npos || first == 0 || last == first || last == first + 1) return false;
  ClockPresetSetting preset{v.substr(0, first), v.substr(first + 1, last - first - 1), 0};
  uint64_t seconds = 0;
  if (preset.name.size() > 32 || !parse_uint(v.substr(last + 1), 86'400, seconds)) return false;
  preset.clock_seconds = static_cast<uint32_t>(seconds);
  c.pairing.clocks.push_back(std::move(preset));
  return true;
}

std::function<bool(Config&, const std::string&)> text(std::string Config::*field) {
  return [field](Config& c, const std::string& v) {
    c.*field = v;
    return true;
  };
}

}  // namespace

const std::vector<Option>& options() {
  static const std::vector<Option> table = {
      {"--bind", "bind", "address to listen on (default 0.0.0.0)", text(&Config::bind)},
      {"--port", "port", "TCP port for HTTP and WebSocket (default 8080)",
       number(&Config::port, 65535)},
      {"--web-root", "web_root", "folder served at / (default clients/web/dist)",
       text(&Config::web_root)},
      {"--data", "data", "data folder, created if missing (default ./data)",
       text(&Config::data_dir)},
      {"--log-level", "log_level", "trace, debug, info, warn, error (default info)",
       [](Config& c, const std::string& v) {
         static const char* levels[] = {"trace", "debug", "info", "warn", "error", "off"};
         for (const char* l : levels) {
           if (v == l) {
             c.log_level = v;
             return true;
           }
         }
         return false;
       }},
      {"--log-format", "log_format", "text or json (default text)",
       [](Config& c, const std::string& v) {
         if (v != "text" && v != "json") return false;
         c.log_format = v;
         return true;
       }},
      {"--threads", "threads", "I/O threads (default: one per core)",
       number(&Config::threads, 256)},
      {"--grace", "grace_seconds", "seconds a dropped player may reconnect (default 120)",
       number(&Config::grace_seconds, 86'400)},
      {"--kick-hold", "moderation.kick_hold_seconds",
       "seconds a kicked account and its address are held out; 0: none (default 300)",
       number(&Config::kick_hold_seconds, 86'400)},
      {"--challenge-seconds", "hall.challenge_seconds",
       "seconds a challenge to a connected player waits for its answer (default 60)",
       number(&Config::challenge_seconds, 86'400)},
      {"--challenge-offline-seconds", "hall.challenge_offline_seconds",
       "seconds a challenge to a player who is not connected waits (default 86400)",
       number(&Config::challenge_offline_seconds, 30 * 86'400)},
      {"--away-seconds", "hall.away_seconds",
       "seconds without a command after which a connected player shows as away (default 300)",
       number(&Config::away_seconds, 86'400)},
      {"--finished-linger", "finished_linger_seconds",
       "seconds a finished match stays listed (default 60)",
       number(&Config::finished_linger_seconds, 86'400)},
      {"--abandoned", "abandoned_matches",
       "end (a match whose humans have all left ends with no winner) or bots (the bots play it"
       " out) (default end)",
       [](Config& c, const std::string& v) {
         if (v != "end" && v != "bots") return false;
         c.abandoned_matches = v;
         return true;
       }},
      {"--storage", "storage",
       "sqlite (matches survive a restart) or memory (nothing stored) (default sqlite)",
       [](Config& c, const std::string& v) {
         if (v != "sqlite" && v != "memory") return false;
         c.storage = v;
         return true;
       }},
      {"--sync", "storage_sync",
       "full (an action is on disk before anyone sees it) or normal (it survives a server crash,"
       " not a power loss; lower latency) (default full)",
       [](Config& c, const std::string& v) {
         if (v != "full" && v != "normal") return false;
         c.storage_sync = v;
         return true;
       }},
      {"--database", "database",
       "postgresql://USER@HOST:PORT/DB: keep matches and accounts in PostgreSQL rather than in"
       " <data>/duelhall.db (default: none, SQLite)",
       [](Config& c, const std::string& v) {
         if (v.rfind("postgresql://", 0) != 0 && v.rfind("postgres://", 0) != 0) return false;
         c.database = v;
         return true;
       }},
      {"--retention-days", "retention.days",
       "ended matches older than this many days are pruned; 0: kept (default 0)",
       number(&Config::retention_days, 1'000'000)},
      {"--retention-matches", "retention.matches",
       "at most this many ended matches are kept, the newest; 0: all (default 0)",
       number(&Config::retention_matches, UINT32_MAX)},
      {"--session-days", "accounts.session_days", "days a sign-in session lasts (default 30)",
       number(&Config::session_days, 3650)},
      {"--sign-in-failures", "accounts.sign_in_failures",
       "wrong passwords per 15 minutes for one account from one address (default 5)",
       number(&Config::sign_in_failures, 1'000'000)},
      {"--address-failures", "accounts.address_failures",
       "failed sign-ins per 15 minutes from one address, any accounts (default 20)",
       number(&Config::address_failures, 1'000'000)},
      {"--account-failures", "accounts.account_failures",
       "wrong passwords per 15 minutes for one account from all addresses before each further"
       " try waits a doubling delay (default 20)",
       number(&Config::account_failures, 1'000'000)},
      {"--account-delay-seconds", "accounts.account_delay_seconds",
       "the longest such delay, in seconds (default 60)",
       number(&Config::account_delay_seconds, 86'400)},
      {"--password-checks", "accounts.password_checks",
       "password checks (sign-in, change, deletion) per 15 minutes per address and per account"
       " (default 60)",
       number(&Config::password_checks, 1'000'000)},
      {"--new-guests", "accounts.new_guests",
       "new guest identities per 15 minutes per address (default 20)",
       number(&Config::new_guests, 1'000'000)},
      {"--guest-days", "accounts.guest_days",
       "a guest identity that never played is removed after this many days (default 30)",
       number(&Config::guest_days, 3650)},
      {"--hash-threads", "accounts.hash_threads",
       "threads that hash passwords, off the I/O threads (default 2)",
       number(&Config::hash_threads, 64)},
      {"--hash-queue", "accounts.hash_queue",
       "password commands waiting for those threads; more are answered BUSY (default 16)",
       number(&Config::hash_queue, 100'000)},
      {"--provisional-rd", "accounts.provisional_rd",
       "a rating is provisional (off the leaderboard) above this deviation (default 110)",
       number(&Config::provisional_rd, 350)},
      {"--max-decks", "accounts.max_decks",
       "saved decks (deck lists and setups) an account may keep (default 100)",
       number(&Config::max_decks_per_account, 1'000'000)},
      {"--tournament-creators", "tournaments.creators",
       "who may create tournaments: moderators (moderators and admins, the default) or anyone"
       " (any signed-in account)",
       [](Config& c, const std::string& v) {
         if (v != "moderators" && v != "anyone") return false;
         c.anyone_creates_tournaments = v == "anyone";
         return true;
       }},
      {"--tournament-max-players", "tournaments.max_players",
       "players a tournament may take at most (default 256)",
       number(&Config::tournament_max_players, 100'000)},
      {"--tournament-max-open", "tournaments.max_open",
       "tournaments registering or running at once (default 20)",
       number(&Config::tournament_max_open, 10'000)},
      {"--tournament-round-minutes", "tournaments.round_minutes",
       "a Swiss round's time limit unless the tournament sets its own: its games still running"
       " then end drawn (default 60)",
       number(&Config::tournament_round_minutes, 10'000)},
      {"--tournament-bot-fill", "tournaments.bot_fill",
       "whether a casual two-seat tournament that starts with an odd number of players gets the"
       " engine's bot as one more player: yes or no (default no)",
       [](Config& c, const std::string& v) {
         if (v != "yes" && v != "no") return false;
         c.tournament_bot_fill = v == "yes";
         return true;
       }},
      {"--tournament-show-up-seconds", "tournaments.show_up_seconds",
       "how long a tournament game waits for a player who is not connected before that player"
       " loses it (default 120; at least the game's decision clock)",
       number(&Config::tournament_show_up_seconds, 86'400)},
      {"--tls-cert", "tls.cert",
       "PEM certificate chain: with --tls-key, serve HTTPS and WSS only; reread on SIGHUP",
       text(&Config::tls_cert)},
      {"--tls-key", "tls.key", "PEM private key for --tls-cert", text(&Config::tls_key)},
      {"--trusted-proxy", "trusted_proxies",
       "a reverse proxy (CIDR, IPv4 or IPv6) whose X-Forwarded-For names the client;"
       " repeatable (a list in TOML)",
       [](Config& c, const std::string& v) {
         c.trusted_proxies.push_back(v);
         return true;
       }},
      {"--drain-seconds", "drain_seconds",
       "on SIGTERM, seconds clients get to close after being told, before the server stops"
       " (default 10)",
       number(&Config::drain_seconds, 3600)},
      {"--pairing-wave-ms", "pairing.wave_ms",
       "milliseconds between two quick-pairing waves (default 1000)",
       [](Config& c, const std::string& v) {
         uint64_t n = 0;
         if (!parse_uint(v, 60'000, n) || n < 100) return false;
         c.pairing.wave_ms = static_cast<uint32_t>(n);
         return true;
       }},
      {"--pairing-clock", "pairing.clocks",
       "a clock preset the quick-pairing pools of a ruleset offer beside the defaults (blitz 15,"
       " rapid 30, classical 90 seconds a decision), as ruleset:name:seconds; repeatable (a list"
       " in TOML)",
       add_clock_preset},
      {"--pairing-bot-fill", "pairing.bot_fill_seconds",
       "casual quick-pairing tables of 3+ seats start short after this many seconds, bots in"
       " the seats left (default 0: never)",
       [](Config& c, const std::string& v) {
         uint64_t n = 0;
         if (!parse_uint(v, 3600, n)) return false;
         c.pairing.bot_fill_seconds = static_cast<uint32_t>(n);
         return true;
       }},
      {"--cluster", "cluster.redis",
       "join a cluster whose live state is in this Redis: redis://HOST:PORT (default: none,"
       " a node on its own; docs/cluster.md)",
       text(&Config::cluster)},
      {"--node-name", "cluster.node_name",
       "this node's name, unique in the cluster (default: the host name)",
       text(&Config::node_name)},
      {"--advertise-address", "cluster.advertise_address",
       "the WebSocket URL clients reach this node at, given to clients sent here from another"
       " node (default ws://<bind address, or the host name>:<port>/ws)",
       text(&Config::advertise_address)},
      {"--cluster-secret", "cluster.secret",
       "the secret every node of the cluster shares, 16 characters or more: it signs the"
       " tickets that send clients between nodes (or the environment's DUELHALL_CLUSTER_SECRET)",
       text(&Config::cluster_secret)},
      {"--placement", "cluster.placement",
       "where a match created through this node goes: least-loaded (the least-loaded node with"
       " room, by a redirect) or local (here while this node has room, as behind a balancer"
       " that already spreads players) (default least-loaded)",
       [](Config& c, const std::string& v) {
         if (v != "least-loaded" && v != "local") return false;
         c.placement = v;
         return true;
       }},
      {"--bot-threads", "bots.threads",
       "threads the expert bots think on, off the I/O threads; 0: on their match's (default 1)",
       bots(&BotSettings::threads, 256)},
      {"--bot-queue", "bots.queue",
       "bot moves that may wait for a thinking thread; past it a bot plays its heuristic move"
       " (default 64)",
       bots(&BotSettings::queue, 1'000'000)},
      {"--bot-nice", "bots.nice",
       "steps of scheduling priority (Linux nice) the bots' threads take below the I/O threads,"
       " so that the players' actions go first on a busy core; 0: the same (default 10)",
       bots(&BotSettings::nice, 19)},
      {"--bot-iterations", "bots.iterations",
       "search iterations an expert bot may spend on one move; 0: no limit (default 400)",
       bots(&BotSettings::iterations, 10'000'000)},
      {"--bot-ms", "bots.milliseconds",
       "milliseconds an expert bot may think about one move; 0: no limit (default 50)",
       bots(&BotSettings::milliseconds, 600'000)},
      {"--bot-pace-lag-ms", "bots.pace_lag_ms",
       "lag of the I/O threads (ms) past which the bots' moves wait, so that matches between"
       " people keep their latency on a busy server; 0: never (default 1)",
       bots(&BotSettings::pace_lag_ms, 10'000)},
      {"--bot-pace-max-ms", "bots.pace_max_ms",
       "the longest a bot's move waits on a busy server (default 1000)",
       bots(&BotSettings::pace_max_ms, 60'000)},
      {"--max-matches", "limits.matches", "live matches (default 20000)",
       limit(&Limits::max_matches)},
      {"--max-connections", "limits.connections", "open connections (default 20000)",
       limit(&Limits::max_connections)},
      {"--max-connections-per-ip", "limits.connections_per_ip",
       "open connections per IP address (default 1000)", limit(&Limits::max_connections_per_ip)},
      {"--max-message", "limits.message_size", "largest client frame in bytes (default 65536)",
       limit(&Limits::max_message_bytes)},
      {"--messages-per-second", "limits.messages_per_second",
       "client messages per second per connection (default 200)",
       limit(&Limits::messages_per_second)},
      {"--write-queue", "limits.write_queue",
       "frames queued to a client before it is dropped as too slow (default 512)",
       limit(&Limits::write_queue)},
      {"--idle-timeout", "limits.idle_timeout_seconds",
       "seconds of silence before a WebSocket is closed (default 300)",
       limit(&Limits::idle_timeout_seconds)},
      {"--read-timeout", "limits.read_timeout_seconds",
       "seconds for an HTTP request or WebSocket handshake (default 30)",
       limit(&Limits::read_timeout_seconds)},
      {"--chat-max", "limits.chat_max_bytes", "longest chat message in bytes (default 300)",
       limit(&Limits::chat_max_bytes)},
      {"--chat-per-minute", "limits.chat_per_minute",
       "chat messages per minute per connection (default 30)", limit(&Limits::chat_per_minute)},
      {"--updates-held", "limits.updates_held", "updates held per seat for reconnects (default 4)",
       limit(&Limits::updates_held)},
  };
  return table;
}

}  // namespace duelhall::server
