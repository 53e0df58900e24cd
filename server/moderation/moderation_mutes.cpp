// Mutes and kicks' holds (docs/moderation.md). An account's mute is stored; the same mute also
// holds the player and the address it was given on, in memory, so that signing out, or coming
// back from that address as a new guest, does not lift it.
#include "moderation/moderation_service.hpp"

namespace duelhall::accounts {

void ModerationService::mute(const std::string& actor, const MuteKey& key,
                             const std::string& target, uint32_t seconds, const std::string& reason,
                             const std::vector<MuteKey>& connections) {
  storage::MuteRecord mute{key.account, reason, actor, now_(), expiry(seconds)};
  if (key.account != 0) store_.set_mute(mute);
  audit(actor, "mute", target, reason, mute.expires_ms);
  const HeldMute held{mute, key.account, key.player};
  const int64_t now = now_();
  const auto lapsed = [now](const auto& entry) {
    return !in_force(entry.second.record.expires_ms, now);
  };
  std::lock_guard lock(mutex_);
  std::erase_if(player_mutes_, lapsed);
  std::erase_if(address_mutes_, lapsed);
  if (key.account != 0) account_mutes_[key.account] = mute;
  for (const MuteKey& where : connections) {
    if (where.player != 0) player_mutes_[where.player] = {mute, key.account, key.player};
    if (!where.address.empty()) address_mutes_[where.address] = {mute, key.account, key.player};
  }
  if (key.player != 0) player_mutes_[key.player] = held;
  if (!key.address.empty()) address_mutes_[key.address] = held;
}

bool ModerationService::unmute(const std::string& actor, const MuteKey& key,
                               const std::string& target) {
  bool was = false;
  if (key.account != 0) was = store_.clear_mute(key.account);
  {
    std::lock_guard lock(mutex_);
    if (key.account != 0) account_mutes_.erase(key.account);
    const auto given_to_key = [&](const auto& entry) {
      const HeldMute& held = entry.second;
      return (key.account != 0 && held.account == key.account) ||
             (key.player != 0 && held.player == key.player);
    };
    was = std::erase_if(player_mutes_, given_to_key) > 0 || was;
    was = std::erase_if(address_mutes_, given_to_key) > 0 || was;
    if (!key.address.empty()) was = address_mutes_.erase(key.address) > 0 || was;
  }
  if (was) audit(actor, "unmute", target, "");
  return was;
}

std::optional<int64_t> ModerationService::muted_until(const MuteKey& key) {
  if (auto m = muted(key)) return m->expires_ms;
  return std::nullopt;
}

bool ModerationService::muted_locked(const MuteKey& key, int64_t now, storage::MuteRecord& out) {
  const storage::MuteRecord* found = nullptr;
  const auto consider = [&](const storage::MuteRecord& mute) {
    if (!in_force(mute.expires_ms, now)) return;
    if (!found || mute.expires_ms == 0 ||
        (found->expires_ms != 0 && mute.expires_ms > found->expires_ms)) {
      found = &mute;
    }
  };
  if (key.account != 0) {
    if (auto it = account_mutes_.find(key.account); it != account_mutes_.end()) {
      consider(it->second);
    }
  }
  if (key.player != 0) {
    if (auto it = player_mutes_.find(key.player); it != player_mutes_.end()) {
      consider(it->second.record);
    }
  }
  if (!key.address.empty()) {
    if (auto it = address_mutes_.find(key.address); it != address_mutes_.end()) {
      consider(it->second.record);
    }
  }
  if (!found) return false;
  out = *found;
  return true;
}

std::optional<Sanction> ModerationService::muted(const MuteKey& key) {
  const int64_t now = now_();
  std::lock_guard lock(mutex_);
  storage::MuteRecord mute;
  if (!muted_locked(key, now, mute)) return std::nullopt;
  return Sanction{"mute", mute.reason, mute.expires_ms};
}

void ModerationService::hold_out(AccountId account, const std::string& address, uint32_t seconds,
                                 const std::string& reason) {
  if (seconds == 0) return;
  const int64_t now = now_();
  const Sanction hold{"kick", reason, now + int64_t{seconds} * 1000};
  const auto lapsed = [now](const auto& entry) { return !in_force(entry.second.expires_ms, now); };
  std::lock_guard lock(mutex_);
  std::erase_if(account_holds_, lapsed);
  std::erase_if(address_holds_, lapsed);
  if (account != 0) account_holds_[account] = hold;
  if (!address.empty()) address_holds_[address] = hold;
}

}  // namespace duelhall::accounts

namespace duelhall::accounts {

std::optional<Sanction> ModerationService::address_hold(const std::string& address) {
  const int64_t now = now_();
  std::lock_guard lock(mutex_);
  auto hold = address_holds_.find(address);
  if (hold == address_holds_.end() || !in_force(hold->second.expires_ms, now)) return std::nullopt;
  return hold->second;
}

}  // namespace duelhall::accounts
