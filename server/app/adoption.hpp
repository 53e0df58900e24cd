// A cluster's adoption of an orphaned match (docs/cluster.md, Failover): once this node has won
// the match's lease in Redis, it claims the match in the shared store at the lease's epoch, loads
// its log and rebuilds it. A claim or a load that fails (PostgreSQL restarted under the reading
// connection, or out of reach for a while) is tried again on a fresh connection, with back-off,
// for as long as this node holds the lease at that epoch: a live match is never given up, and
// nobody else may adopt it meanwhile since this node's heartbeat renews the lease.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/io_context.hpp>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>

#include "cluster/cluster_node.hpp"
#include "core/registry.hpp"
#include "lobby/hub.hpp"
#include "storage/match_store.hpp"

namespace duelhall::server {

class Adopter : public std::enable_shared_from_this<Adopter> {
 public:
  // `worker`: where the claims, loads and rebuilds run (they block on the store), off the I/O
  // threads. `database`: the PostgreSQL the adoptions read through connections of their own (a
  // claim waits on the match's row lock for the old owner's batches in flight, and on the
  // store's one connection it would hold up every write of this node's own matches); empty:
  // they read through `store`. `store` writes.
  Adopter(boost::asio::io_context& io, boost::asio::any_io_executor worker,
          storage::MatchStore* store, std::string database, const engine::Registry& registry,
          Hub& hub);

  void set_node(std::weak_ptr<cluster::ClusterNode> node) { node_ = std::move(node); }
  // This node won the orphan's lease at `epoch`: claim, load and rebuild it (on the worker).
  void adopt(const cluster::Orphan& orphan, uint64_t epoch);

  static constexpr std::chrono::milliseconds kFirstRetry{250};
  static constexpr std::chrono::milliseconds kLongestRetry{4000};

 private:
  enum class Outcome { kDone, kRetry };
  void attempt(const cluster::Orphan& orphan, uint64_t epoch, int tried);
  Outcome claim_and_rebuild(cluster::ClusterNode& cluster, const cluster::Orphan& orphan,
                            uint64_t epoch, int tried);
  // After a back-off, tries again if this node still holds the lease at `epoch`.
  void retry_later(const cluster::Orphan& orphan, uint64_t epoch, int tried);
  void give_back(cluster::ClusterNode& cluster, uint64_t match);
  storage::MatchStore& reader();  // on the worker; throws when it cannot connect
  void drop_reader();

  boost::asio::io_context& io_;
  boost::asio::any_io_executor worker_;
  storage::MatchStore* store_;
  const std::string database_;
  const engine::Registry& registry_;
  Hub& hub_;
  std::weak_ptr<cluster::ClusterNode> node_;
  std::mutex mutex_;
  std::shared_ptr<storage::MatchStore> reader_;
};

}  // namespace duelhall::server
