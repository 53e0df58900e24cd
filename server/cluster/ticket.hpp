// Tickets: what a node hands a client it sends to another node (docs/cluster.md). A ticket names
// the match, the role the client comes in (create, join, spectate, resume), the seat when it has
// one, the node it is for, when it expires and whom it was issued to (a digest of the holder's
// key: its account, else its display name; a resume ticket its resume token), and carries an HMAC
// (libsodium crypto_auth, HMAC-SHA-512-256) under a key derived from the cluster secret every node
// shares. The node it names checks it before it acts on the command that carries it.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace duelhall::cluster {

// kResume: a Hello with a resume token, sent to the node that hosts a match of its cursors.
enum class TicketRole : uint8_t { kCreate = 1, kJoin = 2, kSpectate = 3, kResume = 4 };

struct Ticket {
  uint64_t match = 0;  // kCreate: the id the match is created with
  TicketRole role = TicketRole::kJoin;
  int32_t seat = -1;  // -1: any
  std::string node;
  int64_t expires_ms = 0;                  // Unix milliseconds
  std::array<unsigned char, 16> holder{};  // holder_digest() of whom it was issued to
};

// The digest a ticket carries of its holder's key (ClusterNode::holder_key).
std::array<unsigned char, 16> holder_digest(std::string_view key);

enum class TicketCheck {
  kGood,
  kForged,       // malformed, or its MAC does not verify under this cluster's secret
  kExpired,      // genuine, but past its expiry
  kWrongMatch,   // genuine, but for another match or role
  kWrongNode,    // genuine, but for another node
  kWrongHolder,  // genuine, but issued to another player
  kTooLong,      // genuine, but its expiry lies further ahead than any ticket's life
};
const char* describe(TicketCheck check);

class TicketSigner {
 public:
  // The key is derived from `secret` (at least 16 bytes: the caller checks the config).
  explicit TicketSigner(std::string_view secret);

  std::string sign(const Ticket& ticket) const;
  // Verifies `bytes` as a ticket for `match` in `role` on `node` at `now_ms`; the MAC is checked
  // first, so nothing of a forged ticket is believed. `out` gets the ticket when it is genuine.
  // `match` 0 takes the ticket's own (a create ticket names the id the match is to get).
  TicketCheck check(std::string_view bytes, uint64_t match, TicketRole role, std::string_view node,
                    int64_t now_ms, Ticket* out = nullptr) const;
  // check(), then whether the ticket was issued to `holder` (kWrongHolder) and expires within
  // `max_life_ms` of `now_ms` (kTooLong: a ticket signed for 2100 is refused).
  TicketCheck check_for(std::string_view bytes, uint64_t match, TicketRole role,
                        std::string_view node, int64_t now_ms, std::string_view holder,
                        int64_t max_life_ms, Ticket* out = nullptr) const;

  // A message on a cluster channel (moderation: kicks, bans), sealed with its time under a second
  // key derived from the secret, so that a client of Redis without the secret cannot kick
  // players or replay an old message: unseal gives nullopt for a bad MAC or a time more than
  // `max_age_ms` away from `now_ms`.
  std::string seal(std::string_view message, int64_t now_ms) const;
  std::optional<std::string> unseal(std::string_view sealed, int64_t now_ms,
                                    int64_t max_age_ms) const;

 private:
  std::array<unsigned char, 32> key_{};
  std::array<unsigned char, 32> channel_key_{};
};

}  // namespace duelhall::cluster
