// A player: a display name, a secret resume token, the connection it is on now (if any) and the
// matches it sits in. Shared between the player's session and its matches, so it locks its
// mutable parts; nothing here is held across a send.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "net/peer.hpp"

namespace duelhall::server {

class Match;

class Player {
 public:
  Player(uint64_t id, std::string name, std::string token)
      : id_(id), name_(std::move(name)), token_(std::move(token)) {}

  uint64_t id() const { return id_; }
  // The account's name once a registered account is bound, else the name given at hello.
  std::string name() const {
    std::lock_guard lock(mutex_);
    return account_.id != 0 && !account_.guest ? account_.name : name_;
  }
  // The account the player is: a registered one, a guest identity, or none (id 0).
  struct Account {
    int64_t id = 0;
    std::string name;
    bool guest = false;
    // SHA-256 of the session the account signed in with: ending that session ends this binding.
    std::string session_hash{};
  };
  Account account() const {
    std::lock_guard lock(mutex_);
    return account_;
  }
  void set_account(Account account) {
    std::lock_guard lock(mutex_);
    account_ = std::move(account);
  }
  bool registered() const {
    std::lock_guard lock(mutex_);
    return account_.id != 0 && !account_.guest;
  }
  // The resume token: only ever sent to this player's own connection, never logged.
  const std::string& token() const { return token_; }

  std::shared_ptr<Peer> peer() const {
    std::lock_guard lock(mutex_);
    return peer_.lock();
  }
  // Binds the player to a connection; returns the previous one (to be closed) and bumps the
  // connection epoch, which invalidates pending grace timers.
  std::shared_ptr<Peer> bind(std::weak_ptr<Peer> peer) {
    std::lock_guard lock(mutex_);
    auto old = peer_.lock();
    peer_ = std::move(peer);
    ++epoch_;
    labels_told_.clear();  // a new connection may be a new client that was told nothing
    return old;
  }
  // Unbinds if still on `peer`; returns the epoch to check when the grace period ends, or 0.
  uint64_t unbind(const Peer* peer) {
    std::lock_guard lock(mutex_);
    auto current = peer_.lock();
    if (current && current.get() != peer) return 0;  // already on a newer connection
    peer_.reset();
    return ++epoch_;
  }
  bool still_unbound(uint64_t epoch) const {
    std::lock_guard lock(mutex_);
    return epoch_ == epoch && peer_.expired();
  }

  // When the player last sent a command (steady milliseconds): presence's "away".
  static int64_t steady_now_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }
  void touch() { last_active_ms_.store(steady_now_ms(), std::memory_order_relaxed); }
  int64_t last_active_ms() const { return last_active_ms_.load(std::memory_order_relaxed); }

  // The protocol version of the player's latest Hello (docs/protocol.md, Compatibility).
  uint32_t protocol() const { return protocol_.load(std::memory_order_relaxed); }
  void set_protocol(uint32_t version) { protocol_.store(version, std::memory_order_relaxed); }

  // Protocol 3: the labels this connection's client was told for rulesets whose labels depend
  // on the code alone (RulesetInfo::labels_by_code), as hashes of (ruleset, code). `fresh(key)`
  // says whether the label of `key` must be told now, and records it as told. A collision of
  // two keys only leaves a client without a label, which it notices and answers with a Resync;
  // bounded: when full it starts over, which only tells labels again.
  template <typename Visit>
  void with_labels_told(Visit visit) {
    std::lock_guard lock(mutex_);
    visit([this](uint32_t key) {
      auto it = std::lower_bound(labels_told_.begin(), labels_told_.end(), key);
      if (it != labels_told_.end() && *it == key) return false;
      if (labels_told_.size() >= kLabelsTold) {
        labels_told_.clear();
        it = labels_told_.end();
      }
      labels_told_.insert(it, key);
      return true;
    });
  }

  // Forgets every label told: a match took back a step whose updates (and the labels they told)
  // were never sent (match_storage.cpp), so the labels are told again when next needed.
  void forget_labels_told() {
    std::lock_guard lock(mutex_);
    labels_told_.clear();
  }

  // Entries of matches that are gone are dropped here too: a match made by make_shared keeps its
  // whole block while a weak_ptr to it lives, so a player playing match after match on one
  // connection would otherwise hold every match it ever played (the soak's RSS growth).
  void add_match(std::weak_ptr<Match> match) {
    std::lock_guard lock(mutex_);
    std::erase_if(matches_, [](const auto& w) { return w.expired(); });
    matches_.push_back(std::move(match));
  }
  // The match entries held, live or gone (for tests).
  size_t match_entries() const {
    std::lock_guard lock(mutex_);
    return matches_.size();
  }
  std::vector<std::shared_ptr<Match>> matches() {
    std::lock_guard lock(mutex_);
    std::vector<std::shared_ptr<Match>> out;
    std::erase_if(matches_, [](const auto& w) { return w.expired(); });
    for (auto& w : matches_) {
      if (auto m = w.lock()) out.push_back(std::move(m));
    }
    return out;
  }
  void remove_match(const Match* match) {
    std::lock_guard lock(mutex_);
    std::erase_if(matches_, [&](const auto& w) {
      auto m = w.lock();
      return !m || m.get() == match;
    });
  }

 private:
  const uint64_t id_;
  const std::string name_;
  const std::string token_;
  mutable std::mutex mutex_;
  std::weak_ptr<Peer> peer_;
  uint64_t epoch_ = 0;
  std::atomic<uint32_t> protocol_{1};
  std::atomic<int64_t> last_active_ms_{steady_now_ms()};
  static constexpr size_t kLabelsTold = 1024;
  std::vector<uint32_t> labels_told_;  // sorted
  std::vector<std::weak_ptr<Match>> matches_;
  Account account_;
};

}  // namespace duelhall::server
