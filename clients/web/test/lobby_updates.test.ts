// The lobby as the session keeps it from the server's LobbyUpdates (pushed, request id 0): a
// match the server takes off the list leaves it, and a rated match that ends shows as ended and
// marks the profile and leaderboard out of date; a SpectatorCount push updates the count the
// lobby's row and the match page show. Over the stand-in WebSocket.
import { describe, expect, it, vi } from "vitest";
import { accountState } from "../src/identity";
import { MatchStatus } from "../src/gen/lobby_pb";
import { ResultCode } from "../src/gen/result_pb";
import { Session } from "../src/session";
import { FakeSocket, memoryStorage, useFakeSockets } from "./fake_socket";

const flush = () => vi.advanceTimersByTimeAsync(0);

const unrated = { matchId: 4n, ruleset: "jedi_duel", status: MatchStatus.PLAYING };
const rated = { matchId: 5n, ruleset: "jedi_duel", status: MatchStatus.PLAYING, settings: { rated: true } };

// A session through its hello, with matches 4 (unrated) and 5 (rated) listed in the lobby.
async function inTheLobby(): Promise<{ session: Session; ws: FakeSocket }> {
  localStorage.setItem("duelhall.name", "Ann");
  const session = new Session("ws://hall.test/ws");
  session.start();
  const ws = FakeSocket.made[0];
  ws.accept();
  ws.answer(ws.last(), {
    result: ResultCode.OK,
    body: { case: "welcome", value: { playerId: 1n, displayName: "Ann", resumeToken: "tok" } },
  });
  await flush();
  ws.answer(ws.last(), { result: ResultCode.OK, body: { case: "rulesets", value: { rulesets: [] } } });
  await flush();
  expect(ws.last().command.case).toBe("subscribeLobby");
  ws.answer(ws.last(), { result: ResultCode.OK, body: { case: "matches", value: { matches: [unrated, rated] } } });
  await flush();
  expect([...session.lobby.keys()]).toEqual([4n, 5n]);
  return { session, ws };
}

describe("the lobby's updates", () => {
  useFakeSockets(() => vi.stubGlobal("localStorage", memoryStorage()));

  it("a match taken off the list leaves the session's lobby", async () => {
    const { session, ws } = await inTheLobby();
    ws.push({ body: { case: "lobbyUpdate", value: { match: { ...unrated, status: MatchStatus.FINISHED }, removed: true } } });
    await flush();
    expect(session.lobby.has(4n)).toBe(false);
  });

  it("a rated match that ends shows as ended and the ratings pages load again", async () => {
    const { session, ws } = await inTheLobby();
    const before = accountState.generation;
    ws.push({ body: { case: "lobbyUpdate", value: { match: { ...rated, status: MatchStatus.FINISHED } } } });
    await flush();
    expect(session.lobby.get(5n)?.status).toBe(MatchStatus.FINISHED);
    expect(accountState.generation).toBeGreaterThan(before);
    ws.push({ body: { case: "lobbyUpdate", value: { match: { ...rated, status: MatchStatus.FINISHED }, removed: true } } });
    await flush();
    expect(session.lobby.has(5n)).toBe(false);
  });

  it("a pushed spectator count reaches the listed match and the match page's info", async () => {
    const { session, ws } = await inTheLobby();
    session.match(4n).info = session.lobby.get(4n);
    ws.push({ body: { case: "spectatorCount", value: { matchId: 4n, spectators: 3 } } });
    await flush();
    expect(session.lobby.get(4n)?.spectators).toBe(3);
    expect(session.match(4n).info?.spectators).toBe(3);
    ws.push({ body: { case: "spectatorCount", value: { matchId: 99n, spectators: 1 } } });  // not listed: ignored
    await flush();
    expect(session.lobby.has(99n)).toBe(false);
  });
});
