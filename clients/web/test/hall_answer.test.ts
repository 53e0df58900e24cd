// Answering a challenge (src/hall.ts, docs/pairing.md "Challenges and presence across a cluster"):
// on one node the accepter's reply is Joined and the page goes to the match; in a cluster, when
// the challenger is connected to another node, the reply is a Paired whose redirect the page
// follows (Session.joinElsewhere) with the seat option it answered with, then goes to the match.
import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ServerMessageSchema } from "../src/gen/envelope_pb";
import { ResultCode } from "../src/gen/result_pb";
import { Hall } from "../src/hall";
import type { Session } from "../src/session";

function fakeSession(reply: MessageInitShape<typeof ServerMessageSchema>, seated = true) {
  const joinElsewhere = vi.fn(async () => seated);
  const commands: unknown[] = [];
  const session = {
    pushHandlers: [] as unknown[],
    readyHandlers: [] as unknown[],
    matches: new Map(),
    command: async (c: unknown) => {
      commands.push(c);
      return create(ServerMessageSchema, reply);
    },
    match: () => ({ seat: -1, info: undefined }),
    joinElsewhere,
    changed: () => {},
  };
  return { session: session as unknown as Session, joinElsewhere, commands };
}

describe("answering a challenge", () => {
  beforeEach(() => {
    vi.stubGlobal("document", { addEventListener: () => {}, hidden: false });
    vi.stubGlobal("location", { hash: "#/" });
  });
  afterEach(() => vi.unstubAllGlobals());

  it("follows a Paired's redirect to the challenger's node with the seat option, then shows the match", async () => {
    const redirect = { node: "node-a", address: "ws://node-a/ws", ticket: new Uint8Array([1]), matchId: 40n };
    const { session, joinElsewhere, commands } = fakeSession({
      result: ResultCode.OK,
      body: { case: "paired", value: { matchId: 40n, seat: 1, redirect } },
    });
    await new Hall(session).answer(9n, true, "", "my setup");
    expect(commands).toEqual([
      { case: "answerChallenge", value: { challengeId: 9n, accept: true, reason: "", seatOption: "my setup" } },
    ]);
    expect(joinElsewhere).toHaveBeenCalledTimes(1);
    const [matchId, seat, sentRedirect, option] = joinElsewhere.mock.calls[0] as unknown as [bigint, number, { node: string }, unknown];
    expect([matchId, seat, sentRedirect.node]).toEqual([40n, 1, "node-a"]);
    expect(option).toEqual({ seatOption: "my setup", savedDeck: 0n });
    expect(location.hash).toBe("#/match/40");
  });

  it("stays where it is when the seat on the other node could not be taken", async () => {
    const redirect = { node: "node-a", address: "ws://node-a/ws", ticket: new Uint8Array([1]), matchId: 40n };
    const { session, joinElsewhere } = fakeSession(
      { result: ResultCode.OK, body: { case: "paired", value: { matchId: 40n, seat: 1, redirect } } }, false);
    await new Hall(session).answer(9n, true);
    expect(joinElsewhere).toHaveBeenCalledTimes(1);
    expect(location.hash).toBe("#/");
  });

  it("goes to the match at once when this node seated the accepter (Joined)", async () => {
    const { session, joinElsewhere } = fakeSession({
      result: ResultCode.OK,
      body: { case: "joined", value: { seat: 1, match: { matchId: 41n } } },
    });
    await new Hall(session).answer(9n, true);
    expect(joinElsewhere).not.toHaveBeenCalled();
    expect(location.hash).toBe("#/match/41");
  });
});
