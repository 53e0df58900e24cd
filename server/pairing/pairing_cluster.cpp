// Quick pairing across the nodes of a cluster (docs/pairing.md, "Across a cluster"). Who seeks is
// in Redis (cluster/pool_scripts.*): every node enters its seekers there and reads every pool each
// wave; the node holding the wave lease runs the same rule as one node (PairingHall) over them
// and claims each pairing with one script that removes its seekers at once, so a pairing is made
// once. The claim queues the pairing for the first seat's node, which makes the match, seats its
// own players and queues the match for the other seats' nodes; those push their players Paired
// with a Redirect (a join ticket) to the match's node. A queue is a Redis list, nudged over the
// channel "pairing" and read again every wave, so a lost nudge costs a wave, never a pairing.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/asio/post.hpp>
#include <set>

#include "cluster/cluster_node.hpp"
#include "cluster/pool_scripts.hpp"
#include "net/messages.hpp"
#include "pairing/pairing_room.hpp"

namespace duelhall::server {
namespace {

namespace scripts = cluster::scripts;

ServerMessage not_seated(ResultCode code, const std::string& reason) {
  ServerMessage m;
  m.set_result(code);
  m.set_reason(reason);
  m.mutable_seek_status()->set_seeking(false);
  return m;
}

// Whom a join ticket is for: as the lobby's redirects (cluster_redirects.cpp), the registered
// account, else the player's name.
std::string holder_of_player(const Player& player) {
  const Player::Account account = player.account();
  if (player.registered() && account.id != 0 && !account.guest)
    return cluster::ClusterNode::holder_key(account.id, {});
  return cluster::ClusterNode::holder_key(0, player.name());
}

}  // namespace

std::string pool_text(const pairing::PoolKey& key) {
  return key.ruleset + "|" + (key.rated ? "rated" : "casual") + "|" + key.clock;
}


std::string PairingRoom::cluster_key_of(const Player& player) const {
  const Player::Account account = player.account();
  if (player.registered() && account.id != 0 && !account.guest)
    return "a:" + std::to_string(account.id);
  return "g:" + host_.cluster()->options().node + ":" + std::to_string(player.id());
}

Handled PairingRoom::cluster_seek(Call& call, pairing::Seek wanted, const pairing::PoolKey& key) {
  cluster::ClusterNode& cl = *host_.cluster();
  if (!cl.ready()) {
    return Handled::retry(CLUSTER_UNAVAILABLE, "this node cannot reach the cluster's pools", 1000);
  }
  const std::shared_ptr<Player>& player = call.state.player;
  const std::string ckey = cluster_key_of(*player);
  const uint64_t peer_id = call.peer->peer_id();
  {
    std::lock_guard lock(mutex_);
    if (seekers_.count(wanted.who)) return Handled::fail(ALREADY_SEEKING, "already seeking");
    seekers_[wanted.who] =
        Seeking{call.peer, peer_id, player, key, std::chrono::steady_clock::now(), ckey};
    cluster_keys_[ckey] = wanted.who;
  }
  PoolSeek entry;
  entry.set_node(cl.options().node);
  entry.set_rating(wanted.rating);
  entry.set_deviation(wanted.deviation);
  entry.set_seats(wanted.seats);
  entry.set_seat_option(wanted.deck);
  cl.directory().eval(
      scripts::kPoolSeek,
      {ckey, pool_text(key), cl.options().node, entry.SerializeAsString()},
      [weak = weak_from_this(), peer = call.peer, request_id = call.request_id, ckey,
       peer_id](std::optional<cluster::RedisReply> reply) {
        auto room = weak.lock();
        if (!room) return;
        const int64_t arrival = reply ? reply->as_integer() : -1;
        ServerMessage m;
        m.set_request_id(request_id);
        std::lock_guard lock(room->mutex_);
        const auto found = room->cluster_keys_.find(ckey);
        const auto seeking =
            found == room->cluster_keys_.end() ? room->seekers_.end() : room->seekers_.find(found->second);
        if (arrival > 0 && seeking != room->seekers_.end()) {
          m.set_result(OK);
          room->fill_status(seeking->second, std::chrono::steady_clock::now(),
                            *m.mutable_seek_status());
        } else {
          if (seeking != room->seekers_.end() && seeking->second.peer_id == peer_id) {
            room->seekers_.erase(seeking);
            room->cluster_keys_.erase(found);
          }
          m.set_result(arrival == 0 ? ALREADY_SEEKING : CLUSTER_UNAVAILABLE);
          m.set_reason(arrival == 0 ? "already seeking (through another node)"
                                    : "this node cannot reach the cluster's pools");
          if (arrival < 0) m.set_retry_after_ms(1000);
        }
        peer->send(frame_of(m));
      });
  return Handled::later();
}

Handled PairingRoom::cluster_cancel(Call& call) {
  cluster::ClusterNode& cl = *host_.cluster();
  const pairing::SeekerId who = seeker_of(*call.state.player);
  std::string ckey;
  {
    std::lock_guard lock(mutex_);
    const auto found = seekers_.find(who);
    if (found == seekers_.end()) return Handled::fail(NOT_SEEKING, "not seeking");
    ckey = found->second.cluster_key;
  }
  cl.directory().eval(scripts::kPoolCancel, {ckey, cl.options().node},
                      [weak = weak_from_this(), peer = call.peer, request_id = call.request_id,
                       ckey](std::optional<cluster::RedisReply> reply) {
                        auto room = weak.lock();
                        if (!room) return;
                        ServerMessage m;
                        m.set_request_id(request_id);
                        if (!reply) {
                          m.set_result(CLUSTER_UNAVAILABLE);
                          m.set_reason("this node cannot reach the cluster's pools");
                          m.set_retry_after_ms(1000);
                        } else if (reply->as_integer() == 1) {
                          room->take_local(ckey);
                          m.set_result(OK);
                          m.mutable_seek_status()->set_seeking(false);
                        } else {
                          m.set_result(NOT_SEEKING);
                          m.set_reason("already paired: the match is being made");
                        }
                        peer->send(frame_of(m));
                      });
  return Handled::later();
}

void PairingRoom::cluster_leave(const std::string& key) {
  cluster::ClusterNode& cl = *host_.cluster();
  cl.directory().eval(scripts::kPoolCancel, {key, cl.options().node},
                      [](std::optional<cluster::RedisReply>) {});
}

std::optional<PairingRoom::Seeking> PairingRoom::take_local(const std::string& key) {
  std::lock_guard lock(mutex_);
  const auto found = cluster_keys_.find(key);
  if (found == cluster_keys_.end()) return std::nullopt;
  const auto seeking = seekers_.find(found->second);
  cluster_keys_.erase(found);
  if (seeking == seekers_.end()) return std::nullopt;
  Seeking out = std::move(seeking->second);
  seekers_.erase(seeking);
  return out;
}

void PairingRoom::drain_inbox() {
  cluster::ClusterNode& cl = *host_.cluster();
  cl.directory().eval(
      scripts::kPoolInbox, {cl.options().node},
      [weak = weak_from_this()](std::optional<cluster::RedisReply> reply) {
        auto room = weak.lock();
        if (!room || !reply || reply->elements.empty()) return;
        std::vector<PairingMade> made;
        for (const auto& element : reply->elements) {
          PairingMade m;
          if (m.ParseFromString(element.text)) made.push_back(std::move(m));
        }
        boost::asio::post(room->host_.io(), [room, made = std::move(made)] {
          for (const PairingMade& m : made) room->pairing_made(m);
        });
      });
}

void PairingRoom::send_made(const PairingMade& made, const std::string& node) {
  cluster::ClusterNode& cl = *host_.cluster();
  if (node == cl.options().node) {
    boost::asio::post(host_.io(), [room = shared_from_this(), made] { room->pairing_made(made); });
    return;
  }
  cl.directory().eval(scripts::kPoolSend, {node, made.SerializeAsString()},
                      [node_of_room = cl.shared_from_this(),
                       node](std::optional<cluster::RedisReply> reply) {
                        if (reply) node_of_room->broadcast("pairing", node);
                      });
}

void PairingRoom::fail_pairing(PairingMade made, ResultCode code, const std::string& reason,
                               bool forward) {
  const std::string& me = host_.cluster()->options().node;
  made.set_code(code);
  made.set_reason(reason);
  std::set<std::string> others;
  for (const PairingSeat& seat : made.seats()) {
    if (seat.node() != me) {
      others.insert(seat.node());
      continue;
    }
    auto seeking = take_local(seat.seeker());
    if (!seeking) continue;
    if (auto peer = seeking->peer.lock()) peer->send(frame_of(not_seated(code, reason)));
  }
  if (!forward) return;
  for (const std::string& node : others) send_made(made, node);
}

void PairingRoom::pairing_made(const PairingMade& made) {
  cluster::ClusterNode& cl = *host_.cluster();
  const std::string& me = cl.options().node;
  if (made.code() != 0) {
    fail_pairing(made, static_cast<ResultCode>(made.code()), made.reason(), false);
    return;
  }
  if (made.match_id() == 0) {
    if (made.seats_size() > 0 && made.seats(0).node() == me) create_cluster_match(made);
    return;
  }
  // The match is on another node: this node's seekers are told where, with a join ticket.
  MatchInfo info;
  info.ParseFromString(made.match_info());
  const auto node = cl.node(made.match_node());
  for (const PairingSeat& seat : made.seats()) {
    if (seat.node() != me) continue;
    auto seeking = take_local(seat.seeker());
    if (!seeking) continue;
    auto peer = seeking->peer.lock();
    if (!peer) continue;
    ServerMessage m;
    m.set_result(OK);
    Paired* p = m.mutable_paired();
    p->set_match_id(made.match_id());
    p->set_seat(seat.seat());
    *p->mutable_match() = info;
    if (node) {
      Redirect* r = p->mutable_redirect();
      r->set_node(node->name);
      r->set_address(node->address);
      r->set_ticket(cl.ticket(made.match_id(), cluster::TicketRole::kJoin, seat.seat(), node->name,
                              holder_of_player(*seeking->player)));
      r->set_match_id(made.match_id());
      r->set_expires_in_seconds(static_cast<uint32_t>(cl.options().ticket_life.count() / 1000));
    }
    peer->send(frame_of(m));
  }
}

void PairingRoom::create_cluster_match(const PairingMade& made) {
  const std::string me = host_.cluster()->options().node;
  std::vector<ToSeat> locals;  // this node's seats, `index` their seat
  for (const PairingSeat& seat : made.seats()) {
    if (seat.node() != me) continue;
    auto seeking = take_local(seat.seeker());
    if (!seeking) continue;
    locals.push_back({seeking->player, seeking->peer.lock(), seat.seat_option(),
                      static_cast<size_t>(seat.seat())});
  }
  const auto fail = [&](ResultCode code, const std::string& reason) {
    for (const ToSeat& s : locals) {
      if (s.peer) s.peer->send(frame_of(not_seated(code, reason)));
    }
    fail_pairing(made, code, reason, true);
  };
  if (locals.empty() || locals.front().index != 0 || !locals.front().peer) {
    fail(NOT_SEEKING, "the other player left before the match was made: seek again");
    return;
  }
  MatchSettings settings;
  settings.set_ruleset(made.ruleset());
  settings.set_rated(made.rated());
  settings.set_clock_seconds(clock_seconds(made.ruleset(), made.clock()).value_or(0));
  settings.set_spectators_allowed(true);
  settings.set_seats(static_cast<uint32_t>(made.seats_size()) + made.bot_seats());
  CreateMatch request;
  *request.mutable_settings() = settings;
  request.set_join(true);
  request.set_seat_option(locals.front().option);
  request.set_bot_seats(made.bot_seats());
  PairingCreated created = host_.create_for_pairing(locals.front().player, request);
  if (created.code != OK) {
    spdlog::warn("pairing: a {} match could not be created: {}", made.ruleset(), created.reason);
    fail(created.code, "the match could not be created: " + created.reason);
    return;
  }
  host_.when_open(created.match, [weak = weak_from_this(), made, created, locals, me] {
    auto room = weak.lock();
    if (!room) return;
    boost::asio::post(room->host_.io(), [room, made, created, locals, me] {
      for (const ToSeat& s : locals) {
        room->tell_paired(s, static_cast<int>(s.index), created, 0, s.index == 0);
      }
      PairingMade told = made;
      told.set_match_id(created.info.match_id());
      told.set_match_node(me);
      told.set_match_info(created.info.SerializeAsString());
      std::set<std::string> others;
      for (const PairingSeat& seat : made.seats()) {
        if (seat.node() != me) others.insert(seat.node());
      }
      for (const std::string& node : others) room->send_made(told, node);
    });
  });
}

}  // namespace duelhall::server
