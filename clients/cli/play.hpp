// Following one match as a seat or a spectator: keeps the viewer's view by applying each
// update's patch to the previous view (asking for a snapshot when a patch does not fit or a
// sequence number is skipped), prints views, events, chat and presence, and chooses among the
// offered legal actions, by asking the user or by itself.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "options.hpp"
#include "reconnect.hpp"
#include "ws_client.hpp"  // clients/common

namespace duelhall::cli {

// The next message: one kept while waiting for a reply first, then one from the connection;
// nullopt once the connection has closed.
std::optional<ServerMessage> next_message(client::WsClient& client);

// Runs until the match ends (exit status 0), the connection drops for good or an action is
// refused too often (1), or the user quits (0). `ruleset` (null: not listed) names the View
// message and gives the phrase book the events may come in (protocol 5).
// A lost connection is come back from as `identity` (reconnect.hpp), which replaces `client`;
// null: it ends the run.
int follow_match(std::unique_ptr<client::WsClient>& client, const Options& options,
                 uint64_t match_id, const RulesetInfo* ruleset, Identity* identity);

}  // namespace duelhall::cli
