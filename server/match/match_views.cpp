// What each viewer is told (match_play.cpp applies the actions): a seat's MatchUpdate after each
// step, built into a reused message and serialized straight into its frame; its legal actions
// when they changed, with the labels its client has not been told (per match, or per connection
// in protocol 3 for a ruleset whose labels depend on the code alone); its events as texts, from
// protocol 4 as word ids with the words not told yet in the seat's own frames, and from protocol
// 5 as phrases of the ruleset's book when every event was said as one, leaving out what the
// client can tell (the sequence when it follows, the status while playing, "unchanged" for no
// legal actions); from protocol 6 in a one-byte field with the legal codes as steps; from
// protocol 7 without the labels the ruleset's book says (its label forms); outcomes and
// snapshots.
#include <algorithm>
#include <array>
#include <chrono>

#include "match/event_words.hpp"
#include "match/match.hpp"
#include "net/messages.hpp"
#include "wire_diff.hpp"

namespace duelhall::server {

using engine::Viewer;

namespace {

// The frame of `update` as a ServerMessage (its `update` field, or from protocol 6 its
// `seat_update`), with `request_id` before it when not 0 (`prefix` then says how many bytes that
// field takes): the same bytes as serializing a ServerMessage holding a copy of it, without
// building one.
Frame update_frame(const MatchUpdate& update, uint32_t protocol, uint64_t request_id,
                   uint32_t& prefix) {
  const auto put_varint = [](uint64_t v, uint8_t* p) {
    for (; v >= 0x80; v >>= 7) *p++ = static_cast<uint8_t>((v & 0x7f) | 0x80);
    *p++ = static_cast<uint8_t>(v);
    return p;
  };
  uint8_t head[32];
  uint8_t* end = head;
  if (request_id != 0) {
    end = put_varint(uint64_t{ServerMessage::kRequestIdFieldNumber} << 3, end);
    end = put_varint(request_id, end);
  }
  prefix = static_cast<uint32_t>(end - head);
  const size_t size = update.ByteSizeLong();
  const uint64_t field = protocol >= 6 ? ServerMessage::kSeatUpdateFieldNumber
                                       : ServerMessage::kUpdateFieldNumber;
  end = put_varint(field << 3 | 2, end);
  end = put_varint(size, end);
  auto bytes = std::make_shared<std::string>();
  bytes->resize(static_cast<size_t>(end - head) + size);
  auto* out = reinterpret_cast<uint8_t*>(bytes->data());
  std::copy(head, end, out);
  update.SerializeWithCachedSizesToArray(out + (end - head));
  return bytes;
}

// Protocol 5: the events `viewer` sees as phrases of `book`, each its template's index then its
// arguments, straight into the reused update (no allocation once warm). False, with `update`
// untouched, when the ruleset has no book or an event the viewer sees was said as text: the
// update then says them as protocol 4 does.
bool fill_event_phrases(const engine::PhraseBook* book, const Viewer& viewer,
                        const std::vector<engine::Event>& events, MatchUpdate& update) {
  if (!book) return false;
  for (const auto& e : events) {
    const engine::Phrase* phrase = e.phrase_for(viewer);
    if (phrase && !*phrase) return false;
  }
  auto& out = *update.mutable_phrases();
  for (const auto& e : events) {
    const engine::Phrase* phrase = e.phrase_for(viewer);
    if (!phrase) continue;
    out.Add(phrase->id());
    for (const int32_t arg : phrase->args()) out.Add(arg);
  }
  return true;
}

}  // namespace

void Match::send_seat_update(int seat, const std::vector<engine::Event>& events, bool fresh_view,
                             Outbox& out) {
  SeatSlot& slot = seats_[seat];
  const Viewer viewer = Viewer::of_seat(seat);
  // Reused by every match on this thread (Clear keeps the strings' and lists' capacity), and
  // the view is written into the buffer the seat's previous view frees: once warm an update
  // allocates only its frame.
  thread_local MatchUpdate update;
  thread_local std::string view;
  MatchUpdate& u = update;
  u.Clear();
  const uint32_t protocol = slot.player->protocol();
  if (protocol != slot.protocol) {
    slot.held.clear();  // built for the other version: a resume gets a snapshot instead
    slot.protocol = protocol;
  }
  u.set_match_id(id_);
  // Protocol 5 leaves the sequence out when it follows the seat's previous update: the client
  // counts on from the last it saw (a snapshot's or an update's).
  const bool follows = !slot.held.empty() && slot.held.back().seq + 1 == seq_;
  if (protocol < 5 || !follows) u.set_seq(seq_);
  if (fresh_view) {
    view.clear();
    state_->write_view(viewer, view);
    wire::make_patch(slot.view, view, *u.mutable_patch());
    slot.view.swap(view);
  }
  std::shared_ptr<Peer> peer = slot.connected ? slot.player->peer() : nullptr;
  const bool said =
      (protocol >= 5 && fill_event_phrases(ruleset_.phrases, viewer, events, u)) ||
      (protocol >= 4 && fill_event_words(seat, peer ? peer->peer_id() : 0, events, u));
  if (!said) {
    for (const auto& e : events) {
      if (auto text = e.text_for(viewer)) u.add_events(text->data(), text->size());
    }
  }
  if (protocol >= 2) {
    fill_legal_changes(seat, u);
  } else {
    fill_legal(seat, *u.mutable_legal());
  }
  // Protocol 5 leaves the status out while the match plays: no update comes while it waits, so
  // an update without one means PLAYING.
  if (protocol < 5 || status_ != PLAYING) u.set_status(status_);
  if (status_ != PLAYING) fill_outcome(*u.mutable_outcome());
  if (slot.deadline != Clock::time_point{}) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(slot.deadline - Clock::now());
    u.set_clock_ms(static_cast<uint32_t>(std::max<int64_t>(left.count(), 0)));
  }
  // The actor's update is its OK (protocol 2 on): one frame, held without its request_id.
  const bool answers =
      peer && protocol >= 2 && current_peer_ && peer == current_peer_ && !answered_;
  uint32_t prefix = 0;
  Frame frame = update_frame(u, protocol, answers ? current_request_ : 0, prefix);
  slot.held.push_back({seq_, frame, prefix});
  while (slot.held.size() > hub_.config().limits.updates_held) slot.held.pop_front();
  if (!peer) return;
  answered_ = answered_ || answers;
  out.add(std::move(peer), std::move(frame));
}

namespace {
uint64_t legal_hash(const std::vector<engine::Action>& legal) {
  uint64_t h = 0xcbf29ce484222325ull ^ legal.size();
  for (const engine::Action& a : legal) h = (h ^ a.code()) * 0x100000001b3ull;
  return h | 1;  // 0 means nothing told yet
}

// A code's key in the connection's set of told labels (Player::with_labels_told).
uint32_t label_key(uint64_t ruleset_hash, uint64_t code) {
  uint64_t h = (ruleset_hash ^ code) * 0x9e3779b97f4a7c15ull;
  return static_cast<uint32_t>(h >> 32);
}
}  // namespace

bool Match::fill_event_words(int seat, uint64_t peer_id, const std::vector<engine::Event>& events,
                             MatchUpdate& update) {
  EventWords* table = hub_.event_words();
  if (!table) return false;
  // Reused by every match on this thread: no allocation per update once warm. The last texts
  // coded are remembered, so that a public event is coded once for all the seats.
  struct Coded {
    uint64_t table = 0;  // EventWords::serial(): the ids are that table's
    std::string text;
    std::vector<uint32_t> ids;
  };
  thread_local std::vector<uint32_t> ids;
  thread_local std::array<Coded, 4> recent;
  thread_local size_t next = 0;
  ids.clear();
  const Viewer viewer = Viewer::of_seat(seat);
  for (const auto& e : events) {
    const auto text = e.text_for(viewer);
    if (!text) continue;
    if (!ids.empty()) ids.push_back(0);
    auto known = std::find_if(recent.begin(), recent.end(), [&](const Coded& c) {
      return c.table == table->serial() && c.text == *text;
    });
    if (known != recent.end() && !known->ids.empty()) {
      ids.insert(ids.end(), known->ids.begin(), known->ids.end());
      continue;
    }
    const size_t start = ids.size();
    if (!table->encode(*text, ids)) return false;
    Coded& c = recent[next++ % recent.size()];
    c.table = table->serial();
    c.text.assign(text->data(), text->size());
    c.ids.assign(ids.begin() + static_cast<std::ptrdiff_t>(start), ids.end());
  }
  if (ids.empty()) return true;
  update.mutable_event_words()->Add(ids.begin(), ids.end());
  // A new connection may be a new client, told nothing yet. While the seat has none the frame
  // is only held, and a resume resends it to a client that keeps its words.
  SeatSlot& slot = seats_[seat];
  if (peer_id != 0 && peer_id != slot.words_peer) {
    slot.words_told.clear();
    slot.words_peer = peer_id;
  }
  for (uint32_t id : ids) {
    if (id == 0 || !slot.words_told.fresh(id)) continue;
    EventWord* w = update.add_words();
    w->set_id(id);
    const std::string_view text = table->word(id);
    w->set_text(text.data(), text.size());
  }
  return true;
}

bool Match::tell_label(const SeatSlot& slot, uint64_t code, const std::string& label) {
  constexpr size_t kLabelsTold = 48;
  const auto label_hash = static_cast<uint32_t>(std::hash<std::string>{}(label));
  auto& told = slot.labels_told;
  for (auto& [c, h] : told) {
    if (c != code) continue;
    if (h == label_hash) return false;
    h = label_hash;
    return true;
  }
  if (told.size() >= kLabelsTold) told.clear();
  told.emplace_back(code, label_hash);
  return true;
}

void Match::fill_legal_changes(int seat, MatchUpdate& update) {
  SeatSlot& slot = seats_[seat];
  // Reused by every match on this thread: no allocation per update once warm.
  thread_local std::vector<engine::Action> legal;
  legal.clear();
  if (status_ == PLAYING && state_ && state_->pending().has(seat)) {
    state_->legal_actions(seat, legal);
  }
  const uint64_t hash = legal_hash(legal);
  if (hash == slot.legal_told) {
    // Protocol 5 says nothing for "still nothing pending": no codes already means that.
    if (slot.protocol < 5 || !legal.empty()) update.set_legal_unchanged(true);
    return;
  }
  slot.legal_told = hash;
  // Protocol 6 sends each code as its step up from the one before: the engine's lists are sorted
  // and distinct, and a step is a shorter varint than an attack's whole code.
  uint64_t previous = 0;
  const auto add_code = [&](uint64_t code) {
    if (slot.protocol < 6) return update.add_legal_codes(code);
    update.add_legal_steps(code - previous);
    previous = code;
  };
  // Protocol 7: the client renders a label its ruleset's book has a form for from the code.
  const engine::PhraseBook* book = slot.protocol >= 7 ? ruleset_.phrases : nullptr;
  const auto said_by_book = [book](const engine::Action& action) {
    return book && book->label_form(action.kind);
  };
  // When the book says every label (Jedi Duel's), nothing is told and the told set is not locked.
  const bool all_said = book && std::all_of(legal.begin(), legal.end(), said_by_book);
  if (slot.protocol >= 3 && ruleset_.labels_by_code && !all_said) {
    // Told once per connection; a told code's label is not even built.
    const uint64_t ruleset_hash = std::hash<std::string_view>{}(ruleset_.name);
    slot.player->with_labels_told([&](auto fresh) {
      for (const engine::Action& action : legal) {
        add_code(action.code());
        if (said_by_book(action) || !fresh(label_key(ruleset_hash, action.code()))) continue;
        LegalAction* a = update.add_labels();
        a->set_code(action.code());
        a->set_label(state_->action_label(seat, action));
      }
    });
    return;
  }
  for (const engine::Action& action : legal) {
    add_code(action.code());
    if (said_by_book(action)) continue;
    std::string label = state_->action_label(seat, action);
    if (tell_label(slot, action.code(), label)) {
      LegalAction* a = update.add_labels();
      a->set_code(action.code());
      a->set_label(std::move(label));
    }
  }
}

void Match::fill_legal(int seat, google::protobuf::RepeatedPtrField<LegalAction>& out) const {
  if (status_ != PLAYING || !state_ || !state_->pending().has(seat)) return;
  for (const engine::Action& action : state_->legal_actions(seat)) {
    LegalAction* a = out.Add();
    a->set_code(action.code());
    a->set_label(state_->action_label(seat, action));
  }
}

void Match::fill_outcome(Outcome& out) const {
  if (forced_outcome_) {
    out = *forced_outcome_;
    return;
  }
  if (!state_ || !state_->terminal()) return;
  const engine::Outcome outcome = state_->outcome();
  for (int s = 0; s < state_->num_seats(); ++s) {
    if (outcome.winners.has(s)) out.add_winners(static_cast<uint32_t>(s));
  }
  for (int32_t score : outcome.scores) out.add_scores(score);
  out.set_reason(outcome.reason);
}

ServerMessage Match::snapshot(int seat) const {
  ServerMessage m;
  MatchSnapshot* s = m.mutable_snapshot();
  fill_match_info(*s->mutable_match());
  s->set_seat(seat);
  if (seat >= 0) {
    const SeatSlot& slot = seats_[seat];
    s->set_seq(seq_);
    s->set_view(slot.view);
    fill_legal(seat, *s->mutable_legal());
    std::vector<engine::Action> legal;
    for (const LegalAction& a : s->legal()) {
      legal.push_back(engine::Action::from_code(a.code()));
      tell_label(slot, a.code(), a.label());
    }
    if (slot.player && slot.player->protocol() >= 3 && ruleset_.labels_by_code) {
      const uint64_t ruleset_hash = std::hash<std::string_view>{}(ruleset_.name);
      slot.player->with_labels_told([&](auto fresh) {
        for (const LegalAction& a : s->legal()) fresh(label_key(ruleset_hash, a.code()));
      });
    }
    slot.legal_told = legal_hash(legal);
    if (slot.deadline != Clock::time_point{}) {
      auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(slot.deadline - Clock::now());
      s->set_clock_ms(static_cast<uint32_t>(std::max<int64_t>(left.count(), 0)));
    }
  } else {
    s->set_seq(spectator_seq_);
    s->set_view(spectator_view_);
  }
  // Spectators behind a delay learn the outcome when their stream reaches the end.
  if (status_ != PLAYING && status_ != WAITING && (seat >= 0 || delayed_.empty())) {
    fill_outcome(*s->mutable_outcome());
  }
  return m;
}

}  // namespace duelhall::server
