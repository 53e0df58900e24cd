#include "match_tracker.hpp"

#include "event_phrases.hpp"
#include "wire_diff.hpp"

namespace duelhall::client {

bool LabelMaps::find(uint64_t code, std::string& label) const {
  if (auto it = match.find(code); it != match.end()) {
    label = it->second;
    return true;
  }
  if (connection) {
    if (auto it = connection->find(code); it != connection->end()) {
      label = it->second;
      return true;
    }
  }
  label.clear();
  return book && render_label(*book, code, label);
}

bool update_legal(const MatchUpdate& update, LabelMaps labels, std::vector<LegalAction>& legal) {
  if (update.legal_size() > 0 || (update.legal_codes_size() == 0 && !update.legal_unchanged())) {
    legal.assign(update.legal().begin(), update.legal().end());  // protocol 1, or nothing pending
    for (const auto& a : update.legal()) labels.tell(a.code(), a.label());
    return true;
  }
  for (const auto& a : update.labels()) labels.tell(a.code(), a.label());
  if (update.legal_unchanged()) return true;
  legal.clear();
  for (uint64_t code : update.legal_codes()) {
    LegalAction& a = legal.emplace_back();
    a.set_code(code);
    if (!labels.find(code, *a.mutable_label())) return false;
  }
  return true;
}

void normalize_update(ServerMessage& message) {
  if (message.has_seat_update()) message.set_allocated_update(message.release_seat_update());
  if (!message.has_update() || message.update().legal_steps_size() == 0) return;
  MatchUpdate& u = *message.mutable_update();
  u.clear_legal_codes();
  uint64_t code = 0;
  for (uint64_t step : u.legal_steps()) u.add_legal_codes(code += step);
}

void tell_words(const MatchUpdate& update, EventWordMap& words) {
  for (const auto& w : update.words()) words[w.id()] = w.text();
}

void update_events(const MatchUpdate& update, const EventWordMap& words, const PhraseBook* book,
                   std::vector<std::string>& out) {
  out.insert(out.end(), update.events().begin(), update.events().end());
  bool start = true;
  for (uint32_t id : update.event_words()) {
    if (id == 0) {
      start = true;
      continue;
    }
    if (start) {
      out.emplace_back();
    } else {
      out.back() += ' ';
    }
    start = false;
    auto it = words.find(id);
    out.back() += it == words.end() ? "?" : it->second;
  }
  if (update.phrases().empty()) return;
  if (!book) {
    out.emplace_back("?");
    return;
  }
  render_phrases(*book, {update.phrases().data(), static_cast<size_t>(update.phrases().size())},
                 out);
}

void snapshot_legal(const MatchSnapshot& snapshot, LabelMaps labels,
                    std::vector<LegalAction>& legal) {
  legal.assign(snapshot.legal().begin(), snapshot.legal().end());
  for (const auto& a : snapshot.legal()) labels.tell(a.code(), a.label());
}

void MatchTracker::learn_rulesets(const RulesetList& list) {
  for (const RulesetInfo& r : list.rulesets()) {
    if (r.has_phrases()) books_[r.name()] = r.phrases();
  }
}

bool MatchTracker::handle(const ServerMessage& message) {
  if (message.has_rulesets()) {
    learn_rulesets(message.rulesets());
    return false;
  }
  if (message.has_snapshot()) {
    const MatchSnapshot& s = message.snapshot();
    TrackedMatch& t = matches_[s.match().match_id()];
    t.ruleset = s.match().ruleset();
    t.seat = s.seat();
    t.seq = t.seen = s.seq();
    t.view = s.view();
    snapshot_legal(s, labels_of(t), t.legal);
    t.status = s.match().status();
    t.ended = s.has_outcome();
    t.outcome = s.outcome();
    t.broken = false;
    return true;
  }
  if (!message.has_update()) return false;
  const MatchUpdate& u = message.update();
  tell_words(u, words_);
  auto it = matches_.find(u.match_id());
  if (it == matches_.end()) return true;  // an update for a match we have no snapshot of yet
  TrackedMatch& t = it->second;
  const uint64_t seq = update_seq(u, t.seen);
  if (t.broken || seq <= t.seq) return true;  // broken, or already applied (a resend)
  if (seq != t.seq + 1) {
    t.broken = true;
    return true;
  }
  std::string next;
  if (!wire::apply_patch(t.view, u.patch(), next)) {
    t.broken = true;
    return true;
  }
  if (!update_legal(u, labels_of(t), t.legal)) {
    t.broken = true;
    return true;
  }
  t.view = std::move(next);
  t.seq = seq;
  t.status = u.status() == WAITING ? PLAYING : u.status();  // protocol 5 leaves it out while playing
  if (u.has_outcome()) {
    t.ended = true;
    t.outcome = u.outcome();
  }
  const auto book = books_.find(t.ruleset);
  update_events(u, words_, book == books_.end() ? nullptr : &book->second, t.events);
  ++t.updates;
  t.patch_bytes += u.patch().size();
  return true;
}

TrackedMatch* MatchTracker::find(uint64_t match_id) {
  auto it = matches_.find(match_id);
  return it == matches_.end() ? nullptr : &it->second;
}

}  // namespace duelhall::client
