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

namespace {

// One hop of X-Forwarded-For: "203.0.113.5", "203.0.113.5:4711", "2001:db8::1",
// "[2001:db8::1]" or "[2001:db8::1]:4711", with spaces around; nullopt for anything else
// ("unknown", an obfuscated name, garbage).
std::optional<ip::address> parse_hop(std::string_view item) {
  while (!item.empty() && (item.front() == ' ' || item.front() == '\t')) item.remove_prefix(1);
  while (!item.empty() && (item.back() == ' ' || item.back() == '\t')) item.remove_suffix(1);
  const auto is_port = [](std::string_view text) {
    return !text.empty() && text.size() <= 5 &&
           text.find_first_not_of("0123456789") == std::string_view::npos;
  };
  if (item.starts_with('[')) {
    const auto close = item.find(']');
    if (close == std::string_view::npos) return std::nullopt;
    const std::string_view rest = item.substr(close + 1);
    if (!rest.empty() && (rest.front() != ':' || !is_port(rest.substr(1)))) return std::nullopt;
    item = item.substr(1, close - 1);
  } else if (const auto colon = item.find(':');
             colon != std::string_view::npos && colon == item.rfind(':')) {
    // IPv4 with a port (one colon: not IPv6)
    if (!is_port(item.substr(colon + 1))) return std::nullopt;
    item = item.substr(0, colon);
  }
  boost::system::error_code ec;
  const ip::address hop = ip::make_address(std::string(item), ec);
  if (ec) return std::nullopt;
  return plain_address(hop);
}

}  // namespace

std::optional<std::string> TrustedProxies::client_address(
    const ip::address& peer, const std::vector<std::string_view>& forwarded_for) const {
  const ip::address own = plain_address(peer);
  if (forwarded_for.empty() || !trusts(own)) return own.to_string();
  // The lines in order, each a comma-separated list: together one list, oldest hop first.
  std::vector<std::string_view> items;
  for (std::string_view line : forwarded_for) {
    while (true) {
      const auto comma = line.find(',');
      items.push_back(line.substr(0, comma));
      if (comma == std::string_view::npos) break;
      line.remove_prefix(comma + 1);
    }
  }
  // From the right: each hop a trusted proxy appended. The first that is not a trusted proxy is
  // the client; one that cannot be read was written by the client (or is not believed), so the
  // request is refused rather than charged to the proxy.
  std::optional<ip::address> leftmost;
  for (auto it = items.rbegin(); it != items.rend(); ++it) {
    const auto hop = parse_hop(*it);
    if (!hop) return std::nullopt;
    if (!trusts(*hop)) return hop->to_string();
    leftmost = hop;
  }
  return leftmost ? leftmost->to_string() : own.to_string();
}

}  // namespace duelhall::server
