// Pairing: the quick-pairing pools of the hall (docs/pairing.md). This room owns the seekers of
// each pool and the pairing rule; it includes no other server folder (it is pure C++: no sockets,
// no protocol, no store, no clock of its own). The lobby, which will drive it, passes `now`, asks
// the ignore lists through IgnoreQuery, turns each Table a wave returns into a match and each
// PairingOutcome into a ResultCode.
//
// The rule, per wave: seekers wanting the same number of seats are sorted by rating; among the
// allowed pairs, the one with the smallest rating gap is made first, then the next smallest, and
// so on (greedy, nearest first). A pair is allowed when the gap fits BOTH players' allowance and
// neither ignores the other. A seeker's allowance is
//     min(max_gap, base_gap + deviation_share * deviation + widening_per_second * seconds waited)
// so an uncertain rating starts wider and every wait widens it. Tables of N > 2 seats are made
// the same way from N seekers adjacent in rating whose spread fits all their allowances; after
// `bot_fill_after` the longest waiter's table may start short, its empty seats left to bots.
#pragma once

#include <chrono>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace duelhall::pairing {

using Instant = std::chrono::steady_clock::time_point;

// An account or a guest: both are numbered by the accounts service, in separate spaces.
struct SeekerId {
  bool guest = false;
  int64_t id = 0;
  friend auto operator<=>(const SeekerId&, const SeekerId&) = default;
};

struct SeekerIdHash {
  size_t operator()(SeekerId seeker) const noexcept {
    return std::hash<int64_t>{}(seeker.id) ^ (seeker.guest ? 0x9e3779b97f4a7c15ULL : 0);
  }
};

// Which pool: one per ruleset, rated or casual, and clock preset ("5+3", or the host's).
struct PoolKey {
  std::string ruleset;
  bool rated = false;
  std::string clock;
  friend auto operator<=>(const PoolKey&, const PoolKey&) = default;
};

// The ignore lists, asked one direction at a time (the pool asks both). Must not call back into
// the pool; a wave asks it only about the pairs it is about to make.
class IgnoreQuery {
 public:
  virtual ~IgnoreQuery() = default;
  virtual bool ignores(SeekerId who, SeekerId other) const = 0;
};

// What a player asks for when they press a pairing button.
struct Seek {
  SeekerId who;
  double rating = 1500;
  double deviation = 350;  // Glicko-2 deviation: an uncertain rating is paired more widely
  uint32_t seats = 2;      // the table's size: 2, or 3-6 for a Jedi Duel table
  std::string deck;        // a Young Jedi deck choice, carried to the match untouched
};

struct Seeker : Seek {
  Instant since{};     // when they started seeking
  uint64_t order = 0;  // arrival number in this pool: breaks rating ties the same way every time
};

struct PairingOptions {
  double base_gap = 50;             // rating points allowed at once...
  double deviation_share = 0.25;    // ...plus this share of the seeker's deviation...
  double widening_per_second = 25;  // ...plus this much per second waited...
  double max_gap = 1000;            // ...never more than this
  size_t max_seekers = 20000;       // the pool's bound: past it, seeks are refused
  uint32_t min_seats = 2;           // the seats a seek may ask for (the ruleset's range)
  uint32_t max_seats = 2;
  uint32_t neighbours = 8;  // how many seekers above it in rating each one is tried with
  std::chrono::seconds bot_fill_after{0};  // tables of 3+ seats: start short after this; 0 never
};

// The refusals the protocol maps to ResultCodes; a refused call changes nothing.
enum class PairingOutcome : uint8_t {
  kOk,
  kAlreadySeeking,    // seek: this account or guest already seeks in this pool
  kGuestInRatedPool,  // seek: guests are paired in casual pools only
  kPoolFull,          // seek: the pool holds max_seekers
  kUnknownSeeker,     // cancel: not seeking here (already paired, cancelled or never seeking)
  kSeatsOutOfRange,   // seek: seats outside [min_seats, max_seats]
  kRatingNotFinite,   // seek: a rating or deviation that is NaN, infinite or negative deviation
  kUnknownPool,       // seek (PairingHall): no pool for that ruleset, rating mode and clock
};
std::string_view describe(PairingOutcome outcome);

// A pairing: the seekers of one match, in rating order (seats are the match's to draw), and how
// many further seats bots take (0 unless bot fill started the table short).
struct Table {
  std::vector<Seeker> seekers;
  uint32_t bot_seats = 0;
};

class PairingPool {
 public:
  // `ignores` may be null (nobody ignores anybody) and must outlive the pool.
  PairingPool(PoolKey key, PairingOptions options, const IgnoreQuery* ignores = nullptr);

  PairingOutcome seek(Seek seek, Instant now);
  PairingOutcome cancel(SeekerId who);
  // The player left (disconnected): out of the pool if they were in it; never a refusal.
  bool leave(SeekerId who);

  // Makes every table the rule allows now, takes their seekers out of the pool and returns the
  // tables in the order made. The same pool and `now` give the same tables.
  std::vector<Table> wave(Instant now);

  // The widest rating gap `seeker` accepts at `now`.
  double allowance(const Seeker& seeker, Instant now) const;
  // Whether neither of the two ignores the other.
  bool may_meet(SeekerId a, SeekerId b) const;

  bool seeking(SeekerId who) const { return index_.contains(who); }
  size_t size() const { return seekers_.size(); }
  const std::vector<Seeker>& seekers() const { return seekers_; }
  const PoolKey& key() const { return key_; }
  const PairingOptions& options() const { return options_; }

 private:
  // Positions into seekers_ of one seat count, sorted by (rating, order), with their allowance.
  struct Candidate {
    double rating;
    uint64_t order;  // the seeker's, copied so that sorting reads no seeker
    double allowance;
    uint32_t seeker;
  };
  std::vector<Candidate> candidates(uint32_t seats, Instant now) const;
  void pair_nearest(const std::vector<Candidate>& sorted, std::vector<bool>& taken,
                    std::vector<Table>& tables) const;
  void group_tables(const std::vector<Candidate>& sorted, uint32_t seats, std::vector<bool>& taken,
                    std::vector<Table>& tables) const;
  void fill_with_bots(const std::vector<Candidate>& sorted, uint32_t seats, Instant now,
                      std::vector<bool>& taken, std::vector<Table>& tables) const;
  bool all_meet(const std::vector<uint32_t>& members) const;
  void remove_taken(const std::vector<bool>& taken);

  PoolKey key_;
  PairingOptions options_;
  const IgnoreQuery* ignores_;
  std::vector<Seeker> seekers_;
  std::unordered_map<SeekerId, size_t, SeekerIdHash> index_;
  uint64_t next_order_ = 0;
};

}  // namespace duelhall::pairing
