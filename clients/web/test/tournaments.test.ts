// The client's tournament state and the figures its pages show (src/tournaments.ts): the watched
// tournament's pushed detail is kept (another's is not), a game-ready push seats the player in its
// match and calls the page's hook, and results and standings read as players read them.
import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { ServerMessageSchema } from "../src/gen/envelope_pb";
import { TournamentFormat, TournamentGameSchema } from "../src/gen/tournaments_pb";
import { newMatchView, type MatchView } from "../src/match_feed";
import { RulesetInfoSchema } from "../src/gen/lobby_pb";
import { OutcomeSchema } from "../src/gen/match_pb";
import { clockChoices, gameLink, gamesByRound, goesToGame, joinDecks, resultText, standingColumns, standingFigures,
  TournamentsState } from "../src/tournaments";

function views(): [Map<bigint, MatchView>, (id: bigint) => MatchView] {
  const all = new Map<bigint, MatchView>();
  return [all, (id) => all.get(id) ?? all.set(id, newMatchView(id, "")).get(id)!];
}

const game = (round: number, seats: string[], places: number[] = [], matchId = 0n, forfeit = false) =>
  create(TournamentGameSchema, { round, seats, places, matchId, forfeit });

describe("tournament state", () => {
  it("keeps the pushed detail of the tournament it watches and no other's", () => {
    const state = new TournamentsState();
    const [, match] = views();
    state.watching = 7n;
    const push = (id: bigint, players: number) => create(ServerMessageSchema, {
      body: { case: "tournament", value: { summary: { id, players } } },
    });
    expect(state.receive(push(8n, 3), match)).toBe(true);
    expect(state.shown).toBeUndefined();
    state.receive(push(7n, 4), match);
    expect(state.shown?.summary?.players).toBe(4);
  });

  it("seats the player in a started game's match and takes the page there", () => {
    const state = new TournamentsState();
    const [all, match] = views();
    const ready: bigint[] = [];
    state.onGameReady = (r) => ready.push(r.matchId);
    state.receive(create(ServerMessageSchema, {
      body: { case: "tournamentGame", value: { tournamentId: 7n, matchId: 31n, seat: 1, round: 2, seats: ["Ann", "Ben"] } },
    }), match);
    expect(all.get(31n)?.seat).toBe(1);
    expect(ready).toEqual([31n]);
    expect(state.receive(create(ServerMessageSchema, { body: { case: "pong", value: {} } }), match)).toBe(false);
  });
});

describe("tournament figures", () => {
  it("reads results as players do", () => {
    expect(resultText(game(1, ["Ann", "Ben"], [1, 2], 5n))).toBe("Ann won");
    expect(resultText(game(1, ["Ann", "Ben"], [2, 1], 5n, true))).toBe("Ben won by forfeit");
    expect(resultText(game(1, ["Ann", "Ben"], [1, 1], 5n))).toBe("drawn");
    expect(resultText(game(1, ["Ann", "Ben"], [], 5n))).toBe("in play");
    expect(resultText(game(1, ["Ann", "Ben"]))).toBe("waiting for players");
    expect(resultText(game(1, ["Cat"], [1]))).toBe("bye");
    expect(resultText(game(1, ["Ann", "Ben", "Cat"], [1, 1, 3], 5n))).toBe("Ann and Ben won");
  });

  it("shows Swiss figures in points from half- and quarter-points, by format", () => {
    expect(standingFigures(TournamentFormat.FORMAT_SWISS, 5, 7, 10)).toEqual(["2.5", "3.5", "2.5"]);
    expect(standingFigures(TournamentFormat.FORMAT_ARENA, 12, 1650, 3)).toEqual(["12", "1650", "3"]);
    expect(standingFigures(TournamentFormat.FORMAT_KNOCKOUT, 0, 3, 1)).toEqual(["", "3", "1"]);
    expect(standingColumns(TournamentFormat.FORMAT_SWISS)[1]).toBe("Buchholz");
  });

  it("groups a bracket's games by round, earliest first", () => {
    const rounds = gamesByRound([game(2, ["A", "B"]), game(1, ["A", "C"]), game(1, ["B", "D"])]);
    expect(rounds.map(([r, g]) => [r, g.length])).toEqual([[1, 2], [2, 1]]);
  });
});

describe("tournament forms", () => {
  it("sends a Young Jedi entrant's saved decks, and the ready deck of a side left unpicked as an empty list", () => {
    expect(joinDecks(["12", "13"])).toEqual({ savedDecks: [12n, 13n], seatOptions: [] });
    expect(joinDecks(["12", ""])).toEqual({ savedDecks: [12n], seatOptions: [""] });
    expect(joinDecks(["", "13"])).toEqual({ savedDecks: [13n], seatOptions: [""] });
    expect(joinDecks(["", ""])).toEqual({ savedDecks: [], seatOptions: [] });
    expect(joinDecks([])).toEqual({ savedDecks: [], seatOptions: [] });
  });

  it("offers the chosen ruleset's clock presets, or the server's first when it has none", () => {
    const rulesets = [
      create(RulesetInfoSchema, { name: "jedi_duel", clockPresets: [{ name: "blitz", clockSeconds: 15 }, { name: "open", clockSeconds: 0 }] }),
      create(RulesetInfoSchema, { name: "young_jedi" }),
    ];
    expect(clockChoices(rulesets, "jedi_duel")).toEqual([
      { name: "blitz", text: "blitz (15 s a move)" }, { name: "open", text: "open (no clock)" }]);
    expect(clockChoices(rulesets, "young_jedi")).toEqual([{ name: "", text: "the ruleset's clock" }]);
    expect(clockChoices(rulesets, "nope").map((c) => c.name)).toEqual([""]);
  });

  it("takes the page to a started game unless the player is in another match still being played", () => {
    const [, match] = views();
    expect(goesToGame(undefined, 5n)).toBe(true);
    const playing = match(4n);
    playing.seat = 0;
    expect(goesToGame(playing, 5n)).toBe(false);
    expect(goesToGame(playing, 4n)).toBe(true);
    const watched = match(6n);
    expect(goesToGame(watched, 5n)).toBe(true); // a spectator (seat -1)
    playing.outcome = create(OutcomeSchema, {});
    expect(goesToGame(playing, 5n)).toBe(true);
  });
});

describe("tournament game links", () => {
  it("plays one's own game, watches another's, replays a finished one, and has none for a bye", () => {
    expect(gameLink(game(1, ["Ann", "Ben"], [], 5n), "ann")).toEqual({ href: "#/match/5", text: "Play" });
    expect(gameLink(game(1, ["Ann", "Ben"], [], 5n), "Cid")).toEqual({ href: "#/watch/5", text: "Watch" });
    expect(gameLink(game(1, ["Ann", "Ben"], [], 5n), "")).toEqual({ href: "#/watch/5", text: "Watch" });
    expect(gameLink(game(1, ["Ann", "Ben"], [1, 2], 5n), "Ann")).toEqual({ href: "#/replay/5", text: "Replay" });
    expect(gameLink(game(1, ["Cat"], [1]), "Cat")).toBeNull();
    expect(gameLink(game(1, ["Ann", "Ben"]), "Ann")).toBeNull();
  });
});
