#include "play.hpp"

#include <iostream>
#include <map>
#include <random>
#include <vector>

#include "match_tracker.hpp"  // clients/common
#include "reconnect.hpp"
#include "view_text.hpp"
#include "wire_diff.hpp"

namespace duelhall::cli {

namespace {

// Refusals in a row after which an automatic player gives up (it only picks offered actions,
// so a refusal means the match moved on, e.g. another seat acted first).
constexpr int kMaxRefusals = 20;

class Follower {
 public:
  Follower(std::unique_ptr<client::WsClient>& client, const Options& options, uint64_t match_id,
           const RulesetInfo* ruleset, Identity* identity)
      : client_(client),
        identity_(identity),
        options_(options),
        match_id_(match_id),
        view_message_(ruleset ? ruleset->view_message() : ""),
        rng_(options.seed) {
    if (ruleset && ruleset->has_phrases()) phrases_ = ruleset->phrases();
  }

  int run() {
    while (true) {
      std::optional<ServerMessage> m = next_message(*client_);
      if (!m) {
        if (!come_back()) return 1;
        continue;
      }
      if (auto done = handle(*m)) return *done;
      if (should_act()) {
        if (auto done = act()) return *done;
      }
    }
  }

 private:
  // The connection is gone: back to the match on the node that hosts it now (reconnect.hpp).
  bool come_back() {
    const uint16_t code = client_->close_code();
    const std::string reason = client_->close_reason();
    std::cout << "connection closed: " << code << " " << reason << "\n";
    if (!identity_ || !may_come_back(code, reason)) return false;
    if (auto why = cli::come_back(client_, *identity_, {match_id_, seat_, seq_, options_.invite})) {
      std::cout << "could not come back: " << *why << "\n";
      return false;
    }
    std::cout << "resumed match " << match_id_ << " on " << client_->host() << ":"
              << client_->port() << "\n";
    acted_seq_.reset();  // an action in flight was not acknowledged: choose again
    seen_ = seq_;        // the server resends what followed the cursor
    return true;
  }

  std::optional<int> handle(const ServerMessage& m) {
    // Protocol 2: the actor's update answers its action.
    if (m.request_id() != 0 && m.has_update()) {
      if (m.request_id() == last_action_request_) refusals_ = 0;
      return handle_update(m.update());
    }
    if (m.request_id() != 0) return handle_reply(m);
    switch (m.body_case()) {
      case ServerMessage::kSnapshot:
        return handle_snapshot(m.snapshot());
      case ServerMessage::kUpdate:
        return handle_update(m.update());
      case ServerMessage::kChat:
        std::cout << "[chat] " << m.chat().from() << ": " << m.chat().text() << "\n";
        return std::nullopt;
      case ServerMessage::kPresence:
        if (m.presence().seat() < names_.size()) names_[m.presence().seat()] = m.presence().name();
        std::cout << "[presence] " << m.presence().name() << " (@" << m.presence().seat() << ") "
                  << (m.presence().connected() ? "reconnected" : "disconnected") << "\n";
        return std::nullopt;
      default:
        if (m.result() != OK) {
          std::cout << "server: " << ResultCode_Name(m.result()) << " " << m.reason() << "\n";
        }
        return std::nullopt;
    }
  }

  std::optional<int> handle_reply(const ServerMessage& m) {
    if (m.body_case() == ServerMessage::kSnapshot) return handle_snapshot(m.snapshot());
    if (m.result() == OK) {
      if (m.request_id() == last_action_request_) refusals_ = 0;
      return std::nullopt;
    }
    std::cout << "refused: " << ResultCode_Name(m.result()) << ": " << m.reason() << "\n";
    // Only the answer to the latest action means "choose again": an older action's refusal
    // (another seat acted first, STALE_SEQ) arrives after the update we already acted on.
    if (m.request_id() != last_action_request_) return std::nullopt;
    acted_seq_.reset();
    if (options_.autoplay != AutoPlay::kNone && ++refusals_ > kMaxRefusals) return 1;
    return std::nullopt;
  }

  std::optional<int> handle_snapshot(const MatchSnapshot& s) {
    if (s.match().match_id() != match_id_) return std::nullopt;
    seat_ = s.seat();
    seq_ = seen_ = s.seq();
    view_ = s.view();
    client::snapshot_legal(s, label_maps(), legal_);
    names_.clear();
    for (const auto& seat : s.match().seats()) names_.push_back(seat.name());
    std::cout << "== match " << match_id_ << " (" << s.match().ruleset() << "), "
              << (seat_ >= 0 ? "seat @" + std::to_string(seat_) : std::string("spectating"))
              << ", seq " << seq_ << "\n";
    print_view();
    if (s.has_outcome() && (s.match().status() == FINISHED || s.match().status() == ABORTED)) {
      return finish(s.match().status(), s.outcome());
    }
    return std::nullopt;
  }

  std::optional<int> handle_update(const MatchUpdate& u) {
    client::tell_words(u, words_);
    if (u.match_id() != match_id_) return std::nullopt;
    const uint64_t seq = client::update_seq(u, seen_);
    if (seq != seq_ + 1)
      return resync("sequence " + std::to_string(seq) + " after " + std::to_string(seq_));
    std::string next;
    if (!wire::apply_patch(view_, u.patch(), next)) return resync("a patch that does not fit");
    if (!client::update_legal(u, label_maps(), legal_)) return resync("an action without a label");
    view_ = std::move(next);
    seq_ = seq;
    events_.clear();
    client::update_events(u, words_, phrases_ ? &*phrases_ : nullptr, events_);
    for (const auto& e : events_) std::cout << "  " << with_names(e, names_) << "\n";
    if (!u.patch().empty()) print_view();
    if (u.status() == FINISHED || u.status() == ABORTED) return finish(u.status(), u.outcome());
    return std::nullopt;
  }

  client::LabelMaps label_maps() { return {labels_, nullptr, phrases_ ? &*phrases_ : nullptr}; }

  std::optional<int> resync(const std::string& why) {
    std::cout << "(resync after " << why << ")\n";
    ClientMessage m;
    m.mutable_resync()->set_match_id(match_id_);
    client_->send(std::move(m));
    return std::nullopt;
  }

  void print_view() const {
    if (options_.quiet) return;
    std::cout << "-- view at seq " << seq_ << " --\n" << view_text(view_message_, view_);
  }

  int finish(MatchStatus status, const Outcome& outcome) {
    std::cout << "match over (" << MatchStatus_Name(status) << "): ";
    if (outcome.winners().empty()) std::cout << "nobody won";
    for (int i = 0; i < outcome.winners_size(); ++i) {
      const uint32_t w = outcome.winners(i);
      std::string seat = "@";
      seat += std::to_string(w);
      std::cout << (i ? ", " : "winner ") << with_names(seat, names_);
    }
    std::cout << "; " << outcome.reason() << "\n";
    std::cout << "actions played: " << own_actions_ << "\n";
    return status == FINISHED ? 0 : 1;
  }

  bool should_act() const { return seat_ >= 0 && !legal_.empty() && acted_seq_ != seq_; }

  std::optional<int> act() {
    if (options_.max_actions && own_actions_ >= options_.max_actions) {
      std::cout << "stopping after " << own_actions_ << " actions\n";
      return 0;
    }
    size_t choice = 0;
    if (options_.autoplay == AutoPlay::kRandom) {
      choice = std::uniform_int_distribution<size_t>(0, legal_.size() - 1)(rng_);
    } else if (options_.autoplay == AutoPlay::kNone) {
      auto asked = ask();
      if (!asked) return 0;
      choice = *asked;
    }
    std::cout << "> " << legal_[choice].label() << "\n";
    ClientMessage m;
    SubmitAction* a = m.mutable_action();
    a->set_match_id(match_id_);
    a->set_code(legal_[choice].code());
    a->set_seq(seq_);
    last_action_request_ = client_->send(std::move(m));
    acted_seq_ = seq_;
    ++own_actions_;
    return std::nullopt;
  }

  // Reads a choice from standard input; nullopt at end of input or on "q".
  std::optional<size_t> ask() {
    while (true) {
      std::cout << "Your decision:\n";
      for (size_t i = 0; i < legal_.size(); ++i) {
        std::cout << "  " << i + 1 << ") " << legal_[i].label() << "\n";
      }
      std::cout << "choice (1-" << legal_.size() << ", /text to chat, q to quit)? " << std::flush;
      std::string line;
      if (!std::getline(std::cin, line) || line == "q") return std::nullopt;
      if (!line.empty() && line[0] == '/') {
        ClientMessage m;
        m.mutable_chat()->set_match_id(match_id_);
        m.mutable_chat()->set_text(line.substr(1));
        client_->send(std::move(m));
        continue;
      }
      try {
        const size_t n = std::stoul(line);
        if (n >= 1 && n <= legal_.size()) return n - 1;
      } catch (const std::exception&) {
      }
      std::cout << "not a choice: " << line << "\n";
    }
  }

  std::unique_ptr<client::WsClient>& client_;
  Identity* const identity_;  // null: no coming back after a lost connection
  const Options& options_;
  const uint64_t match_id_;
  const std::string view_message_;
  // The ruleset's, to render protocol 5's event phrases and protocol 7's labels.
  std::optional<PhraseBook> phrases_;
  // Only for choosing among offered actions in tests; the match's own randomness is the server's.
  std::mt19937_64 rng_;

  int seat_ = -1;
  uint64_t seq_ = 0;   // the view's
  uint64_t seen_ = 0;  // the last seq told, applied or not
  std::string view_;
  std::vector<LegalAction> legal_;
  // Every label told, by code: in this match, and on this connection, which follows one match.
  std::map<uint64_t, std::string> labels_;
  // Event words told (protocol 4). Kept when the client comes back: a resume's resent updates
  // were coded for the old connection; a new node tells every word it uses again, by its ids.
  client::EventWordMap words_;
  std::vector<std::string> events_;
  std::vector<std::string> names_;
  std::optional<uint64_t> acted_seq_;
  uint64_t last_action_request_ = 0;
  uint32_t own_actions_ = 0;
  int refusals_ = 0;
};

}  // namespace

std::optional<ServerMessage> next_message(client::WsClient& client) {
  if (!client.pushed().empty()) {
    ServerMessage m = std::move(client.pushed().front());
    client.pushed().pop_front();
    return m;
  }
  try {
    while (true) {
      if (auto m = client.receive(std::chrono::seconds(1))) return m;
    }
  } catch (const client::ConnectionClosed&) {
    return std::nullopt;
  }
}

int follow_match(std::unique_ptr<client::WsClient>& client, const Options& options,
                 uint64_t match_id, const RulesetInfo* ruleset, Identity* identity) {
  return Follower(client, options, match_id, ruleset, identity).run();
}

}  // namespace duelhall::cli
