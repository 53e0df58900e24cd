// One match slot of the load generator: a connection per seat, set up like real players (hello,
// one creates the match and takes seat 0, the others join), then each seat follows its view by
// applying the server's patches and plays a random offered action whenever it has one, either at
// once or, paced, one action per match per second. When the match ends the same connections
// create the next one, so the number of live matches stays N while measuring.
//
// A bot slot (Setup.bot_seats) connects only the seats it plays: the creator asks the server for
// the engine's bot on the others, and its figures go to the shard's bot statistics, apart from
// the human matches' latency.
#pragma once

#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "connection.hpp"
#include "options.hpp"
#include "stats.hpp"

namespace duelhall::loadgen {

using Clock = std::chrono::steady_clock;

// State every thread reads; only atomics.
struct Shared {
  std::atomic<bool> recording{false};
  std::atomic<bool> stopping{false};
  std::atomic<uint32_t> first_live{0};  // slots whose first match went live
  std::atomic<uint32_t> live{0};        // matches live now (every seat has its view)
  std::atomic<uint32_t> failed{0};      // slots that gave up (connection or setup errors)
};

struct Setup {
  boost::asio::ip::tcp::endpoint endpoint;
  std::string ruleset;
  uint32_t seats = 2;
  Pace pace = Pace::kFast;
  std::chrono::nanoseconds interval{std::chrono::seconds(1)};  // paced: between a match's actions
  uint32_t protocol = 2;
  uint32_t bot_seats = 0;  // the last seats, played by the server's bot (no connection)
  std::string bot_level;
};

class MatchDriver;

// One thread's share of the slots, with its own io_context and statistics.
struct Shard {
  boost::asio::io_context io{1};
  Stats stats;
  Stats bot_stats;  // the bot slots'
  std::vector<std::unique_ptr<MatchDriver>> drivers;
  std::deque<MatchDriver*> waiting;  // not yet started: at most max_opening set up at once
  uint32_t opening = 0;
  uint32_t max_opening = 1;

  void start_some();
  void set_up_done();
};

class MatchDriver {
 public:
  MatchDriver(Shard& shard, Shared& shared, const Setup& setup, uint64_t seed);
  void start();
  void stop();

 private:
  struct Seat {
    std::shared_ptr<Connection> connection;
    int seat = -1;
    bool has_view = false;
    bool ended = false;
    uint64_t seq = 0;                 // the view's
    uint64_t seen = 0;                // the last seq told (protocol 5 counts on from it)
    uint64_t acted_seq = UINT64_MAX;  // the seq it last acted on
    uint64_t action_request = 0;      // the request id of its latest action
    std::string view;
    std::vector<uint64_t> legal;
  };
  struct InFlight {
    Clock::time_point sent;
    size_t actor = 0;
    uint64_t base_seq = 0;
    uint64_t request_id = 0;
  };

  void on_message(size_t i, const ServerMessage& m, size_t frame_bytes);
  void on_reply(size_t i, const ServerMessage& m);
  void on_snapshot(size_t i, const MatchSnapshot& s);
  // `answer`: the update answers this seat's own action (protocol 2's request id).
  void on_update(size_t i, const MatchUpdate& u, size_t frame_bytes, bool answer);
  void create_match();
  void match_over();
  void maybe_act(size_t i);
  void paced_tick();
  void act(size_t i);
  void give_up(const std::string& why);
  uint64_t random();

  Shard& shard_;
  Shared& shared_;
  const Setup& setup_;
  Stats& stats_;  // the shard's, or its bot statistics for a bot slot
  uint64_t rng_state_;
  std::vector<Seat> seats_;
  size_t welcomed_ = 0;
  uint64_t match_id_ = 0;
  bool live_ = false;
  bool ever_live_ = false;
  bool dead_ = false;
  std::deque<InFlight> in_flight_;
  boost::asio::steady_timer pace_timer_;
  bool pace_armed_ = false;
  Clock::time_point next_paced_{};
};

}  // namespace duelhall::loadgen
