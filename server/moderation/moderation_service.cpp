#include "moderation/moderation_service.hpp"

#include <algorithm>
#include <ctime>

#include "accounts/address_prefix.hpp"

namespace duelhall::accounts {
namespace {

std::string utc_time(int64_t ms) {
  const std::time_t seconds = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%d %H:%M:%S UTC", &tm);
  return text;
}

// Of two sanctions in force, the one that lasts longer.
bool outlasts(int64_t a, int64_t b) {
  if (a == 0) return b != 0;
  return b != 0 && a > b;
}

}  // namespace

std::optional<Role> parse_role(std::string_view text) {
  if (text == "admin") return Role::kAdmin;
  if (text == "moderator") return Role::kModerator;
  if (text.empty() || text == "none") return Role::kNone;
  return std::nullopt;
}

const char* role_name(Role role) {
  switch (role) {
    case Role::kAdmin:
      return "admin";
    case Role::kModerator:
      return "moderator";
    case Role::kNone:
      break;
  }
  return "";
}

unsigned min_ban_prefix(Role role, bool ipv4) {
  if (role >= Role::kAdmin) return ipv4 ? 8 : 16;
  return ipv4 ? 16 : 32;
}

std::string describe(const Sanction& s) {
  const std::string what = s.kind == "ban"    ? "banned"
                           : s.kind == "mute" ? "muted"
                           : s.kind == "kick" ? "kicked and held out"
                                              : s.kind;
  const std::string when = s.expires_ms == 0 ? "for good" : "until " + utc_time(s.expires_ms);
  return what + " " + when + (s.reason.empty() ? "" : ": " + s.reason);
}

ModerationService::ModerationService(AccountService& accounts, storage::ModerationStore& store,
                                     Clock now_ms)
    : accounts_(accounts), store_(store), now_(std::move(now_ms)) {
  reload();
}

void ModerationService::reload() {
  const int64_t now = now_();
  auto bans = store_.active_bans(now);
  std::map<AccountId, storage::MuteRecord> mutes;
  for (auto& mute : store_.active_mutes(now)) mutes[mute.account] = std::move(mute);
  std::lock_guard lock(mutex_);
  bans_ = std::move(bans);
  account_mutes_ = std::move(mutes);
  loaded_ms_ = now;
}

void ModerationService::reload_if_stale() {
  {
    std::lock_guard lock(mutex_);
    if (now_() - loaded_ms_ < kReloadMs) return;
  }
  reload();
}

Role ModerationService::role_named(const std::string& name) {
  const auto account = accounts_.find(name);
  if (!account || account->guest) return Role::kNone;
  return role(account->id);
}

int64_t ModerationService::expiry(uint32_t seconds) const {
  return seconds == 0 ? 0 : now_() + int64_t{seconds} * 1000;
}

Role ModerationService::role(AccountId id) {
  if (id == 0) return Role::kNone;
  const auto account = accounts_.store().find_account(id);
  if (!account || account->deleted || account->guest) return Role::kNone;
  return parse_role(account->role).value_or(Role::kNone);
}

Answer ModerationService::set_role(const std::string& actor, const std::string& name, Role role) {
  const auto account = accounts_.find(name);
  if (!account || account->guest) return Answer::fail(UNKNOWN_TARGET, "no account named " + name);
  accounts_.store().set_role(account->id, role_name(role));
  audit(actor, "role", account->name, role == Role::kNone ? "no role" : role_name(role));
  return {};
}

std::optional<Sanction> ModerationService::address_ban(const std::string& address) {
  reload_if_stale();
  const int64_t now = now_();
  std::optional<Sanction> found;
  std::lock_guard lock(mutex_);
  for (const auto& ban : bans_) {
    if (ban.address.empty() || !in_force(ban.expires_ms, now)) continue;
    const auto prefix = AddressPrefix::parse(ban.address);
    if (!prefix || !prefix->contains(address)) continue;
    if (!found || outlasts(ban.expires_ms, found->expires_ms)) {
      found = Sanction{"ban", ban.reason, ban.expires_ms};
    }
  }
  return found;
}

std::optional<Sanction> ModerationService::account_ban(AccountId id) {
  if (id == 0) return std::nullopt;
  reload_if_stale();
  const int64_t now = now_();
  std::optional<Sanction> found;
  std::lock_guard lock(mutex_);
  if (auto hold = account_holds_.find(id);
      hold != account_holds_.end() && in_force(hold->second.expires_ms, now)) {
    found = hold->second;
  }
  for (const auto& ban : bans_) {
    if (ban.account != id || !in_force(ban.expires_ms, now)) continue;
    if (!found || outlasts(ban.expires_ms, found->expires_ms)) {
      found = Sanction{"ban", ban.reason, ban.expires_ms};
    }
  }
  return found;
}

storage::BanRecord ModerationService::ban_account(const std::string& actor,
                                                  const AccountView& target, uint32_t seconds,
                                                  const std::string& reason) {
  storage::BanRecord ban;
  ban.account = target.id;
  ban.account_name = target.guest ? "guest #" + std::to_string(target.id) : target.name;
  ban.reason = reason;
  ban.by = actor;
  ban.created_ms = now_();
  ban.expires_ms = expiry(seconds);
  ban.id = store_.add_ban(ban);
  audit(actor, "ban", ban.account_name, reason, ban.expires_ms);
  std::lock_guard lock(mutex_);
  bans_.push_back(ban);
  return ban;
}

storage::BanRecord ModerationService::ban_address(const std::string& actor,
                                                  const std::string& prefix, uint32_t seconds,
                                                  const std::string& reason) {
  storage::BanRecord ban;
  ban.address = prefix;
  ban.reason = reason;
  ban.by = actor;
  ban.created_ms = now_();
  ban.expires_ms = expiry(seconds);
  ban.id = store_.add_ban(ban);
  audit(actor, "ban", prefix, reason, ban.expires_ms);
  std::lock_guard lock(mutex_);
  bans_.push_back(ban);
  return ban;
}

UnbanOutcome ModerationService::unban(const std::string& actor, Role actor_role, int64_t ban_id) {
  std::optional<storage::BanRecord> ban;
  {
    std::lock_guard lock(mutex_);
    auto it =
        std::find_if(bans_.begin(), bans_.end(), [&](const auto& b) { return b.id == ban_id; });
    if (it != bans_.end()) ban = *it;
  }
  if (ban && role_named(ban->by) > actor_role) return UnbanOutcome::kProtected;
  if (!store_.lift_ban(ban_id, now_())) return UnbanOutcome::kNoSuchBan;
  {
    std::lock_guard lock(mutex_);
    std::erase_if(bans_, [&](const auto& b) { return b.id == ban_id; });
  }
  const std::string target = !ban                   ? "ban #" + std::to_string(ban_id)
                             : ban->address.empty() ? ban->account_name
                                                    : ban->address;
  audit(actor, "unban", target, "");
  return UnbanOutcome::kLifted;
}

std::vector<int64_t> ModerationService::bans_on(const std::string& target) {
  const auto prefix = AddressPrefix::parse(target);
  std::vector<int64_t> ids;
  for (const auto& ban : bans()) {
    const bool named =
        ban.address.empty() ? ban.account_name == target : prefix && ban.address == prefix->text();
    if (named) ids.push_back(ban.id);
  }
  return ids;
}

std::vector<storage::BanRecord> ModerationService::bans() {
  const int64_t now = now_();
  std::lock_guard lock(mutex_);
  std::erase_if(bans_, [&](const auto& b) { return !in_force(b.expires_ms, now); });
  return bans_;
}

void ModerationService::audit(const std::string& actor, const std::string& action,
                              const std::string& target, const std::string& reason,
                              int64_t expires_ms) {
  store_.add_audit({0, actor, action, target, reason, now_(), expires_ms});
}

}  // namespace duelhall::accounts
