// Small helpers to build and serialize protocol messages.
#pragma once

#include <string>

#include "core/registry.hpp"
#include "envelope.pb.h"
#include "net/peer.hpp"

namespace duelhall::server {

// The newest protocol version; every version from 1 to it is served (docs/protocol.md).
inline constexpr uint32_t kProtocolVersion = 7;

// Serializes once; the bytes may then be sent to any number of peers.
Frame frame_of(const ServerMessage& message);
// A reply; a code other than OK is counted as a refusal (metrics).
ServerMessage reply(uint64_t request_id, ResultCode code, std::string reason = {});
// Counts a refusal built without reply() (the dispatcher's own replies).
void count_refusal(ResultCode code);
// The protocol's codes 1-5 are engine::RefusalCode's numbers.
ResultCode result_of(engine::RefusalCode code);
// The ruleset as RulesetList lists it; its phrase book, when it has one, only `with_book`
// (ListRulesets.phrases_of named it).
void fill_ruleset(const engine::RulesetInfo& info, duelhall::RulesetInfo& out, bool with_book);
void fill_phrase_book(const engine::PhraseBook& book, duelhall::PhraseBook& out);
const char* to_string(ResultCode code);

}  // namespace duelhall::server
