#include "lobby/hub.hpp"

#include <spdlog/spdlog.h>
#include <algorithm>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>

#include "accounts/account_service.hpp"
#include "fairness/secure_random.hpp"
#include "match/match.hpp"
#include "net/messages.hpp"
#include "pairing/pairing_room.hpp"
#include "tournament_room/tournament_room.hpp"
#include "storage/match_store.hpp"

namespace duelhall::server {

using fairness::invite_code;
using fairness::same_secret;

namespace net = boost::asio;

Hub::Hub(net::io_context& io, const engine::Registry& registry, Config config,
         std::shared_ptr<ActionLogFactory> logs)
    : io_(io),
      registry_(registry),
      config_(std::move(config)),
      logs_(std::move(logs)),
      accounts_strand_(net::make_strand(io)) {
  if (config_.bots.threads > 0) {
    bot_pool_ =
        std::make_unique<BotPool>(config_.bots.threads, config_.bots.queue, config_.bots.nice);
  }
  bot_pacer_ = std::make_shared<BotPacer>(io_, config_.bots, bot_pool_.get());
  friends_ = std::make_unique<FriendsRoom>(*this);
  pairing_ = std::make_shared<PairingRoom>(*this);
  tournaments_ = std::make_shared<TournamentRoom>(*this);
}

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
    const bool known = it != players_by_token_.end() && same_secret(it->first, token);
    if (known) player = it->second;
    if (recovered_seats_.empty() || token.empty()) return player;
    // The token may hold seats of recovered matches (after a restart, or adopted from another
    // node of a cluster). Only its hash was stored, so the lookup is by hash.
    auto seats = recovered_seats_.find(storage::token_hash(token));
    if (seats == recovered_seats_.end()) return player;
    if (!known) {
      player = std::make_shared<Player>(next_player_++, seats->second.front().name, token);
      players_by_token_[token] = player;
    }
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
  uint64_t id = 0;
  {
    std::lock_guard lock(mutex_);
    id = next_match_++;
  }
  reserve_ids_through(id);
  return id;
}

void Hub::reserve_ids_through(uint64_t id) {
  // One synchronous write per block: ids after a restart skip at most a block ahead.
  constexpr uint64_t kIdBlock = 64;
  if (!store_) return;
  std::lock_guard lock(reserve_mutex_);
  if (id <= reserved_through_) return;
  store_->reserve_match_ids(static_cast<storage::MatchId>(id + kIdBlock - 1));
  reserved_through_ = id + kIdBlock - 1;
}

void Hub::continue_ids_after(uint64_t last_id) {
  {
    std::lock_guard lock(reserve_mutex_);
    reserved_through_ = std::max(reserved_through_, last_id);
  }
  std::lock_guard lock(mutex_);
  next_match_ = std::max(next_match_, last_id + 1);
}

void Hub::forget_token(const std::string& token) {
  std::lock_guard lock(mutex_);
  players_by_token_.erase(token);
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

bool offers_bot_level(const engine::RulesetInfo& info, const std::string& level) {
  return std::find(info.bot_levels.begin(), info.bot_levels.end(), level) != info.bot_levels.end();
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
  if (resolved.rated()) {
    if (!accounts_) {
      result.code = ACCOUNTS_DISABLED;
      result.reason = "this server offers no accounts, so no rated matches";
      return result;
    }
    if (seats != 2 || request.bot_seats() != 0) return bad("a rated match has two seats, no bots");
    if (!host->registered()) {
      result.code = SIGN_IN_REQUIRED;
      result.reason = "sign in to an account to host a rated match";
      return result;
    }
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
  if (!resolved.bot_level().empty() && !offers_bot_level(*info, resolved.bot_level())) {
    return bad(info->display_name + " has no bot level '" + resolved.bot_level() + "'");
  }
  if (resolved.clock_seconds() > kMaxClockSeconds) {
    return bad("a decision clock is at most " + std::to_string(kMaxClockSeconds) + " seconds");
  }
  // A match created now could not be stored (nor its actions): the creation waits for the store
  // (the dispatcher adds the retry hint).
  const auto store_out = [&result] {
    result.code = STORAGE_UNAVAILABLE;
    result.reason = "the server's store cannot take writes now; create the match again shortly";
    return result;
  };
  if (!store_available()) return store_out();
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
    if (!cluster_) id = next_match_++;
  }
  if (cluster_ && (id = cluster_match_id()) == 0) {
    result.code = CLUSTER_UNAVAILABLE;
    result.reason = "this node cannot reach the cluster; it takes no new matches until it can";
    return result;
  }
  try {
    reserve_ids_through(id);
  } catch (const storage::StoreUnavailableError& e) {
    spdlog::warn("could not reserve match id {}: {}", id, e.what());
    return store_out();
  } catch (const std::exception& e) {
    spdlog::error("could not reserve match id {}: {}", id, e.what());
    result.code = INTERNAL_ERROR;
    result.reason = "the server could not store a new match id";
    return result;
  }
  auto match = std::make_shared<Match>(*this, id, *info, resolved, invite, host, logs_->open(id));
  if (request.join()) {
    match->seat_creator(host, request.seat_option());
    result.seat = 0;
  }
  match->seat_bots(static_cast<int>(request.bot_seats()));
  match->describe(result.info);
  set_cluster_node(result.info);
  {
    std::lock_guard lock(mutex_);
    matches_[id] = match;
  }
  if (!cluster_) match->open();  // in a cluster: open_when_leased
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

std::vector<uint64_t> Hub::hosted_match_ids() {
  std::lock_guard lock(mutex_);
  std::vector<uint64_t> ids;
  ids.reserve(matches_.size());
  for (const auto& [id, match] : matches_) ids.push_back(id);
  return ids;
}

std::optional<MatchInfo> Hub::forget_match(uint64_t id) {
  std::lock_guard lock(mutex_);
  matches_.erase(id);
  every_listing_.erase(id);
  ended_.erase(id);
  auto it = listings_.find(id);
  if (it == listings_.end()) return std::nullopt;
  MatchInfo removed = std::move(it->second);
  listings_.erase(it);
  return removed;
}

void Hub::remove_match(uint64_t id) {
  const std::optional<MatchInfo> removed = forget_match(id);
  cluster_match_closed(id, removed.has_value());
  if (removed) tell_subscribers(*removed, true);
}

void Hub::publish(const MatchInfo& info) {
  MatchInfo listed = info;
  if (cluster_) set_cluster_node(listed);
  const bool ended = info.status() == FINISHED || info.status() == ABORTED;
  bool newly_ended = false;
  bool listed_publicly = false;
  {
    std::lock_guard lock(mutex_);
    if (!matches_.count(info.match_id())) return;  // already removed
    // Hosted here now (adopted from another node): that node's entry is a ghost.
    remote_listings_.erase(info.match_id());
    every_listing_[info.match_id()] = listed;
    newly_ended = ended && ended_.insert(info.match_id()).second;
    if (!info.unlisted()) {
      listings_[info.match_id()] = listed;
      listed_publicly = true;
    }
  }
  if (newly_ended) cluster_match_ended(info.match_id());
  if (!listed_publicly) return;
  cluster_publish(listed);
  tell_subscribers(listed, false);
}

void Hub::list(MatchList& out) {
  std::lock_guard lock(mutex_);
  for (const auto& [id, info] : listings_) *out.add_matches() = info;
  for (const auto& [id, info] : remote_listings_) *out.add_matches() = info;
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

void Hub::record_match_accounts(uint64_t match_id, std::vector<std::pair<int, int64_t>> seats,
                                bool rated) {
  if (!accounts_ || seats.empty()) return;
  net::post(accounts_strand_, [this, match_id, seats = std::move(seats), rated] {
    std::vector<storage::SeatAccount> rows;
    for (const auto& [seat, account] : seats) rows.push_back({seat, account, {}, {}, {}});
    try {
      accounts_->store().record_seats(static_cast<int64_t>(match_id), rows, rated);
    } catch (const std::exception& e) {
      spdlog::error("match {}: cannot record its accounts: {}", match_id, e.what());
    }
  });
}

void Hub::rated_match_ended(uint64_t match_id, std::string ruleset, uint64_t winners,
                            std::vector<std::shared_ptr<Player>> players) {
  if (!accounts_) return;
  net::post(accounts_strand_,
            [this, match_id, ruleset = std::move(ruleset), winners, players = std::move(players)] {
              std::vector<accounts::RatingChange> changes;
              try {
                changes = accounts_->rate_match(static_cast<int64_t>(match_id), ruleset, winners);
              } catch (const std::exception& e) {
                spdlog::error("match {}: cannot apply its ratings: {}", match_id, e.what());
                return;
              }
              if (changes.empty()) return;
              ServerMessage m;
              RatingUpdate* update = m.mutable_rating_update();
              update->set_match_id(match_id);
              update->set_ruleset(ruleset);
              for (const auto& c : changes) {
                RatingUpdate::Change* change = update->add_changes();
                change->set_seat(c.seat);
                if (auto account = accounts_->find(c.account)) change->set_name(account->name);
                change->set_before(c.before.rating);
                change->set_after(c.after.rating);
                change->set_deviation(c.after.deviation);
                change->set_provisional(c.provisional);
              }
              spdlog::info("match {}: ratings applied", match_id);
              const Frame frame = frame_of(m);
              for (const auto& player : players) {
                if (auto peer = player ? player->peer() : nullptr) peer->send(frame);
              }
            });
}

}  // namespace duelhall::server
