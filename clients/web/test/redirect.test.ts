// Following a cluster's REDIRECT (docs/cluster.md) in the browser client's Connection, over a
// stand-in WebSocket: the page moves to the node named, says hello there as before, and sends
// the same command with the ticket, never showing "offline"; a node that cannot be reached (or
// never answers) sends it back to the node it left with a reply that says so in words.
import { describe, expect, it, vi } from "vitest";
import { Connection, MOVE_TIMEOUT_MS, type LinkState } from "../src/connection";
import { ResultCode } from "../src/gen/result_pb";
import { FakeSocket, useFakeSockets } from "./fake_socket";

const flush = () => vi.advanceTimersByTimeAsync(0);
const TICKET = new Uint8Array([9, 8, 7]);

// A connection on node A whose session resumes with the token "tok" on every (re)connect.
async function connected(states: LinkState[]): Promise<{ conn: Connection; a: FakeSocket }> {
  const conn = new Connection("ws://node-a/ws");
  conn.onState = (s) => states.push(s);
  conn.onOpen = async () => {
    await conn.send({ case: "hello", value: { protocolVersion: 2, resumeToken: "tok" } });
  };
  conn.open();
  const a = FakeSocket.made[0];
  a.accept();
  a.answer(a.last(), { result: ResultCode.OK });
  await flush();
  return { conn, a };
}

function redirectTo(socket: FakeSocket, matchId: bigint): void {
  socket.answer(socket.last(), {
    result: ResultCode.REDIRECT,
    reason: "elsewhere",
    body: { case: "redirect", value: { node: "node-b", address: "ws://node-b/ws", ticket: TICKET, matchId } },
  });
}

describe("cluster redirects", () => {
  useFakeSockets();

  it("moves to the node named, says hello there as before and resends the command with the ticket", async () => {
    const states: LinkState[] = [];
    const { conn, a } = await connected(states);
    const reply = conn.send({ case: "joinMatch", value: { matchId: 7n, seat: -1 } });
    redirectTo(a, 7n);
    await flush();
    expect(a.readyState).toBe(FakeSocket.CLOSED);
    const b = FakeSocket.made[1];
    expect(b.url).toBe("ws://node-b/ws");
    b.accept();
    const hello = b.last();
    expect(hello.command.case).toBe("hello");
    expect(hello.command.case === "hello" && hello.command.value.resumeToken).toBe("tok");
    expect(b.sent).toHaveLength(1); // the command waits for the hello
    b.answer(hello, { result: ResultCode.OK });
    await flush();
    const again = b.last();
    expect(again.command.case).toBe("joinMatch");
    expect(again.command.case === "joinMatch" && again.command.value.matchId).toBe(7n);
    expect(again.ticket).toEqual(TICKET);
    b.answer(again, { result: ResultCode.OK });
    expect((await reply).result).toBe(ResultCode.OK);
    expect(conn.address).toBe("ws://node-b/ws");
    expect(states).toEqual(["connecting", "online", "online"]); // never offline meanwhile
  });

  it("goes back to the node it left when the node named cannot be reached, and says so", async () => {
    const states: LinkState[] = [];
    const { conn, a } = await connected(states);
    const reply = conn.send({ case: "joinMatch", value: { matchId: 7n, seat: -1 } });
    redirectTo(a, 7n);
    await flush();
    FakeSocket.made[1].refuse();
    let answered = false;
    void reply.then(() => (answered = true));
    expect(conn.address).toBe("ws://node-a/ws");
    const back = FakeSocket.made[2];
    expect(back.url).toBe("ws://node-a/ws");
    back.accept();
    expect(back.last().command.case).toBe("hello");
    await flush();
    expect(answered).toBe(false); // the reply's words come after the hello there, which would clear them
    back.answer(back.last(), { result: ResultCode.OK });
    const answer = await reply;
    expect(answer.result).toBe(ResultCode.REDIRECT);
    expect(answer.reason).toMatch(/^Match 7 is on server node-b \(ws:\/\/node-b\/ws\), which cannot be reached/);
    expect(answer.reason).toMatch(/still connected to this server/);
    expect(states).not.toContain("offline");
  });

  it("gives up on a node that never answers after MOVE_TIMEOUT_MS, for a new match too", async () => {
    const { conn, a } = await connected([]);
    const reply = conn.send({ case: "createMatch", value: {} });
    redirectTo(a, 0n);
    await flush();
    const b = FakeSocket.made[1];
    await vi.advanceTimersByTimeAsync(MOVE_TIMEOUT_MS - 100);
    expect(b.readyState).toBe(FakeSocket.CONNECTING); // still waiting
    await vi.advanceTimersByTimeAsync(200);
    const back = FakeSocket.made[2];
    expect(back.url).toBe("ws://node-a/ws");
    back.accept();
    back.answer(back.last(), { result: ResultCode.OK });
    const answer = await reply;
    expect(answer.reason).toMatch(/^The new match was placed on server node-b/);
    expect(conn.address).toBe("ws://node-a/ws");
  });

  it("a node left behind that fails too on the way back is an ordinary drop", async () => {
    const states: LinkState[] = [];
    const { conn, a } = await connected(states);
    const reply = conn.send({ case: "joinMatch", value: { matchId: 7n, seat: -1 } });
    redirectTo(a, 7n);
    await flush();
    FakeSocket.made[1].refuse();
    FakeSocket.made[2].refuse();
    expect((await reply).result).toBe(ResultCode.REDIRECT);
    expect(states[states.length - 1]).toBe("offline");
    expect(conn.address).toBe("ws://node-a/ws");
  });

  it("a redirect with follow off is the reply itself", async () => {
    const { conn, a } = await connected([]);
    const reply = conn.send({ case: "spectate", value: { matchId: 7n } }, false);
    redirectTo(a, 7n);
    expect((await reply).result).toBe(ResultCode.REDIRECT);
    await flush();
    expect(FakeSocket.made).toHaveLength(1);
  });
});
