// Match membership: seats, spectators, presence and the lobby listing (chat: match_chat.cpp).
#include "match/match.hpp"

#include <spdlog/spdlog.h>
#include <boost/asio/post.hpp>

#include "core/version.hpp"
#include "fairness/commitment.hpp"
#include "fairness/secure_random.hpp"
#include "net/messages.hpp"

namespace duelhall::server {

using fairness::same_secret;
using fairness::secure_seed;

namespace net = boost::asio;

Match::Match(MatchHost& hub, uint64_t id, const engine::RulesetInfo& ruleset,
             MatchSettings settings, std::string invite, std::shared_ptr<Player> host,
             std::unique_ptr<ActionLog> log)
    : hub_(hub),
      id_(id),
      ruleset_(ruleset),
      settings_(std::move(settings)),
      invite_(std::move(invite)),
      host_name_(host ? host->name() : std::string()),
      host_id_(host ? host->id() : 0),
      log_(std::move(log)),
      strand_(net::make_strand(hub.io())),
      seats_(settings_.seats()),
      bot_rng_(secure_seed()),
      seed_(secure_seed()),
      commitment_(fairness::seed_commitment(seed_, engine::kEngineVersion)) {
  for (auto& seat : seats_) seat.clock = std::make_unique<net::steady_timer>(strand_);
  spectator_timer_ = std::make_unique<net::steady_timer>(strand_);
  linger_timer_ = std::make_unique<net::steady_timer>(strand_);
  bot_timer_ = std::make_unique<net::steady_timer>(strand_);
  storage_timer_ = std::make_unique<net::steady_timer>(strand_);
}

void Match::fault_safely(const std::string& what, Outbox& out) {
  try {
    fault(what, out);
  } catch (const std::exception& again) {
    spdlog::error("match {}: fault while ending it: {}", id_, again.what());
  }
}

void Match::seat_creator(const std::shared_ptr<Player>& host, std::string option) {
  SeatSlot& seat = seats_[0];
  seat.occupant = SeatInfo::HUMAN;
  seat.player = host;
  seat.option = std::move(option);
  seat.connected = true;
  host->add_match(weak_from_this());
}

void Match::seat_bots(int count) {
  for (int i = static_cast<int>(seats_.size()) - 1; i >= 0 && count > 0; --i) {
    if (seats_[i].occupant != SeatInfo::EMPTY) continue;
    seat_bot(i, settings_.bot_level());
    --count;
  }
}

void Match::seat_bot(int seat, const std::string& level) {
  SeatSlot& slot = seats_[seat];
  slot.occupant = SeatInfo::BOT;
  slot.bot = hub_.registry().make_bot(ruleset_.name, level, bot_budget());
  slot.connected = true;
}

void Match::open() {
  run([this](Outbox& out) {
    publish();
    maybe_start(out);
  });
}

int Match::seat_of(const Player* player) const {
  for (size_t i = 0; i < seats_.size(); ++i) {
    if (player && seats_[i].occupant == SeatInfo::HUMAN && seats_[i].player.get() == player) {
      return static_cast<int>(i);
    }
  }
  return -1;
}

bool Match::is_spectator(uint64_t peer_id) const {
  for (const auto& s : spectators_) {
    if (s.peer_id == peer_id) return true;
  }
  return false;
}

int Match::free_seats() const {
  int n = 0;
  for (const auto& seat : seats_) n += seat.occupant == SeatInfo::EMPTY;
  return n;
}

void Match::fill_match_info(MatchInfo& info) const {
  info.set_match_id(id_);
  info.set_ruleset(settings_.ruleset());
  info.set_status(status_);
  for (const auto& seat : seats_) {
    SeatInfo* s = info.add_seats();
    s->set_occupant(seat.occupant);
    if (seat.occupant == SeatInfo::HUMAN) s->set_name(seat.player->name());
    if (seat.occupant == SeatInfo::BOT) s->set_name("bot");
    s->set_connected(seat.connected);
  }
  info.set_spectators(static_cast<uint32_t>(spectators_.size()));
  info.set_unlisted(settings_.unlisted());
  info.set_spectators_allowed(settings_.spectators_allowed());
  info.set_host(host_name_);
  info.set_actions(static_cast<uint32_t>(state_ ? state_->history().size() : 0));
  *info.mutable_settings() = settings_;
  info.set_seed_commitment(commitment_);
  info.set_engine_version(std::string(engine::kEngineVersion));
  if (state_ && (status_ == FINISHED || status_ == ABORTED)) {
    info.set_seed(engine::seed_to_hex(state_->config().seed));
  }
}

void Match::publish() {
  MatchInfo info;
  fill_match_info(info);
  hub_.publish(info);
}

void Match::broadcast(const ServerMessage& message, bool to_spectators, Outbox& out,
                      uint64_t skip_peer) {
  Frame frame = frame_of(message);
  for (const auto& seat : seats_) {
    if (seat.occupant == SeatInfo::HUMAN) out.add(seat.player->peer(), frame);
  }
  if (!to_spectators) return;
  for (const auto& s : spectators_) {
    if (s.peer_id != skip_peer) out.add(s.peer.lock(), frame);
  }
}

void Match::send_presence(int seat, Outbox& out) {
  ServerMessage m;
  Presence* p = m.mutable_presence();
  p->set_match_id(id_);
  p->set_seat(static_cast<uint32_t>(seat));
  p->set_connected(seats_[seat].connected);
  if (seats_[seat].player) p->set_name(seats_[seat].player->name());
  broadcast(m, true, out);
  publish();
}

void Match::maybe_start(Outbox& out) {
  if (status_ == WAITING && free_seats() == 0) start(out);
}

void Match::join(std::shared_ptr<Peer> peer, std::shared_ptr<Player> player, JoinMatch request,
                 uint64_t request_id) {
  run([this, peer, player, request = std::move(request), request_id](Outbox& out) {
    auto refuse = [&](ResultCode code, std::string reason) {
      out.add(peer, frame_of(reply(request_id, code, std::move(reason))));
    };
    if (settings_.unlisted() && !same_secret(request.invite_code(), invite_)) {
      return refuse(BAD_INVITE, "this match needs its invite code");
    }
    if (status_ != WAITING) return refuse(WRONG_MATCH_STATE, "the match has already started");
    if (seat_of(player.get()) >= 0) return refuse(ALREADY_SEATED, "you already sit in this match");
    if (auto refusal = rated_join_refusal(*player)) return refuse(refusal->first, refusal->second);
    int seat = request.seat();
    if (seat < 0) {
      for (size_t i = 0; i < seats_.size() && seat < 0; ++i) {
        if (seats_[i].occupant == SeatInfo::EMPTY) seat = static_cast<int>(i);
      }
      if (seat < 0) return refuse(MATCH_FULL, "every seat is taken");
    }
    if (seat >= static_cast<int>(seats_.size())) return refuse(NO_SUCH_SEAT, "no such seat");
    if (seats_[seat].occupant != SeatInfo::EMPTY) return refuse(MATCH_FULL, "that seat is taken");
    if (ruleset_.check_seat_option) {
      std::string error;
      engine::Params params;
      std::map<std::string, std::string> raw(settings_.params().begin(), settings_.params().end());
      if (!engine::Params::resolve(ruleset_.params, raw, params, error)) {
        return refuse(BAD_PARAMETERS, error);
      }
      if (auto problem = ruleset_.check_seat_option(params, request.seat_option())) {
        return refuse(BAD_PARAMETERS, *problem);
      }
    }
    // The last seat taken: the ruleset checks the seats' options together (a Light Side deck
    // for seat 0), so that a bad combination is refused here rather than failing the start.
    if (ruleset_.check_seat_options && free_seats() == 1) {
      std::vector<std::string> options;
      for (size_t i = 0; i < seats_.size(); ++i) {
        options.push_back(static_cast<int>(i) == seat ? request.seat_option() : seats_[i].option);
      }
      std::map<std::string, std::string> raw(settings_.params().begin(), settings_.params().end());
      engine::Params params;
      std::string error;
      if (!engine::Params::resolve(ruleset_.params, raw, params, error)) {
        return refuse(BAD_PARAMETERS, error);
      }
      if (auto problem = ruleset_.check_seat_options(params, options)) {
        return refuse(BAD_PARAMETERS, *problem);
      }
    }
    SeatSlot& slot = seats_[seat];
    slot.occupant = SeatInfo::HUMAN;
    slot.player = player;
    slot.option = request.seat_option();
    slot.connected = true;
    player->add_match(weak_from_this());
    ServerMessage m = reply(request_id, OK);
    fill_match_info(*m.mutable_joined()->mutable_match());
    m.mutable_joined()->set_seat(seat);
    out.add(peer, frame_of(m));
    spectator_gone(peer->peer_id());  // a spectator who takes a seat stops spectating
    publish();
    maybe_start(out);
  });
}

void Match::leave(std::shared_ptr<Peer> peer, std::shared_ptr<Player> player, uint64_t request_id) {
  run([this, peer, player, request_id](Outbox& out) {
    const int seat = seat_of(player.get());
    if (seat < 0) {
      const bool watched = is_spectator(peer->peer_id());
      std::erase_if(spectators_, [&](const Spectator& s) { return s.peer_id == peer->peer_id(); });
      out.add(peer, frame_of(reply(request_id, watched ? OK : NOT_IN_MATCH,
                                   watched ? "" : "you are not in this match")));
      if (watched) spectators_changed(out);
      return;
    }
    player->remove_match(this);
    out.add(peer, frame_of(reply(request_id, OK)));
    abandoned(player);
  });
}

void Match::spectate(std::shared_ptr<Peer> peer, std::string invite, uint64_t request_id) {
  run([this, peer, invite = std::move(invite), request_id](Outbox& out) {
    if (!settings_.spectators_allowed()) {
      out.add(peer, frame_of(reply(request_id, SPECTATORS_NOT_ALLOWED,
                                   "the host does not allow spectators")));
      return;
    }
    if (settings_.unlisted() && !same_secret(invite, invite_)) {
      out.add(peer, frame_of(reply(request_id, BAD_INVITE, "this match needs its invite code")));
      return;
    }
    const bool arrived = !is_spectator(peer->peer_id());
    if (arrived) spectators_.push_back({peer, peer->peer_id()});
    if (spectator_view_stale_ && state_) {
      spectator_view_ = state_->view(engine::Viewer::spectator());
      spectator_seq_ = seq_;
      spectator_view_stale_ = false;
    }
    ServerMessage m = snapshot(-1);
    m.set_request_id(request_id);
    out.add(peer, frame_of(m));
    if (arrived) {
      spectators_changed(out, peer->peer_id());  // its snapshot carries the count already
    } else {
      publish();
    }
  });
}

void Match::spectator_gone(uint64_t peer_id) {
  net::post(strand_, [self = shared_from_this(), peer_id] {
    const size_t before = self->spectators_.size();
    std::erase_if(self->spectators_,
                  [&](const Spectator& s) { return s.peer_id == peer_id || s.peer.expired(); });
    if (self->spectators_.size() == before) return;
    Outbox out;
    self->spectators_changed(out);
    out.flush();
  });
}

void Match::spectators_changed(Outbox& out, uint64_t told_peer) {
  publish();
  ServerMessage m;
  m.mutable_spectator_count()->set_match_id(id_);
  m.mutable_spectator_count()->set_spectators(static_cast<uint32_t>(spectators_.size()));
  broadcast(m, true, out, told_peer);
}

void Match::fill_bots(std::shared_ptr<Peer> peer, std::shared_ptr<Player> player, std::string level,
                      uint64_t request_id) {
  run([this, peer, player, level = std::move(level), request_id](Outbox& out) {
    if (player->id() != host_id_) {
      out.add(peer, frame_of(reply(request_id, NOT_HOST, "only the host may add bots")));
      return;
    }
    if (status_ != WAITING) {
      out.add(peer, frame_of(reply(request_id, WRONG_MATCH_STATE, "the match has started")));
      return;
    }
    if (rated_refuses_bots(peer, request_id, out)) return;
    for (size_t i = 0; i < seats_.size(); ++i) {
      if (seats_[i].occupant == SeatInfo::EMPTY) {
        seat_bot(static_cast<int>(i), level.empty() ? settings_.bot_level() : level);
      }
    }
    out.add(peer, frame_of(reply(request_id, OK)));
    publish();
    maybe_start(out);
  });
}

void Match::resync(std::shared_ptr<Peer> peer, std::shared_ptr<Player> player,
                   uint64_t request_id) {
  run([this, peer, player, request_id](Outbox& out) {
    const int seat = seat_of(player.get());
    if (seat < 0 && !is_spectator(peer->peer_id())) {
      out.add(peer, frame_of(reply(request_id, NOT_IN_MATCH, "you are not in this match")));
      return;
    }
    ServerMessage m = snapshot(seat);
    m.set_request_id(request_id);
    out.add(peer, frame_of(m));
  });
}

void Match::resume(std::shared_ptr<Player> player, std::optional<uint64_t> last_seq) {
  run([this, player, last_seq](Outbox& out) {
    const int seat = seat_of(player.get());
    if (seat < 0) return;
    SeatSlot& slot = seats_[seat];
    slot.connected = true;
    auto peer = player->peer();
    const bool started = status_ != WAITING;
    const bool held =
        last_seq && *last_seq <= seq_ && player->protocol() == slot.protocol &&
        (*last_seq == seq_ || (!slot.held.empty() && slot.held.front().seq <= *last_seq + 1));
    if (started && held) {
      for (const HeldUpdate& h : slot.held) {
        if (h.seq <= *last_seq) continue;
        // A held answer to an action goes again without its request_id.
        out.add(peer, h.prefix ? std::make_shared<const std::string>(h.frame->substr(h.prefix))
                               : h.frame);
      }
    } else if (started) {
      out.add(peer, frame_of(snapshot(seat)));
    }
    tell_storage_waiting(peer, out);
    send_presence(seat, out);
  });
}

void Match::dropped(std::shared_ptr<Player> player) {
  run([this, player](Outbox& out) {
    const int seat = seat_of(player.get());
    if (seat < 0 || !seats_[seat].connected) return;
    seats_[seat].connected = false;
    send_presence(seat, out);
  });
}

void Match::abandoned(std::shared_ptr<Player> player) {
  run([this, player](Outbox& out) {
    const int seat = seat_of(player.get());
    if (seat < 0) return;
    SeatSlot& slot = seats_[seat];
    if (status_ == WAITING) {
      slot = SeatSlot{};
      slot.clock = std::make_unique<net::steady_timer>(strand_);
      bool humans = false;
      for (const auto& s : seats_) humans |= s.occupant == SeatInfo::HUMAN;
      if (!humans) {
        hub_.remove_match(id_);
        return;
      }
      publish();
      return;
    }
    if (status_ != PLAYING) return;
    if (rated_forfeit(seat, out)) return;  // no bot takes a rated seat: leaving loses
    // The match goes on: the engine's bot plays the seat from here.
    slot.player.reset();
    seat_bot(seat, settings_.bot_level());
    send_presence(seat, out);
    after_last_human(out);
    schedule_bots();
  });
}

}  // namespace duelhall::server
