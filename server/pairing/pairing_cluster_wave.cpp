// The cluster's waves (docs/pairing.md, "Across a cluster"): every node reads every pool from
// Redis each wave (for the pools' sizes); the node holding the wave lease pairs them with the
// node's own rule (PairingHall) and claims each pairing with one script (kPoolClaim), which
// removes its seekers only if every one of them is still as read: a pairing is made once.
#include <algorithm>
#include <boost/asio/post.hpp>
#include <set>

#include "cluster/cluster_node.hpp"
#include "cluster/pool_scripts.hpp"
#include "pairing/pairing_room.hpp"

namespace duelhall::server {
namespace {

namespace scripts = cluster::scripts;

std::optional<pairing::PoolKey> pool_of_text(const std::string& text) {
  const size_t first = text.find('|');
  const size_t second = first == std::string::npos ? first : text.find('|', first + 1);
  if (second == std::string::npos) return std::nullopt;
  return pairing::PoolKey{text.substr(0, first), text.substr(first + 1, second - first - 1) == "rated",
                          text.substr(second + 1)};
}

// One seek as read from Redis: "<arrival>:<since ms>:<node>:<bytes>".
struct ReadSeek {
  std::string pool;
  std::string seeker;
  std::string raw;
  int64_t arrival = 0;
  int64_t since_ms = 0;
  std::string node;
  PoolSeek seek;
};

std::optional<ReadSeek> parse_seek(std::string pool, std::string seeker, std::string raw) {
  ReadSeek out;
  out.pool = std::move(pool);
  out.seeker = std::move(seeker);
  out.raw = std::move(raw);
  const size_t a = out.raw.find(':');
  const size_t b = a == std::string::npos ? a : out.raw.find(':', a + 1);
  const size_t c = b == std::string::npos ? b : out.raw.find(':', b + 1);
  if (c == std::string::npos) return std::nullopt;
  try {
    out.arrival = std::stoll(out.raw.substr(0, a));
    out.since_ms = std::stoll(out.raw.substr(a + 1, b - a - 1));
  } catch (const std::exception&) {
    return std::nullopt;
  }
  out.node = out.raw.substr(b + 1, c - b - 1);
  if (!out.seek.ParseFromString(out.raw.substr(c + 1))) return std::nullopt;
  return out;
}

}  // namespace

void PairingRoom::cluster_wave(pairing::Instant now) {
  cluster::ClusterNode& cl = *host_.cluster();
  const auto lease = std::chrono::milliseconds(3 * host_.config().pairing.wave_ms);
  cl.directory().eval(scripts::kPoolRead, {cl.options().node, std::to_string(lease.count())},
                      [weak = weak_from_this(), now](std::optional<cluster::RedisReply> reply) {
                        auto room = weak.lock();
                        if (!room || !reply) return;
                        boost::asio::post(room->host_.io(), [room, read = std::move(*reply), now] {
                          room->cluster_pair(read, now);
                        });
                      });
  drain_inbox();  // the nudges' backstop
}

void PairingRoom::cluster_pair(const cluster::RedisReply& read, pairing::Instant now) {
  using Type = cluster::RedisReply::Type;
  if (read.type != Type::kArray || read.elements.size() < 2) return;
  const bool leased = read.elements[0].as_integer() == 1;
  const int64_t now_ms = read.elements[1].as_integer();
  std::vector<ReadSeek> seeks;
  std::map<std::string, uint32_t> sizes;
  for (size_t i = 2; i + 2 < read.elements.size(); i += 3) {
    auto seek = parse_seek(read.elements[i].text, read.elements[i + 1].text, read.elements[i + 2].text);
    if (!seek) continue;
    ++sizes[seek->pool];
    seeks.push_back(std::move(*seek));
  }
  {
    std::lock_guard lock(mutex_);
    cluster_pool_sizes_ = std::move(sizes);
  }
  if (!leased) return;
  std::sort(seeks.begin(), seeks.end(),
            [](const ReadSeek& a, const ReadSeek& b) { return a.arrival < b.arrival; });
  cluster::ClusterNode& cl = *host_.cluster();
  const std::string& me = cl.options().node;

  // Ignores: asked of this node's roster when both seekers are this node's.
  class ClusterIgnores final : public pairing::IgnoreQuery {
   public:
    ClusterIgnores(PairingRoom& room, const std::vector<ReadSeek>& seeks, const std::string& me)
        : room_(room), seeks_(seeks), me_(me) {}
    bool ignores(pairing::SeekerId who, pairing::SeekerId other) const override {
      const Seeking* a = local(who);
      const Seeking* b = local(other);
      return a && b && room_.host_.ignores(a->peer_id, *b->player);
    }

   private:
    const Seeking* local(pairing::SeekerId id) const {
      const ReadSeek& s = seeks_[static_cast<size_t>(id.id)];
      if (s.node != me_) return nullptr;
      const auto key = room_.cluster_keys_.find(s.seeker);
      if (key == room_.cluster_keys_.end()) return nullptr;
      const auto found = room_.seekers_.find(key->second);
      return found == room_.seekers_.end() ? nullptr : &found->second;
    }
    PairingRoom& room_;
    const std::vector<ReadSeek>& seeks_;
    const std::string& me_;
  } ignores(*this, seeks, me);

  pairing::PairingHall hall([this](const pairing::PoolKey& key) { return options_for(key); },
                            &ignores);
  for (size_t i = 0; i < seeks.size(); ++i) {
    const auto key = pool_of_text(seeks[i].pool);
    if (!key) continue;
    const PoolSeek& s = seeks[i].seek;
    const auto waited = std::chrono::milliseconds(std::max<int64_t>(0, now_ms - seeks[i].since_ms));
    hall.seek(*key,
              pairing::Seek{{false, static_cast<int64_t>(i)}, s.rating(), s.deviation(), s.seats(),
                            s.seat_option()},
              now - waited);
  }
  std::vector<pairing::PairingHall::Pairing> pairings;
  {
    std::lock_guard lock(mutex_);
    pairings = hall.wave(now);
  }
  for (const auto& pairing : pairings) {
    PairingMade made;
    made.set_ruleset(pairing.pool.ruleset);
    made.set_rated(pairing.pool.rated);
    made.set_clock(pairing.pool.clock);
    made.set_bot_seats(pairing.table.bot_seats);
    std::vector<ToSeat> order;
    for (const pairing::Seeker& seeker : pairing.table.seekers) {
      const auto index = static_cast<size_t>(seeker.who.id);
      order.push_back({nullptr, nullptr, seeks[index].seek.seat_option(), index});
    }
    MatchSettings settings;
    settings.set_ruleset(pairing.pool.ruleset);
    const auto problem = fit_seat_options(settings, order);
    std::set<std::string> nodes;
    std::vector<std::string> args{pool_text(pairing.pool), {}, {}};
    for (size_t k = 0; k < order.size(); ++k) {
      const ReadSeek& s = seeks[order[k].index];
      PairingSeat* seat = made.add_seats();
      seat->set_seeker(s.seeker);
      seat->set_node(s.node);
      seat->set_seat_option(s.seek.seat_option());
      seat->set_seat(static_cast<int32_t>(k));
      if (problem || k == 0) nodes.insert(s.node);
    }
    if (problem) {
      made.set_code(BAD_PARAMETERS);
      made.set_reason("the seats' setups do not fit together: " + *problem);
    }
    args[1] = made.SerializeAsString();
    args[2] = std::to_string(nodes.size());
    args.insert(args.end(), nodes.begin(), nodes.end());
    for (const ToSeat& seat : order) {
      args.push_back(seeks[seat.index].seeker);
      args.push_back(seeks[seat.index].raw);
    }
    cl.directory().eval(scripts::kPoolClaim, std::move(args),
                        [weak = weak_from_this(), nodes](std::optional<cluster::RedisReply> reply) {
                          auto room = weak.lock();
                          if (!room || !reply || reply->as_integer() != 1) return;
                          cluster::ClusterNode& node_of_room = *room->host_.cluster();
                          for (const std::string& node : nodes) {
                            if (node == node_of_room.options().node) {
                              room->drain_inbox();
                            } else {
                              node_of_room.broadcast("pairing", node);
                            }
                          }
                        });
  }
}

}  // namespace duelhall::server
