#include "accounts/address_prefix.hpp"

#include <boost/asio/ip/network_v4.hpp>
#include <boost/asio/ip/network_v6.hpp>
#include <charconv>

namespace duelhall::accounts {

namespace ip = boost::asio::ip;

namespace {

ip::address plain(const ip::address& address) {
  if (address.is_v6() && address.to_v6().is_v4_mapped()) {
    return ip::make_address_v4(ip::v4_mapped, address.to_v6());
  }
  return address;
}

ip::address masked(const ip::address& address, unsigned prefix) {
  const auto length = static_cast<unsigned short>(prefix);
  if (address.is_v4()) return ip::make_network_v4(address.to_v4(), length).network();
  return ip::make_network_v6(address.to_v6(), length).network();
}

}  // namespace

std::optional<AddressPrefix> AddressPrefix::parse(const std::string& text) {
  const auto slash = text.find('/');
  boost::system::error_code ec;
  const ip::address base = plain(ip::make_address(text.substr(0, slash), ec));
  if (ec) return std::nullopt;
  const unsigned width = base.is_v4() ? 32 : 128;
  unsigned prefix = width;
  if (slash != std::string::npos) {
    const char* first = text.data() + slash + 1;
    const char* last = text.data() + text.size();
    auto [ptr, err] = std::from_chars(first, last, prefix);
    if (err != std::errc() || ptr != last || first == last || prefix > width) return std::nullopt;
  }
  AddressPrefix out;
  out.base_ = masked(base, prefix);
  out.prefix_ = prefix;
  return out;
}

bool AddressPrefix::contains(const std::string& text) const {
  boost::system::error_code ec;
  const ip::address address = plain(ip::make_address(text, ec));
  if (ec || address.is_v4() != base_.is_v4()) return false;
  return masked(address, prefix_) == base_;
}

std::string AddressPrefix::text() const {
  return base_.to_string() + "/" + std::to_string(prefix_);
}

}  // namespace duelhall::accounts
