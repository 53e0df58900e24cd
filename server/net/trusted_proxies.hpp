// Reverse proxies whose X-Forwarded-For is believed (--trusted-proxy CIDR, IPv4 or IPv6). Behind
// one, a connection's address is the right-most address in X-Forwarded-For that is not itself a
// trusted proxy, so that connection caps, bans and the sign-in limiter see the client, not the
// proxy. The header of
// a peer that is not trusted is ignored: anyone can write one.
#pragma once

#include <boost/asio/ip/address.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace duelhall::server {

class TrustedProxies {
 public:
  // Adds "10.0.0.0/8", "2001:db8::/32" or a bare address; false with `error` when it is not one.
  bool add(const std::string& cidr, std::string& error);
  bool empty() const { return networks_.empty(); }
  bool trusts(const boost::asio::ip::address& address) const;
  // The client's address as text: `peer`'s own, or, when `peer` is trusted, the right-most
  // hop of the X-Forwarded-For lines (`forwarded_for`, in the order received, read as one list)
  // that is not itself a trusted proxy (the left-most when all are trusted). A hop may carry a
  // port (203.0.113.5:4711, [2001:db8::1]:4711). nullopt: a hop met before the client's cannot be
  // read ("unknown", garbage), so the request names no client and is refused.
  std::optional<std::string> client_address(
      const boost::asio::ip::address& peer,
      const std::vector<std::string_view>& forwarded_for) const;

 private:
  struct Network {
    boost::asio::ip::address base;
    unsigned prefix = 0;
  };
  std::vector<Network> networks_;
};

// An IPv4-mapped IPv6 address as the IPv4 address it is; any other unchanged.
boost::asio::ip::address plain_address(const boost::asio::ip::address& address);

}  // namespace duelhall::server
