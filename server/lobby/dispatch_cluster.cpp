// The dispatcher's cluster side (docs/cluster.md). A node answers a command about a match another
// node hosts, or a creation the placement gives to another node, with REDIRECT: the node's address
// and a ticket for the same command there. The client sends it there with the ticket, and that
// node serves it without redirecting again. Frames are never forwarded between nodes.
#include <spdlog/spdlog.h>

#include "cluster/cluster_node.hpp"
#include "lobby/dispatch.hpp"
#include "net/messages.hpp"

namespace duelhall::server {
namespace {

using cluster::TicketCheck;
using cluster::TicketRole;

Handled refusal(TicketCheck check) {
  const ResultCode code = check == TicketCheck::kForged || check == TicketCheck::kTooLong
                              ? TICKET_FORGED
                          : check == TicketCheck::kExpired ? TICKET_EXPIRED
                                                           : TICKET_WRONG_MATCH;
  return Handled::fail(code, cluster::describe(check));
}

// Whom this connection's tickets are for (ClusterNode::holder_key): the same registered account,
// or the same name, on the node it is sent to. A guest goes by its name: its guest identity is an
// account only in its first node's store when the nodes keep no shared database (--storage
// memory or sqlite), so the node it is sent to may know it under another id.
std::string holder_of(const ClientState& state) {
  const auto& account = state.account.account;
  if (account && account->id != 0 && !account->guest)
    return cluster::ClusterNode::holder_key(account->id, {});
  return cluster::ClusterNode::holder_key(0, state.player ? state.player->name() : std::string());
}

// Fills `reply` with a redirect to `node` for the command about `match_id` (0: a creation), with
// a ticket for `holder`.
Handled redirect(cluster::ClusterNode& cluster, const cluster::NodeInfo& node, uint64_t match_id,
                 TicketRole role, int seat, const std::string& holder, ServerMessage& reply) {
  Redirect* r = reply.mutable_redirect();
  r->set_node(node.name);
  r->set_address(node.address);
  r->set_ticket(cluster.ticket(match_id, role, seat, node.name, holder));
  r->set_match_id(match_id);
  r->set_expires_in_seconds(static_cast<uint32_t>(cluster.options().ticket_life.count() / 1000));
  return Handled::fail(REDIRECT, "match " + std::to_string(match_id) + " is on node " + node.name +
                                     " (" + node.address + ")");
}

// A failover under way (the match's node stopped and no survivor serves it yet): the client asks
// again by itself, after about the time an adoption takes to make progress (a heartbeat).
constexpr uint32_t kFailoverRetryMs = 500;

void refuse_for_now(ServerMessage& reply, std::string reason) {
  reply.set_result(CLUSTER_UNAVAILABLE);
  reply.set_reason(std::move(reason));
  reply.set_retry_after_ms(kFailoverRetryMs);
}

std::string no_node_now(uint64_t match_id, const std::string& then) {
  return "match " + std::to_string(match_id) +
         " has no node right now (its node stopped and another is taking it over): " + then;
}

}  // namespace

Handled Dispatcher::check_ticket(Call& call, const ClientMessage& message) {
  cluster::ClusterNode* cluster = hub_.cluster();
  if (!cluster) return Handled::fail(CLUSTER_UNAVAILABLE, "this server is not in a cluster");
  cluster::Ticket ticket;
  TicketCheck check = TicketCheck::kWrongMatch;
  const std::string holder =
      message.command_case() == ClientMessage::kHello
          ? cluster::ClusterNode::resume_holder_key(message.hello().resume_token())
          : holder_of(call.state);
  switch (message.command_case()) {
    case ClientMessage::kCreateMatch:
      check = cluster->check_ticket(message.ticket(), 0, TicketRole::kCreate, holder, &ticket);
      break;
    case ClientMessage::kJoinMatch:
      check = cluster->check_ticket(message.ticket(), message.join_match().match_id(),
                                    TicketRole::kJoin, holder, &ticket);
      if (check == TicketCheck::kGood && ticket.seat != message.join_match().seat()) {
        check = TicketCheck::kWrongMatch;
      }
      break;
    case ClientMessage::kSpectate:
      check = cluster->check_ticket(message.ticket(), message.spectate().match_id(),
                                    TicketRole::kSpectate, holder, &ticket);
      break;
    case ClientMessage::kHello: {
      // A resume: the ticket names one of the matches its cursors resume.
      check = cluster->check_ticket(message.ticket(), 0, TicketRole::kResume, holder, &ticket);
      bool named = false;
      for (const auto& c : message.hello().cursors()) named |= c.match_id() == ticket.match;
      if (check == TicketCheck::kGood && !named) check = TicketCheck::kWrongMatch;
      break;
    }
    default:  // tickets come only with the commands a redirect answers
      check = cluster->check_ticket(message.ticket(), 0, TicketRole::kCreate, holder, &ticket);
      if (check == TicketCheck::kGood) check = TicketCheck::kWrongMatch;
      break;
  }
  if (check != TicketCheck::kGood) return refusal(check);
  call.ticketed = true;
  return Handled::ok();
}

std::optional<Handled> Dispatcher::place_elsewhere(Call& call) {
  cluster::ClusterNode* cluster = hub_.cluster();
  if (!cluster || call.ticketed) return std::nullopt;
  if (!cluster->ready()) {
    return Handled::retry(
        CLUSTER_UNAVAILABLE,
        "this node cannot reach the cluster; it takes no new matches until it can", 1000);
  }
  // Only a node seen alive recently is chosen, and each choice counts until the next heartbeat.
  auto chosen = cluster->place();
  if (!chosen || chosen->name == cluster->options().node) return std::nullopt;
  return redirect(*cluster, *chosen, 0, TicketRole::kCreate, -1, holder_of(call.state), call.reply);
}

Handled Dispatcher::not_here(Call& call, uint64_t match_id, bool spectate, int seat) {
  cluster::ClusterNode* cluster = hub_.cluster();
  if (!cluster) return Handled::fail(UNKNOWN_MATCH, "no such match");
  const TicketRole role = spectate ? TicketRole::kSpectate : TicketRole::kJoin;
  // A listed match: its node is known here, and redirected to while it is seen alive. Otherwise
  // (unlisted, or its node stopped) Redis says who holds its lease.
  const std::string listed_on = hub_.remote_node_of(match_id);
  if (!call.ticketed && cluster->seen_recently(listed_on)) {
    if (auto node = cluster->node(listed_on)) {
      return redirect(*cluster, *node, match_id, role, seat, holder_of(call.state), call.reply);
    }
  }
  cluster->locate(match_id, [cluster, peer = call.peer, request_id = call.request_id, match_id,
                             role, seat, ticketed = call.ticketed, holder = holder_of(call.state),
                             listed = !listed_on.empty()](std::optional<cluster::NodeInfo> node) {
    ServerMessage reply;
    reply.set_request_id(request_id);
    if (node && node->name != cluster->options().node && !ticketed &&
        cluster->seen_recently(node->name)) {
      const Handled handled = redirect(*cluster, *node, match_id, role, seat, holder, reply);
      reply.set_result(handled.code);
      reply.set_reason(handled.reason);
    } else if (node || listed) {
      // Its lease is held (here: the adoption is still rebuilding it; or it moved on since the
      // ticket; or by a node not heard from lately, which is dying), or it is listed under a
      // node that stopped and nobody holds it yet: a failover under way, which the client waits
      // out as it does for a resume (docs/cluster.md).
      refuse_for_now(reply, no_node_now(match_id, "ask again in a moment"));
    } else {
      reply.set_result(UNKNOWN_MATCH);
      reply.set_reason("no such match");
    }
    count_refusal(reply.result());
    peer->send(frame_of(reply));
  });
  return Handled::later();
}

std::optional<Handled> Dispatcher::resume_elsewhere(Call& call, const Hello& hello) {
  cluster::ClusterNode* cluster = hub_.cluster();
  if (!cluster || hello.cursors().empty()) return std::nullopt;
  for (const auto& c : hello.cursors()) {
    if (hub_.find_match(c.match_id())) return std::nullopt;  // served here
  }
  const uint64_t match_id = hello.cursors(0).match_id();
  const std::string retry = no_node_now(match_id, "say Hello again in a moment");
  // Sent here for it and not here yet: the adoption is still rebuilding it.
  if (call.ticketed) return Handled::retry(CLUSTER_UNAVAILABLE, retry, kFailoverRetryMs);
  cluster->locate(
      match_id, [cluster, peer = call.peer, request_id = call.request_id, match_id, retry,
                 holder = cluster::ClusterNode::resume_holder_key(hello.resume_token())](
                    std::optional<cluster::NodeInfo> node) {
        ServerMessage reply;
        reply.set_request_id(request_id);
        if (node && node->name != cluster->options().node && cluster->seen_recently(node->name)) {
          const Handled handled =
              redirect(*cluster, *node, match_id, TicketRole::kResume, -1, holder, reply);
          reply.set_result(handled.code);
          reply.set_reason(handled.reason);
        } else {
          refuse_for_now(reply, retry);
        }
        count_refusal(reply.result());
        peer->send(frame_of(reply));
      });
  return Handled::later();
}

}  // namespace duelhall::server
