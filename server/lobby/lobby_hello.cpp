// Hello (docs/protocol.md): a connection gets its player, new or resumed, with the account its
// session or guest token names; a banned address or account is refused here, and a resume of
// matches hosted by another node of a cluster is redirected there.
#include <map>
#include <optional>

#include "accounts/name_skeleton.hpp"
#include "lobby/account_handlers.hpp"
#include "lobby/cluster_redirects.hpp"
#include "lobby/lobby_handlers.hpp"
#include "match/match.hpp"
#include "moderation/moderation_handlers.hpp"
#include "moderation/moderation_service.hpp"
#include "net/messages.hpp"

namespace duelhall::server {
namespace {

constexpr size_t kMaxNameChars = 32;
constexpr size_t kMaxNameBytes = 4 * kMaxNameChars;  // the longest UTF-8 such a name can be

// The number of characters (code points) of well-formed UTF-8 without control characters, or
// nullopt: names are counted as people read them, so "Zoë" is 3, not 4.
std::optional<size_t> name_chars(const std::string& name) {
  size_t chars = 0;
  for (size_t i = 0; i < name.size(); ++chars) {
    const auto lead = static_cast<unsigned char>(name[i]);
    const size_t len = lead < 0x80           ? 1
                       : (lead >> 5) == 0x6  ? 2
                       : (lead >> 4) == 0xe  ? 3
                       : (lead >> 3) == 0x1e ? 4
                                             : 0;
    if (len == 0 || i + len > name.size()) return std::nullopt;
    if (lead < 0x20 || lead == 0x7f) return std::nullopt;
    uint32_t cp = len == 1 ? lead : lead & (0x7f >> len);
    for (size_t k = 1; k < len; ++k) {
      const auto c = static_cast<unsigned char>(name[i + k]);
      if ((c & 0xc0) != 0x80) return std::nullopt;
      cp = (cp << 6) | (c & 0x3f);
    }
    const bool overlong =
        (len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000);
    if (overlong || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return std::nullopt;
    if (cp >= 0x80 && cp < 0xa0) return std::nullopt;  // C1 controls
    i += len;
  }
  return chars;
}

bool valid_name(const std::string& name) {
  if (name.empty() || name.size() > kMaxNameBytes) return false;
  const auto chars = name_chars(name);
  // No invisible or text-direction characters, no spaces at the ends (look-alikes of accounts'
  // names are refused by the accounts: hello_account).
  return chars && *chars <= kMaxNameChars && !accounts::display_name_problem(name);
}

void fill_welcome_account(accounts::ModerationService* moderation, const ClientState& state,
                          Welcome& welcome) {
  if (!state.account.account) return;
  accounts::fill_account(*state.account.account, *welcome.mutable_account());
  if (moderation && !state.account.account->guest) {
    welcome.mutable_account()->set_role(
        accounts::role_name(moderation->role(state.account.account->id)));
  }
}

}  // namespace

Handled handle_hello(Hub& hub, Call& call, const Hello& hello) {
  if (call.state.player)
    return Handled::fail(ALREADY_HELLO, "this connection already has a player");
  if (hello.protocol_version() < 1 || hello.protocol_version() > kProtocolVersion) {
    return Handled::fail(UNSUPPORTED_VERSION,
                         "this server speaks protocols 1 to " + std::to_string(kProtocolVersion));
  }
  // A session or guest token says which account the player is (a bad session is refused).
  const auto account = accounts::hello_account(hub.accounts(), call.state.account, hello);
  if (account.code != OK) {
    Handled refused = Handled::fail(account.code, account.reason);
    refused.retry_after_ms = account.retry_after_ms;
    return refused;
  }
  if (auto banned = refuse_banned(hub, call)) {
    call.state.account = accounts::ConnectionAccount{call.state.account.address, {}, {}};
    return *banned;
  }
  Welcome* welcome = call.reply.mutable_welcome();
  welcome->set_protocol_version(hello.protocol_version());
  if (!hello.resume_token().empty()) {
    if (auto elsewhere = resume_elsewhere(hub, call, hello)) return *elsewhere;
    auto player = hub.find_player(hello.resume_token());
    if (!player) return Handled::fail(BAD_TOKEN, "unknown or expired resume token");
    if (auto banned = refuse_banned(hub, call, player->account().id)) return *banned;
    player->set_protocol(hello.protocol_version());
    if (auto old = player->bind(call.peer)) old->close("replaced by a new connection");
    call.state.player = player;
    bind_account(call.state, account.account_changed);
    welcome->set_player_id(player->id());
    welcome->set_display_name(player->name());
    welcome->set_resume_token(player->token());
    welcome->set_resumed(true);
    fill_welcome_account(hub.moderation(), call.state, *welcome);
    enter_roster(hub, call);
    std::map<uint64_t, uint64_t> cursors;
    for (const auto& c : hello.cursors()) cursors[c.match_id()] = c.seq();
    for (auto& match : player->matches()) {
      welcome->add_matches(match->id());
      auto it = cursors.find(match->id());
      match->resume(player, it == cursors.end() ? std::nullopt : std::optional(it->second));
    }
    return Handled::ok();
  }
  const bool registered = call.state.account.account && !call.state.account.account->guest;
  if (!registered && !valid_name(hello.display_name())) {
    return Handled::fail(BAD_NAME,
                         "a display name is 1 to 32 characters without control, invisible or "
                         "text-direction characters, and no spaces at either end");
  }
  auto player =
      hub.new_player(registered ? call.state.account.account->name : hello.display_name());
  player->set_protocol(hello.protocol_version());
  player->bind(call.peer);
  call.state.player = player;
  bind_account(call.state, true);
  welcome->set_player_id(player->id());
  welcome->set_display_name(player->name());
  welcome->set_resume_token(player->token());
  fill_welcome_account(hub.moderation(), call.state, *welcome);
  enter_roster(hub, call);
  return Handled::ok();
}

}  // namespace duelhall::server
