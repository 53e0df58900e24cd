// A Redis reply as a value (copied out of hiredis's reply, which lives only in its callback).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace duelhall::cluster {

struct RedisReply {
  enum class Type { kNil, kInteger, kString, kStatus, kError, kArray };
  Type type = Type::kNil;
  int64_t integer = 0;
  std::string text;  // kString, kStatus, kError
  std::vector<RedisReply> elements;

  bool error() const { return type == Type::kError; }
  // An integer reply, or a string that holds one (Lua numbers in tables come back as integers).
  int64_t as_integer() const;
};

// Copies hiredis's `redisReply*` (passed as void* so that callers need no hiredis header).
RedisReply copy_reply(const void* hiredis_reply);

}  // namespace duelhall::cluster
