#include "accounts/account_service.hpp"

#include <variant>

#include "accounts/credentials.hpp"
#include "fairness/secure_random.hpp"
#include "storage/match_store.hpp"

namespace duelhall::accounts {
namespace {

constexpr int64_t kDayMs = 24LL * 3600 * 1000;

std::string address_key(const std::string& address) {
  return "address:" + limit_key_of_address(address);
}

bool is_hex(std::string_view text) {
  for (char c : text) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

}  // namespace

std::string session_hash(std::string_view token) {
  return storage::token_hash(token);
}

std::string to_hex(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out += kDigits[c >> 4];
    out += kDigits[c & 15];
  }
  return out;
}

AccountService::AccountService(storage::AccountStore& store, AccountsConfig config, Clock now_ms)
    : store_(store), config_(config), now_(std::move(now_ms)), limits_(config) {
  if (!sodium_ready()) throw std::runtime_error("libsodium cannot be initialised");
}

std::optional<Answer> AccountService::check_new_password(std::string_view password) {
  if (password.size() > kMaxFieldBytes) return Answer::fail(FIELD_TOO_LONG, "password too long");
  if (auto problem = password_problem(password)) return Answer::fail(WEAK_PASSWORD, *problem);
  return std::nullopt;
}

SessionGrant AccountService::open_session(const AccountView& account) {
  SessionGrant out;
  out.account = account;
  out.session_token = fairness::new_reconnect_token();
  out.session_hash = storage::token_hash(out.session_token);
  const int64_t now = now_();
  out.expires_ms = now + int64_t{config_.session_days} * kDayMs;
  store_.add_session(out.session_hash, account.id, now, out.expires_ms);
  return out;
}

SessionGrant AccountService::register_account(std::string_view name, std::string_view password,
                                              const std::string& address,
                                              std::optional<AccountId> guest) {
  SessionGrant out;
  if (name.size() > kMaxFieldBytes) {
    out.answer = Answer::fail(FIELD_TOO_LONG, "name too long");
    return out;
  }
  if (auto problem = name_problem(name)) {
    out.answer = Answer::fail(BAD_ACCOUNT_NAME, *problem);
    return out;
  }
  if (auto refused = check_new_password(password)) {
    out.answer = *refused;
    return out;
  }
  const int64_t now = now_();
  // Counted before the name is looked up: a Register of a taken name counts too.
  if (auto refused = limits_.count_registration(address, now)) {
    out.answer = *refused;
    return out;
  }
  if (auto refused = limits_.probes_refused(address, now)) {
    out.answer = *refused;
    return out;
  }
  const std::string key = name_key(name);
  if (store_.find_by_key(key)) {
    limits_.name_taken(address, now);
    out.answer = Answer::fail(NAME_TAKEN, "the name is taken (names differ by more than case)");
    return out;
  }
  const std::string hash = hash_password(password);
  std::optional<AccountId> id;
  if (guest) {
    if (store_.promote_guest(*guest, name, key, hash)) id = *guest;
  } else {
    id = store_.create_account(name, key, hash, now);
  }
  if (!id) {
    out.answer = Answer::fail(NAME_TAKEN, "the name is taken (names differ by more than case)");
    return out;
  }
  return open_session(AccountView{*id, std::string(name), false});
}

SessionGrant AccountService::sign_in(std::string_view name, std::string_view password,
                                     const std::string& address) {
  SessionGrant out;
  if (name.size() > kMaxFieldBytes || password.size() > kMaxFieldBytes) {
    out.answer = Answer::fail(FIELD_TOO_LONG, "name or password too long");
    return out;
  }
  const int64_t now = now_();
  if (auto refused = limits_.address_refused(address, now)) {
    out.answer = *refused;
    return out;
  }
  if (auto refused = limits_.count_hash(address_key(address), now)) {
    out.answer = *refused;  // counted whatever the outcome: each costs a hash
    return out;
  }
  auto account = store_.find_by_key(name_key(name));
  if (!account || account->deleted || account->guest) {
    limits_.unknown_name(address, now);
    out.answer = Answer::fail(UNKNOWN_ACCOUNT, "no account with that name");
    return out;
  }
  auto check = limits_.begin_check(name_key(name), address, now);
  if (auto* refused = std::get_if<Answer>(&check)) {
    out.answer = *refused;
    return out;
  }
  const auto& counted = std::get<AccountLimits::Check>(check);
  if (!verify_password(password, account->password_hash)) {
    out.answer = limits_.check_failed(counted, now);
    return out;
  }
  limits_.check_passed(counted);
  return open_session(AccountView{account->id, account->name, false});
}

void AccountService::sign_out(std::string_view session_hash) {
  if (!session_hash.empty()) store_.revoke_session(session_hash);
}

Answer AccountService::change_password(AccountId id, std::string_view old_password,
                                       std::string_view new_password,
                                       std::string_view keep_session_hash,
                                       const std::string& address) {
  if (old_password.size() > kMaxFieldBytes) return Answer::fail(FIELD_TOO_LONG, "too long");
  if (auto refused = check_new_password(new_password)) return *refused;
  if (same_secret(old_password, new_password)) {
    return Answer::fail(WEAK_PASSWORD, "the new password is the old one");
  }
  if (auto refused = confirm_owner(id, old_password, address)) return *refused;
  store_.set_password(id, hash_password(new_password));
  store_.revoke_sessions(id, keep_session_hash);
  return {};
}

Answer AccountService::delete_account(AccountId id, std::string_view password,
                                      const std::string& address) {
  if (password.size() > kMaxFieldBytes) return Answer::fail(FIELD_TOO_LONG, "too long");
  if (auto refused = confirm_owner(id, password, address)) return *refused;
  store_.delete_account(id, now_());
  return {};
}

std::optional<Answer> AccountService::confirm_owner(AccountId id, std::string_view password,
                                                    const std::string& address) {
  auto account = store_.find_account(id);
  if (!account || account->guest || account->deleted) {
    return Answer::fail(SIGN_IN_REQUIRED, "sign in to an account first");
  }
  const int64_t now = now_();
  // Each check costs a hash: counted per address and per account, whatever the outcome.
  if (auto refused = limits_.count_hash(address_key(address), now)) return refused;
  if (auto refused = limits_.count_hash("account:" + std::to_string(id), now)) return refused;
  auto check = limits_.begin_check(name_key(account->name), address, now);
  if (auto* refused = std::get_if<Answer>(&check)) return *refused;
  const auto& counted = std::get<AccountLimits::Check>(check);
  if (!verify_password(password, account->password_hash)) {
    return limits_.check_failed(counted, now);  // a guessed password counts as a failed sign-in
  }
  limits_.check_passed(counted);
  return std::nullopt;
}

std::optional<AccountView> AccountService::from_session(std::string_view token) {
  if (token.empty() || token.size() > kMaxFieldBytes) return std::nullopt;
  auto id = store_.session_account(storage::token_hash(token), now_());
  if (!id) return std::nullopt;
  return find(*id);
}

std::optional<AccountView> AccountService::guest(std::string_view guest_token,
                                                 const std::string& address) {
  if (guest_token.size() != 64 || !is_hex(guest_token)) return std::nullopt;
  const std::string hash = storage::token_hash(guest_token);
  std::optional<AccountId> id = store_.find_guest(hash);
  if (!id) {
    if (!limits_.new_guest(address, now_())) return std::nullopt;
    id = store_.guest_account(hash, now_());
  }
  auto view = find(*id);
  // A guest token whose account has since registered or been deleted is no guest's any more.
  if (!view || !view->guest) return std::nullopt;
  return view;
}

size_t AccountService::expire_guests() {
  const int64_t cutoff = now_() - int64_t{config_.guest_days} * kDayMs;
  return store_.delete_unused_guests(cutoff);
}

std::optional<Answer> AccountService::guest_name_refused(std::string_view name,
                                                         const std::string& address) {
  if (name.size() > kMaxFieldBytes) return std::nullopt;
  const int64_t now = now_();
  if (auto refused = limits_.probes_refused(address, now)) return refused;
  if (!find(name)) return std::nullopt;
  limits_.name_taken(address, now);
  return Answer::fail(BAD_NAME, "that name belongs to an account: sign in, or choose another name");
}

std::optional<AccountView> AccountService::find(std::string_view name) {
  if (name.size() > kMaxFieldBytes) return std::nullopt;
  auto account = store_.find_by_key(name_key(name));
  if (!account || account->deleted || account->guest) return std::nullopt;
  return AccountView{account->id, account->name, false};
}

std::optional<AccountView> AccountService::find(AccountId id) {
  auto account = store_.find_account(id);
  if (!account || account->deleted) return std::nullopt;
  return AccountView{account->id, account->name, account->guest};
}

glicko2::Rating AccountService::current(AccountId id, std::string_view ruleset, int64_t now,
                                        int64_t* games) {
  auto stored = store_.rating(id, ruleset);
  *games = stored ? stored->games : 0;
  if (!stored) return {};
  glicko2::Rating r{stored->rating, stored->deviation, stored->volatility};
  const int64_t period_ms = int64_t{config_.rating_period_hours} * 3600 * 1000;
  if (period_ms <= 0 || now <= stored->updated_ms) return r;
  const int64_t idle_periods = (now - stored->updated_ms) / period_ms;
  return glicko2::idle(r, static_cast<double>(idle_periods), {config_.tau});
}

double score_against(uint64_t winners, int seat, int opponent) {
  // Arithmetic, not `won == lost ? 0.5 : (won ? 1.0 : 0.0)`: GCC 12 at -O1 with
  // -fsanitize=thread compiles that conditional wrongly (a mask of 0b01 scored as a draw for
  // seats 0 and 1), which rated every forfeit in the ThreadSanitizer build as a draw.
  const auto won = [winners](int s) {
    return s >= 0 && s < 64 ? static_cast<int>((winners >> s) & 1U) : 0;
  };
  return 0.5 + 0.5 * static_cast<double>(won(seat) - won(opponent));
}

std::vector<RatingChange> AccountService::rate_match(int64_t match_id, std::string_view ruleset,
                                                     uint64_t winners) {
  bool rated = false;
  auto seats = store_.match_seats(match_id, &rated);
  if (!rated || seats.size() != 2 || seats[0].account == seats[1].account) return {};
  for (const auto& s : seats) {
    auto account = store_.find_account(s.account);
    if (!account || account->guest || account->deleted) return {};
  }
  const int64_t now = now_();
  std::vector<RatingChange> changes(2);
  int64_t games[2] = {0, 0};
  for (int i = 0; i < 2; ++i) {
    changes[i].seat = seats[i].seat;
    changes[i].account = seats[i].account;
    changes[i].before = current(seats[i].account, ruleset, now, &games[i]);
  }
  const double score0 = score_against(winners, seats[0].seat, seats[1].seat);
  const glicko2::Settings settings{config_.tau};
  const glicko2::Game game0{changes[1].before, score0};
  const glicko2::Game game1{changes[0].before, 1.0 - score0};
  changes[0].after = glicko2::update(changes[0].before, std::span(&game0, 1), settings);
  changes[1].after = glicko2::update(changes[1].before, std::span(&game1, 1), settings);
  std::vector<storage::SeatAccount> seat_rows;
  std::vector<std::pair<AccountId, storage::RatingRecord>> rows;
  for (int i = 0; i < 2; ++i) {
    RatingChange& c = changes[i];
    c.provisional = provisional(c.after.deviation);
    seat_rows.push_back({c.seat, c.account, c.before.rating, c.after.rating, c.after.deviation});
    rows.emplace_back(c.account,
                      storage::RatingRecord{std::string(ruleset), c.after.rating, c.after.deviation,
                                            c.after.volatility, games[i] + 1, now});
  }
  if (!store_.apply_ratings(match_id, ruleset, seat_rows, rows)) return {};
  return changes;
}

}  // namespace duelhall::accounts
