// PostgresAccountStore: the AccountStore in the PostgreSQL database the match store uses (its
// history and deletion read the matches' tables), on a connection of its own.
#pragma once

#include <memory>
#include <mutex>
#include <string>

#include "storage/account_store.hpp"
#include "storage/deck_store.hpp"
#include "storage/tournament_store.hpp"
#include "storage/moderation_store.hpp"
#include "storage/postgres/pg.hpp"

namespace duelhall::storage {

// It also keeps the moderation's data (ModerationStore, postgres_moderation_store.cpp) and the
// saved decks (DeckStore, postgres_deck_store.cpp) on the same connection, as SqliteAccountStore
// does.
class PostgresAccountStore final : public AccountStore, public ModerationStore, public DeckStore,
                                   public TournamentStore {
 public:
  // Connects and brings the schema up to date; throws StoreError with a clear reason.
  explicit PostgresAccountStore(const std::string& url);
  ~PostgresAccountStore() override;

  std::optional<AccountId> create_account(std::string_view name, std::string_view name_key,
                                          std::string_view password_hash, int64_t now_ms) override;
  AccountId guest_account(std::string_view guest_hash, int64_t now_ms) override;
  std::optional<AccountId> find_guest(std::string_view guest_hash) override;
  size_t delete_unused_guests(int64_t created_before_ms) override;
  bool promote_guest(AccountId guest, std::string_view name, std::string_view name_key,
                     std::string_view password_hash) override;
  std::optional<AccountRecord> find_account(AccountId id) override;
  std::optional<AccountRecord> find_by_key(std::string_view name_key) override;
  std::vector<NamedAccount> named_accounts() override;
  bool set_name_key(AccountId id, std::string_view name_key) override;
  void set_password(AccountId id, std::string_view password_hash) override;
  void delete_account(AccountId id, int64_t now_ms) override;
  void set_role(AccountId id, std::string_view role) override;
  std::vector<AccountRecord> staff() override;

  void add_session(std::string_view token_hash, AccountId id, int64_t now_ms,
                   int64_t expires_ms) override;
  std::optional<AccountId> session_account(std::string_view token_hash, int64_t now_ms) override;
  void revoke_session(std::string_view token_hash) override;
  void revoke_sessions(AccountId id, std::string_view keep_hash) override;

  void record_seats(int64_t match_id, const std::vector<SeatAccount>& seats, bool rated) override;
  std::vector<SeatAccount> match_seats(int64_t match_id, bool* rated) override;
  std::vector<RatingRecord> ratings(AccountId id) override;
  bool apply_ratings(int64_t match_id, std::string_view ruleset,
                     const std::vector<SeatAccount>& changes,
                     const std::vector<std::pair<AccountId, RatingRecord>>& ratings) override;
  std::vector<HistoryEntry> history(AccountId id, size_t limit,
                                    std::optional<int64_t> before) override;
  std::vector<LeaderboardRow> leaderboard(std::string_view ruleset, double max_deviation,
                                          size_t offset, size_t limit) override;

  // ModerationStore (postgres_moderation_store.cpp).
  int64_t add_ban(const BanRecord& ban) override;
  bool lift_ban(int64_t id, int64_t now_ms) override;
  std::vector<BanRecord> active_bans(int64_t now_ms) override;
  void set_mute(const MuteRecord& mute) override;
  bool clear_mute(AccountId account) override;
  std::vector<MuteRecord> active_mutes(int64_t now_ms) override;
  int64_t add_report(const ReportRecord& report) override;
  std::vector<ReportRecord> reports(bool include_resolved, size_t limit) override;
  std::optional<ReportRecord> find_report(int64_t id) override;
  bool resolve_report(int64_t id, std::string_view by, std::string_view note,
                      int64_t now_ms) override;
  int64_t add_audit(const AuditRecord& entry) override;
  std::vector<AuditRecord> audit(std::optional<int64_t> before, size_t limit) override;
  std::vector<AccountId> ignores(AccountId account) override;
  void set_ignore(AccountId account, AccountId ignored, bool on) override;
  std::vector<AccountId> follows(AccountId account) override;
  void set_follow(AccountId account, AccountId followed, bool on) override;

  // DeckStore (postgres_deck_store.cpp).
  std::vector<DeckRecord> decks_of(AccountId owner) override;
  std::optional<DeckRecord> find_deck(int64_t id) override;
  std::optional<int64_t> add_deck(const DeckRecord& deck, int64_t max_decks) override;
  bool replace_deck(const DeckRecord& deck) override;
  bool delete_deck(int64_t id, AccountId owner) override;

  // TournamentStore (postgres_tournament_store.cpp).
  int64_t add_tournament(const TournamentRecord& record) override;
  bool save_tournament(const TournamentRecord& record) override;
  std::optional<TournamentRecord> find_tournament(int64_t id) override;
  std::vector<TournamentRecord> open_tournaments() override;
  std::vector<TournamentRecord> past_tournaments(int64_t limit) override;

 private:
  // Row `row` of a result of kAccountColumns; nullopt past the last row.
  std::optional<AccountRecord> read_account(const PgResult& rows, int row = 0);
  std::vector<HistoryOpponent> opponents(int64_t match_id, int seat);

  std::mutex mutex_;
  std::unique_ptr<PgConnection> db_;
};

}  // namespace duelhall::storage
