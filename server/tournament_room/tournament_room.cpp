// The tournament room's commands, its tick and the match ends it is told of. Creation is
// tournament_create.cpp, the director's steps tournament_director.cpp, the views
// tournament_view.cpp.
#include "tournament_room/tournament_room.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>

#include "storage/store_error.hpp"
#include "storage/tournament_store.hpp"

namespace duelhall::server {
namespace {

constexpr size_t kMaxSetupBytes = 16 * 1024;
constexpr size_t kMaxSetups = 2;  // one per side a player may be seated on
constexpr size_t kRecentKept = 64;

ResultCode code_of(tournaments::Refusal refusal) {
  using tournaments::Refusal;
  switch (refusal) {
    case Refusal::kOk: return OK;
    case Refusal::kAlreadyJoined: return ALREADY_REGISTERED;
    case Refusal::kFull: return TOURNAMENT_FULL;
    case Refusal::kStarted: return TOURNAMENT_CLOSED;
    case Refusal::kUnknownPlayer:
    case Refusal::kAlreadyLeft: return NOT_REGISTERED;
    case Refusal::kFinished: return TOURNAMENT_OVER;
    default: return BAD_PARAMETERS;
  }
}

Handled refused(tournaments::Refusal refusal, const char* what) {
  return Handled::fail(code_of(refusal),
                       std::string(what) + ": " + tournaments::refusal_name(refusal));
}

}  // namespace

TournamentRoom::TournamentRoom(TournamentHost& host) : host_(host) {}

int64_t TournamentRoom::now_ms() const {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

void TournamentRoom::start() {
  storage::TournamentStore* store = host_.tournament_store();
  if (host_.cluster()) {
    // Which tournaments this node directs is the leases' to say (the first tick asks).
    start_cluster();
  } else if (store) {
    std::lock_guard lock(mutex_);
    try {
      for (const storage::TournamentRecord& record : store->open_tournaments()) {
        Tournament t;
        if (!decode(record.state, static_cast<uint64_t>(record.id), t)) {
          spdlog::error("tournament {}: its stored state cannot be read; left as it is", record.id);
          continue;
        }
        for (const GameNote& game : t.games) {
          if (game.match_id != 0 && !game.done()) by_match_[game.match_id] = {t.id, game.key};
        }
        spdlog::info("tournament {} ({}) resumed", t.id, t.settings.name());
        open_.emplace(t.id, std::move(t));
      }
    } catch (const std::exception& e) {
      spdlog::error("tournaments could not be read from the store: {}", e.what());
    }
  }
  arm_timer();
}

void TournamentRoom::stop() {
  std::lock_guard lock(mutex_);
  stopped_ = true;
  if (timer_) timer_->cancel();
}

void TournamentRoom::arm_timer() {
  if (!timer_) timer_ = std::make_unique<boost::asio::steady_timer>(host_.io());
  timer_->expires_after(std::chrono::seconds(1));
  timer_->async_wait([weak = weak_from_this()](boost::system::error_code ec) {
    auto self = weak.lock();
    if (ec || !self) return;
    self->tick(self->now_ms());
    std::lock_guard lock(self->mutex_);
    if (!self->stopped_) self->arm_timer();
  });
}

Tournament* TournamentRoom::find(uint64_t id) {
  if (auto it = open_.find(id); it != open_.end()) return &it->second;
  if (auto it = recent_.find(id); it != recent_.end()) return &it->second;
  if (auto it = elsewhere_.find(id); it != elsewhere_.end()) return &it->second;
  storage::TournamentStore* store = host_.tournament_store();
  if (!store) return nullptr;
  std::optional<storage::TournamentRecord> record;
  try {
    record = store->find_tournament(static_cast<int64_t>(id));
  } catch (const std::exception& e) {
    spdlog::warn("tournament {} could not be read: {}", id, e.what());
  }
  return record ? keep_past(*record) : nullptr;
}

Tournament* TournamentRoom::keep_past(const storage::TournamentRecord& record) {
  const auto id = static_cast<uint64_t>(record.id);
  if (auto it = recent_.find(id); it != recent_.end()) return &it->second;
  Tournament t;
  if (record.status < TOURNAMENT_FINISHED || !decode(record.state, id, t)) return nullptr;
  if (recent_.size() >= kRecentKept) recent_.erase(recent_.begin());
  return &recent_.emplace(id, std::move(t)).first->second;
}

Handled TournamentRoom::list(Call& call, const ListTournaments& request) {
  *call.reply.mutable_tournaments() = listing(request.limit());
  return Handled::ok();
}

TournamentList TournamentRoom::listing(uint32_t limit) {
  limit = limit == 0 ? 20 : std::min<uint32_t>(limit, 100);
  TournamentList out;
  std::lock_guard lock(mutex_);
  for (const auto& [id, t] : open_) {
    if (out.tournaments_size() >= static_cast<int>(limit)) return out;
    fill_summary(t, *out.add_tournaments());
  }
  for (const auto& [id, t] : elsewhere_) {  // another node's, as last read from the store
    if (open_.contains(id)) continue;
    if (out.tournaments_size() >= static_cast<int>(limit)) return out;
    fill_summary(t, *out.add_tournaments());
  }
  std::vector<storage::TournamentRecord> past;
  if (storage::TournamentStore* store = host_.tournament_store()) {
    try {
      past = store->past_tournaments(limit - static_cast<uint32_t>(out.tournaments_size()));
    } catch (const std::exception& e) {
      spdlog::warn("past tournaments could not be read: {}", e.what());
    }
    for (const storage::TournamentRecord& record : past) {
      if (Tournament* t = keep_past(record)) fill_summary(*t, *out.add_tournaments());
    }
  } else {
    for (auto it = recent_.rbegin(); it != recent_.rend(); ++it) {
      if (out.tournaments_size() >= static_cast<int>(limit)) break;
      fill_summary(it->second, *out.add_tournaments());
    }
  }
  return out;
}

std::optional<TournamentDetail> TournamentRoom::detail(uint64_t id) {
  std::lock_guard lock(mutex_);
  Tournament* t = find(id);
  if (!t) return std::nullopt;
  TournamentDetail out;
  fill_detail(*t, 0, out);
  return out;
}

Handled TournamentRoom::get(Call& call, const GetTournament& request) {
  const int64_t viewer = call.state.player ? call.state.player->account().id : 0;
  std::lock_guard lock(mutex_);
  if (auto moved = directed_elsewhere(call, request.id())) return *moved;
  Tournament* t = find(request.id());
  if (!t) return Handled::fail(UNKNOWN_TOURNAMENT, "no such tournament");
  fill_detail(*t, viewer, *call.reply.mutable_tournament());
  if (request.watch()) {
    watchers_[call.peer->peer_id()] = Watcher{call.peer, viewer, t->id};
  } else {
    watchers_.erase(call.peer->peer_id());
  }
  return Handled::ok();
}

Handled TournamentRoom::join(Call& call, const JoinTournament& request) {
  const std::shared_ptr<Player>& player = call.state.player;
  if (!player || !player->registered()) {
    return Handled::fail(SIGN_IN_REQUIRED, "sign in to play in a tournament");
  }
  if (request.seat_options_size() > static_cast<int>(kMaxSetups)) {
    return Handled::fail(BAD_PARAMETERS, "at most one setup for each side");
  }
  for (const std::string& setup : request.seat_options()) {
    if (setup.size() > kMaxSetupBytes) return Handled::fail(FIELD_TOO_LONG, "a setup is too long");
  }
  const int64_t account = player->account().id;
  const int64_t now = now_ms();
  After after;
  {
    std::lock_guard lock(mutex_);
    if (auto moved = directed_elsewhere(call, request.id())) return *moved;
    Tournament* t = find(request.id());
    if (!t) return Handled::fail(UNKNOWN_TOURNAMENT, "no such tournament");
    if (!t->open()) return Handled::fail(TOURNAMENT_CLOSED, "this tournament is over");
    if (t->status != TOURNAMENT_REGISTERING && t->format->kind() != tournaments::FormatKind::kArena) {
      return Handled::fail(TOURNAMENT_CLOSED, "registration closed at the start");
    }
    Entrant entrant{account, player->name(), 1500,
                    {request.seat_options().begin(), request.seat_options().end()}};
    if (auto problem = setups_problem(*t, entrant.setups)) {
      return Handled::fail(BAD_PARAMETERS, *problem);
    }
    entrant.rating = host_.rating_of(account, t->settings.ruleset());
    const tournaments::Refusal refusal = t->format->join(account, entrant.rating, now);
    if (refusal != tournaments::Refusal::kOk) return refused(refusal, "cannot join");
    t->entrants.push_back(std::move(entrant));
    if (t->status == TOURNAMENT_RUNNING) step(*t, now, after);
    save(*t);
    fill_detail(*t, account, *call.reply.mutable_tournament());
    after.changed.push_back(t->id);
  }
  carry_out(std::move(after));
  return Handled::ok();
}

Handled TournamentRoom::withdraw(Call& call, const WithdrawTournament& request) {
  const std::shared_ptr<Player>& player = call.state.player;
  if (!player || !player->registered()) return Handled::fail(NOT_REGISTERED, "not registered");
  const int64_t account = player->account().id;
  After after;
  {
    std::lock_guard lock(mutex_);
    if (auto moved = directed_elsewhere(call, request.id())) return *moved;
    Tournament* t = find(request.id());
    if (!t) return Handled::fail(UNKNOWN_TOURNAMENT, "no such tournament");
    if (!t->open()) return Handled::fail(TOURNAMENT_OVER, "this tournament is over");
    const tournaments::Refusal refusal = leave(*t, account, false, now_ms(), after);
    if (refusal != tournaments::Refusal::kOk) return refused(refusal, "cannot withdraw");
    fill_detail(*t, account, *call.reply.mutable_tournament());
  }
  carry_out(std::move(after));
  return Handled::ok();
}

Handled TournamentRoom::disqualify(Call& call, const DisqualifyEntrant& request) {
  if (!host_.directs_tournaments(call.state)) {
    return Handled::fail(NOT_MODERATOR, "only a moderator may disqualify");
  }
  if (request.reason().size() > 500) return Handled::fail(FIELD_TOO_LONG, "the reason is too long");
  const int64_t viewer = call.state.player ? call.state.player->account().id : 0;
  After after;
  {
    std::lock_guard lock(mutex_);
    if (auto moved = directed_elsewhere(call, request.id())) return *moved;
    Tournament* t = find(request.id());
    if (!t) return Handled::fail(UNKNOWN_TOURNAMENT, "no such tournament");
    if (!t->open()) return Handled::fail(TOURNAMENT_OVER, "this tournament is over");
    const Entrant* named = nullptr;
    for (const Entrant& e : t->entrants) {
      if (e.name == request.name()) named = &e;
    }
    if (!named) return Handled::fail(NOT_REGISTERED, "nobody of that name is registered");
    spdlog::info("tournament {}: {} disqualified by {}: {}", t->id, named->name,
                 call.state.player ? call.state.player->name() : "?", request.reason());
    const tournaments::Refusal refusal = leave(*t, named->account, true, now_ms(), after);
    if (refusal != tournaments::Refusal::kOk) return refused(refusal, "cannot disqualify");
    fill_detail(*t, viewer, *call.reply.mutable_tournament());
  }
  carry_out(std::move(after));
  return Handled::ok();
}

void TournamentRoom::with_ruleset(uint64_t id,
                                  const std::function<void(const std::string&)>& use) {
  std::string ruleset;
  {
    std::lock_guard lock(mutex_);
    Tournament* t = find(id);
    if (!t) return;
    ruleset = t->settings.ruleset();
  }
  use(ruleset);
}

void TournamentRoom::disconnected(uint64_t peer_id) {
  std::lock_guard lock(mutex_);
  watchers_.erase(peer_id);
}

void TournamentRoom::match_ended(uint64_t match_id, uint64_t winners, bool aborted) {
  {
    std::lock_guard lock(mutex_);
    // Not one of this node's tournaments: in a cluster it may be another node's (a match adopted
    // after its node died), which is told.
    if (!by_match_.contains(match_id)) {
      if (host_.cluster()) {
        remember_end(match_id, winners, aborted);
        tell_match_end(match_id, winners, aborted);
      }
      return;
    }
  }
  apply_match_end(match_id, winners, aborted);
}

void TournamentRoom::apply_match_end(uint64_t match_id, uint64_t winners, bool aborted) {
  After after;
  {
    std::lock_guard lock(mutex_);
    const auto it = by_match_.find(match_id);
    if (it == by_match_.end()) return;
    const auto [id, key] = it->second;
    by_match_.erase(it);
    const auto open = open_.find(id);
    if (open == open_.end()) return;
    Tournament& t = open->second;
    GameNote* game = t.note(key);
    if (!game || game->done()) return;
    // Winners share first place and the rest share the place after them; no winner (a draw, an
    // abort) ties everyone first.
    size_t first = 0;
    for (size_t s = 0; s < game->seats.size(); ++s) first += (winners >> s) & 1;
    std::vector<uint8_t> places(game->seats.size(), 1);
    if (!aborted && first != 0) {
      for (size_t s = 0; s < game->seats.size(); ++s) {
        if (!((winners >> s) & 1)) places[s] = static_cast<uint8_t>(first + 1);
      }
    }
    if (game->reversed) std::reverse(places.begin(), places.end());  // the bot sat last
    record(t, *game, std::move(places), false, after);
    step(t, now_ms(), after);
  }
  carry_out(std::move(after));
}

void TournamentRoom::tick(int64_t now) {
  if (host_.cluster()) renew_leases(now);
  After after;
  {
    std::lock_guard lock(mutex_);
    for (auto& [id, t] : open_) step(t, now, after);
    for (auto it = open_.begin(); it != open_.end();) {
      if (it->second.open()) {
        ++it;
        continue;
      }
      if (recent_.size() >= kRecentKept) recent_.erase(recent_.begin());
      recent_.insert_or_assign(it->first, std::move(it->second));
      it = open_.erase(it);
    }
  }
  carry_out(std::move(after));
}

}  // namespace duelhall::server
