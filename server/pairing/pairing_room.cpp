// Quick pairing on one node: seeks, cancels, disconnects, the wave timer and seating a pairing.
#include "pairing/pairing_room.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>

#include "accounts/account_service.hpp"
#include "cluster/cluster_node.hpp"
#include "net/messages.hpp"

namespace duelhall::server {
namespace {

using pairing::PairingOutcome;

// Seekers are told how long they have waited every this many waves (and the client counts the
// seconds in between), so that a full pool does not push a status to every seeker every wave.
constexpr uint64_t kStatusEveryWaves = 5;

ServerMessage pushed(ResultCode code = OK, std::string reason = {}) {
  ServerMessage m;
  m.set_result(code);
  if (!reason.empty()) m.set_reason(std::move(reason));
  return m;
}

Handled refusal(PairingOutcome outcome) {
  const std::string words(pairing::describe(outcome));
  switch (outcome) {
    case PairingOutcome::kOk:
      return Handled::ok();
    case PairingOutcome::kAlreadySeeking:
      return Handled::fail(ALREADY_SEEKING, words);
    case PairingOutcome::kGuestInRatedPool:
      return Handled::fail(SIGN_IN_REQUIRED, words);
    case PairingOutcome::kPoolFull:
      return Handled::fail(BUSY, words);
    case PairingOutcome::kUnknownSeeker:
      return Handled::fail(NOT_SEEKING, words);
    case PairingOutcome::kSeatsOutOfRange:
    case PairingOutcome::kRatingNotFinite:
      return Handled::fail(BAD_PARAMETERS, words);
    case PairingOutcome::kUnknownPool:
      return Handled::fail(NO_SUCH_POOL, words);
  }
  return Handled::fail(BAD_PARAMETERS, words);
}

}  // namespace

pairing::SeekerId seeker_of(const Player& player) {
  const Player::Account account = player.account();
  if (account.id != 0 && !account.guest) return {false, account.id};
  return {true, static_cast<int64_t>(player.id())};
}

bool still_in(Player& player, uint64_t match_id) {
  for (const auto& match : player.matches()) {
    if (match->id() == match_id) return true;
  }
  return false;
}

PairingRoom::PairingRoom(PairingHost& host)
    : host_(host),
      ignores_(*this),
      hall_([this](const pairing::PoolKey& key) { return options_for(key); }, &ignores_) {}

bool PairingRoom::Ignores::ignores(pairing::SeekerId who, pairing::SeekerId other) const {
  const auto receiver = room_.seekers_.find(who);
  const auto sender = room_.seekers_.find(other);
  if (receiver == room_.seekers_.end() || sender == room_.seekers_.end()) return false;
  return room_.host_.ignores(receiver->second.peer_id, *sender->second.player);
}

std::vector<ClockPresetSetting> PairingRoom::presets(const std::string& ruleset) const {
  std::vector<ClockPresetSetting> out = {
      {ruleset, "blitz", 15}, {ruleset, "rapid", 30}, {ruleset, "classical", 90}};
  for (const ClockPresetSetting& own : host_.config().pairing.clocks) {
    if (own.ruleset != ruleset) continue;
    auto same = std::find_if(out.begin(), out.end(), [&](auto& p) { return p.name == own.name; });
    if (same != out.end()) {
      same->clock_seconds = own.clock_seconds;
    } else {
      out.push_back(own);
    }
  }
  return out;
}

std::optional<uint32_t> PairingRoom::clock_seconds(const std::string& ruleset,
                                                   const std::string& clock) const {
  for (const ClockPresetSetting& preset : presets(ruleset)) {
    if (preset.name == clock) return preset.clock_seconds;
  }
  return std::nullopt;
}

std::optional<pairing::PairingOptions> PairingRoom::options_for(const pairing::PoolKey& key) const {
  const engine::RulesetInfo* info = host_.registry().find(key.ruleset);
  if (!info || !clock_seconds(key.ruleset, key.clock)) return std::nullopt;
  pairing::PairingOptions options;
  options.min_seats = static_cast<uint32_t>(info->min_seats);
  // A rated match has two seats and no bots (MatchSettings.rated).
  options.max_seats = key.rated ? 2 : static_cast<uint32_t>(info->max_seats);
  if (key.rated) options.min_seats = 2;
  if (!key.rated)
    options.bot_fill_after = std::chrono::seconds(host_.config().pairing.bot_fill_seconds);
  return options;
}

void PairingRoom::start() {
  if (cluster::ClusterNode* cl = host_.cluster()) {
    // A pairing queued for this node: read the queue now rather than at the next wave.
    std::weak_ptr<PairingRoom> weak = weak_from_this();
    cl->follow(
        "pairing",
        [weak](const std::string& node) {
          auto room = weak.lock();
          if (room && room->host_.cluster()->options().node.compare(node) == 0) room->drain_inbox();
        },
        [weak] {
          if (auto room = weak.lock()) room->drain_inbox();
        });
  }
  timer_ = std::make_unique<boost::asio::steady_timer>(host_.io());
  arm_timer();
}

void PairingRoom::stop() {
  std::lock_guard lock(mutex_);
  stopped_ = true;
  if (timer_) timer_->cancel();
}

void PairingRoom::arm_timer() {
  timer_->expires_after(std::chrono::milliseconds(host_.config().pairing.wave_ms));
  timer_->async_wait([weak = weak_from_this()](const boost::system::error_code& ec) {
    auto room = weak.lock();
    if (ec || !room) return;
    {
      std::lock_guard lock(room->mutex_);
      if (room->stopped_) return;
    }
    room->wave(std::chrono::steady_clock::now());
    room->arm_timer();
  });
}

Handled PairingRoom::check_seek(Call& call, const Seek& request, uint32_t& seats) const {
  const engine::RulesetInfo* info = host_.registry().find(request.ruleset());
  if (!info || !clock_seconds(request.ruleset(), request.clock())) {
    return Handled::fail(NO_SUCH_POOL, "no pool for ruleset '" + request.ruleset() +
                                           "' and clock '" + request.clock() + "'");
  }
  if (request.rated() && !call.state.player->registered()) {
    return Handled::fail(SIGN_IN_REQUIRED, "guests are paired in casual pools only: sign in");
  }
  if (request.rated() && !host_.accounts()) {
    return Handled::fail(ACCOUNTS_DISABLED, "this server offers no accounts, so no rated pools");
  }
  seats = request.seats() == 0 ? static_cast<uint32_t>(info->min_seats) : request.seats();
  if (info->check_seat_option) {
    engine::Params params;
    std::string error;
    if (!engine::Params::resolve(info->params, {}, params, error)) {
      return Handled::fail(BAD_PARAMETERS, error);
    }
    if (auto problem = info->check_seat_option(params, request.seat_option())) {
      return Handled::fail(BAD_PARAMETERS, *problem);
    }
  }
  if (host_.seated_in_unended_match(*call.state.player)) {
    return Handled::fail(SEATED_ELSEWHERE, "you sit in a match that has not ended");
  }
  return Handled::ok();
}

Handled PairingRoom::seek(Call& call, const Seek& request) {
  uint32_t seats = 0;
  if (Handled refused = check_seek(call, request, seats); refused.code != OK) return refused;
  const std::shared_ptr<Player>& player = call.state.player;
  pairing::Seek wanted{seeker_of(*player), 1500, 350, seats, request.seat_option()};
  if (player->registered() && host_.accounts()) {
    try {
      for (const auto& r : host_.accounts()->store().ratings(player->account().id)) {
        if (r.ruleset != request.ruleset()) continue;
        wanted.rating = r.rating;
        wanted.deviation = r.deviation;
      }
    } catch (const std::exception& e) {
      spdlog::warn("pairing: no rating for player {}: {}", player->id(), e.what());
    }
  }
  const pairing::PoolKey key{request.ruleset(), request.rated(), request.clock()};
  if (host_.cluster()) return cluster_seek(call, std::move(wanted), key);
  const pairing::Instant now = std::chrono::steady_clock::now();
  std::lock_guard lock(mutex_);
  const pairing::SeekerId who = wanted.who;
  if (const PairingOutcome outcome = hall_.seek(key, std::move(wanted), now);
      outcome != PairingOutcome::kOk) {
    return refusal(outcome);
  }
  Seeking& seeking = seekers_[who];
  seeking = Seeking{call.peer, call.peer->peer_id(), player, key, now, {}};
  fill_status(seeking, now, *call.reply.mutable_seek_status());
  return Handled::ok();
}

Handled PairingRoom::cancel(Call& call) {
  if (host_.cluster()) return cluster_cancel(call);
  const pairing::SeekerId who = seeker_of(*call.state.player);
  std::lock_guard lock(mutex_);
  if (const PairingOutcome outcome = hall_.cancel(who); outcome != PairingOutcome::kOk) {
    return refusal(outcome);
  }
  seekers_.erase(who);
  call.reply.mutable_seek_status()->set_seeking(false);
  return Handled::ok();
}

void PairingRoom::disconnected(const Peer& peer, const std::shared_ptr<Player>& player) {
  if (!player) return;
  const pairing::SeekerId who = seeker_of(*player);
  std::string cluster_key;
  {
    std::lock_guard lock(mutex_);
    const auto found = seekers_.find(who);
    // Only the connection that seeks: a player who resumed elsewhere keeps its seek.
    if (found == seekers_.end() || found->second.peer_id != peer.peer_id()) return;
    hall_.leave(who);
    cluster_key = found->second.cluster_key;
    if (!cluster_key.empty()) cluster_keys_.erase(cluster_key);
    seekers_.erase(found);
  }
  if (!cluster_key.empty()) cluster_leave(cluster_key);
}

size_t PairingRoom::seeking() {
  std::lock_guard lock(mutex_);
  return seekers_.size();
}

void PairingRoom::fill_status(const Seeking& seeking, pairing::Instant now, SeekStatus& out) {
  out.set_seeking(true);
  out.set_ruleset(seeking.pool.ruleset);
  out.set_rated(seeking.pool.rated);
  out.set_clock(seeking.pool.clock);
  const auto waited = std::chrono::duration_cast<std::chrono::seconds>(now - seeking.since);
  out.set_seconds_waited(static_cast<uint32_t>(std::max<int64_t>(0, waited.count())));
  if (!seeking.cluster_key.empty()) {
    const auto size = cluster_pool_sizes_.find(pool_text(seeking.pool));
    out.set_players_in_pool(size == cluster_pool_sizes_.end() ? 1 : size->second);
    return;
  }
  const pairing::PairingPool* pool = hall_.pool(seeking.pool);
  out.set_players_in_pool(pool ? static_cast<uint32_t>(pool->size()) : 0);
}

size_t PairingRoom::wave(pairing::Instant now) {
  struct Made {
    MatchSettings settings;
    std::vector<ToSeat> seats;
    uint32_t bot_seats = 0;
  };
  std::vector<Made> made;
  bool tell_waits = false;
  if (host_.cluster()) {
    {
      std::lock_guard lock(mutex_);
      tell_waits = ++waves_ % kStatusEveryWaves == 0;
      prune_offers();
    }
    cluster_wave(now);  // pairs asynchronously, on the node holding the wave lease
    if (tell_waits) push_status_every_few_waves(now);
    return 0;
  }
  {
    std::lock_guard lock(mutex_);
    for (pairing::PairingHall::Pairing& pairing : hall_.wave(now)) {
      Made m;
      m.settings.set_ruleset(pairing.pool.ruleset);
      m.settings.set_rated(pairing.pool.rated);
      m.settings.set_clock_seconds(
          clock_seconds(pairing.pool.ruleset, pairing.pool.clock).value_or(0));
      m.settings.set_spectators_allowed(true);
      m.bot_seats = pairing.table.bot_seats;
      m.settings.set_seats(static_cast<uint32_t>(pairing.table.seekers.size()) + m.bot_seats);
      for (const pairing::Seeker& seeker : pairing.table.seekers) {
        const auto found = seekers_.find(seeker.who);
        if (found == seekers_.end()) continue;  // cannot happen: the hall and the map move together
        m.seats.push_back({found->second.player, found->second.peer.lock(), seeker.deck});
        seekers_.erase(found);
      }
      made.push_back(std::move(m));
    }
    tell_waits = ++waves_ % kStatusEveryWaves == 0;
    prune_offers();
  }
  for (Made& m : made) seat_players(m.settings, std::move(m.seats), m.bot_seats, 0);
  if (tell_waits) push_status_every_few_waves(now);
  return made.size();
}

void PairingRoom::push_status_every_few_waves(pairing::Instant now) {
  std::vector<std::pair<std::shared_ptr<Peer>, Frame>> out;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [who, seeking] : seekers_) {
      auto peer = seeking.peer.lock();
      if (!peer) continue;
      ServerMessage m = pushed();
      fill_status(seeking, now, *m.mutable_seek_status());
      out.emplace_back(std::move(peer), frame_of(m));
    }
  }
  for (auto& [peer, frame] : out) peer->send(std::move(frame));
}

std::optional<std::string> PairingRoom::fit_seat_options(const MatchSettings& settings,
                                                         std::vector<ToSeat>& seats) const {
  const engine::RulesetInfo* info = host_.registry().find(settings.ruleset());
  if (!info || !info->check_seat_options || seats.size() != 2) return std::nullopt;
  engine::Params params;
  std::string error;
  const std::map<std::string, std::string> raw(settings.params().begin(), settings.params().end());
  if (!engine::Params::resolve(info->params, raw, params, error)) return error;
  const auto problem = [&] {
    return info->check_seat_options(params, {seats[0].option, seats[1].option});
  };
  if (!problem()) return std::nullopt;
  std::swap(seats[0], seats[1]);
  return problem();
}

void PairingRoom::seat_players(const MatchSettings& settings, std::vector<ToSeat> seats,
                               uint32_t bot_seats, uint64_t rematch_of) {
  if (seats.empty()) return;
  PairingCreated created;
  if (auto problem = fit_seat_options(settings, seats)) {
    created.code = BAD_PARAMETERS;
    created.reason = "the seats' setups do not fit together: " + *problem;
  } else {
    CreateMatch request;
    *request.mutable_settings() = settings;
    request.set_join(true);
    request.set_seat_option(seats.front().option);
    request.set_bot_seats(bot_seats);
    created = host_.create_for_pairing(seats.front().player, request);
  }
  if (created.code != OK) {
    spdlog::warn("pairing: a {} match could not be created: {}", settings.ruleset(),
                 created.reason);
    ServerMessage m = pushed(created.code, "the match could not be created: " + created.reason);
    m.mutable_seek_status()->set_seeking(false);
    const Frame frame = frame_of(m);
    for (const ToSeat& s : seats) {
      if (s.peer) s.peer->send(frame);
    }
    return;
  }
  // At once on one node; in a cluster once the match's lease is answered and it is open.
  host_.when_open(created.match, [room = shared_from_this(), seats = std::move(seats), created,
                                  rematch_of] {
    for (size_t i = 0; i < seats.size(); ++i) {
      room->tell_paired(seats[i], static_cast<int>(i), created, rematch_of, i == 0);
    }
  });
}

void PairingRoom::tell_paired(const ToSeat& s, int seat, const PairingCreated& created,
                              uint64_t rematch_of, bool creator) {
  if (!s.peer) return;  // gone since the wave: the match waits for a player as any other
  ServerMessage m = pushed();
  Paired* p = m.mutable_paired();
  p->set_match_id(created.info.match_id());
  p->set_seat(seat);
  *p->mutable_match() = created.info;
  p->set_rematch(rematch_of != 0);
  p->set_previous_match_id(rematch_of);
  if (creator) {
    s.peer->send(frame_of(m));
    return;
  }
  JoinMatch join;
  join.set_match_id(created.info.match_id());
  join.set_seat(seat);
  join.set_seat_option(s.option);
  created.match->join(s.peer, s.player, join, 0);
  // Told once seated: seats_now runs on the match's strand after the join.
  created.match->seats_now([s, message = std::move(m), seat](const Match::SeatsNow& now) {
    const auto index = static_cast<size_t>(seat);
    if (index < now.players.size() && now.players[index] == s.player)
      s.peer->send(frame_of(message));
  });
}

}  // namespace duelhall::server
