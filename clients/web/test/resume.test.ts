// Resuming after a cluster failover (docs/cluster.md, Failover) in the browser client's
// Connection, over a stand-in WebSocket: a Hello answered REDIRECT goes on to the node named and
// is said again there with the ticket; CLUSTER_UNAVAILABLE is asked again with a growing delay
// for a bounded time, then ends in words; a close with 1012 "MATCH_MOVED: ..." reconnects at once
// to the node that closed, which sends the page on; a node the page was sent to that is gone
// sends it back to its own server. None of it shows "offline".
import { describe, expect, it, vi } from "vitest";
import { Connection, RESUME_GIVE_UP_MS, RESUME_RETRY_MIN_MS, type LinkState } from "../src/connection";
import type { ClientMessage } from "../src/gen/envelope_pb";
import { ResultCode } from "../src/gen/result_pb";
import { FakeSocket, useFakeSockets } from "./fake_socket";

const flush = () => vi.advanceTimersByTimeAsync(0);
const TICKET = new Uint8Array([4, 5, 6]);
const MOVED = "MATCH_MOVED: match 7 moved to another node; reconnect";

// A connection on node A whose session resumes match 7 (seq 3) with the token "tok" on every
// (re)connect; `replies` collects what each Hello ended in.
async function seated(states: LinkState[], replies: ResultCode[] = []): Promise<{ conn: Connection; a: FakeSocket }> {
  const conn = new Connection("ws://node-a/ws");
  conn.onState = (s) => states.push(s);
  conn.onOpen = async () => {
    const reply = await conn.hello({ protocolVersion: 2, resumeToken: "tok", cursors: [{ matchId: 7n, seq: 3n }] });
    replies.push(reply.result);
  };
  conn.open();
  const a = FakeSocket.made[0];
  a.accept();
  a.answer(a.last(), { result: ResultCode.OK });
  await flush();
  return { conn, a };
}

function resumeRedirect(socket: FakeSocket, to: string): void {
  socket.answer(socket.last(), {
    result: ResultCode.REDIRECT,
    reason: "match 7 is on node node-c",
    body: { case: "redirect", value: { node: "node-c", address: to, ticket: TICKET, matchId: 7n } },
  });
}

function expectResumeHello(m: ClientMessage, ticket: Uint8Array): void {
  expect(m.command.case).toBe("hello");
  if (m.command.case !== "hello") return;
  expect(m.command.value.resumeToken).toBe("tok");
  expect(m.command.value.cursors.map((c) => [c.matchId, c.seq])).toEqual([[7n, 3n]]);
  expect(m.ticket).toEqual(ticket);
}

describe("cluster resume", () => {
  useFakeSockets();

  it("a Hello answered REDIRECT goes on to the node named and says the same Hello there with the ticket", async () => {
    const states: LinkState[] = [];
    const replies: ResultCode[] = [];
    const { conn, a } = await seated(states, replies);
    conn.drop(); // the node the page was on died
    await flush();
    await vi.advanceTimersByTimeAsync(1_000);
    const again = FakeSocket.made[1];
    expect(again.url).toBe("ws://node-a/ws");
    again.accept();
    expectResumeHello(again.last(), new Uint8Array());
    resumeRedirect(again, "ws://node-c/ws");
    await flush();
    expect(again.readyState).toBe(FakeSocket.CLOSED);
    const c = FakeSocket.made[2];
    expect(c.url).toBe("ws://node-c/ws");
    c.accept();
    expectResumeHello(c.last(), TICKET);
    c.answer(c.last(), { result: ResultCode.OK });
    await flush();
    expect(replies).toEqual([ResultCode.OK, ResultCode.REDIRECT, ResultCode.OK]);
    expect(conn.address).toBe("ws://node-c/ws");
    expect(states.slice(states.indexOf("offline") + 1)).toEqual(["connecting", "online", "online"]);
    expect(a.readyState).toBe(FakeSocket.CLOSED);
  });

  it("CLUSTER_UNAVAILABLE to a Hello is asked again after a growing delay until a node holds the match", async () => {
    const replies: ResultCode[] = [];
    const { conn, a } = await seated([], replies);
    a.shut(1006, "");
    await vi.advanceTimersByTimeAsync(1_000);
    const b = FakeSocket.made[1];
    b.accept();
    b.answer(b.last(), { result: ResultCode.CLUSTER_UNAVAILABLE, reason: "adoption under way" });
    await vi.advanceTimersByTimeAsync(RESUME_RETRY_MIN_MS - 10);
    expect(b.sent).toHaveLength(1); // not asked again at once
    await vi.advanceTimersByTimeAsync(20);
    expect(b.sent).toHaveLength(2);
    expectResumeHello(b.last(), new Uint8Array());
    b.answer(b.last(), { result: ResultCode.CLUSTER_UNAVAILABLE, reason: "adoption under way" });
    await vi.advanceTimersByTimeAsync(2 * RESUME_RETRY_MIN_MS - 10);
    expect(b.sent).toHaveLength(2); // the delay doubled
    await vi.advanceTimersByTimeAsync(20);
    expect(b.sent).toHaveLength(3);
    resumeRedirect(b, "ws://node-c/ws");
    await flush();
    const c = FakeSocket.made[2];
    c.accept();
    expectResumeHello(c.last(), TICKET);
    c.answer(c.last(), { result: ResultCode.OK });
    await flush();
    expect(replies).toEqual([ResultCode.OK, ResultCode.REDIRECT, ResultCode.OK]);
    expect(conn.address).toBe("ws://node-c/ws");
  });

  it("CLUSTER_UNAVAILABLE past RESUME_GIVE_UP_MS ends in words", async () => {
    const conn = new Connection("ws://node-a/ws");
    let last = "";
    conn.onOpen = async () => {
      last = (await conn.hello({ protocolVersion: 2, resumeToken: "tok", cursors: [{ matchId: 7n, seq: 3n }] })).reason;
    };
    conn.open();
    const a = FakeSocket.made[0];
    a.accept();
    let answered = 0;
    let waited = 0;
    for (; waited <= RESUME_GIVE_UP_MS + 1_000 && !last; waited += 50) {
      while (answered < a.sent.length) {
        a.answer(a.sent[answered++], { result: ResultCode.CLUSTER_UNAVAILABLE, reason: "adoption under way" });
      }
      await vi.advanceTimersByTimeAsync(50);
    }
    expect(waited).toBeGreaterThan(RESUME_GIVE_UP_MS - 2_500);
    expect(last).toMatch(/^Match 7 is moving to another server and none has taken it over yet; reconnect in a moment/);
    const asked = a.sent.length;
    expect(asked).toBeGreaterThan(5);
    expect(asked).toBeLessThan(20); // backed off, not hammered
  });

  it("a close with 1012 MATCH_MOVED reconnects at once to that node, which sends the page on", async () => {
    const states: LinkState[] = [];
    const replies: ResultCode[] = [];
    const { conn, a } = await seated(states, replies);
    a.shut(1012, MOVED);
    const b = FakeSocket.made[1];
    expect(b?.url).toBe("ws://node-a/ws"); // no delay
    b.accept();
    expectResumeHello(b.last(), new Uint8Array());
    resumeRedirect(b, "ws://node-c/ws");
    await flush();
    const c = FakeSocket.made[2];
    c.accept();
    expectResumeHello(c.last(), TICKET);
    c.answer(c.last(), { result: ResultCode.OK });
    await flush();
    expect(replies).toEqual([ResultCode.OK, ResultCode.REDIRECT, ResultCode.OK]);
    expect(conn.address).toBe("ws://node-c/ws");
    expect(states).toEqual(["connecting", "online", "online", "online"]); // never offline
  });

  it("another close still shows offline and waits before reconnecting", async () => {
    const states: LinkState[] = [];
    const { a } = await seated(states);
    a.shut(1012, "server restarting");
    expect(FakeSocket.made).toHaveLength(1);
    expect(states[states.length - 1]).toBe("offline");
  });

  it("a node the page was sent to that is gone sends it back to its own server", async () => {
    const { conn, a } = await seated([]);
    a.shut(1012, MOVED);
    const b = FakeSocket.made[1];
    b.accept();
    resumeRedirect(b, "ws://node-c/ws");
    await flush();
    const c = FakeSocket.made[2];
    c.accept();
    c.answer(c.last(), { result: ResultCode.OK });
    await flush();
    c.shut(1006, ""); // node-c killed
    await vi.advanceTimersByTimeAsync(1_000);
    expect(FakeSocket.made[3].url).toBe("ws://node-c/ws");
    FakeSocket.made[3].refuse(); // and stays down
    await vi.advanceTimersByTimeAsync(5_000);
    const home = FakeSocket.made[4];
    expect(home.url).toBe("ws://node-a/ws");
    expect(conn.address).toBe("ws://node-a/ws");
    home.accept();
    expectResumeHello(home.last(), new Uint8Array()); // the ticket was for node-c only
  });

  it("a refused ticket costs the resume nothing: the Hello goes again without it", async () => {
    const replies: ResultCode[] = [];
    await seated([], replies);
    const a = FakeSocket.made[0];
    a.shut(1012, MOVED);
    const b = FakeSocket.made[1];
    b.accept();
    resumeRedirect(b, "ws://node-c/ws");
    await flush();
    const c = FakeSocket.made[2];
    c.accept();
    c.answer(c.last(), { result: ResultCode.TICKET_EXPIRED, reason: "expired" });
    await flush();
    expect(c.sent).toHaveLength(2);
    expectResumeHello(c.last(), new Uint8Array());
    c.answer(c.last(), { result: ResultCode.OK });
    await flush();
    expect(replies).toEqual([ResultCode.OK, ResultCode.REDIRECT, ResultCode.OK]);
  });

  it("during a move for a command, a Hello answered REDIRECT goes again without cursors", async () => {
    const { conn, a } = await seated([]);
    const reply = conn.send({ case: "joinMatch", value: { matchId: 9n, seat: -1 } });
    a.answer(a.last(), {
      result: ResultCode.REDIRECT,
      body: { case: "redirect", value: { node: "node-b", address: "ws://node-b/ws", ticket: TICKET, matchId: 9n } },
    });
    await flush();
    const b = FakeSocket.made[1];
    b.accept();
    resumeRedirect(b, "ws://node-a/ws"); // match 7 is on the node the page just left
    await flush();
    const plain = b.last();
    expect(plain.command.case === "hello" && plain.command.value.cursors).toEqual([]);
    expect(plain.command.case === "hello" && plain.command.value.resumeToken).toBe("tok");
    b.answer(plain, { result: ResultCode.OK });
    await flush();
    expect(b.last().command.case).toBe("joinMatch");
    expect(b.last().ticket).toEqual(TICKET);
    b.answer(b.last(), { result: ResultCode.OK });
    expect((await reply).result).toBe(ResultCode.OK);
    expect(conn.address).toBe("ws://node-b/ws");
    expect(FakeSocket.made).toHaveLength(2);
  });
});
