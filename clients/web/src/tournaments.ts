// The tournaments as the page knows them (docs/tournaments.md): the listing, the one tournament
// the page watches (the server pushes its detail on every change), and the game-ready push that
// seats the player in a tournament match and takes the page there.
import { TournamentFormat, type TournamentDetail, type TournamentGame, type TournamentGameReady,
  type TournamentSettings, type TournamentSummary } from "./gen/tournaments_pb";
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { TournamentSettingsSchema } from "./gen/tournaments_pb";
import type { ServerMessage } from "./gen/envelope_pb";
import type { RulesetInfo } from "./gen/lobby_pb";
import { ResultCode } from "./gen/result_pb";
import type { MatchView } from "./match_feed";
import type { Session } from "./session";

export class TournamentsState {
  list: TournamentSummary[] | undefined; // undefined until asked for
  shown: TournamentDetail | undefined; // the watched tournament's last detail
  watching = 0n;
  // Called when one of the player's tournament games starts (the page goes to the match).
  onGameReady: ((ready: TournamentGameReady) => void) | null = null;

  // Takes in a pushed message; false when `m` is not a tournament's.
  receive(m: ServerMessage, match: (id: bigint) => MatchView): boolean {
    const body = m.body;
    if (body.case === "tournament") {
      if (body.value.summary?.id === this.watching) this.shown = body.value;
      return true;
    }
    if (body.case === "tournamentGame") {
      const ready = body.value;
      match(ready.matchId).seat = ready.seat;
      this.onGameReady?.(ready);
      return true;
    }
    return false;
  }
}

// The session's side of it: the commands, and the watch sent again after a reconnect.
export class Tournaments extends TournamentsState {
  constructor(private session: Session) {
    super();
    session.pushHandlers.push((m) => this.receive(m, (id) => session.match(id)));
    session.readyHandlers.push(() => {
      if (this.watching) void this.watch(this.watching);
    });
  }

  private send(c: Parameters<Session["command"]>[0]): Promise<ServerMessage> {
    return this.session.command(c);
  }
  private changed(): void {
    this.session.changed();
  }

  async refresh(): Promise<void> {
    const reply = await this.send({ case: "listTournaments", value: { limit: 50 } });
    if (reply.result === ResultCode.OK && reply.body.case === "tournaments") this.list = reply.body.value.tournaments;
    this.changed();
  }

  async watch(id: bigint): Promise<void> {
    this.watching = id;
    const reply = await this.send({ case: "getTournament", value: { id, watch: true } });
    if (reply.result === ResultCode.OK && reply.body.case === "tournament") this.shown = reply.body.value;
    this.changed();
  }

  async unwatch(): Promise<void> {
    if (!this.watching) return;
    const id = this.watching;
    this.watching = 0n;
    this.shown = undefined;
    await this.send({ case: "getTournament", value: { id, watch: false } });
  }

  async create(settings: MessageInitShape<typeof TournamentSettingsSchema>): Promise<bigint> {
    const reply = await this.send({ case: "createTournament", value: { settings } });
    if (reply.result !== ResultCode.OK || reply.body.case !== "tournament") return 0n;
    return reply.body.value.summary?.id ?? 0n;
  }

  async join(id: bigint, savedDecks: bigint[], seatOptions: string[]): Promise<void> {
    await this.take(await this.send({ case: "joinTournament", value: { id, savedDecks, seatOptions } }));
  }

  async withdraw(id: bigint): Promise<void> {
    await this.take(await this.send({ case: "withdrawTournament", value: { id } }));
  }

  // A moderator's: the entrant leaves as by a withdrawal, marked disqualified.
  async disqualify(id: bigint, name: string, reason: string): Promise<void> {
    await this.take(await this.send({ case: "disqualifyEntrant", value: { id, name, reason } }));
  }

  private async take(reply: ServerMessage): Promise<void> {
    if (reply.result === ResultCode.OK && reply.body.case === "tournament") this.shown = reply.body.value;
    this.changed();
  }
}

export const FORMAT_NAMES: Record<number, string> = {
  [TournamentFormat.FORMAT_SWISS]: "Swiss",
  [TournamentFormat.FORMAT_ARENA]: "Arena",
  [TournamentFormat.FORMAT_KNOCKOUT]: "Knockout",
};

// The standings' columns of a format: its points and tie-breaks, in the proto's units.
export function standingColumns(format: TournamentFormat): [string, string, string] {
  if (format === TournamentFormat.FORMAT_ARENA) return ["Points", "Performance", "Streak"];
  if (format === TournamentFormat.FORMAT_KNOCKOUT) return ["", "Round reached", "Seed"];
  return ["Points", "Buchholz", "Sonneborn-Berger"];
}

// A Swiss figure in half-points (or quarter-points) as the players read it: 2.5, 3.
export function fraction(value: number, per: number): string {
  return String(value / per);
}

// A standing's three figures as shown for its format.
export function standingFigures(format: TournamentFormat, points: number, t1: number, t2: number): [string, string, string] {
  if (format === TournamentFormat.FORMAT_SWISS) return [fraction(points, 2), fraction(t1, 2), fraction(t2, 4)];
  if (format === TournamentFormat.FORMAT_KNOCKOUT) return ["", String(t1), String(t2)];
  return [String(points), String(t1), String(t2)];
}

// A game's result in words: "Ann won", "drawn", "Ann won by forfeit", "bye", or "in play".
export function resultText(game: TournamentGame): string {
  if (game.seats.length === 1) return "bye";
  if (!game.places.length) return game.matchId ? "in play" : "waiting for players";
  const best = Math.min(...game.places);
  const first = game.seats.filter((_, i) => game.places[i] === best);
  const how = game.forfeit ? " by forfeit" : "";
  if (first.length === game.seats.length) return `drawn${how}`;
  return `${first.join(" and ")} won${how}`;
}

// The games by round, earliest first (a knockout's bracket).
export function gamesByRound(games: TournamentGame[]): [number, TournamentGame[]][] {
  const rounds = new Map<number, TournamentGame[]>();
  for (const g of games) rounds.set(g.round, [...(rounds.get(g.round) ?? []), g]);
  return [...rounds.entries()].sort((a, b) => a[0] - b[0]);
}

export function settingsLine(s: TournamentSettings | undefined): string {
  if (!s) return "";
  const size = s.format === TournamentFormat.FORMAT_SWISS ? `${s.rounds} rounds`
    : s.format === TournamentFormat.FORMAT_ARENA ? `${s.durationMinutes} minutes` : `best of ${s.bestOf}`;
  return `${FORMAT_NAMES[s.format] ?? ""}, ${s.ruleset}, ${size}, ${s.clock} clock, ${s.rated ? "rated" : "casual"}`;
}

// A Young Jedi entrant's decks from the two pickers (Light, Dark): a saved deck's id, or "" for
// that side's ready deck. The server wants a setup fitting each side, so a side left to the ready
// deck beside a saved one goes as an empty list (the ruleset's default); with none picked nothing
// is sent and the player brings the ready decks on both sides.
export function joinDecks(picked: string[]): { savedDecks: bigint[]; seatOptions: string[] } {
  const savedDecks = picked.filter((v) => v !== "").map((v) => BigInt(v));
  const seatOptions = savedDecks.length ? picked.filter((v) => v === "").map(() => "") : [];
  return { savedDecks, seatOptions };
}

// The clocks a tournament of `ruleset` may use: its pools' presets (TournamentSettings.clock);
// none known: the empty name, which the server reads as the first.
export function clockChoices(rulesets: RulesetInfo[], ruleset: string): { name: string; text: string }[] {
  const presets = rulesets.find((r) => r.name === ruleset)?.clockPresets ?? [];
  if (!presets.length) return [{ name: "", text: "the ruleset's clock" }];
  return presets.map((p) => ({ name: p.name, text: p.clockSeconds ? `${p.name} (${p.clockSeconds} s a move)` : `${p.name} (no clock)` }));
}

// Whether a started tournament game takes the page to its match at once: not while the player is
// in another match of theirs still being played (a notification then links to the new one).
export function goesToGame(shownMatch: MatchView | undefined, gameMatch: bigint): boolean {
  if (!shownMatch || shownMatch.id === gameMatch) return true;
  return shownMatch.seat < 0 || Boolean(shownMatch.outcome) || (shownMatch.info?.status ?? 0) >= 2; // 2: finished, 3: aborted
}

// A game's link on the tournament page: the player's own game in play is theirs to play, another
// in play to watch, a finished one to replay; none for a bye or a game still awaiting players.
export function gameLink(game: TournamentGame, me: string): { href: string; text: string } | null {
  if (!game.matchId) return null;
  if (game.places.length) return { href: `#/replay/${game.matchId}`, text: "Replay" };
  const mine = me !== "" && game.seats.some((s) => s.toLowerCase() === me.toLowerCase());
  return mine ? { href: `#/match/${game.matchId}`, text: "Play" } : { href: `#/watch/${game.matchId}`, text: "Watch" };
}
