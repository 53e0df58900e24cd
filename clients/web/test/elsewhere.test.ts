// A seat in a match on another node (src/elsewhere.ts, docs/pairing.md "Across a cluster"): the
// connection moves to the node the redirect names and sends JoinMatch there with the ticket and
// the seat option sought with; a node that cannot be reached or a refused join ends in words.
// First over a stand-in connection, then through the session over stand-in WebSockets, from the
// Paired push to the match.
import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { describe, expect, it, vi } from "vitest";
import { joinElsewhere, NO_SEAT_OPTION, type Mover } from "../src/elsewhere";
import { RedirectSchema, type Redirect } from "../src/gen/cluster_pb";
import { ServerMessageSchema, type ServerMessage } from "../src/gen/envelope_pb";
import { ResultCode } from "../src/gen/result_pb";
import { Session } from "../src/session";
import { FakeSocket, memoryStorage, useFakeSockets } from "./fake_socket";

const TICKET = new Uint8Array([7, 7, 1]);
const REDIRECT: Redirect = create(RedirectSchema, {
  node: "node-b", address: "ws://node-b/ws", ticket: TICKET, matchId: 12n, expiresInSeconds: 30,
});
const DECK = { seatOption: "Luke Skywalker x2\nX-wing x3", savedDeck: 0n };

type Sent = { command: Parameters<Mover["send"]>[0]; ticket: Uint8Array };

// A connection on node-a that reaches (or not) the nodes it is moved to and answers each command
// with the next of `replies`.
class FakeMover implements Mover {
  address = "ws://node-a/ws";
  moves: string[] = [];
  sent: Sent[] = [];
  constructor(private reachable: boolean, private replies: MessageInitShape<typeof ServerMessageSchema>[]) {}
  moveTo(url: string): Promise<boolean> {
    this.moves.push(url);
    if (this.reachable) this.address = url;
    return Promise.resolve(this.reachable);
  }
  send(command: Sent["command"], _follow = true, ticket = new Uint8Array()): Promise<ServerMessage> {
    this.sent.push({ command, ticket });
    return Promise.resolve(create(ServerMessageSchema, this.replies.shift() ?? { result: ResultCode.OK }));
  }
}

const joined = (seat: number): MessageInitShape<typeof ServerMessageSchema> => ({
  result: ResultCode.OK,
  body: { case: "joined", value: { seat, match: { matchId: 12n, ruleset: "young_jedi", node: "node-b" } } },
});

describe("joining a seat on another node", () => {
  it("moves to the node named and joins there with the ticket and the seat option", async () => {
    const conn = new FakeMover(true, [joined(1)]);
    const got = await joinElsewhere(conn, 12n, 1, REDIRECT, DECK);
    expect(conn.moves).toEqual(["ws://node-b/ws"]);
    expect(conn.sent).toHaveLength(1);
    const { command, ticket } = conn.sent[0];
    expect(command).toEqual({ case: "joinMatch", value: { matchId: 12n, seat: 1, ...DECK } });
    expect(ticket).toEqual(TICKET);
    expect("joined" in got && got.joined.seat).toBe(1);
  });

  it("sends a saved deck as its id, and does not move when already on that node", async () => {
    const conn = new FakeMover(true, [joined(0)]);
    conn.address = "ws://node-b/ws";
    await joinElsewhere(conn, 12n, 0, REDIRECT, { seatOption: "", savedDeck: 44n });
    expect(conn.moves).toEqual([]);
    const { command } = conn.sent[0];
    expect(command?.case === "joinMatch" && command.value.savedDeck).toBe(44n);
    expect(command?.case === "joinMatch" && command.value.seatOption).toBe("");
  });

  it("says so when the node cannot be reached, and sends no join", async () => {
    const conn = new FakeMover(false, []);
    const got = await joinElsewhere(conn, 12n, 1, REDIRECT, NO_SEAT_OPTION);
    expect(conn.sent).toEqual([]);
    expect("refused" in got && got.refused).toBe("Your seat in match 12 is on server node-b (ws://node-b/ws), " +
      "which cannot be reached from here; you are still connected to this server");
  });

  it("says why when the node refuses the join", async () => {
    const conn = new FakeMover(true, [{ result: ResultCode.BAD_PARAMETERS, reason: "the deck has 61 cards" }]);
    const got = await joinElsewhere(conn, 12n, 1, REDIRECT, DECK);
    expect("refused" in got && got.refused).toBe("Match 12 on server node-b did not take you in: the deck has 61 cards");
  });

  it("joins again without the ticket when the ticket expired on the way", async () => {
    const conn = new FakeMover(true, [{ result: ResultCode.TICKET_EXPIRED, reason: "expired" }, joined(1)]);
    const got = await joinElsewhere(conn, 12n, 1, REDIRECT, DECK);
    expect(conn.sent.map((s) => s.ticket.length)).toEqual([3, 0]);
    expect("joined" in got).toBe(true);
  });
});

const flush = () => vi.advanceTimersByTimeAsync(0);

// Answers a session's Hello and the lobby's first requests on `socket`.
async function welcome(socket: FakeSocket): Promise<void> {
  socket.answer(socket.last(), {
    result: ResultCode.OK,
    body: { case: "welcome", value: { playerId: 5n, displayName: "Ann", resumeToken: "tok" } },
  });
  await flush();
  socket.answer(socket.last(), { result: ResultCode.OK, body: { case: "rulesets", value: {} } });
  await flush();
  socket.answer(socket.last(), { result: ResultCode.OK, body: { case: "matches", value: {} } });
  await flush();
}

// A session on node-a, ready, that sought with DECK and is pushed a Paired for match 12 on node-b.
async function pairedElsewhere(): Promise<{ session: Session; a: FakeSocket; landed: bigint[] }> {
  localStorage.setItem("duelhall.token", "tok");
  const session = new Session("ws://node-a/ws");
  const landed: bigint[] = [];
  session.pairing.onPaired = (id) => landed.push(id);
  session.start();
  const a = FakeSocket.made[0];
  a.accept();
  await welcome(a);
  session.pairing.sought = DECK;
  a.push({ body: { case: "paired", value: { matchId: 12n, seat: 1, redirect: REDIRECT } } });
  await flush();
  return { session, a, landed };
}

describe("a Paired on another node, through the session", () => {
  useFakeSockets(() => vi.stubGlobal("localStorage", memoryStorage()));

  it("moves the page there, joins with the ticket and the deck, then lands in the match", async () => {
    const { session, a, landed } = await pairedElsewhere();
    expect(a.readyState).toBe(FakeSocket.CLOSED);
    const b = FakeSocket.made[1];
    expect(b.url).toBe("ws://node-b/ws");
    b.accept();
    expect(b.last().command.case).toBe("hello");
    await welcome(b);
    const join = b.last();
    expect(join.command.case === "joinMatch" && join.command.value).toMatchObject({ matchId: 12n, seat: 1, ...DECK });
    expect(join.ticket).toEqual(TICKET);
    expect(landed).toEqual([]); // not before the node has seated the player
    b.answer(join, joined(1));
    await flush();
    expect(landed).toEqual([12n]);
    expect(session.matches.get(12n)?.seat).toBe(1);
    expect(session.link).toBe("online");
    expect(session.conn.address).toBe("ws://node-b/ws");
  });

  it("a node that cannot be reached: back on node-a, connected, and the words say so", async () => {
    const { session, landed } = await pairedElsewhere();
    FakeSocket.made[1].refuse();
    const back = FakeSocket.made[2];
    expect(back.url).toBe("ws://node-a/ws");
    back.accept();
    await welcome(back);
    expect(landed).toEqual([]);
    expect(session.error).toMatch(/^Your seat in match 12 is on server node-b \(ws:\/\/node-b\/ws\), which cannot be reached/);
    expect(session.link).toBe("online");
    expect(session.matches.get(12n)?.seat ?? -1).toBe(-1);
    expect(back.sent.some((m) => m.command.case === "joinMatch")).toBe(false);
  });
});
