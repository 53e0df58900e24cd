// Hash routes: #/ lobby, #/match/<id>, #/join/<id>/<invite>, #/watch/<id>[/<invite>],
// #/replays, #/replay/<id>, #/rules/<ruleset> (how to play), #/account, #/player/<name>,
// #/leaderboard[/<ruleset>], #/moderation, #/tv[/<ruleset>] (the featured live match),
// #/decks (saved decks, editor, cards), #/deck/<id> (a shared deck), #/tournaments,
// #/tournament/<id>.
export type Route =
  | { page: "lobby" }
  | { page: "replays" }
  | { page: "rules"; ruleset: string }
  | { page: "account" }
  | { page: "moderation" }
  | { page: "decks"; deck: bigint | null }
  | { page: "player"; name: string }
  | { page: "leaderboard"; ruleset: string }
  | { page: "tv"; ruleset: string }
  | { page: "replay"; id: bigint }
  | { page: "tournaments" }
  | { page: "tournament"; id: bigint }
  | { page: "match"; id: bigint }
  | { page: "join"; id: bigint; invite: string }
  | { page: "watch"; id: bigint; invite: string };

export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, "").split("/");
  const id = /^\d+$/.test(parts[1] ?? "") ? BigInt(parts[1]) : null;
  if (id !== null && parts[0] === "match") return { page: "match", id };
  if (id !== null && parts[0] === "join") return { page: "join", id, invite: parts[2] ?? "" };
  if (id !== null && parts[0] === "watch") return { page: "watch", id, invite: parts[2] ?? "" };
  if (id !== null && parts[0] === "replay") return { page: "replay", id };
  if (parts[0] === "replays") return { page: "replays" };
  if (parts[0] === "tournaments") return { page: "tournaments" };
  if (id !== null && parts[0] === "tournament") return { page: "tournament", id };
  if (parts[0] === "decks") return { page: "decks", deck: null };
  if (id !== null && parts[0] === "deck") return { page: "decks", deck: id };
  if (parts[0] === "rules") return { page: "rules", ruleset: /^[a-z0-9_]*$/.test(parts[1] ?? "") ? parts[1] ?? "" : "" };
  if (parts[0] === "account") return { page: "account" };
  if (parts[0] === "moderation") return { page: "moderation" };
  if (parts[0] === "player" && parts[1]) return { page: "player", name: decodeURIComponent(parts[1]) };
  if (parts[0] === "tv") return { page: "tv", ruleset: /^[a-z0-9_]*$/.test(parts[1] ?? "") ? parts[1] ?? "" : "" };
  if (parts[0] === "leaderboard") return { page: "leaderboard", ruleset: parts[1] ?? "" };
  return { page: "lobby" };
}

export function go(hash: string): void {
  if (location.hash !== hash) location.hash = hash;
}

export function inviteLink(id: bigint, code: string): string {
  return `${location.origin}${location.pathname}#/join/${id}${code ? `/${code}` : ""}`;
}
