#include "net/trusted_proxies.hpp"

#include <boost/asio/ip/network_v4.hpp>
#include <boost/asio/ip/network_v6.hpp>
#include <charconv>

namespace duelhall::server {

namespace ip = boost::asio::ip;

ip::address plain_address(const ip::address& address) {
  if (address.is_v6() && address.to_v6().is_v4_mapped()) {
    return ip::make_address_v4(ip::v4_mapped, address.to_v6());
  }
  return address;
}

bool TrustedProxies::add(const std::string& cidr, std::string& error) {
  const auto slash = cidr.find('/');
  boost::system::error_code ec;
  const ip::address base = plain_address(ip::make_address(cidr.substr(0, slash), ec));
  if (ec) {
    error = "'" + cidr + "' is not an address or a CIDR network";
    return false;
  }
  const unsigned width = base.is_v4() ? 32 : 128;
  unsigned prefix = width;
  if (slash != std::string::npos) {
    const char* first = cidr.data() + slash + 1;
    const char* last = cidr.data() + cidr.size();
    auto [ptr, err] = std::from_chars(first, last, prefix);
    if (err != std::errc() || ptr != last || first == last || prefix > width) {
      error = "'" + cidr + "' has a bad prefix length";
      return false;
    }
  }
  networks_.push_back({base, prefix});
  return true;
}

bool TrustedProxies::trusts(const ip::address& raw) const {
  const ip::address address = plain_address(raw);
  for (const Network& n : networks_) {
    if (n.base.is_v4() != address.is_v4()) continue;
    if (address.is_v4()) {
      const auto prefix = static_cast<unsigned short>(n.prefix);
      if (ip::make_network_v4(address.to_v4(), prefix).network() ==
          ip::make_network_v4(n.base.to_v4(), prefix).network()) {
        return true;
      }
    } else {
      const auto prefix = static_cast<unsigned short>(n.prefix);
      if (ip::make_network_v6(address.to_v6(), prefix).network() ==
          ip::make_network_v6(n.base.to_v6(), prefix).network()) {
        return true;
      }
    }
  }
  return false;
}

std::string TrustedProxies::client_address(const ip::address& peer,
                                           std::string_view forwarded_for) const {
  const ip::address own = plain_address(peer);
  if (forwarded_for.empty() || !trusts(own)) return own.to_string();
  std::vector<ip::address> hops;
  while (!forwarded_for.empty()) {
    const auto comma = forwarded_for.find(',');
    std::string_view item = forwarded_for.substr(0, comma);
    forwarded_for = comma == std::string_view::npos ? "" : forwarded_for.substr(comma + 1);
    while (!item.empty() && (item.front() == ' ' || item.front() == '\t')) item.remove_prefix(1);
    while (!item.empty() && (item.back() == ' ' || item.back() == '\t')) item.remove_suffix(1);
    boost::system::error_code ec;
    const ip::address hop = ip::make_address(std::string(item), ec);
    if (ec) return own.to_string();  // a header we cannot read tells us nothing
    hops.push_back(plain_address(hop));
  }
  for (auto it = hops.rbegin(); it != hops.rend(); ++it) {
    if (!trusts(*it)) return it->to_string();
  }
  return hops.empty() ? own.to_string() : hops.front().to_string();
}

}  // namespace duelhall::server
