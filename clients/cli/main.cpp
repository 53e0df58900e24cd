// duelhall-cli: a terminal client for any ruleset the server offers. See `duelhall-cli --help`.
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include "options.hpp"
#include "play.hpp"
#include "redirect.hpp"
#include "ws_client.hpp"

using namespace duelhall;
using namespace duelhall::cli;
using duelhall::client::WsClient;

namespace {

// Thrown for a refused command: the message says which and why.
struct Refused : std::runtime_error {
  using std::runtime_error::runtime_error;
};

ServerMessage checked(WsClient& client, ClientMessage request, const char* what) {
  ServerMessage reply = client.request(std::move(request));
  if (reply.result() != OK) {
    throw Refused(std::string(what) + " refused: " + ResultCode_Name(reply.result()) + ": " +
                  reply.reason());
  }
  return reply;
}

// The same for the commands another node of a cluster may serve: a REDIRECT is followed to that
// node, whose connection replaces `client` (docs/cluster.md), and whose player's resume token
// replaces `identity`'s.
ServerMessage followed(std::unique_ptr<WsClient>& client, ClientMessage request, const Options& o,
                       Identity& identity, const char* what) {
  ServerMessage welcome;
  ServerMessage reply = client::request_following_redirects(client, std::move(request), o.name,
                                                            kProtocol, 2, &welcome);
  if (welcome.has_welcome()) identity.token = welcome.welcome().resume_token();
  if (reply.result() != OK) {
    throw Refused(std::string(what) + " refused: " + ResultCode_Name(reply.result()) + ": " +
                  reply.reason());
  }
  return reply;
}

// Says Hello as `o.name`; the Welcome's resume token is the one to come back with.
std::string hello(WsClient& client, const Options& o) {
  ClientMessage m;
  m.mutable_hello()->set_protocol_version(kProtocol);
  m.mutable_hello()->set_display_name(o.name);
  const ServerMessage reply = checked(client, std::move(m), "hello");
  std::cout << "connected as " << reply.welcome().display_name() << " (player "
            << reply.welcome().player_id() << ")\n";
  return reply.welcome().resume_token();
}

RulesetList rulesets(WsClient& client) {
  ClientMessage m;
  m.mutable_list_rulesets();
  return checked(client, std::move(m), "list rulesets").rulesets();
}

const RulesetInfo* find_ruleset(const RulesetList& list, const std::string& name) {
  for (const auto& r : list.rulesets()) {
    if (r.name() == name) return &r;
  }
  return nullptr;
}

// `name`'s settings with its phrase book, which a seat's events come in (protocol 5); nullopt
// when the server has no such ruleset.
std::optional<RulesetInfo> ruleset_with_book(WsClient& client, const std::string& name) {
  ClientMessage m;
  m.mutable_list_rulesets()->add_phrases_of(name);
  const ServerMessage reply = client.request(std::move(m));
  if (reply.result() == UNKNOWN_RULESET) return std::nullopt;
  if (reply.result() != OK) {
    throw Refused("list rulesets refused: " + ResultCode_Name(reply.result()) + ": " + reply.reason());
  }
  const RulesetInfo* found = find_ruleset(reply.rulesets(), name);
  return found ? std::optional<RulesetInfo>(*found) : std::nullopt;
}

int print_rulesets(WsClient& client) {
  const RulesetList list = rulesets(client);
  for (const auto& r : list.rulesets()) {
    std::cout << r.name() << ": " << r.display_name() << ", " << r.min_seats() << "-"
              << r.max_seats() << " seats\n  " << r.summary() << "\n";
    for (const auto& p : r.params()) {
      std::cout << "  --param " << p.name() << "=";
      if (p.kind() == ParamInfo::CHOICE) {
        for (int i = 0; i < p.choices_size(); ++i) std::cout << (i ? "|" : "") << p.choices(i);
      } else {
        std::cout << p.min() << ".." << p.max() << " (default " << p.default_int() << ")";
      }
      std::cout << "  " << p.description() << "\n";
    }
  }
  return 0;
}

int print_matches(WsClient& client) {
  ClientMessage m;
  m.mutable_list_matches();
  const MatchList list = checked(client, std::move(m), "list matches").matches();
  if (list.matches().empty()) std::cout << "no public matches\n";
  for (const auto& match : list.matches()) {
    std::cout << match.match_id() << "  " << match.ruleset() << "  "
              << MatchStatus_Name(match.status()) << "  seats:";
    for (const auto& seat : match.seats()) {
      std::cout << " [" << (seat.occupant() == SeatInfo::EMPTY ? "free" : seat.name())
                << (seat.occupant() == SeatInfo::BOT ? " (bot)" : "") << "]";
    }
    std::cout << "  spectators " << match.spectators() << "  actions " << match.actions()
              << "  host " << match.host();
    if (!match.node().empty()) std::cout << "  node " << match.node();  // in a cluster
    std::cout << "\n";
  }
  return 0;
}

int create(std::unique_ptr<WsClient>& client, const Options& o, Identity& identity) {
  const std::optional<RulesetInfo> ruleset = ruleset_with_book(*client, o.operands[0]);
  if (!ruleset) throw Refused("the server has no ruleset " + o.operands[0]);
  ClientMessage m;
  CreateMatch* c = m.mutable_create_match();
  MatchSettings* s = c->mutable_settings();
  s->set_ruleset(ruleset->name());
  s->set_seats(o.seats ? o.seats : ruleset->min_seats());
  for (const auto& [key, value] : o.params) (*s->mutable_params())[key] = value;
  s->set_unlisted(o.unlisted);
  s->set_spectators_allowed(!o.no_spectators);
  s->set_bot_level(o.bot_level);
  s->set_bot_delay_ms(o.bot_delay_ms);
  c->set_join(!o.wait_only);
  c->set_seat_option(o.seat_option);
  c->set_bot_seats(o.bots);
  const MatchCreated created = followed(client, std::move(m), o, identity, "create").created();
  std::cout << "created match " << created.match().match_id() << "\n";
  if (!created.invite_code().empty()) std::cout << "invite code " << created.invite_code() << "\n";
  if (o.wait_only) return 0;
  return follow_match(client, o, created.match().match_id(), &*ruleset, &identity);
}

uint64_t match_id_operand(const Options& o) {
  try {
    return std::stoull(o.operands[0]);
  } catch (const std::exception&) {
    throw Refused("not a match id: " + o.operands[0]);
  }
}

int join(std::unique_ptr<WsClient>& client, const Options& o, Identity& identity) {
  const uint64_t id = match_id_operand(o);
  ClientMessage m;
  JoinMatch* j = m.mutable_join_match();  // owned by m, which the request takes
  j->set_match_id(id);
  j->set_seat(o.seat);
  j->set_seat_option(o.seat_option);
  j->set_invite_code(o.invite);
  const Joined joined = followed(client, std::move(m), o, identity, "join").joined();
  // Asked of the node that serves the match, which a redirect may have changed.
  const std::optional<RulesetInfo> ruleset = ruleset_with_book(*client, joined.match().ruleset());
  std::cout << "joined match " << id << " at seat @" << joined.seat() << "\n";
  return follow_match(client, o, id, ruleset ? &*ruleset : nullptr, &identity);
}

int spectate(std::unique_ptr<WsClient>& client, const Options& o, Identity& identity) {
  const RulesetList list = rulesets(*client);
  ClientMessage m;
  m.mutable_spectate()->set_match_id(match_id_operand(o));
  m.mutable_spectate()->set_invite_code(o.invite);
  ServerMessage first = followed(client, std::move(m), o, identity, "spectate");
  const RulesetInfo* ruleset = find_ruleset(list, first.snapshot().match().ruleset());
  client->pushed().push_front(std::move(first));
  return follow_match(client, o, match_id_operand(o), ruleset, &identity);
}

}  // namespace

int main(int argc, char** argv) {
  // Line by line even into a file or pipe, so that scripts can follow the match as it happens.
  std::cout << std::unitbuf;
  const Options o = parse_options(std::vector<std::string>(argv + 1, argv + argc));
  if (o.help) {
    std::cout << usage();
    return 0;
  }
  if (!o.error.empty()) {
    std::cerr << "duelhall-cli: " << o.error << "\n" << usage();
    return 2;
  }
  try {
    auto client = std::make_unique<WsClient>();
    client->set_protocol(kProtocol);
    client->connect(o.host, o.port);
    Identity identity{{o.host, o.port, "/ws"}, o.name, hello(*client, o)};
    if (o.command == "rulesets") return print_rulesets(*client);
    if (o.command == "list") return print_matches(*client);
    if (o.command == "create") return create(client, o, identity);
    if (o.command == "join") return join(client, o, identity);
    return spectate(client, o, identity);
  } catch (const std::exception& e) {
    std::cerr << "duelhall-cli: " << e.what() << "\n";
    return 1;
  }
}
