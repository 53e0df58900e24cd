// Follows every match a connection sees: a MatchSnapshot sets a view, each MatchUpdate's patch
// turns it into the next one. A gap in the sequence or a patch that does not apply marks the
// match `broken`, and the client should ask for a snapshot (Resync).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "envelope.pb.h"

namespace duelhall::client {

// The labels a client was told (docs/protocol.md, Compatibility): `match` holds those told in
// one match; `connection`, when given, those told on the connection for the match's ruleset
// (protocol 3 tells a ruleset's labels once per connection when they depend on the code alone).
// A label is looked up in the match's first, then in the connection's, then rendered with the
// `book`'s form for the code's kind (protocol 7 sends no label for such a kind).
struct LabelMaps {
  std::map<uint64_t, std::string>& match;
  std::map<uint64_t, std::string>* connection = nullptr;
  const PhraseBook* book = nullptr;
  void tell(uint64_t code, const std::string& label) {
    match[code] = label;
    if (connection) (*connection)[code] = label;
  }
  // The code's label into `label`; false when it was never told and the book has no form for it.
  bool find(uint64_t code, std::string& label) const;
};

// The legal actions an update leaves (protocol 1's `legal`, or the codes of protocols 2 and up
// with the labels told so far or said by the book). False when a code has no label: the client
// then asks for a snapshot, which carries every label.
bool update_legal(const MatchUpdate& update, LabelMaps labels, std::vector<LegalAction>& legal);
// A snapshot's legal actions, remembering their labels.
void snapshot_legal(const MatchSnapshot& snapshot, LabelMaps labels,
                    std::vector<LegalAction>& legal);

// The words of the events told on a connection (protocol 4), by id.
using EventWordMap = std::map<uint32_t, std::string>;
// Remembers the words an update tells: every update's, even one the client then drops (a
// resend, a gap), since the server counts them as told.
void tell_words(const MatchUpdate& update, EventWordMap& words);
// Protocol 6 sends a seat's update in ServerMessage.seat_update (a one-byte tag) and its legal
// codes as steps (MatchUpdate.legal_steps). This puts the update back in `update` and the steps'
// sums in `legal_codes` (the steps stay, for byte counts), so the rest of a client reads one
// shape whatever the protocol: call it on every message received.
void normalize_update(ServerMessage& message);
// An update's seq: protocol 5 leaves it out when it is one more than the last told for the match
// (`seen`: a snapshot's or an update's, applied or not). `seen` moves on to it.
inline uint64_t update_seq(const MatchUpdate& update, uint64_t& seen) {
  seen = update.seq() != 0 ? update.seq() : seen + 1;
  return seen;
}
// Appends an update's event texts to `out`: `events` as they are, protocol 4's `event_words`
// (each event's word ids, 0 between events) joined by single spaces, and protocol 5's `phrases`
// rendered with `book`, the match's ruleset's (event_phrases.hpp). A word never told shows as
// "?" (a client in two matches at once may get a word's first use before the update that tells
// it); so do phrases without a book or that do not fit it.
void update_events(const MatchUpdate& update, const EventWordMap& words, const PhraseBook* book,
                   std::vector<std::string>& out);

struct TrackedMatch {
  std::string ruleset;
  int seat = -1;  // -1: watching as a spectator
  uint64_t seq = 0;   // the view's
  uint64_t seen = 0;  // the last seq told, applied or not (protocol 5 counts on from it)
  std::string view;   // the ruleset's View message bytes
  std::vector<LegalAction> legal;
  std::map<uint64_t, std::string> labels;  // every label told in this match, by code
  MatchStatus status = WAITING;
  bool ended = false;
  Outcome outcome;
  std::vector<std::string> events;  // every event text received, oldest first
  bool broken = false;
  uint64_t updates = 0;
  uint64_t patch_bytes = 0;
};

class MatchTracker {
 public:
  // Applies a snapshot or update; false for other messages. The phrase books of a RulesetList
  // it is given are kept, to render the events of those rulesets' matches (protocol 5) and their
  // actions' labels (protocol 7).
  bool handle(const ServerMessage& message);
  void learn_rulesets(const RulesetList& list);
  TrackedMatch* find(uint64_t match_id);
  const std::map<uint64_t, TrackedMatch>& matches() const { return matches_; }
  void forget(uint64_t match_id) { matches_.erase(match_id); }

 private:
  LabelMaps labels_of(TrackedMatch& t) {
    const auto book = books_.find(t.ruleset);
    return {t.labels, &connection_labels_[t.ruleset],
            book == books_.end() ? nullptr : &book->second};
  }

  std::map<uint64_t, TrackedMatch> matches_;
  EventWordMap words_;                       // told on this connection (protocol 4)
  std::map<std::string, PhraseBook> books_;  // by ruleset (protocol 5)
  // Labels told on this connection, by ruleset (protocol 3).
  std::map<std::string, std::map<uint64_t, std::string>> connection_labels_;
};

}  // namespace duelhall::client
