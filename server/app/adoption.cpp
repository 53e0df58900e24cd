#include "app/adoption.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>

#include "app/recovery.hpp"
#include "storage/postgres/postgres_match_store.hpp"

namespace duelhall::server {

namespace net = boost::asio;

Adopter::Adopter(net::io_context& io, net::any_io_executor worker, storage::MatchStore* store,
                 std::string database, const engine::Registry& registry, Hub& hub)
    : io_(io),
      worker_(std::move(worker)),
      store_(store),
      database_(std::move(database)),
      registry_(registry),
      hub_(hub) {}

void Adopter::adopt(const cluster::Orphan& orphan, uint64_t epoch) {
  net::post(worker_, [self = shared_from_this(), orphan, epoch] { self->attempt(orphan, epoch, 0); });
}

storage::MatchStore& Adopter::reader() {
  std::lock_guard lock(mutex_);
  if (database_.empty()) return *store_;
  if (!reader_) reader_ = std::make_shared<storage::PostgresMatchStore>(database_);
  return *reader_;
}

void Adopter::drop_reader() {
  // The next attempt opens a fresh connection: one PostgreSQL dropped (a restart) is found
  // broken only when used.
  std::lock_guard lock(mutex_);
  reader_.reset();
}

void Adopter::give_back(cluster::ClusterNode& cluster, uint64_t match) {
  cluster.match_closed(match);
  cluster.unpublish(match);
}

void Adopter::attempt(const cluster::Orphan& orphan, uint64_t epoch, int tried) {
  auto cluster = node_.lock();
  if (!cluster) return;
  if (!store_) {
    spdlog::warn("cluster: match {} of {}: this node stores nothing (--storage memory), so it "
                 "has no log to adopt; its lease released and its listing dropped",
                 orphan.match, orphan.owner);
    return give_back(*cluster, orphan.match);
  }
  if (claim_and_rebuild(*cluster, orphan, epoch, tried) == Outcome::kRetry) {
    retry_later(orphan, epoch, tried + 1);
  }
}

// The claim comes first: from the moment it returns the store refuses the old owner's appends,
// so the log loaded next is the whole log, and the old owner cannot add to it behind the
// adopter. The match is built before anyone can reach it (Hub::recover), and its first work
// (publishing, clocks, bots) goes to its own strand (Match::recover).
Adopter::Outcome Adopter::claim_and_rebuild(cluster::ClusterNode& cluster,
                                            const cluster::Orphan& orphan, uint64_t epoch,
                                            int tried) {
  const auto id = static_cast<storage::MatchId>(orphan.match);
  std::optional<storage::StoredMatch> stored;
  try {
    storage::MatchStore& source = reader();
    // Its node marked it ended: its end is most likely stored, and then there is nothing to adopt
    // (no claim, no rebuild). The mark may have beaten the end's write to the store, so the
    // store decides.
    if (orphan.ended) {
      const auto before = source.load_match(id);
      if (before && before->summary.status != storage::MatchStatus::kLive) {
        spdlog::info("cluster: match {} of {} had ended: not adopted; its lease released and its "
                     "listing dropped",
                     orphan.match, orphan.owner);
        give_back(cluster, orphan.match);
        return Outcome::kDone;
      }
    }
    source.claim_match(id, static_cast<int64_t>(epoch), cluster.options().node);
    stored = source.load_match(id);
  } catch (const storage::StaleEpochError& e) {
    // A higher claim than Redis's epoch: Redis lost its data (docs/cluster.md, Guarantees).
    spdlog::error("cluster: match {}: not adopted: {}", orphan.match, e.what());
    cluster.match_closed(orphan.match);
    return Outcome::kDone;
  } catch (const std::exception& e) {
    spdlog::warn("cluster: match {} of {}: cannot read its log yet (attempt {}): {}; trying "
                 "again on a fresh connection while this node holds its lease",
                 orphan.match, orphan.owner, tried + 1, e.what());
    drop_reader();
    return Outcome::kRetry;
  }
  if (!stored) {
    // The SQLite store is one node's own and holds no other node's matches: nothing to adopt.
    spdlog::warn("cluster: match {} of {} is not in this node's store (a store of its own): not "
                 "adopted; its lease released and its listing dropped",
                 orphan.match, orphan.owner);
    give_back(cluster, orphan.match);
    return Outcome::kDone;
  }
  if (stored->summary.status != storage::MatchStatus::kLive) {
    // Its end was stored, and the node died before it marked the match ended in Redis.
    spdlog::info("cluster: match {} of {} had already ended: not adopted; its lease released "
                 "and its listing dropped",
                 orphan.match, orphan.owner);
    give_back(cluster, orphan.match);
    return Outcome::kDone;
  }
  RecoveryReport report;
  try {
    recover_stored(*store_, registry_, hub_, *stored, report, static_cast<int64_t>(epoch));
  } catch (const std::exception& e) {
    // Recording it abandoned failed (the store's writes are out of reach): still live, so again.
    spdlog::error("cluster: match {}: cannot rebuild it yet (attempt {}): {}", orphan.match,
                  tried + 1, e.what());
    return Outcome::kRetry;
  }
  if (report.resumed + report.finished == 1) {
    spdlog::info("cluster: match {} adopted from {} at epoch {} and {}", orphan.match,
                 orphan.owner, epoch, report.resumed == 1 ? "resumed" : "ended");
    hub_.arm_recovery_grace();
    return Outcome::kDone;
  }
  spdlog::error("cluster: match {} of {} no longer replays: recorded abandoned; its lease "
                "released and its listing dropped",
                orphan.match, orphan.owner);
  give_back(cluster, orphan.match);
  return Outcome::kDone;
}

void Adopter::retry_later(const cluster::Orphan& orphan, uint64_t epoch, int tried) {
  const auto delay = std::min(kLongestRetry, kFirstRetry * (1 << std::min(tried - 1, 8)));
  auto timer = std::make_shared<net::steady_timer>(io_, delay);
  timer->async_wait([self = shared_from_this(), timer, orphan, epoch,
                     tried](boost::system::error_code ec) {
    if (ec) return;
    auto cluster = self->node_.lock();
    if (!cluster) return;
    cluster->directory().lease(orphan.match, [self, orphan, epoch, tried, me = cluster->options().node](
                                                 std::optional<std::pair<uint64_t, std::string>>
                                                     lease) {
      if (!lease) return self->retry_later(orphan, epoch, tried);  // Redis cannot say: later
      // An empty holder at the same epoch: the lease lapsed (Redis was away) and nobody adopted
      // the match; the next heartbeat takes it back.
      if (lease->first != epoch || (lease->second != me && !lease->second.empty())) {
        spdlog::warn("cluster: match {}: its lease moved on (epoch {}, held by '{}'); this node "
                     "stops adopting it",
                     orphan.match, lease->first, lease->second);
        return;
      }
      net::post(self->worker_, [self, orphan, epoch, tried] { self->attempt(orphan, epoch, tried); });
    });
  });
}

}  // namespace duelhall::server
