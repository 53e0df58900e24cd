#include "decks/deck_handlers.hpp"

#include <chrono>

#include "decks/deck_check.hpp"
#include "storage/deck_store.hpp"
#include "storage/store_error.hpp"

namespace duelhall::server {
namespace {

using storage::DeckRecord;

int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// The connection's registered account, or 0 (a guest, or none).
storage::AccountId account_of(const Call& call) {
  const auto& account = call.state.account.account;
  return account && !account->guest ? account->id : 0;
}

Handled no_store() {
  return Handled::fail(STORAGE_DISABLED, "this server keeps no saved decks");
}
Handled guest() {
  return Handled::fail(SIGN_IN_REQUIRED,
                       "a guest keeps decks in the browser: sign in to save them with an account");
}
Handled unknown(uint64_t id) {
  return Handled::fail(UNKNOWN_DECK, "no saved deck " + std::to_string(id));
}

void fill_summary(const DeckRecord& deck, DeckSummary& out) {
  out.set_id(static_cast<uint64_t>(deck.id));
  out.set_name(deck.name);
  out.set_ruleset(deck.ruleset);
  out.set_is_public(deck.is_public);
  out.set_side(deck.side);
  out.set_cards(static_cast<uint32_t>(deck.cards));
  out.set_updated_ms(static_cast<uint64_t>(deck.updated_ms));
  out.set_owner_name(deck.owner_name);
}

void fill_deck(const DeckRecord& deck, storage::AccountId viewer, SavedDeck& out) {
  fill_summary(deck, *out.mutable_summary());
  out.set_list(deck.list);
  out.set_own(deck.owner == viewer);
}

// The deck `id` as `viewer` may read it: its own, or another's public one.
Handled readable(storage::DeckStore& store, uint64_t id, storage::AccountId viewer,
                 std::optional<DeckRecord>* deck) {
  *deck = store.find_deck(static_cast<int64_t>(id));
  if (!*deck) return unknown(id);
  if ((*deck)->owner != viewer && !(*deck)->is_public) {
    deck->reset();
    return Handled::fail(DECK_PRIVATE, "saved deck " + std::to_string(id) +
                                           " is another account's and not public");
  }
  return Handled::ok();
}

// Name, ruleset and list checked and the deck's side and size read; the refusal otherwise.
Handled checked(Call& call, DeckRecord& deck) {
  if (deck.name.size() > kMaxDeckName) {
    return Handled::fail(FIELD_TOO_LONG, "a deck name holds at most " +
                                             std::to_string(kMaxDeckName) + " bytes");
  }
  if (deck.name.find_first_not_of(" \t") == std::string::npos) {
    return Handled::fail(BAD_PARAMETERS, "a deck needs a name");
  }
  for (const unsigned char ch : deck.name) {
    if (ch < 0x20 || ch == 0x7f) {
      return Handled::fail(BAD_PARAMETERS, "a deck name has no control characters");
    }
  }
  if (deck.list.size() > kMaxDeckList) {
    return Handled::fail(FIELD_TOO_LONG, "a deck list holds at most " +
                                             std::to_string(kMaxDeckList) + " bytes");
  }
  if (!keeps_decks(deck.ruleset)) {
    return Handled::fail(UNKNOWN_RULESET,
                         "saved decks are young_jedi deck lists or force_battles setups, not '" +
                             deck.ruleset + "'");
  }
  if (deck.ruleset == kSetupRuleset) {
    deck.side.clear();
    deck.cards = 0;
    return Handled::ok();
  }
  DeckCheck check = check_deck_list(deck.list, -1);
  if (auto problem = first_problem(check)) {
    *call.reply.mutable_deck_check() = std::move(check);
    Handled refused = Handled::fail(DECK_ILLEGAL, *problem);
    refused.keep_body = true;
    return refused;
  }
  deck.side = check.side();
  deck.cards = check.figures().cards();
  return Handled::ok();
}

Handled save(DeckHost& hub, Call& call, const SaveDeck& request, storage::AccountId owner) {
  storage::DeckStore& store = *hub.deck_store();
  DeckRecord deck;
  deck.owner = owner;
  deck.name = request.name();
  deck.ruleset = request.ruleset();
  deck.list = request.list();
  deck.is_public = request.is_public();
  if (request.copy_of() != 0) {
    std::optional<DeckRecord> source;
    if (Handled h = readable(store, request.copy_of(), owner, &source); h.code != OK) return h;
    if (deck.name.empty()) deck.name = source->name.substr(0, kMaxDeckName - 7) + " (copy)";
    deck.ruleset = source->ruleset;
    deck.list = source->list;
  }
  if (Handled h = checked(call, deck); h.code != OK) return h;
  deck.updated_ms = now_ms();
  if (request.id() != 0 && request.copy_of() == 0) {
    deck.id = static_cast<int64_t>(request.id());
    if (!store.replace_deck(deck)) return unknown(request.id());
  } else {
    const int64_t limit = hub.config().max_decks_per_account;
    const auto id = store.add_deck(deck, limit);
    if (!id) {
      return Handled::fail(TOO_MANY_DECKS, "an account keeps at most " + std::to_string(limit) +
                                               " decks here: delete one first");
    }
    deck.id = *id;
  }
  const auto stored = store.find_deck(deck.id);
  fill_deck(stored ? *stored : deck, owner, *call.reply.mutable_deck());
  return Handled::ok();
}

// A store that fails answers STORAGE_UNAVAILABLE; nothing was changed (each write is whole).
template <typename Body>
Handled guarded(Body body) {
  try {
    return body();
  } catch (const storage::StoreError& e) {
    return Handled::retry(STORAGE_UNAVAILABLE, std::string("the deck store failed: ") + e.what(),
                          1000);
  }
}

}  // namespace

Handled handle_list_decks(DeckHost& hub, Call& call, const ListDecks&) {
  if (!hub.deck_store()) return no_store();
  const storage::AccountId owner = account_of(call);
  if (owner == 0) return guest();
  return guarded([&] {
    DeckList& list = *call.reply.mutable_decks();
    list.set_max_decks(hub.config().max_decks_per_account);
    for (const DeckRecord& deck : hub.deck_store()->decks_of(owner)) {
      fill_summary(deck, *list.add_decks());
    }
    return Handled::ok();
  });
}

Handled handle_get_deck(DeckHost& hub, Call& call, const GetDeck& request) {
  if (!hub.deck_store()) return no_store();
  return guarded([&] {
    std::optional<DeckRecord> deck;
    const storage::AccountId viewer = account_of(call);
    if (Handled h = readable(*hub.deck_store(), request.id(), viewer, &deck); h.code != OK) {
      return h;
    }
    fill_deck(*deck, viewer, *call.reply.mutable_deck());
    return Handled::ok();
  });
}

Handled handle_save_deck(DeckHost& hub, Call& call, const SaveDeck& request) {
  if (!hub.deck_store()) return no_store();
  const storage::AccountId owner = account_of(call);
  if (owner == 0) return guest();
  return guarded([&] { return save(hub, call, request, owner); });
}

Handled handle_delete_deck(DeckHost& hub, Call& call, const DeleteDeck& request) {
  if (!hub.deck_store()) return no_store();
  const storage::AccountId owner = account_of(call);
  if (owner == 0) return guest();
  return guarded([&] {
    if (!hub.deck_store()->delete_deck(static_cast<int64_t>(request.id()), owner)) {
      return unknown(request.id());
    }
    return Handled::ok();
  });
}

Handled handle_check_deck(DeckHost&, Call& call, const CheckDeck& request) {
  if (request.ruleset() != kDeckListRuleset) {
    return Handled::fail(UNKNOWN_RULESET, "only young_jedi deck lists are checked");
  }
  if (request.list().size() > kMaxDeckList) {
    return Handled::fail(FIELD_TOO_LONG, "a deck list holds at most " +
                                             std::to_string(kMaxDeckList) + " bytes");
  }
  *call.reply.mutable_deck_check() = check_deck_list(request.list(), request.seat());
  return Handled::ok();
}

Handled load_seat_deck(DeckHost& hub, const Call& call, uint64_t id, const std::string& ruleset,
                       int* seat, std::string* option) {
  if (!hub.deck_store()) return no_store();
  const storage::AccountId viewer = account_of(call);
  if (viewer == 0) return guest();
  return guarded([&] {
    std::optional<DeckRecord> deck;
    if (Handled h = readable(*hub.deck_store(), id, viewer, &deck); h.code != OK) return h;
    if (deck->ruleset != ruleset) {
      return Handled::fail(DECK_WRONG_SIDE, "saved deck " + std::to_string(id) + " is a " +
                                                deck->ruleset + " deck, not a " + ruleset + " one");
    }
    if (ruleset == kDeckListRuleset && *seat == -1) *seat = deck->side == side_word(true) ? 0 : 1;
    if (ruleset == kDeckListRuleset && deck->side != side_word(*seat == 0)) {
      return Handled::fail(DECK_WRONG_SIDE, "seat " + std::to_string(*seat) + " plays the " +
                                                side_word(*seat == 0) + " side and saved deck " +
                                                std::to_string(id) + " is a " + deck->side +
                                                " deck");
    }
    *option = deck->list;
    return Handled::ok();
  });
}

}  // namespace duelhall::server
