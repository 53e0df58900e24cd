// The match export file, format "duelhall-match 1": UTF-8 text, one record per line, fields
// separated by single spaces, texts escaped as in text_escape.hpp. Lines, in this order:
//
//   duelhall-match 1                        format name and version
//   engine <version>                        the engine version the commitment binds
//   ruleset <name>
//   seats <n>
//   params <name=value&...>                 the resolved parameters ("-" when none)
//   seat <i> <display name> <seat option>   n lines, seat 0 first
//   commitment <64 hex>                     SHA-256 published at creation (commitment.hpp)
//   seed <64 hex>                           the revealed seed, or "-" while the match is live
//   outcome <winners> <s0,s1,..> <reason>   only for an ended match; winners is a seat bitmask
//   step <seat> <action code>               one per player step, in order; code in decimal
//   chance <after step> <v0,v1,..> <what>   one per recorded die roll or shuffle, in order
//   end <steps> <chance records>            the counts again: a file without it is truncated
//
// A reader refuses anything else (an unknown version, a line out of place, a bad number), so a
// later format gets a new version number rather than a silently misread file.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "fairness/match_record.hpp"

namespace duelhall::fairness {

inline constexpr std::string_view kRecordFormat = "duelhall-match 1";

std::string write_record(const MatchRecord& record);

// Null on failure, with the line and the reason in `error` ("truncated file: ...",
// "line 9: bad action code").
std::optional<MatchRecord> read_record(std::string_view text, std::string& error);

}  // namespace duelhall::fairness
