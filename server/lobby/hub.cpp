#include "lobby/hub.hpp"

#include <spdlog/spdlog.h>
#include <boost/asio/steady_timer.hpp>

#include "fairness/secure_random.hpp"
#include "match/match.hpp"
#include "net/messages.hpp"
#include "storage/match_store.hpp"

namespace duelhall::server {

using fairness::invite_code;
using fairness::same_secret;

namespace net = boost::asio;

Hub::Hub(net::io_context& io, const engine::Registry& registry, Config config,
         std::shared_ptr<ActionLogFactory> logs)
    : io_(io), registry_(registry), config_(std::move(config)), logs_(std::move(logs)) {}

std::shared_ptr<Player> Hub::new_player(const std::string& name) {
  std::string token = fairness::new_reconnect_token();
  std::lock_guard lock(mutex_);
  auto player = std::make_shared<Player>(next_player_++, name, token);
  players_by_token_[token] = player;
  return player;
}

std::shared_ptr<Player> Hub::find_player(const std::string& token) {
  std::vector<std::pair<std::shared_ptr<Match>, int>> reclaimed;
  std::shared_ptr<Player> player;
  {
    std::lock_guard lock(mutex_);
    auto it = players_by_token_.find(token);
    if (it != players_by_token_.end() && same_secret(it->first, token)) return it->second;
    if (recovered_seats_.empty() || token.empty()) return nullptr;
    // Not known since the restart: the token may hold seats of recovered matches. Only its
    // hash was stored, so the lookup is by hash.
    auto seats = recovered_seats_.find(storage::token_hash(token));
    if (seats == recovered_seats_.end()) return nullptr;
    player = std::make_shared<Player>(next_player_++, seats->second.front().name, token);
    players_by_token_[token] = player;
    for (const RecoveredSeat& seat : seats->second) {
      auto match = matches_.find(seat.match);
      if (match != matches_.end()) reclaimed.emplace_back(match->second, seat.seat);
    }
    recovered_seats_.erase(seats);
  }
  for (auto& [match, seat] : reclaimed) {
    player->add_match(match);
    match->reclaim(seat, player);
  }
  return player;
}

uint64_t Hub::allocate_match_id() {
  std::lock_guard lock(mutex_);
  return next_match_++;
}

void Hub::continue_ids_after(uint64_t last_id) {
  std::lock_guard lock(mutex_);
  next_match_ = std::max(next_match_, last_id + 1);
}

void Hub::recover(RecoveredMatch recovered) {
  const engine::RulesetInfo* info = registry_.find(recovered.hosted.settings().ruleset());
  if (!info) return;  // main.cpp replayed it, so the ruleset exists
  std::vector<bool> humans;
  for (const auto& hash : recovered.token_hashes) humans.push_back(!hash.empty());
  auto match = std::make_shared<Match>(
      *this, recovered.id, *info, recovered.hosted.settings(), recovered.hosted.invite_code(),
      std::make_shared<Player>(0, recovered.hosted.host(), ""), logs_->open(recovered.id));
  match->recover(std::move(recovered.state), recovered.names, humans,
                 std::move(recovered.public_view));
  std::lock_guard lock(mutex_);
  next_match_ = std::max(next_match_, recovered.id + 1);
  matches_[recovered.id] = match;
  for (size_t i = 0; i < recovered.token_hashes.size(); ++i) {
    if (recovered.token_hashes[i].empty()) continue;
    recovered_seats_[recovered.token_hashes[i]].push_back(
        {recovered.id, static_cast<int>(i), i < recovered.names.size() ? recovered.names[i] : ""});
  }
}

void Hub::arm_recovery_grace() {
  auto timer =
      std::make_shared<net::steady_timer>(io_, std::chrono::seconds(config_.grace_seconds));
  timer->async_wait([self = shared_from_this(), timer](boost::system::error_code ec) {
    if (ec) return;
    std::vector<std::shared_ptr<Match>> matches;
    {
      std::lock_guard lock(self->mutex_);
      self->recovered_seats_.clear();
      for (auto& [id, match] : self->matches_) matches.push_back(match);
    }
    for (auto& match : matches) match->recovery_grace_over();
  });
}

void Hub::player_dropped(const std::shared_ptr<Player>& player, const Peer* peer) {
  const uint64_t epoch = player->unbind(peer);
  if (epoch == 0) return;  // the player is already on a newer connection
  for (auto& match : player->matches()) match->dropped(player);
  auto timer =
      std::make_shared<net::steady_timer>(io_, std::chrono::seconds(config_.grace_seconds));
  timer->async_wait(
      [self = shared_from_this(), player, epoch, timer](boost::system::error_code ec) {
        if (ec || !player->still_unbound(epoch)) return;
        {
          std::lock_guard lock(self->mutex_);
          self->players_by_token_.erase(player->token());
        }
        spdlog::info("player {} did not come back within the grace period", player->id());
        for (auto& match : player->matches()) match->abandoned(player);
      });
}

CreateOutcome Hub::create_match(const std::shared_ptr<Player>& host, const CreateMatch& request) {
  CreateOutcome result;
  const MatchSettings& settings = request.settings();
  const engine::RulesetInfo* info = registry_.find(settings.ruleset());
  if (!info) {
    result.code = UNKNOWN_RULESET;
    result.reason = "no ruleset named '" + settings.ruleset() + "'";
    return result;
  }
  MatchSettings resolved = settings;
  if (resolved.seats() == 0) resolved.set_seats(static_cast<uint32_t>(info->min_seats));
  const int seats = static_cast<int>(resolved.seats());
  auto bad = [&](std::string reason) {
    result.code = BAD_PARAMETERS;
    result.reason = std::move(reason);
    return result;
  };
  if (seats < info->min_seats || seats > info->max_seats) {
    return bad(info->display_name + " takes " + std::to_string(info->min_seats) + " to " +
               std::to_string(info->max_seats) + " seats");
  }
  if (request.bot_seats() > resolved.seats() - (request.join() ? 1 : 0)) {
    return bad("more bot seats than free seats");
  }
  std::string error;
  engine::Params params;
  std::map<std::string, std::string> raw(settings.params().begin(), settings.params().end());
  if (!engine::Params::resolve(info->params, raw, params, error)) return bad(error);
  if (request.join() && info->check_seat_option) {
    if (auto problem = info->check_seat_option(params, request.seat_option())) {
      return bad(*problem);
    }
  }
  const uint32_t taken = request.bot_seats() + (request.join() ? 1 : 0);
  if (info->check_seat_options && taken == resolved.seats()) {
    // Full at once (the host and bots): the seats' options are checked together now.
    std::vector<std::string> options(resolved.seats());
    if (request.join()) options[0] = request.seat_option();
    if (auto problem = info->check_seat_options(params, options)) return bad(*problem);
  }
  if (resolved.bot_level().empty() && !info->bot_levels.empty()) {
    resolved.set_bot_level(info->bot_levels.front());
  }
  std::string invite = resolved.unlisted() ? invite_code() : std::string();
  uint64_t id = 0;
  {
    std::lock_guard lock(mutex_);
    if (draining_) {
      result.code = SERVER_DRAINING;
      result.reason = "the server is going down for a restart; create the match after it";
      return result;
    }
    if (matches_.size() >= config_.limits.max_matches) {
      result.code = TOO_MANY_MATCHES;
      result.reason = "the server is hosting as many matches as it may";
      return result;
    }
    id = next_match_++;
  }
  auto match = std::make_shared<Match>(*this, id, *info, resolved, invite, host, logs_->open(id));
  if (request.join()) {
    match->seat_creator(host, request.seat_option());
    result.seat = 0;
  }
  match->seat_bots(static_cast<int>(request.bot_seats()));
  {
    std::lock_guard lock(mutex_);
    matches_[id] = match;
  }
  match->open();
  result.match = match;
  result.invite = invite;
  return result;
}

std::shared_ptr<Match> Hub::find_match(uint64_t id) {
  std::lock_guard lock(mutex_);
  auto it = matches_.find(id);
  return it == matches_.end() ? nullptr : it->second;
}

size_t Hub::match_count() {
  std::lock_guard lock(mutex_);
  return matches_.size();
}

void Hub::remove_match(uint64_t id) {
  MatchInfo removed;
  bool listed = false;
  {
    std::lock_guard lock(mutex_);
    matches_.erase(id);
    auto it = listings_.find(id);
    if (it != listings_.end()) {
      removed = std::move(it->second);
      listings_.erase(it);
      listed = true;
    }
  }
  if (!listed) return;
  ServerMessage m;
  *m.mutable_lobby_update()->mutable_match() = removed;
  m.mutable_lobby_update()->set_removed(true);
  Frame frame = frame_of(m);
  for (auto& peer : subscribers()) peer->send(frame);
}

void Hub::publish(const MatchInfo& info) {
  if (info.unlisted()) return;
  {
    std::lock_guard lock(mutex_);
    if (!matches_.count(info.match_id())) return;  // already removed
    listings_[info.match_id()] = info;
  }
  ServerMessage m;
  *m.mutable_lobby_update()->mutable_match() = info;
  Frame frame = frame_of(m);
  for (auto& peer : subscribers()) peer->send(frame);
}

void Hub::list(MatchList& out) {
  std::lock_guard lock(mutex_);
  for (const auto& [id, info] : listings_) *out.add_matches() = info;
}

std::vector<std::shared_ptr<Peer>> Hub::subscribers() {
  std::vector<std::shared_ptr<Peer>> out;
  std::lock_guard lock(mutex_);
  for (auto it = subscribers_.begin(); it != subscribers_.end();) {
    if (auto peer = it->second.lock()) {
      out.push_back(std::move(peer));
      ++it;
    } else {
      it = subscribers_.erase(it);
    }
  }
  return out;
}

void Hub::subscribe(const std::shared_ptr<Peer>& peer, bool on) {
  std::lock_guard lock(mutex_);
  if (on) {
    subscribers_[peer->peer_id()] = peer;
  } else {
    subscribers_.erase(peer->peer_id());
  }
}

void Hub::unsubscribe(const Peer* peer) {
  std::lock_guard lock(mutex_);
  subscribers_.erase(peer->peer_id());
}

void Hub::lobby_chat(const std::string& from, const std::string& text) {
  ServerMessage m;
  ChatMessage* c = m.mutable_chat();
  c->set_from(from);
  c->set_seat(-1);
  c->set_text(text);
  Frame frame = frame_of(m);
  for (auto& peer : subscribers()) peer->send(frame);
}

}  // namespace duelhall::server
