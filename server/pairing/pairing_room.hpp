// The pairing room (docs/pairing.md): quick pairing and rematches on one node. It owns the
// node's PairingHall (the pure pools and rule beside it in this folder), who seeks from which
// connection, the wave timer, and the rematch offers. A wave turns each pairing into a match
// through the lobby's create and join path (PairingHost) and tells every seated player (Paired).
//
// Threads: commands come from the connections' strands, the wave from a timer on the I/O
// context, rematch checks from the match's strand (Match::seats_now); one mutex guards the hall,
// the seekers and the offers, and is held only to read or change them: matches are created and
// messages sent after it is released, as the Hub does.
#pragma once

#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "cluster/redis_reply.hpp"
#include "cluster.pb.h"
#include "hall/call.hpp"
#include "match/match.hpp"
#include "pairing/pairing_hall.hpp"
#include "pairing/pairing_host.hpp"

namespace duelhall::server {

class PairingRoom : public std::enable_shared_from_this<PairingRoom> {
 public:
  explicit PairingRoom(PairingHost& host);

  // The clocks a ruleset's pools offer: the defaults (blitz 15, rapid 30, classical 90 seconds a
  // decision), then the host's (pairing.clocks), a host's preset replacing a default of its name.
  std::vector<ClockPresetSetting> presets(const std::string& ruleset) const;
  // The decision clock of the ruleset's preset `clock`; nullopt: no such preset.
  std::optional<uint32_t> clock_seconds(const std::string& ruleset, const std::string& clock) const;

  // Arms the wave timer (every pairing.wave_ms) on the host's I/O context.
  void start();
  void stop();

  Handled seek(Call& call, const Seek& request);
  Handled cancel(Call& call);
  Handled offer_rematch(Call& call, const OfferRematch& request);
  Handled answer_rematch(Call& call, const AnswerRematch& request);
  // The connection closed: its player's seek ends.
  void disconnected(const Peer& peer, const std::shared_ptr<Player>& player);

  // One wave at `now` (the timer's, or a test's): pairs every pool, creates and seats the
  // matches, and every few waves tells the seekers left how long they have waited. Returns the
  // pairings made.
  size_t wave(pairing::Instant now);
  size_t seeking();

 private:
  struct Seeking {
    std::weak_ptr<Peer> peer;
    uint64_t peer_id = 0;
    std::shared_ptr<Player> player;
    pairing::PoolKey pool;
    pairing::Instant since{};
    std::string cluster_key;  // in a cluster: the seeker's key in Redis
  };
  // One seat of a match about to be made: its player, the connection to tell, its setup text.
  struct ToSeat {
    std::shared_ptr<Player> player;
    std::shared_ptr<Peer> peer;
    std::string option;
    size_t index = 0;  // in a cluster: the seat's place in the wave's table
  };
  struct Offer {
    std::shared_ptr<Player> from;
    std::shared_ptr<Player> to;
    bool declined = false;
    std::chrono::steady_clock::time_point made{};
  };
  // The pools' view of the roster's ignore lists; asked only during a wave, under mutex_.
  class Ignores final : public pairing::IgnoreQuery {
   public:
    explicit Ignores(PairingRoom& room) : room_(room) {}
    bool ignores(pairing::SeekerId who, pairing::SeekerId other) const override;

   private:
    PairingRoom& room_;
  };

  std::optional<pairing::PairingOptions> options_for(const pairing::PoolKey& key) const;
  Handled check_seek(Call& call, const Seek& request, uint32_t& seats) const;
  void fill_status(const Seeking& seeking, pairing::Instant now, SeekStatus& out);
  // Creates the match (the first seat its creator), seats the rest and tells each (Paired).
  void seat_players(const MatchSettings& settings, std::vector<ToSeat> seats, uint32_t bot_seats,
                    uint64_t rematch_of);
  // Two seats whose setup texts do not fit in this order (a Young Jedi deck is one side's, and
  // the seat decides the side) are swapped when the other order fits; when neither does, the
  // ruleset's reason.
  std::optional<std::string> fit_seat_options(const MatchSettings& settings,
                                              std::vector<ToSeat>& seats) const;
  void push_status_every_few_waves(pairing::Instant now);

  // Rematches (pairing_rematch.cpp), on the match's strand.
  void offer_on(const Match::SeatsNow& now, uint64_t match_id, const std::shared_ptr<Peer>& peer,
                const std::shared_ptr<Player>& player, uint64_t request_id);
  void answer_on(const Match::SeatsNow& now, uint64_t match_id, const AnswerRematch& request,
                 const std::shared_ptr<Peer>& peer, const std::shared_ptr<Player>& player,
                 uint64_t request_id);
  void accept(const Match::SeatsNow& now, uint64_t match_id, const std::shared_ptr<Player>& player,
              const std::shared_ptr<Peer>& peer, uint64_t request_id);
  void prune_offers();

  void arm_timer();

  // Across a cluster (pairing_cluster.cpp): who seeks is in Redis, the node holding the wave
  // lease pairs with the same rule, the first seat's node makes the match and the others' nodes
  // tell their players where it is.
  Handled cluster_seek(Call& call, pairing::Seek wanted, const pairing::PoolKey& key);
  Handled cluster_cancel(Call& call);
  void cluster_leave(const std::string& key);
  void cluster_wave(pairing::Instant now);
  void cluster_pair(const cluster::RedisReply& read, pairing::Instant now);
  void drain_inbox();
  void pairing_made(const PairingMade& made);
  void create_cluster_match(const PairingMade& made);
  void fail_pairing(PairingMade made, ResultCode code, const std::string& reason, bool forward);
  void send_made(const PairingMade& made, const std::string& node);
  // Takes the node's seeker of `key` out of seekers_: its connection and player, if still here.
  std::optional<Seeking> take_local(const std::string& key);
  void tell_paired(const ToSeat& seat, int index, const PairingCreated& created,
                   uint64_t rematch_of, bool creator);
  std::string cluster_key_of(const Player& player) const;

  PairingHost& host_;
  Ignores ignores_;
  std::mutex mutex_;
  pairing::PairingHall hall_;
  std::unordered_map<pairing::SeekerId, Seeking, pairing::SeekerIdHash> seekers_;
  std::map<uint64_t, Offer> offers_;  // by the ended match's id
  uint64_t waves_ = 0;
  std::unordered_map<std::string, pairing::SeekerId> cluster_keys_;  // Redis key -> seekers_
  std::map<std::string, uint32_t> cluster_pool_sizes_;  // pool -> seekers at the last read
  std::unique_ptr<boost::asio::steady_timer> timer_;
  bool stopped_ = false;
};

// Who a player is to the pools: its account, or (a guest, or no account at all) its player id.
pairing::SeekerId seeker_of(const Player& player);
// A pool's name in Redis: "<ruleset>|rated|<clock>" or "<ruleset>|casual|<clock>".
std::string pool_text(const pairing::PoolKey& key);
// Whether `player` still counts `match_id` among its matches (it has not left it).
bool still_in(Player& player, uint64_t match_id);

}  // namespace duelhall::server
