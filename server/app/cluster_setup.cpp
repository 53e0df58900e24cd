#include "app/cluster_setup.hpp"

#include <spdlog/spdlog.h>
#include <boost/asio/post.hpp>
#include <stdexcept>

#include "app/recovery.hpp"
#include "storage_pg/postgres_match_store.hpp"

namespace duelhall::server {
namespace {

// A listing from the lobby channel as the hub lists it: the node is the channel's word.
std::optional<MatchInfo> info_of(const cluster::Listing& listing) {
  MatchInfo info;
  if (!listing.removed && !info.ParseFromString(listing.info)) return std::nullopt;
  info.set_match_id(listing.match);
  info.set_node(listing.node);
  return info;
}

// Rebuilds an adopted match from the shared log on the storage worker: never on the Redis strand
// nor on an I/O thread, since the claim and the load block on PostgreSQL (a claim waits for the
// old owner's batches in flight, a long log takes a while to read) and the replay costs CPU in
// proportion to the log. The claim comes first: from the moment it returns the store refuses the
// old owner's appends, so the log loaded next is the whole log, and the old owner cannot add to
// it behind the adopter. The match is built before anyone can reach it (Hub::recover), and its
// first work (publishing, clocks, bots) goes to its own strand (Match::recover). `reader`, when
// set, claims and loads (a connection of the adoptions' own), `store` writes.
void adopt(const boost::asio::any_io_executor& worker, std::weak_ptr<cluster::ClusterNode> node,
           storage::MatchStore* store, std::shared_ptr<storage::MatchStore> reader,
           const engine::Registry& registry, Hub& hub, const cluster::Orphan& orphan,
           uint64_t epoch) {
  boost::asio::post(worker, [node, store, reader, &registry, &hub, orphan, epoch] {
    auto cluster = node.lock();
    if (!cluster) return;
    const auto id = static_cast<storage::MatchId>(orphan.match);
    std::optional<storage::StoredMatch> stored;
    try {
      if (store) {
        storage::MatchStore& source = reader ? *reader : *store;
        source.claim_match(id, static_cast<int64_t>(epoch), cluster->options().node);
        stored = source.load_match(id);
      }
    } catch (const storage::StaleEpochError& e) {
      // A higher claim than Redis's epoch: Redis lost its data (docs/cluster.md, Guarantees).
      spdlog::error("cluster: match {}: not adopted: {}", orphan.match, e.what());
      cluster->match_closed(orphan.match);
      return;
    } catch (const std::exception& e) {
      spdlog::error("cluster: match {}: cannot read its log: {}", orphan.match, e.what());
    }
    RecoveryReport report;
    if (stored && stored->summary.status == storage::MatchStatus::kLive) {
      try {
        recover_stored(*store, registry, hub, *stored, report, static_cast<int64_t>(epoch));
      } catch (const std::exception& e) {
        spdlog::error("cluster: match {}: cannot rebuild it: {}", orphan.match, e.what());
      }
    }
    if (report.resumed + report.finished == 1) {
      spdlog::info("cluster: match {} adopted from {} at epoch {} and {}", orphan.match,
                   orphan.owner, epoch, report.resumed == 1 ? "resumed" : "ended");
      hub.arm_recovery_grace();
      return;
    }
    // The SQLite store is one node's own and holds no other node's matches: nothing to adopt.
    spdlog::warn("cluster: match {} of {} is not live in this node's store; given up", orphan.match,
                 orphan.owner);
    cluster->match_closed(orphan.match);
    cluster->unpublish(orphan.match);
  });
}

}  // namespace

std::shared_ptr<cluster::ClusterNode> join_cluster(
    const Config& config, boost::asio::io_context& io,
    const boost::asio::any_io_executor& storage_worker, Hub& hub, storage::MatchStore* store,
    const engine::Registry& registry) {
  cluster::ClusterOptions options;
  std::string error;
  if (!cluster::cluster_options_from(config, options, error)) {
    if (error.empty()) return nullptr;
    throw std::runtime_error(error);
  }
  cluster::NodeHooks hooks;
  hooks.live_matches = [&hub] { return static_cast<uint32_t>(hub.match_count()); };
  hooks.taking_matches = [&hub] { return hub.taking_matches(); };
  hooks.listing_changed = [&hub](const cluster::Listing& listing) {
    if (auto info = info_of(listing)) hub.remote_listing(*info, listing.removed);
  };
  hooks.listings_reloaded = [&hub, node = options.node](std::vector<cluster::Listing> all) {
    std::vector<MatchInfo> others;
    for (const auto& listing : all) {
      if (listing.node == node) continue;
      if (auto info = info_of(listing)) others.push_back(std::move(*info));
    }
    hub.replace_remote_listings(std::move(others));
  };
  hooks.own_listings = [&hub] {
    std::vector<cluster::Listing> out;
    for (const MatchInfo& info : hub.own_listings()) {
      out.push_back({info.match_id(), info.node(), info.SerializeAsString(), false});
    }
    return out;
  };
  // Another node adopted it: it stops here and its players reconnect, to be sent to the adopter.
  // (Should this node miss the news, the store's fencing refuses its next append all the same.)
  hooks.lease_lost = [&hub](uint64_t match) { hub.match_lost(match); };
  hooks.lease_acquired = [&hub](uint64_t match, uint64_t epoch) {
    hub.match_owned(match, static_cast<int64_t>(epoch));
  };
  auto node_holder = std::make_shared<std::weak_ptr<cluster::ClusterNode>>();
  // Adoptions claim and load on a connection of their own: a claim waits on the match's row lock
  // for the old owner's batches in flight, and on the store's one connection it would hold up
  // every write of this node's own matches meanwhile.
  std::shared_ptr<storage::MatchStore> reader;
  if (store && !config.database.empty()) {
    reader = std::make_shared<storage::PostgresMatchStore>(config.database);
  }
  hooks.adopted = [storage_worker, node_holder, store, reader, &registry, &hub](
                      const cluster::Orphan& orphan, uint64_t epoch) {
    adopt(storage_worker, *node_holder, store, reader, registry, hub, orphan, epoch);
    return true;
  };
  auto node = std::make_shared<cluster::ClusterNode>(io, options, std::move(hooks));
  *node_holder = node;
  const uint64_t floor = store ? static_cast<uint64_t>(store->last_match_id()) : 0;
  if (!node->bootstrap(floor, error)) throw std::runtime_error(error);
  hub.set_cluster(node);
  spdlog::info("cluster: node {} joins the cluster at {} as {}", options.node, options.redis.text(),
               options.advertise);
  return node;
}

RecoveryFilter cluster_recovery_filter(cluster::ClusterNode& cluster, storage::MatchStore& store) {
  return [&cluster, &store](storage::MatchId id) -> std::optional<int64_t> {
    const std::string& me = cluster.options().node;
    // Claimed by another node: it owns the match, or it adopted it from this one while this
    // node was down. Either way it is not this node's to take.
    if (auto owner = store.match_owner(id); owner && owner->node != me) return std::nullopt;
    std::string error;
    const auto epoch = cluster.acquire_now(static_cast<uint64_t>(id), error);
    if (!epoch) throw std::runtime_error(error);
    if (*epoch == 0) return std::nullopt;  // another node holds its lease (an adopter)
    try {
      store.claim_match(id, static_cast<int64_t>(*epoch), me);
    } catch (const storage::StaleEpochError& e) {
      spdlog::error("cluster: match {}: not recovered here: {}", id, e.what());
      cluster.match_closed(static_cast<uint64_t>(id));
      return std::nullopt;
    }
    return static_cast<int64_t>(*epoch);
  };
}

}  // namespace duelhall::server
