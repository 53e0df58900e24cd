#include "app/cluster_setup.hpp"

#include <spdlog/spdlog.h>
#include <stdexcept>

#include "app/adoption.hpp"
#include "app/recovery.hpp"

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
  // Adoptions claim and load on connections of their own (app/adoption.hpp), retried until
  // they succeed while this node holds the lease.
  auto adopter = std::make_shared<Adopter>(io, storage_worker, store,
                                           store ? config.database : std::string(), registry, hub);
  hooks.adopted = [adopter](const cluster::Orphan& orphan, uint64_t epoch) {
    adopter->adopt(orphan, epoch);
    return true;
  };
  auto node = std::make_shared<cluster::ClusterNode>(io, options, std::move(hooks));
  adopter->set_node(node);
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

void release_unhosted(cluster::ClusterNode& cluster, Hub& hub) {
  std::string error;
  const auto released = cluster.release_unhosted_now(hub.hosted_match_ids(), error);
  if (!released) throw std::runtime_error(error);
  if (*released > 0) {
    spdlog::warn("cluster: {} matches leased by this node's last run and never stored are given up",
                 *released);
  }
}

}  // namespace duelhall::server
