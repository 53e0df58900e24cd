// What every MatchStore backend shares: the one-write conveniences, the loading of the live
// matches for recovery, and the text forms of a match's status and scores.
#include "storage/match_store.hpp"

#include <charconv>

#include "fairness/commitment.hpp"

namespace duelhall::storage {

const char* to_string(MatchStatus status) {
  switch (status) {
    case MatchStatus::kLive:
      return "live";
    case MatchStatus::kFinished:
      return "finished";
    case MatchStatus::kAbandoned:
      return "abandoned";
  }
  return "?";
}

MatchStatus parse_status(std::string_view text) {
  if (text == "finished") return MatchStatus::kFinished;
  if (text == "abandoned") return MatchStatus::kAbandoned;
  return MatchStatus::kLive;
}

std::string join_scores(const std::vector<int32_t>& scores) {
  std::string text;
  for (size_t i = 0; i < scores.size(); ++i) {
    if (i) text.push_back(',');
    text += std::to_string(scores[i]);
  }
  return text;
}

std::vector<int32_t> parse_scores(std::string_view text) {
  std::vector<int32_t> scores;
  while (!text.empty()) {
    size_t comma = text.find(',');
    std::string_view item = text.substr(0, comma);
    int32_t v = 0;
    std::from_chars(item.data(), item.data() + item.size(), v);
    scores.push_back(v);
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
  }
  return scores;
}

std::string token_hash(std::string_view token) {
  const fairness::Digest digest = fairness::sha256(token);
  return std::string(reinterpret_cast<const char*>(digest.data()), digest.size());
}

std::vector<StoredMatch> MatchStore::load_for_recovery(const std::vector<MatchId>& ids) {
  std::vector<StoredMatch> matches;
  for (MatchId id : ids) {
    try {
      if (auto stored = load_match(id)) matches.push_back(std::move(*stored));
    } catch (const StoreError& e) {
      StoredMatch broken;
      broken.summary.id = id;
      broken.summary.status = MatchStatus::kLive;
      broken.problem = e.what();
      matches.push_back(std::move(broken));
    }
  }
  return matches;
}

MatchId MatchStore::create_match(const NewMatch& match) {
  std::vector<MatchId> created;
  const MatchWrite write = match;
  write_batch(std::span<const MatchWrite>(&write, 1), &created);
  return created.at(0);
}

void MatchStore::append(const LoggedAction& action) {
  const MatchWrite write = action;
  write_batch(std::span<const MatchWrite>(&write, 1));
}

void MatchStore::append_batch(std::span<const LoggedAction> actions) {
  std::vector<MatchWrite> writes(actions.begin(), actions.end());
  write_batch(writes);
}

void MatchStore::finish_match(MatchId match, const engine::Outcome& outcome, int64_t ended_ms) {
  const MatchWrite write =
      MatchEnding{match, MatchStatus::kFinished, fairness::record_outcome(outcome), ended_ms};
  write_batch(std::span<const MatchWrite>(&write, 1));
}

void MatchStore::abandon_match(MatchId match, std::string_view reason, int64_t ended_ms) {
  const MatchWrite write =
      MatchEnding{match, MatchStatus::kAbandoned, {0, {}, std::string(reason)}, ended_ms};
  write_batch(std::span<const MatchWrite>(&write, 1));
}

}  // namespace duelhall::storage
