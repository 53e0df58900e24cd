#include "cluster/ticket.hpp"

#include <sodium.h>

#include <algorithm>
#include <charconv>
#include <stdexcept>

namespace duelhall::cluster {
namespace {

constexpr uint8_t kVersion = 2;

void put(std::string& out, uint64_t value, int bytes) {
  for (int i = bytes - 1; i >= 0; --i) out.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
}

uint64_t get(std::string_view in, size_t at, int bytes) {
  uint64_t value = 0;
  for (int i = 0; i < bytes; ++i) value = (value << 8) | static_cast<unsigned char>(in[at + i]);
  return value;
}

// version 2 | match 8 | role 1 | seat 4 | expires 8 | holder 16 | node length 1 | node | MAC 32
constexpr size_t kHolderAt = 1 + 8 + 1 + 4 + 8;
constexpr size_t kFixed = kHolderAt + 16 + 1;

}  // namespace

const char* describe(TicketCheck check) {
  switch (check) {
    case TicketCheck::kGood:
      return "good";
    case TicketCheck::kForged:
      return "the ticket is not one this cluster signed";
    case TicketCheck::kExpired:
      return "the ticket has expired; ask again where the match is";
    case TicketCheck::kWrongMatch:
      return "the ticket is for another match or another command";
    case TicketCheck::kWrongNode:
      return "the ticket is for another node";
    case TicketCheck::kWrongHolder:
      return "the ticket was issued to another player";
    case TicketCheck::kTooLong:
      return "the ticket's expiry is further ahead than this cluster's tickets last";
  }
  return "bad ticket";
}

std::array<unsigned char, 16> holder_digest(std::string_view key) {
  if (sodium_init() < 0) throw std::runtime_error("libsodium cannot start");
  std::array<unsigned char, 16> out{};
  crypto_generichash(out.data(), out.size(), reinterpret_cast<const unsigned char*>(key.data()),
                     key.size(), nullptr, 0);
  return out;
}

TicketSigner::TicketSigner(std::string_view secret) {
  if (sodium_init() < 0) throw std::runtime_error("libsodium cannot start");
  static_assert(crypto_auth_KEYBYTES == 32);
  static constexpr char kContext[] = "duelhall cluster ticket key v1";
  crypto_generichash(key_.data(), key_.size(),
                     reinterpret_cast<const unsigned char*>(secret.data()), secret.size(),
                     reinterpret_cast<const unsigned char*>(kContext), sizeof(kContext) - 1);
  static constexpr char kChannelContext[] = "duelhall cluster channel key v1";
  crypto_generichash(channel_key_.data(), channel_key_.size(),
                     reinterpret_cast<const unsigned char*>(secret.data()), secret.size(),
                     reinterpret_cast<const unsigned char*>(kChannelContext),
                     sizeof(kChannelContext) - 1);
}

// "<MAC, 64 hex digits><Unix ms>\n<message>", the MAC over everything after it.
std::string TicketSigner::seal(std::string_view message, int64_t now_ms) const {
  const std::string body = std::to_string(now_ms) + "\n" + std::string(message);
  unsigned char mac[crypto_auth_BYTES];
  crypto_auth(mac, reinterpret_cast<const unsigned char*>(body.data()), body.size(),
              channel_key_.data());
  char hex[2 * crypto_auth_BYTES + 1];
  sodium_bin2hex(hex, sizeof hex, mac, sizeof mac);
  return std::string(hex) + body;
}

std::optional<std::string> TicketSigner::unseal(std::string_view sealed, int64_t now_ms,
                                                int64_t max_age_ms) const {
  constexpr size_t kHex = 2 * crypto_auth_BYTES;
  if (sealed.size() < kHex) return std::nullopt;
  unsigned char mac[crypto_auth_BYTES];
  size_t length = 0;
  if (sodium_hex2bin(mac, sizeof mac, sealed.data(), kHex, nullptr, &length, nullptr) != 0 ||
      length != sizeof mac) {
    return std::nullopt;
  }
  const std::string_view body = sealed.substr(kHex);
  if (crypto_auth_verify(mac, reinterpret_cast<const unsigned char*>(body.data()), body.size(),
                         channel_key_.data()) != 0) {
    return std::nullopt;
  }
  const size_t newline = body.find('\n');
  if (newline == std::string_view::npos) return std::nullopt;
  int64_t sent = 0;
  const auto [end, ec] = std::from_chars(body.data(), body.data() + newline, sent);
  if (ec != std::errc() || end != body.data() + newline) return std::nullopt;
  if (sent < now_ms - max_age_ms || sent > now_ms + max_age_ms) return std::nullopt;
  return std::string(body.substr(newline + 1));
}

std::string TicketSigner::sign(const Ticket& ticket) const {
  std::string out;
  out.push_back(static_cast<char>(kVersion));
  put(out, ticket.match, 8);
  out.push_back(static_cast<char>(ticket.role));
  put(out, static_cast<uint32_t>(ticket.seat), 4);
  put(out, static_cast<uint64_t>(ticket.expires_ms), 8);
  out.append(reinterpret_cast<const char*>(ticket.holder.data()), ticket.holder.size());
  const std::string node = ticket.node.substr(0, 255);
  out.push_back(static_cast<char>(node.size()));
  out += node;
  unsigned char mac[crypto_auth_BYTES];
  crypto_auth(mac, reinterpret_cast<const unsigned char*>(out.data()), out.size(), key_.data());
  out.append(reinterpret_cast<const char*>(mac), sizeof(mac));
  return out;
}

TicketCheck TicketSigner::check(std::string_view bytes, uint64_t match, TicketRole role,
                                std::string_view node, int64_t now_ms, Ticket* out) const {
  if (bytes.size() < kFixed + crypto_auth_BYTES || bytes.size() > kFixed + 255 + crypto_auth_BYTES)
    return TicketCheck::kForged;
  const size_t body = bytes.size() - crypto_auth_BYTES;
  if (crypto_auth_verify(reinterpret_cast<const unsigned char*>(bytes.data() + body),
                         reinterpret_cast<const unsigned char*>(bytes.data()), body,
                         key_.data()) != 0) {
    return TicketCheck::kForged;
  }
  if (static_cast<uint8_t>(bytes[0]) != kVersion) return TicketCheck::kForged;
  const size_t node_length = static_cast<unsigned char>(bytes[kFixed - 1]);
  if (kFixed + node_length != body) return TicketCheck::kForged;
  Ticket ticket;
  ticket.match = get(bytes, 1, 8);
  ticket.role = static_cast<TicketRole>(bytes[9]);
  ticket.seat = static_cast<int32_t>(static_cast<uint32_t>(get(bytes, 10, 4)));
  ticket.expires_ms = static_cast<int64_t>(get(bytes, 14, 8));
  std::copy_n(reinterpret_cast<const unsigned char*>(bytes.data() + kHolderAt),
              ticket.holder.size(), ticket.holder.begin());
  ticket.node = std::string(bytes.substr(kFixed, node_length));
  if (out) *out = ticket;
  if (ticket.node != node) return TicketCheck::kWrongNode;
  if ((match != 0 && ticket.match != match) || ticket.role != role) return TicketCheck::kWrongMatch;
  if (now_ms >= ticket.expires_ms) return TicketCheck::kExpired;
  return TicketCheck::kGood;
}

TicketCheck TicketSigner::check_for(std::string_view bytes, uint64_t match, TicketRole role,
                                    std::string_view node, int64_t now_ms, std::string_view holder,
                                    int64_t max_life_ms, Ticket* out) const {
  Ticket ticket;
  const TicketCheck checked = check(bytes, match, role, node, now_ms, &ticket);
  if (out) *out = ticket;
  if (checked != TicketCheck::kGood) return checked;
  if (ticket.expires_ms - now_ms > max_life_ms) return TicketCheck::kTooLong;
  if (ticket.holder != holder_digest(holder)) return TicketCheck::kWrongHolder;
  return TicketCheck::kGood;
}

}  // namespace duelhall::cluster
