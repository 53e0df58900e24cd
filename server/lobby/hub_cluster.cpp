// The hub's listing updates, and its cluster side (docs/cluster.md): ids, leases and listings
// through the ClusterNode, and the other nodes' listings kept beside this node's.
#include "cluster/cluster_node.hpp"
#include "lobby/hub.hpp"
#include "lobby/moderation_cluster.hpp"
#include "net/messages.hpp"

namespace duelhall::server {

void Hub::tell_subscribers(const MatchInfo& info, bool removed) {
  ServerMessage m;
  *m.mutable_lobby_update()->mutable_match() = info;
  if (removed) m.mutable_lobby_update()->set_removed(true);
  Frame frame = frame_of(m);
  for (auto& peer : subscribers()) peer->send(frame);
}

void Hub::set_cluster(std::shared_ptr<cluster::ClusterNode> cluster) {
  cluster_ = std::move(cluster);
  if (cluster_) follow_moderation(*this, *cluster_);
}

uint64_t Hub::cluster_match_id() {
  return cluster_ ? cluster_->take_match_id() : 0;
}

void Hub::cluster_match_opened(uint64_t id, std::function<void()> answered) {
  if (cluster_) {
    cluster_->match_opened(id, std::move(answered));
  } else if (answered) {
    answered();
  }
}

void Hub::open_when_leased(const std::shared_ptr<Match>& match, std::function<void()> answer) {
  // The answer first, then the match's first frames (a match against bots starts at once).
  cluster_match_opened(match->id(), [match, answer = std::move(answer)] {
    answer();
    match->open();
  });
}

void Hub::cluster_claimed(ActionLog& log, uint64_t id, int64_t epoch) {
  if (cluster_) log.owned(id, epoch, cluster_->options().node, false);
}

void Hub::cluster_match_closed(uint64_t id, bool was_listed) {
  if (!cluster_) return;
  if (was_listed) cluster_->unpublish(id);
  cluster_->match_closed(id);
}

void Hub::cluster_match_ended(uint64_t id) {
  if (cluster_) cluster_->match_ended(id);
}

void Hub::set_cluster_node(MatchInfo& info) const {
  if (cluster_) info.set_node(cluster_->options().node);
}

void Hub::cluster_publish(const MatchInfo& info) {
  if (cluster_) cluster_->publish(info.match_id(), info.SerializeAsString());
}

void Hub::remote_listing(const MatchInfo& info, bool removed) {
  {
    std::lock_guard lock(mutex_);
    if (matches_.count(info.match_id())) {
      // This node's own (adopted meanwhile): the old node's entry goes, and nothing is told (the
      // subscribers have this node's listing of the match).
      remote_listings_.erase(info.match_id());
      return;
    }
    if (removed) {
      if (remote_listings_.erase(info.match_id()) == 0) return;
    } else {
      remote_listings_[info.match_id()] = info;
    }
  }
  tell_subscribers(info, removed);
}

void Hub::replace_remote_listings(std::vector<MatchInfo> listings) {
  std::map<uint64_t, MatchInfo> fresh;
  for (auto& info : listings) fresh[info.match_id()] = std::move(info);
  std::vector<std::pair<MatchInfo, bool>> changes;
  {
    std::lock_guard lock(mutex_);
    for (auto it = fresh.begin(); it != fresh.end();) {
      it = matches_.count(it->first) ? fresh.erase(it) : std::next(it);
    }
    for (const auto& [id, info] : remote_listings_) {
      if (!fresh.count(id)) changes.emplace_back(info, true);
    }
    for (const auto& [id, info] : fresh) {
      auto old = remote_listings_.find(id);
      if (old == remote_listings_.end() ||
          old->second.SerializeAsString() != info.SerializeAsString()) {
        changes.emplace_back(info, false);
      }
    }
    remote_listings_ = std::move(fresh);
  }
  for (const auto& [info, removed] : changes) tell_subscribers(info, removed);
}

std::string Hub::remote_node_of(uint64_t match_id) {
  std::lock_guard lock(mutex_);
  auto it = remote_listings_.find(match_id);
  return it == remote_listings_.end() ? std::string() : it->second.node();
}

std::vector<MatchInfo> Hub::own_listings() {
  std::lock_guard lock(mutex_);
  std::vector<MatchInfo> out;
  for (const auto& [id, info] : listings_) out.push_back(info);
  return out;
}

void Hub::match_owned(uint64_t match_id, int64_t epoch) {
  if (!cluster_) return;
  if (auto match = find_match(match_id)) match->owned(epoch, cluster_->options().node);
}

void Hub::match_lost(uint64_t match_id) {
  if (auto match = find_match(match_id)) match->moved("another node adopted it");
}

void Hub::moved_away(uint64_t id) {
  // No release and no unpublish: the lease and the listing in Redis are the new owner's.
  if (const std::optional<MatchInfo> removed = forget_match(id)) tell_subscribers(*removed, true);
}

}  // namespace duelhall::server
