// A page that only spectates, over a failover (docs/cluster.md, Failover; watching.ts), over the
// stand-in WebSocket: after a 1012 MATCH_MOVED close or its node's death, the spectate it sends
// again is answered REDIRECT (or CLUSTER_UNAVAILABLE while no node holds the match yet), and the
// page follows its match to the node named, spectating there with the redirect's ticket, never
// "offline"; a page that holds a seat stays with its seat.
import { describe, expect, it, vi } from "vitest";
import { RESUME_GIVE_UP_MS } from "../src/connection";
import type { ClientMessage } from "../src/gen/envelope_pb";
import { ResultCode } from "../src/gen/result_pb";
import { Session } from "../src/session";
import { FakeSocket, memoryStorage, useFakeSockets } from "./fake_socket";

const flush = () => vi.advanceTimersByTimeAsync(0);
const TICKET = new Uint8Array([7, 8, 9]);
const MOVED = "MATCH_MOVED: match 7 moved to another node; reconnect";

type Spectated = (m: ClientMessage) => Parameters<FakeSocket["answer"]>[1];

// Plays a node on `socket`: welcomes the Hello and answers the lobby's commands; a spectate is
// answered by `spectated`. Answers what has come in since the last call.
function node(socket: FakeSocket, spectated: Spectated): () => void {
  let answered = 0;
  return () => {
    while (answered < socket.sent.length && socket.readyState === FakeSocket.OPEN) {
      const m = socket.sent[answered++];
      if (m.command.case === "hello") {
        socket.answer(m, {
          result: ResultCode.OK,
          body: { case: "welcome", value: { playerId: 5n, displayName: "Ann", resumeToken: "tok" } },
        });
      } else if (m.command.case === "spectate") {
        socket.answer(m, spectated(m));
      } else {
        socket.answer(m, { result: ResultCode.OK });
      }
    }
  };
}

const ok = () => ({ result: ResultCode.OK });
const redirectTo = (address: string) => () => ({
  result: ResultCode.REDIRECT,
  reason: "match 7 is on node node-c",
  body: { case: "redirect" as const, value: { node: "node-c", address, ticket: TICKET, matchId: 7n } },
});
const unavailable = () => ({ result: ResultCode.CLUSTER_UNAVAILABLE, reason: "adoption under way" });

// Runs the nodes' sides for `ms` of fake time, 50 ms at a time.
async function serve(ms: number, ...nodes: (() => void)[]): Promise<void> {
  for (let t = 0; t < ms; t += 50) {
    for (const n of nodes) n();
    await vi.advanceTimersByTimeAsync(50);
  }
  for (const n of nodes) n();
  await flush();
}

// A session on node A that spectates match 7 and holds seat 0 in match 8 (in play).
async function seatedSpectator(): Promise<{ session: Session; a: FakeSocket }> {
  localStorage.setItem("duelhall.token", "tok");
  const session = new Session("ws://node-a/ws");
  const m = session.match(8n);
  m.seat = 0;
  m.view = new Uint8Array([1]);
  session.start();
  const a = FakeSocket.made[0];
  a.accept();
  const first = node(a, ok);
  const watched = session.spectate(7n);
  await serve(100, first);
  expect(await watched).toBe(true);
  return { session, a };
}

function spectates(socket: FakeSocket): ClientMessage[] {
  return socket.sent.filter((m) => m.command.case === "spectate");
}

describe("a spectator over a failover", () => {
  useFakeSockets(() => vi.stubGlobal("localStorage", memoryStorage()));

  it("after a 1012 MATCH_MOVED close, a page that only spectates follows its match to the node named, with the ticket", async () => {
    const links: string[] = [];
    localStorage.setItem("duelhall.token", "tok");
    const session = new Session("ws://node-a/ws");
    session.subscribe(() => links.push(session.link));
    session.start();
    const a = FakeSocket.made[0];
    a.accept();
    const first = node(a, ok);
    await serve(100, first);
    const watched = session.spectate(7n);
    await serve(100, first);
    expect(await watched).toBe(true);

    a.shut(1012, MOVED);
    const again = FakeSocket.made[1];
    expect(again.url).toBe("ws://node-a/ws"); // at once, to the node that closed
    again.accept();
    await serve(300, node(again, redirectTo("ws://node-c/ws")));
    const c = FakeSocket.made[2];
    expect(c?.url).toBe("ws://node-c/ws");
    c.accept();
    await serve(300, node(c, ok));
    const there = spectates(c);
    expect(there).toHaveLength(1);
    expect(there[0].command.case === "spectate" && there[0].command.value.matchId).toBe(7n);
    expect(there[0].ticket).toEqual(TICKET);
    expect(session.conn.address).toBe("ws://node-c/ws");
    expect(links).not.toContain("offline");
    expect(session.error).toBe("");
    expect(FakeSocket.made).toHaveLength(3);
  });

  it("after its node died, the spectate is asked again while no node holds the match, then follows it", async () => {
    const links: string[] = [];
    localStorage.setItem("duelhall.token", "tok");
    const session = new Session("ws://node-a/ws");
    session.subscribe(() => links.push(session.link));
    session.start();
    const a = FakeSocket.made[0];
    a.accept();
    const first = node(a, ok);
    const watched = session.spectate(7n);
    await serve(100, first);
    expect(await watched).toBe(true);

    a.shut(1006, ""); // node A's process is gone; the page comes back to its address (a proxy)
    await vi.advanceTimersByTimeAsync(1_000);
    const b = FakeSocket.made[1];
    b.accept();
    let asked = 0;
    const adopting = node(b, () => (++asked <= 3 ? unavailable() : redirectTo("ws://node-c/ws")()));
    await serve(3_000, adopting);
    expect(asked).toBe(4);
    const c = FakeSocket.made[2];
    expect(c?.url).toBe("ws://node-c/ws");
    c.accept();
    await serve(300, node(c, ok));
    expect(spectates(c).map((m) => m.ticket)).toEqual([TICKET]);
    expect(session.conn.address).toBe("ws://node-c/ws");
    expect(session.error).toBe("");
  });

  it("no node taking the match within RESUME_GIVE_UP_MS ends in words, and the page stays", async () => {
    localStorage.setItem("duelhall.token", "tok");
    const session = new Session("ws://node-a/ws");
    session.start();
    const a = FakeSocket.made[0];
    a.accept();
    const first = node(a, ok);
    const watched = session.spectate(7n);
    await serve(100, first);
    expect(await watched).toBe(true);
    a.shut(1012, MOVED);
    const b = FakeSocket.made[1];
    b.accept();
    await serve(RESUME_GIVE_UP_MS + 2_000, node(b, unavailable));
    const asked = spectates(b).length;
    expect(asked).toBeGreaterThan(5);
    expect(asked).toBeLessThan(20); // backed off
    expect(session.error).toMatch(/^Match 7 is moving to another server and none has taken it over yet/);
    expect(session.conn.address).toBe("ws://node-a/ws");
    await serve(5_000, node(b, unavailable));
    expect(spectates(b).length).toBe(asked); // given up
  });

  it("a page that holds a seat in play stays with its seat: the spectate's REDIRECT is not followed", async () => {
    const { session, a } = await seatedSpectator();
    a.shut(1012, MOVED);
    const b = FakeSocket.made[1];
    b.accept();
    await serve(1_000, node(b, redirectTo("ws://node-c/ws")));
    expect(FakeSocket.made).toHaveLength(2);
    expect(session.conn.address).toBe("ws://node-a/ws");
    expect(spectates(b)).toHaveLength(1);
  });

  it("a spectate the page starts towards another node is not pulled back by the match it watched before", async () => {
    localStorage.setItem("duelhall.token", "tok");
    const session = new Session("ws://node-a/ws");
    session.start();
    const a = FakeSocket.made[0];
    a.accept();
    let spectated = 0;
    const onA = node(a, (m) => {
      spectated++;
      const id = m.command.case === "spectate" ? m.command.value.matchId : 0n;
      return id === 7n ? ok() : {
        result: ResultCode.REDIRECT,
        body: { case: "redirect" as const, value: { node: "node-b", address: "ws://node-b/ws", ticket: TICKET, matchId: 9n } },
      };
    });
    await serve(200, onA); // the hello and the lobby are through
    const first = session.spectate(7n);
    await serve(100, onA);
    expect(await first).toBe(true);
    const second = session.spectate(9n); // on node-b: the page moves there
    await serve(100, onA);
    const b = FakeSocket.made[1];
    expect(b.url).toBe("ws://node-b/ws");
    b.accept();
    // Node-b has match 9 and sends the page back to node-a for match 7.
    await serve(300, node(b, (m) => m.command.case === "spectate" && m.command.value.matchId === 9n ? ok()
      : { ...redirectTo("ws://node-a/ws")(), body: { case: "redirect" as const,
        value: { node: "node-a", address: "ws://node-a/ws", ticket: TICKET, matchId: 7n } } }));
    expect(await second).toBe(true);
    expect(spectated).toBe(2);
    expect(FakeSocket.made).toHaveLength(2);
    expect(session.conn.address).toBe("ws://node-b/ws");
    expect(spectates(b).map((m) => m.command.case === "spectate" && m.command.value.matchId).sort()).toEqual([7n, 9n]);
  });
});
