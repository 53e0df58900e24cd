// The server's configuration: defaults, then the TOML file (--config), then command-line flags.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace duelhall::server {

struct Limits {
  uint32_t max_matches = 20'000;
  uint32_t max_connections = 20'000;
  uint32_t max_connections_per_ip = 1'000;
  uint32_t max_message_bytes = 64 * 1024;  // reading stops one byte past it: FRAME_TOO_LARGE
  uint32_t messages_per_second = 200;      // per connection, with a burst of twice that
  uint32_t write_queue = 512;              // queued frames before a slow consumer is dropped
  uint32_t idle_timeout_seconds = 300;     // WebSocket idle (with keep-alive pings)
  uint32_t read_timeout_seconds = 30;      // HTTP request and WebSocket handshake
  uint32_t chat_max_bytes = 300;
  uint32_t chat_per_minute = 30;
  uint32_t updates_held = 4;  // per seat, for reconnects; older misses get a snapshot
};

// The searching ("expert") bots: the threads they think on, off the I/O threads, the jobs that
// may wait for one (when full, a bot plays its heuristic move at once), and how long one move
// may take (whichever limit comes first; 0: no limit of that kind, not both).
struct BotSettings {
  uint32_t threads = 1;  // 0: each bot thinks on its match's strand, holding up its I/O thread
  uint32_t queue = 64;
  uint32_t iterations = 400;
  uint32_t milliseconds = 50;
  uint32_t nice = 10;  // the threads' priority below the I/O threads' (Linux nice steps)
  // Bot pacing (match/bot_pacer.hpp): a bot's move waits while the I/O threads lag this much
  // behind (0: never), by a delay growing up to pace_max_ms.
  uint32_t pace_lag_ms = 1;
  uint32_t pace_max_ms = 1000;
};

// Quick pairing (docs/pairing.md): how often the pools pair, the host's clock presets beside
// the defaults every ruleset offers, and after how long a casual table of 3+ seats starts short
// with bots in the seats left (0: never).
struct ClockPresetSetting {
  std::string ruleset;
  std::string name;
  uint32_t clock_seconds = 0;
};
struct PairingSettings {
  uint32_t wave_ms = 1000;
  std::vector<ClockPresetSetting> clocks;
  uint32_t bot_fill_seconds = 0;
};

struct Config {
  std::string bind = "0.0.0.0";
  uint16_t port = 8080;
  std::string web_root;  // empty: clients/web/dist under the working dir or the source tree
  std::string data_dir = "data";
  std::string log_level = "info";
  std::string log_format = "text";        // text or json
  uint32_t threads = 0;                   // 0: one per core
  uint32_t grace_seconds = 120;           // how long a dropped player may reconnect
  uint32_t kick_hold_seconds = 300;       // a kicked account and address are held out this long
  uint32_t finished_linger_seconds = 60;  // finished matches stay listed this long
  // When the last human of a match in play has left (or not come back within the grace period):
  // "end" ends it with no winner, "bots" lets the bots play it out.
  std::string abandoned_matches = "end";
  // "sqlite": matches are stored in <data>/duelhall.db and survive a restart; "memory": nothing
  // is stored (tests, benchmarks).
  std::string storage = "sqlite";
  // "full": an action is fsynced before anyone sees it, so it survives a power loss; "normal":
  // it is written to the WAL before anyone sees it (it survives a crash or kill of the server,
  // not of the machine) and synced at checkpoints, which takes the fsync off every action's path.
  std::string storage_sync = "full";
  // Empty: the stores are SQLite (storage). A postgresql://... URL: matches and accounts are kept
  // in that PostgreSQL database (docs/storage.md), which several nodes may share.
  std::string database;
  // Ended matches kept for replays: pruned at start and by `duelhall --prune`. 0: no limit.
  uint32_t retention_days = 0;
  uint32_t retention_matches = 0;
  // Accounts (docs/accounts.md): session lifetime; per 15 minutes, wrong passwords per account
  // from one address, failed sign-ins per address, wrong passwords per account before each try
  // waits a growing delay (up to account_delay_seconds), password checks per address and per
  // account, new guests per address; days an unused guest lasts; the password-hashing threads
  // and their queue; the rating deviation above which a rating is provisional.
  uint32_t session_days = 30;
  uint32_t sign_in_failures = 5;
  uint32_t address_failures = 20;
  uint32_t account_failures = 20;
  uint32_t account_delay_seconds = 60;
  uint32_t password_checks = 60;
  uint32_t new_guests = 20;
  uint32_t guest_days = 30;
  uint32_t hash_threads = 2;
  uint32_t hash_queue = 16;
  uint32_t provisional_rd = 110;
  // Saved decks (docs/accounts.md): how many an account may keep.
  uint32_t max_decks_per_account = 100;
  // TLS: both set, the port serves HTTPS and WSS only (the files are read again on SIGHUP).
  std::string tls_cert;  // PEM certificate chain
  std::string tls_key;   // PEM private key
  // Reverse proxies (CIDR) whose X-Forwarded-For names the client.
  std::vector<std::string> trusted_proxies;
  // On SIGTERM: how long connections get to close after being told, before the server stops.
  uint32_t drain_seconds = 10;
  // Cluster mode (docs/cluster.md): empty `cluster` is one node on its own.
  std::string cluster;            // redis://HOST:PORT
  std::string node_name;          // unique in the cluster; default: the host name
  std::string advertise_address;  // where clients reach this node: ws://HOST:PORT/ws
  std::string cluster_secret;     // signs tickets; the same on every node
  // "least-loaded", or "local": new matches stay on the node they are asked of while it has room.
  std::string placement = "least-loaded";
  // The hall's challenges, presence and TV (docs/pairing.md).
  uint32_t challenge_seconds = 60;             // a challenge to a connected account waits this long
  uint32_t challenge_offline_seconds = 86'400;  // ... to one not connected (delivered at sign-in)
  uint32_t challenges_per_minute = 6;          // per account
  uint32_t max_pending_challenges = 5;         // per account
  bool guests_challenge = false;               // guests with an identity may challenge by name
  uint32_t away_seconds = 300;                 // connected but idle this long: away
  uint32_t max_follows = 500;                  // per account
  uint32_t presence_tick_ms = 1000;            // presence, counts, TV and expiry looked at
  // Tournaments (docs/tournaments.md).
  bool anyone_creates_tournaments = false;  // else moderators and admins only
  uint32_t tournament_max_players = 256;
  uint32_t tournament_max_open = 20;        // registering or running at once
  uint32_t tournament_round_minutes = 60;   // a Swiss round's limit unless the tournament's own
  uint32_t tournament_show_up_seconds = 120;  // at least: a game's clock counts too
  bool tournament_bot_fill = false;  // a casual two-seat tournament's odd count gets the bot
  BotSettings bots;
  PairingSettings pairing;
  Limits limits;
};

struct ParsedArgs {
  Config config;
  bool help = false;
  bool prune = false;  // --prune: apply the retention settings to the store, then exit
  std::string error;   // set when the arguments or the config file are wrong
};

// Reads flags and, when --config is given, the TOML file first (flags win).
ParsedArgs parse_args(const std::vector<std::string>& args);
std::string help_text();
// Applies a TOML document's values to `config`; false with `error` on bad keys or values.
bool apply_toml(const std::string& path, Config& config, std::string& error);

}  // namespace duelhall::server
