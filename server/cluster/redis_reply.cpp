#include "cluster/redis_reply.hpp"

#include <hiredis/hiredis.h>
#include <charconv>

namespace duelhall::cluster {

int64_t RedisReply::as_integer() const {
  if (type == Type::kInteger) return integer;
  int64_t value = 0;
  if (type == Type::kString) std::from_chars(text.data(), text.data() + text.size(), value);
  return value;
}

RedisReply copy_reply(const void* hiredis_reply) {
  RedisReply out;
  const auto* r = static_cast<const redisReply*>(hiredis_reply);
  if (!r) return out;
  switch (r->type) {
    case REDIS_REPLY_INTEGER:
      out.type = RedisReply::Type::kInteger;
      out.integer = r->integer;
      break;
    case REDIS_REPLY_STRING:
    case REDIS_REPLY_STATUS:
    case REDIS_REPLY_ERROR:
      out.type = r->type == REDIS_REPLY_STRING   ? RedisReply::Type::kString
                 : r->type == REDIS_REPLY_STATUS ? RedisReply::Type::kStatus
                                                 : RedisReply::Type::kError;
      out.text.assign(r->str, r->len);
      break;
    case REDIS_REPLY_ARRAY:
      out.type = RedisReply::Type::kArray;
      out.elements.reserve(r->elements);
      for (size_t i = 0; i < r->elements; ++i) out.elements.push_back(copy_reply(r->element[i]));
      break;
    default:
      break;
  }
  return out;
}

}  // namespace duelhall::cluster
