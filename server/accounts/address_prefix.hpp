// An IPv4 or IPv6 address or prefix ("203.0.113.7", "10.0.0.0/8", "2001:db8::/32") as an address
// ban names it. An IPv4-mapped IPv6 address counts as the IPv4 address it is, so a ban of
// 192.0.2.1 also holds a client the socket reports as ::ffff:192.0.2.1.
#pragma once

#include <boost/asio/ip/address.hpp>
#include <optional>
#include <string>

namespace duelhall::accounts {

class AddressPrefix {
 public:
  // nullopt: not an address, or a prefix length past the address's width.
  static std::optional<AddressPrefix> parse(const std::string& text);
  // Whether `address` (an address as text) lies in this prefix; false for text that is not one.
  bool contains(const std::string& address) const;
  // "base/prefix", the base masked to the prefix: the form bans are stored and listed in.
  std::string text() const;
  bool is_v4() const { return base_.is_v4(); }
  unsigned length() const { return prefix_; }

 private:
  boost::asio::ip::address base_;
  unsigned prefix_ = 0;
};

}  // namespace duelhall::accounts
