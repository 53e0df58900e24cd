// Joining the cluster at start-up (docs/cluster.md): the options are checked, the first block of
// match ids is reserved (so a Redis that does not answer stops the start with the reason), and
// the node's hooks are tied to the hub: its listings, the other nodes' listings, adoptions.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/io_context.hpp>
#include <memory>

#include "app/recovery.hpp"
#include "cluster/cluster_node.hpp"
#include "config/config.hpp"
#include "core/registry.hpp"
#include "lobby/hub.hpp"
#include "storage/match_store.hpp"

namespace duelhall::server {

// Null without --cluster. Throws std::runtime_error with the reason when the options are wrong
// or Redis cannot be reached. The node is set on the hub but not started: start it once the
// server listens (and stop it before the io_context goes). `storage_worker`: where an adoption
// claims, loads and rebuilds its match (they block on the store), off the I/O threads; it must
// outlive the node's adoptions and be joined before the hub and the store go.
std::shared_ptr<cluster::ClusterNode> join_cluster(
    const Config& config, boost::asio::io_context& io,
    const boost::asio::any_io_executor& storage_worker, Hub& hub, storage::MatchStore* store,
    const engine::Registry& registry);

// The start-up's recovery in a cluster, whose store is every node's: a match claimed by another
// node is left to it; any other is taken when this node acquires its lease (none holds it) and
// claims it in the store at the lease's epoch. Throws std::runtime_error when Redis does not
// answer.
RecoveryFilter cluster_recovery_filter(cluster::ClusterNode& cluster, storage::MatchStore& store);

// After the start-up's recovery: the leases and listings a past run of this node left for
// matches this run does not host (created, leased and listed, then lost with the node before
// the store had them) are given up, so that no other node lists them or sends players to them.
// Throws std::runtime_error when Redis does not answer.
void release_unhosted(cluster::ClusterNode& cluster, Hub& hub);

}  // namespace duelhall::server
