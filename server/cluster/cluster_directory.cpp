#include "cluster/cluster_directory.hpp"

#include <hiredis/hiredis.h>
#include <spdlog/spdlog.h>
#include <charconv>

#include "cluster/cluster_scripts.hpp"

namespace duelhall::cluster {
namespace {

uint64_t to_u64(const std::string& text) {
  uint64_t value = 0;
  std::from_chars(text.data(), text.data() + text.size(), value);
  return value;
}

// The reply as a flat array of strings, or nullopt (no reply, an error, another type).
std::optional<std::vector<std::string>> strings_of(const std::optional<RedisReply>& reply) {
  if (!reply || reply->type != RedisReply::Type::kArray) return std::nullopt;
  std::vector<std::string> out;
  for (const auto& element : reply->elements) {
    out.push_back(element.type == RedisReply::Type::kInteger ? std::to_string(element.integer)
                                                             : element.text);
  }
  return out;
}

std::optional<uint64_t> integer_of(const std::optional<RedisReply>& reply) {
  if (!reply || reply->type != RedisReply::Type::kInteger || reply->integer < 0)
    return std::nullopt;
  return static_cast<uint64_t>(reply->integer);
}

}  // namespace

bool valid_node_name(std::string_view name) {
  if (name.empty() || name.size() > 63) return false;
  for (char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '.' || c == '_' || c == '-';
    if (!ok) return false;
  }
  return true;
}

std::string encode_listing(const Listing& listing) {
  return std::string(listing.removed ? "R " : "L ") + std::to_string(listing.match) + " " +
         listing.node + "\n" + (listing.removed ? std::string() : listing.info);
}

std::optional<Listing> decode_listing(std::string_view message) {
  const auto newline = message.find('\n');
  if (message.size() < 2 || (message[0] != 'L' && message[0] != 'R') || message[1] != ' ' ||
      newline == std::string_view::npos) {
    return std::nullopt;
  }
  const std::string_view head = message.substr(2, newline - 2);
  const auto space = head.find(' ');
  if (space == std::string_view::npos) return std::nullopt;
  Listing listing;
  auto [end, ec] = std::from_chars(head.data(), head.data() + space, listing.match);
  if (ec != std::errc() || end != head.data() + space || listing.match == 0) return std::nullopt;
  listing.node = std::string(head.substr(space + 1));
  if (!valid_node_name(listing.node)) return std::nullopt;
  listing.removed = message[0] == 'R';
  listing.info = std::string(message.substr(newline + 1));
  return listing;
}

ClusterDirectory::ClusterDirectory(std::shared_ptr<RedisLink> link, std::string prefix)
    : link_(std::move(link)), prefix_(std::move(prefix)) {}

void ClusterDirectory::eval(const char* script, std::vector<std::string> args, ReplyHandler done) {
  std::vector<std::string> command{"EVAL", script, "0", prefix_};
  for (auto& arg : args) command.push_back(std::move(arg));
  link_->command(std::move(command), [done = std::move(done)](std::optional<RedisReply> reply) {
    if (reply && reply->error()) {
      spdlog::error("cluster: Redis refused a script: {}", reply->text);
      reply.reset();
    }
    done(std::move(reply));
  });
}

void ClusterDirectory::heartbeat(const NodeInfo& self, std::chrono::milliseconds ttl,
                                 Answer<std::vector<uint64_t>> done) {
  eval(scripts::kHeartbeat,
       {self.name, self.address, std::to_string(self.matches), std::to_string(self.room),
        std::to_string(ttl.count())},
       [done = std::move(done)](std::optional<RedisReply> reply) {
         auto lost = strings_of(reply);
         if (!lost) return done(std::nullopt);
         std::vector<uint64_t> matches;
         for (const auto& m : *lost) matches.push_back(to_u64(m));
         done(std::move(matches));
       });
}

void ClusterDirectory::acquire(const std::string& node, uint64_t match,
                               std::chrono::milliseconds ttl, Answer<uint64_t> done) {
  eval(scripts::kAcquire, {node, std::to_string(match), std::to_string(ttl.count())},
       [done = std::move(done)](std::optional<RedisReply> reply) { done(integer_of(reply)); });
}

void ClusterDirectory::orphans(Answer<std::vector<Orphan>> done) {
  eval(scripts::kOrphans, {}, [done = std::move(done)](std::optional<RedisReply> reply) {
    auto flat = strings_of(reply);
    if (!flat) return done(std::nullopt);
    std::vector<Orphan> out;
    for (size_t i = 0; i + 2 < flat->size(); i += 3)
      out.push_back({to_u64((*flat)[i]), (*flat)[i + 1], (*flat)[i + 2] == "1"});
    done(std::move(out));
  });
}

void ClusterDirectory::adopt(const std::string& node, const Orphan& orphan,
                             std::chrono::milliseconds ttl, Answer<uint64_t> done) {
  eval(scripts::kAdopt,
       {node, std::to_string(orphan.match), orphan.owner, std::to_string(ttl.count())},
       [done = std::move(done)](std::optional<RedisReply> reply) { done(integer_of(reply)); });
}

void ClusterDirectory::release(const std::string& node, uint64_t match, Answer<bool> done) {
  eval(scripts::kRelease, {node, std::to_string(match)},
       [done = std::move(done)](std::optional<RedisReply> reply) {
         auto n = integer_of(reply);
         done(n ? std::optional<bool>(*n == 1) : std::nullopt);
       });
}

void ClusterDirectory::match_ended(const std::string& node, uint64_t match, Answer<bool> done) {
  eval(scripts::kMatchEnded, {node, std::to_string(match)},
       [done = std::move(done)](std::optional<RedisReply> reply) {
         auto n = integer_of(reply);
         done(n ? std::optional<bool>(*n == 1) : std::nullopt);
       });
}

void ClusterDirectory::lease(uint64_t match, Answer<std::pair<uint64_t, std::string>> done) {
  link_->command(
      {"MGET", prefix_ + "epoch:" + std::to_string(match),
       prefix_ + "lease:" + std::to_string(match)},
      [done = std::move(done)](std::optional<RedisReply> reply) {
        if (!reply || reply->type != RedisReply::Type::kArray || reply->elements.size() != 2) {
          return done(std::nullopt);
        }
        done(std::pair(to_u64(reply->elements[0].text), reply->elements[1].text));
      });
}

void ClusterDirectory::nodes(Answer<std::vector<NodeInfo>> done) {
  eval(scripts::kNodes, {}, [done = std::move(done)](std::optional<RedisReply> reply) {
    auto flat = strings_of(reply);
    if (!flat) return done(std::nullopt);
    std::vector<NodeInfo> out;
    for (size_t i = 0; i + 4 < flat->size(); i += 5) {
      out.push_back({(*flat)[i], (*flat)[i + 1], static_cast<uint32_t>(to_u64((*flat)[i + 2])),
                     static_cast<uint32_t>(to_u64((*flat)[i + 3])),
                     static_cast<int64_t>(to_u64((*flat)[i + 4]))});
    }
    done(std::move(out));
  });
}

void ClusterDirectory::publish_listing(const Listing& listing, Answer<bool> done) {
  eval(scripts::kPublishListing,
       {std::to_string(listing.match), listing.node, listing.info, lobby_channel(),
        encode_listing(listing)},
       [done = std::move(done)](std::optional<RedisReply> reply) {
         done(reply ? std::optional(true) : std::nullopt);
       });
}

void ClusterDirectory::remove_listing(uint64_t match, const std::string& node, Answer<bool> done) {
  Listing removed{match, node, {}, true};
  eval(scripts::kRemoveListing, {std::to_string(match), lobby_channel(), encode_listing(removed)},
       [done = std::move(done)](std::optional<RedisReply> reply) {
         done(reply ? std::optional(true) : std::nullopt);
       });
}

void ClusterDirectory::listings(Answer<std::vector<Listing>> done) {
  eval(scripts::kListings, {}, [done = std::move(done)](std::optional<RedisReply> reply) {
    auto flat = strings_of(reply);
    if (!flat) return done(std::nullopt);
    std::vector<Listing> out;
    for (size_t i = 0; i + 2 < flat->size(); i += 3) {
      out.push_back({to_u64((*flat)[i]), (*flat)[i + 1], (*flat)[i + 2], false});
    }
    done(std::move(out));
  });
}

void ClusterDirectory::reserve_ids(uint64_t count, uint64_t floor, Answer<uint64_t> done) {
  eval(scripts::kReserveIds, {std::to_string(count), std::to_string(floor)},
       [done = std::move(done)](std::optional<RedisReply> reply) { done(integer_of(reply)); });
}

namespace {

// One script on a blocking connection of its own: its integer reply (>= 0), or nullopt with
// `error` (`what` names the call in it).
std::optional<uint64_t> eval_now(const RedisEndpoint& endpoint, const char* script,
                                 const std::vector<std::string>& args, const std::string& what,
                                 std::string& error) {
  error = probe_redis(endpoint, std::chrono::seconds(3));
  if (!error.empty()) return std::nullopt;
  redisContext* c = redisConnectWithTimeout(endpoint.host.c_str(), endpoint.port, {3, 0});
  if (!c || c->err) {
    error = "cannot reach Redis at " + endpoint.text();
    if (c) redisFree(c);
    return std::nullopt;
  }
  redisSetTimeout(c, {3, 0});
  std::vector<const char*> argv{"EVAL", script, "0"};
  for (const auto& arg : args) argv.push_back(arg.c_str());
  auto* reply = static_cast<redisReply*>(
      redisCommandArgv(c, static_cast<int>(argv.size()), argv.data(), nullptr));
  std::optional<uint64_t> out;
  if (reply && reply->type == REDIS_REPLY_INTEGER && reply->integer >= 0) {
    out = static_cast<uint64_t>(reply->integer);
  } else {
    error = "Redis at " + endpoint.text() + " did not " + what + ": " +
            (reply && reply->type == REDIS_REPLY_ERROR ? std::string(reply->str) : c->errstr);
  }
  if (reply) freeReplyObject(reply);
  redisFree(c);
  return out;
}

}  // namespace

std::optional<uint64_t> ClusterDirectory::reserve_ids_now(const RedisEndpoint& endpoint,
                                                          const std::string& prefix, uint64_t count,
                                                          uint64_t floor, std::string& error) {
  auto last =
      eval_now(endpoint, scripts::kReserveIds,
               {prefix, std::to_string(count), std::to_string(floor)}, "reserve match ids", error);
  if (last && *last == 0) {
    error = "Redis at " + endpoint.text() + " did not reserve match ids";
    return std::nullopt;
  }
  return last;
}

std::optional<uint64_t> ClusterDirectory::acquire_now(const RedisEndpoint& endpoint,
                                                      const std::string& prefix,
                                                      const std::string& node, uint64_t match,
                                                      std::chrono::milliseconds ttl,
                                                      std::string& error) {
  return eval_now(endpoint, scripts::kAcquire,
                  {prefix, node, std::to_string(match), std::to_string(ttl.count())},
                  "acquire the lease of match " + std::to_string(match), error);
}

std::optional<uint64_t> ClusterDirectory::release_unhosted_now(const RedisEndpoint& endpoint,
                                                               const std::string& prefix,
                                                               const std::string& node,
                                                               const std::vector<uint64_t>& hosted,
                                                               std::string& error) {
  std::vector<std::string> args{prefix, node, lobby_channel_of(prefix)};
  for (uint64_t match : hosted) args.push_back(std::to_string(match));
  return eval_now(endpoint, scripts::kReleaseUnhosted, args,
                  "give up the matches this node no longer hosts", error);
}

}  // namespace duelhall::cluster
