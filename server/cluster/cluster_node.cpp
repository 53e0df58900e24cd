#include "cluster/cluster_node.hpp"

#include <spdlog/spdlog.h>
#include <boost/asio/post.hpp>
#include <boost/asio/strand.hpp>


namespace duelhall::cluster {

namespace asio = boost::asio;

namespace {

// Match ids are reserved a block at a time, and a new block as soon as half of what is left is
// used, so that a node opening hundreds of matches a second (a burst of players, a load test)
// does not run dry between two heartbeats, nor while the refill waits its turn behind the
// leases and listings queued before it on the node's Redis connection: three nodes opening
// 9,900 matches each on one loaded machine ran through the 256 ids left of a block of 512 before
// the refill came back (docs/cluster.md, Benchmark); half of 4,096 lasts several seconds.
constexpr uint64_t kIdBlock = 4096;
// A channel message older (or newer) than this is not believed: room for nodes' clocks to differ
// and for Redis to be slow, not for a replay much later.
constexpr int64_t kChannelMessageAge = 60'000;

int64_t unix_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

RedisLink::Options link_options(const std::string& name, const ClusterOptions& options) {
  RedisLink::Options out;
  out.name = name;
  // A reply later than a lease is as good as none: the node is not ready meanwhile.
  out.reply_timeout = options.lease;
  return out;
}

// A broadcast is "<origin node>\n<body>"; a node's own come back to it too and are dropped.
std::optional<std::string> from_other_node(std::string_view message, std::string_view self) {
  const size_t newline = message.find('\n');
  if (newline == std::string_view::npos || message.substr(0, newline) == self) return std::nullopt;
  return std::string(message.substr(newline + 1));
}

}  // namespace

ClusterNode::ClusterNode(asio::io_context& io, ClusterOptions options, NodeHooks hooks)
    : options_(std::move(options)),
      hooks_(std::move(hooks)),
      signer_(options_.secret),
      commands_(
          std::make_shared<RedisLink>(io, options_.redis, link_options("commands", options_))),
      feed_(std::make_shared<RedisLink>(io, options_.redis, link_options("lobby feed", options_))),
      directory_(commands_, options_.prefix),
      timer_(asio::make_strand(io)) {}

bool ClusterNode::bootstrap(uint64_t id_floor, std::string& error) {
  auto last =
      ClusterDirectory::reserve_ids_now(options_.redis, options_.prefix, kIdBlock, id_floor, error);
  if (!last) return false;
  std::lock_guard lock(mutex_);
  id_blocks_.emplace_back(*last - kIdBlock + 1, *last);
  return true;
}

std::optional<uint64_t> ClusterNode::acquire_now(uint64_t match, std::string& error) {
  return ClusterDirectory::acquire_now(options_.redis, options_.prefix, options_.node, match,
                                       options_.lease, error);
}

std::optional<uint64_t> ClusterNode::release_unhosted_now(const std::vector<uint64_t>& hosted,
                                                          std::string& error) {
  return ClusterDirectory::release_unhosted_now(options_.redis, options_.prefix, options_.node,
                                                hosted, error);
}

void ClusterNode::start(uint16_t port) {
  if (!options_.advertise_host.empty()) {
    options_.advertise = "ws://" + options_.advertise_host + ":" + std::to_string(port) + "/ws";
  }
  // The links keep these handlers for as long as they live, and this node keeps the links: the
  // handlers hold the node weakly, or neither would ever be freed.
  const std::weak_ptr<ClusterNode> weak = weak_from_this();
  commands_->on_state([weak](bool up) {
    auto self = weak.lock();
    if (!self) return;
    if (!up) {
      self->set_ready(false);
      self->commands_were_down_ = true;
      return;
    }
    if (self->commands_were_down_) self->republish();
    self->commands_were_down_ = false;
  });
  feed_->subscribe(directory_.lobby_channel(), [weak](std::string message) {
    auto self = weak.lock();
    if (!self) return;
    auto listing = decode_listing(message);
    if (!listing || listing->node == self->options_.node) return;  // our own echo
    if (self->hooks_.listing_changed) self->hooks_.listing_changed(*listing);
  });
  for (const Channel& channel : channels_) {
    feed_->subscribe(options_.prefix + channel.name, [weak, &channel](std::string message) {
      auto self = weak.lock();
      if (!self) return;
      auto body = from_other_node(message, self->options_.node);
      if (!body) return;
      auto opened = self->signer_.unseal(*body, unix_ms(), kChannelMessageAge);
      if (!opened) {
        spdlog::warn("cluster: a message on {} not sealed with the cluster secret was ignored",
                     channel.name);
        return;
      }
      channel.on_message(std::move(*opened));
    });
  }
  feed_->on_state([weak](bool up) {
    auto self = weak.lock();
    if (!self || !up) return;
    for (const Channel& channel : self->channels_) {
      if (channel.on_resync) channel.on_resync();
    }
    // Messages were missed while the feed was down (or it just started): reload them all.
    self->directory_.listings([self](std::optional<std::vector<Listing>> all) {
      if (all && self->hooks_.listings_reloaded) self->hooks_.listings_reloaded(std::move(*all));
    });
  });
  commands_->start();
  feed_->start();
  asio::post(timer_.get_executor(), [self = shared_from_this()] { self->tick(); });
}

void ClusterNode::stop() {
  stopped_ = true;
  asio::post(timer_.get_executor(), [self = shared_from_this()] { self->timer_.cancel(); });
  commands_->stop();
  feed_->stop();
  set_ready(false);
}

void ClusterNode::set_ready(bool ready) {
  if (ready_.exchange(ready) == ready) return;
  if (ready) {
    spdlog::info("cluster: node {} is in the cluster ({})", options_.node, options_.advertise);
  } else if (!stopped_) {
    spdlog::warn("cluster: node {} cannot reach Redis: not ready, no new matches", options_.node);
  }
}

void ClusterNode::tick() {
  if (stopped_) return;
  NodeInfo self{options_.node, options_.advertise, 0, 0};
  self.matches = hooks_.live_matches ? hooks_.live_matches() : 0;
  self.room = options_.max_matches > self.matches ? options_.max_matches - self.matches : 0;
  if (hooks_.taking_matches && !hooks_.taking_matches()) self.room = 0;
  directory_.heartbeat(self, options_.lease,
                       [me = shared_from_this()](std::optional<std::vector<uint64_t>> lost) {
                         me->after_heartbeat(std::move(lost));
                       });
  timer_.expires_after(options_.heartbeat);
  timer_.async_wait([me = shared_from_this()](boost::system::error_code ec) {
    if (!ec) me->tick();
  });
}

void ClusterNode::after_heartbeat(std::optional<std::vector<uint64_t>> lost) {
  if (!lost) {
    bool lapsed = false;
    {
      std::lock_guard lock(mutex_);
      lapsed = Clock::now() - last_heartbeat_ > options_.lease;
    }
    if (lapsed) set_ready(false);
    return;
  }
  {
    std::lock_guard lock(mutex_);
    last_heartbeat_ = Clock::now();
  }
  set_ready(true);
  for (uint64_t match : *lost) {
    spdlog::warn("cluster: match {} was adopted by another node; this node stops serving it",
                 match);
    if (hooks_.lease_lost) hooks_.lease_lost(match);
  }
  refill_ids();
  auto self = shared_from_this();
  // The node table's answer comes before the orphans' (one connection, in order): the orphans
  // are shared out by the figures of this very heartbeat.
  directory_.nodes([self](std::optional<std::vector<NodeInfo>> nodes) {
    if (!nodes) return;
    std::lock_guard lock(self->mutex_);
    self->set_nodes(std::move(*nodes));
  });
  directory_.orphans([self](std::optional<std::vector<Orphan>> orphans) {
    if (orphans) self->adopt_orphans(std::move(*orphans));
  });
}

void ClusterNode::match_ended(uint64_t match) {
  directory_.match_ended(options_.node, match, [](std::optional<bool>) {});
}

void ClusterNode::refill_ids() {
  {
    std::lock_guard lock(mutex_);
    uint64_t left = 0;
    for (const auto& [first, last] : id_blocks_) left += last - first + 1;
    if (refilling_ || left >= kIdBlock / 2) return;
    refilling_ = true;
  }
  directory_.reserve_ids(kIdBlock, 0, [self = shared_from_this()](std::optional<uint64_t> last) {
    std::lock_guard lock(self->mutex_);
    self->refilling_ = false;
    if (last) self->id_blocks_.emplace_back(*last - kIdBlock + 1, *last);
  });
}

uint64_t ClusterNode::take_match_id() {
  if (!ready_) return 0;
  uint64_t id = 0;
  {
    std::lock_guard lock(mutex_);
    while (!id_blocks_.empty() && id == 0) {
      auto& [first, last] = id_blocks_.front();
      if (first <= last) {
        id = first++;
      } else {
        id_blocks_.pop_front();
      }
    }
  }
  refill_ids();  // at once when few are left, not at the next heartbeat
  return id;
}

std::optional<NodeInfo> ClusterNode::node(const std::string& name) const {
  std::lock_guard lock(mutex_);
  for (const auto& n : nodes_) {
    if (n.name == name) return n;
  }
  return std::nullopt;
}

std::vector<NodeInfo> ClusterNode::nodes() const {
  std::lock_guard lock(mutex_);
  return nodes_;
}

void ClusterNode::match_opened(uint64_t match, std::function<void()> answered) {
  acquire(match, nullptr, std::move(answered));
}

void ClusterNode::acquire(uint64_t match, std::function<void()> then,
                          std::function<void()> answered) {
  directory_.acquire(
      options_.node, match, options_.lease,
      [self = shared_from_this(), match, then = std::move(then),
       answered = std::move(answered)](std::optional<uint64_t> epoch) {
        if (!epoch) {
          spdlog::warn("cluster: match {}: its lease could not be written (Redis unreachable)",
                       match);
        } else if (*epoch == 0) {
          spdlog::error("cluster: match {}: another node holds its lease", match);
        } else {
          if (self->hooks_.lease_acquired) self->hooks_.lease_acquired(match, *epoch);
          if (then) then();
        }
        if (answered) answered();
      });
}

void ClusterNode::match_closed(uint64_t match) {
  directory_.release(options_.node, match, [](std::optional<bool>) {});
}

void ClusterNode::publish(uint64_t match, std::string info) {
  directory_.publish_listing({match, options_.node, std::move(info), false},
                             [](std::optional<bool>) {});
}

void ClusterNode::unpublish(uint64_t match) {
  directory_.remove_listing(match, options_.node, [](std::optional<bool>) {});
}

void ClusterNode::republish() {
  if (!hooks_.own_listings) return;
  for (Listing& listing : hooks_.own_listings()) {
    listing.node = options_.node;
    // Listed again only while its lease is still this node's: a match adopted meanwhile is
    // listed by its adopter (and the next heartbeat reports it lost here).
    acquire(listing.match, [self = shared_from_this(), listing] {
      self->directory_.publish_listing(listing, [](std::optional<bool>) {});
    });
  }
}

void ClusterNode::locate(uint64_t match, std::function<void(std::optional<NodeInfo>)> done) {
  directory_.lease(match, [self = shared_from_this(), done = std::move(done)](
                              std::optional<std::pair<uint64_t, std::string>> lease) {
    if (!lease || lease->second.empty()) return done(std::nullopt);
    if (auto known = self->node(lease->second)) return done(std::move(known));
    // A node that joined since this node's last heartbeat (all the nodes of a cluster starting
    // at once): read the node table now rather than take its match for unknown.
    self->directory_.nodes(
        [self, name = lease->second, done](std::optional<std::vector<NodeInfo>> nodes) {
          if (nodes) {
            std::lock_guard lock(self->mutex_);
            self->set_nodes(std::move(*nodes));
          }
          done(self->node(name));
        });
  });
}

void ClusterNode::follow(const std::string& name, std::function<void(std::string)> on_message,
                         std::function<void()> on_resync) {
  channels_.push_back({name, std::move(on_message), std::move(on_resync)});
}

void ClusterNode::broadcast(const std::string& name, const std::string& message) {
  commands_->command(
      {"PUBLISH", options_.prefix + name, options_.node + "\n" + signer_.seal(message, unix_ms())},
      [name](std::optional<RedisReply> reply) {
        if (!reply || reply->error()) {
          spdlog::warn(
              "cluster: a message on {} was not published (Redis "
              "unreachable); the other nodes resync when it is back",
              name);
        }
      });
}

std::string ClusterNode::ticket(uint64_t match, TicketRole role, int seat, const std::string& node,
                                const std::string& holder) const {
  Ticket t;
  t.match = match;
  t.role = role;
  t.seat = seat;
  t.node = node;
  t.expires_ms = unix_ms() + options_.ticket_life.count();
  t.holder = holder_digest(holder);
  return signer_.sign(t);
}

TicketCheck ClusterNode::check_ticket(const std::string& bytes, uint64_t match, TicketRole role,
                                      const std::string& holder, Ticket* out) const {
  // Twice the life: room for the clocks of two nodes to differ.
  return signer_.check_for(bytes, match, role, options_.node, unix_ms(), holder,
                           2 * options_.ticket_life.count(), out);
}

std::string ClusterNode::holder_key(int64_t account, const std::string& name) {
  return account != 0 ? "account " + std::to_string(account) : "name " + name;
}

std::string ClusterNode::resume_holder_key(const std::string& resume_token) {
  return "resume " + resume_token;
}

}  // namespace duelhall::cluster
