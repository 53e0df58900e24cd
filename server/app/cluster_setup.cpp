#include "app/cluster_setup.hpp"

#include <spdlog/spdlog.h>
#include <boost/asio/post.hpp>
#include <stdexcept>

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

// Rebuilds an adopted match from the shared log, off the Redis strand (the store blocks).
void adopt(boost::asio::io_context& io, std::weak_ptr<cluster::ClusterNode> node,
           storage::MatchStore* store, const engine::Registry& registry, Hub& hub,
           const cluster::Orphan& orphan, uint64_t epoch) {
  boost::asio::post(io, [node, store, &registry, &hub, orphan, epoch] {
    auto cluster = node.lock();
    if (!cluster) return;
    // The PostgreSQL store fences the old owner here: claim_match(match, epoch, node) makes
    // every append of a lower epoch fail. The SQLite store is one node's own and holds no other
    // node's matches, so an adoption finds nothing below and gives the match up.
    std::optional<storage::StoredMatch> stored;
    try {
      if (store) stored = store->load_match(static_cast<storage::MatchId>(orphan.match));
    } catch (const std::exception& e) {
      spdlog::error("cluster: match {}: cannot read its log: {}", orphan.match, e.what());
    }
    RecoveryReport report;
    if (stored && stored->summary.status == storage::MatchStatus::kLive) {
      recover_stored(*store, registry, hub, *stored, report);
    }
    if (report.resumed == 1) {
      spdlog::info("cluster: match {} adopted from {} at epoch {} and resumed", orphan.match,
                   orphan.owner, epoch);
      hub.arm_recovery_grace();
      return;
    }
    spdlog::warn("cluster: match {} of {} is not in this node's store; given up", orphan.match,
                 orphan.owner);
    cluster->match_closed(orphan.match);
    cluster->unpublish(orphan.match);
  });
}

}  // namespace

std::shared_ptr<cluster::ClusterNode> join_cluster(const Config& config,
                                                   boost::asio::io_context& io, Hub& hub,
                                                   storage::MatchStore* store,
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
  hooks.lease_lost = [](uint64_t match) {
    // Its appends are refused by the store's fencing from now on; the players reconnect and are
    // sent to the adopter.
    spdlog::error("cluster: match {} now belongs to another node", match);
  };
  auto node_holder = std::make_shared<std::weak_ptr<cluster::ClusterNode>>();
  hooks.adopted = [&io, node_holder, store, &registry, &hub](const cluster::Orphan& orphan,
                                                             uint64_t epoch) {
    adopt(io, *node_holder, store, registry, hub, orphan, epoch);
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

}  // namespace duelhall::server
