// Which precompressed copy of a static file to send: the request's Accept-Encoding (RFC 9110
// 12.5.3) read for the two codings the client's build writes (scripts/compress-dist.mjs).
#pragma once

#include <string_view>

namespace duelhall::server {

enum class ContentCoding { kIdentity, kGzip, kBrotli };

// The q-value (0 to 1) an Accept-Encoding header gives `coding`, through "*" when it is not
// named; 0 when neither is there. Names are compared without case.
double coding_quality(std::string_view accept_encoding, std::string_view coding);

// The better of Brotli and gzip that the header accepts and the folder has (Brotli on a tie:
// smaller), else identity.
ContentCoding pick_coding(std::string_view accept_encoding, bool have_brotli, bool have_gzip);

// The name in Content-Encoding and the file suffix of a coding ("" for identity).
std::string_view coding_name(ContentCoding coding);
std::string_view coding_suffix(ContentCoding coding);

}  // namespace duelhall::server
