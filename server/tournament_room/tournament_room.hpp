// The tournament room (docs/tournaments.md): creates tournaments, takes registrations, and
// directs each from its start to its final standings on this node. The formats' rules are the
// pure tournaments/ library (one face: tournaments/format.hpp); this room adds what a server
// must: the clock (start times, show-up times, round limits), the matches (made through the
// lobby's create path when a game's players are connected; a result comes back when its match
// ends), the store (every change saved, every open tournament resumed at start-up), and the
// pushes to the connections that watch a tournament or play in it.
//
// In a cluster (tournament_cluster.cpp) one node directs each tournament, the holder of its lease
// in Redis; commands about another node's tournament are redirected there.
//
// Threads: commands come from the connections' strands, the tick from a timer on the I/O
// context, match ends from the matches' strands; one mutex guards the tournaments and watchers.
// Matches are made and messages sent after it is released, as the Hub does.
#pragma once

#include <boost/asio/steady_timer.hpp>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "hall/call.hpp"
#include "tournament_room/tournament.hpp"
#include "tournament_room/tournament_host.hpp"

namespace duelhall::server {

class TournamentRoom : public std::enable_shared_from_this<TournamentRoom> {
 public:
  explicit TournamentRoom(TournamentHost& host);

  // Resumes the open tournaments from the store and arms the tick (every second).
  void start();
  void stop();

  Handled create(Call& call, const CreateTournament& request);
  Handled list(Call& call, const ListTournaments& request);
  Handled get(Call& call, const GetTournament& request);
  // `request.seat_options` holds every setup (saved decks already loaded by the lobby).
  Handled join(Call& call, const JoinTournament& request);
  Handled withdraw(Call& call, const WithdrawTournament& request);
  Handled disqualify(Call& call, const DisqualifyEntrant& request);
  void disconnected(uint64_t peer_id);
  // Runs `use` with the ruleset of tournament `id` (not at all for an unknown one): the lobby
  // loads saved decks for it before join().
  void with_ruleset(uint64_t id, const std::function<void(const std::string&)>& use);

  // A match ended (after its end was stored): `winners` has bit i for each winning seat.
  void match_ended(uint64_t match_id, uint64_t winners, bool aborted);

  // One tick at `now_ms` (Unix milliseconds; the timer's, or a test's): starts what is due,
  // makes the matches whose players are here, forfeits no-shows, ends Swiss rounds at their
  // limit, retries failed saves.
  void tick(int64_t now_ms);

  // For the HTTP API (lobby/gateway.cpp): the listing, and one tournament as any visitor sees it.
  TournamentList listing(uint32_t limit);
  std::optional<TournamentDetail> detail(uint64_t id);
  // GET /api/tournaments[/<id>] as JSON (tournament_http.cpp); nullopt for other paths.
  struct HttpAnswer {
    int status = 200;
    std::string body;
  };
  std::optional<HttpAnswer> answer_http(std::string_view target);

 private:
  // A game ready to be made into a match (all its players connected), taken out of the lock.
  struct ToMake {
    uint64_t tournament = 0;
    uint64_t key = 0;
    uint32_t round = 0;
    std::string name;
    MatchSettings settings;
    std::vector<std::shared_ptr<Player>> players;  // the humans, in seat order
    std::vector<std::shared_ptr<Peer>> peers;
    std::vector<std::string> setups;               // the humans'
    std::vector<std::string> names;                // every seat's, in the match's order
    uint32_t bot_seats = 0;                        // the last seats, the engine's bot
  };
  struct Watcher {
    std::weak_ptr<Peer> peer;
    int64_t account = 0;
    uint64_t tournament = 0;
  };
  // What a locked step leaves to do once the lock is released.
  struct After {
    std::vector<ToMake> make;
    std::vector<uint64_t> abort;        // matches whose games were decided without them
    std::vector<uint64_t> changed;      // tournaments whose watchers are pushed the detail
  };

  // Director (tournament_director.cpp), under mutex_.
  void step(Tournament& t, int64_t now_ms, After& after);
  void begin(Tournament& t, int64_t now_ms);
  void hand_out(Tournament& t, int64_t now_ms, After& after);
  void record(Tournament& t, GameNote& game, std::vector<uint8_t> places, bool forfeit,
              After& after);
  void forfeit_absent(Tournament& t, GameNote& game, After& after);
  void end_round_at_limit(Tournament& t, int64_t now_ms, After& after);
  std::vector<uint8_t> places_without(const GameNote& game, int64_t absent) const;
  // The setup of each seat of `seats` (in the match's order) that fit together.
  bool choose_setups(const Tournament& t, const std::vector<int64_t>& seats,
                     std::vector<std::string>& setups) const;
  tournaments::Refusal leave(Tournament& t, int64_t account, bool disqualified, int64_t now_ms,
                             After& after);
  // Why a player's setups do not do for this tournament (one per side it may be seated on).
  std::optional<std::string> setups_problem(const Tournament& t,
                                            const std::vector<std::string>& setups) const;
  // Marks the tournament to be written; flush_saves() writes each marked one once (a failed write
  // stays marked and is tried again at the next tick).
  void save(Tournament& t);
  void flush_saves();
  // Outside the lock: makes the matches, seats the players, aborts, pushes.
  void carry_out(After after);
  void make_match(ToMake& job);
  // Once the match is open: the other seats joined, and each player told its game is ready.
  void seat_players(const ToMake& job, const TournamentMatch& created);
  void push_changes(const std::vector<uint64_t>& tournaments);

  // Views (tournament_view.cpp), under mutex_.
  void fill_summary(const Tournament& t, TournamentSummary& out) const;
  void fill_detail(const Tournament& t, int64_t viewer, TournamentDetail& out) const;
  std::string name_of(const Tournament& t, int64_t account) const;

  Handled check_settings(TournamentSettings& settings, int64_t now_ms) const;
  // An open tournament, or one over (kept in recent_, read from the store when not).
  Tournament* find(uint64_t id);
  // A stored tournament that is over, decoded once into recent_ (bounded); null otherwise.
  Tournament* keep_past(const storage::TournamentRecord& record);
  int64_t now_ms() const;
  void arm_timer();
  // The result of a match of a tournament this node directs (match_ended, or a note from the
  // node that hosted it).
  void apply_match_end(uint64_t match_id, uint64_t winners, bool aborted);

  // Across a cluster (tournament_cluster.cpp).
  void start_cluster();
  void tell_match_end(uint64_t match_id, uint64_t winners, bool aborted);
  // Each tick: reads the store's open tournaments (every few seconds) and takes or renews the
  // lease of each; leases_read() takes up those won and lets go of those lost.
  void renew_leases(int64_t now);
  void read_open_from_store(int64_t now);
  void leases_read(const std::map<uint64_t, std::string>& holders);
  // Under mutex_: REDIRECT to the node directing tournament `id` when it is not this one.
  std::optional<Handled> directed_elsewhere(Call& call, uint64_t id);

  TournamentHost& host_;
  std::mutex mutex_;
  std::map<uint64_t, Tournament> open_;   // registering or running, by id
  std::map<uint64_t, Tournament> recent_;  // over, kept in memory (bounded) for the views
  std::map<uint64_t, std::pair<uint64_t, uint64_t>> by_match_;  // match -> tournament, key
  std::map<uint64_t, Watcher> watchers_;  // by peer id
  std::set<uint64_t> dirty_;              // tournaments changed since their last write
  std::set<std::pair<uint64_t, uint64_t>> making_;  // games whose match is being made
  uint64_t next_memory_id_ = 1;           // ids when there is no store
  std::unique_ptr<boost::asio::steady_timer> timer_;
  bool stopped_ = false;
  // Cluster: every open tournament as last read from the store, and the node directing each.
  std::map<uint64_t, Tournament> elsewhere_;
  std::map<uint64_t, std::string> directors_;
  int64_t last_store_read_ms_ = 0;  // steady, not the tick's clock
  // Ends of matches no tournament here was waiting for (bounded): a node taking a tournament up
  // finds the ends of its games played meanwhile (adopted and finished before it held the lease).
  struct MatchEnd {
    uint64_t winners = 0;
    bool aborted = false;
  };
  std::map<uint64_t, MatchEnd> unclaimed_ends_;
  void remember_end(uint64_t match_id, uint64_t winners, bool aborted);  // under mutex_
  // Under mutex_: lets go of the tournaments lost and loads those won; `ended` gets the ends
  // remembered of their games.
  void take_up(const std::map<uint64_t, std::string>& holders,
               std::vector<std::pair<uint64_t, MatchEnd>>& ended);
};

}  // namespace duelhall::server
