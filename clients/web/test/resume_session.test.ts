// The session over a failover (docs/cluster.md, Failover), over a stand-in WebSocket: its seat is
// resumed on the node that adopted the match with the same token, without "offline", and a
// resume no node can take yet ends in words, the page going on without that match under the same
// token (no fresh identity).
import { describe, expect, it, vi } from "vitest";
import { RESUME_GIVE_UP_MS } from "../src/connection";
import { ResultCode } from "../src/gen/result_pb";
import { Session } from "../src/session";
import { FakeSocket, memoryStorage, useFakeSockets } from "./fake_socket";

const flush = () => vi.advanceTimersByTimeAsync(0);
const TICKET = new Uint8Array([4, 5, 6]);

// A session on node A seated in match 7 (seen up to seq 3), with the resume token "tok".
function seatedSession(): Session {
  localStorage.setItem("duelhall.token", "tok");
  localStorage.setItem("duelhall.name", "Ann");
  const session = new Session("ws://node-a/ws");
  const m = session.match(7n);
  m.seat = 0;
  m.seq = 3n;
  m.view = new Uint8Array([1, 2, 3]);
  return session;
}

describe("session resume in a cluster", () => {
  useFakeSockets(() => vi.stubGlobal("localStorage", memoryStorage()));

  it("a seat whose match moved is resumed on the adopter with the same token, never offline", async () => {
    const session = seatedSession();
    const links: string[] = [];
    session.subscribe(() => links.push(session.link));
    session.start();
    const a = FakeSocket.made[0];
    a.accept();
    a.shut(1012, "MATCH_MOVED: match 7 moved to another node; reconnect");
    const again = FakeSocket.made[1];
    again.accept();
    const hello = again.last();
    expect(hello.command.case === "hello" && hello.command.value.cursors.map((c) => c.seq)).toEqual([3n]);
    again.answer(hello, {
      result: ResultCode.REDIRECT,
      body: { case: "redirect", value: { node: "node-c", address: "ws://node-c/ws", ticket: TICKET, matchId: 7n } },
    });
    await flush();
    const c = FakeSocket.made[2];
    expect(c.url).toBe("ws://node-c/ws");
    c.accept();
    const there = c.last();
    expect(there.command.case === "hello" && there.command.value.resumeToken).toBe("tok");
    expect(there.ticket).toEqual(TICKET);
    c.answer(there, {
      result: ResultCode.OK,
      body: { case: "welcome", value: { playerId: 5n, displayName: "Ann", resumeToken: "tok", matches: [7n] } },
    });
    await flush();
    expect(session.playerId).toBe(5n);
    expect(session.error).toBe("");
    expect(localStorage.getItem("duelhall.token")).toBe("tok");
    expect(c.last().command.case).toBe("listRulesets"); // on with the lobby, on node-c
    expect(links).not.toContain("offline");
    expect(FakeSocket.made).toHaveLength(3);
  });

  it("a resume no node can take yet ends in words, and the page goes on without it under the same token", async () => {
    const session = seatedSession();
    session.start();
    const a = FakeSocket.made[0];
    a.accept();
    let answered = 0;
    for (let waited = 0; waited <= RESUME_GIVE_UP_MS + 1_000 && !session.ready; waited += 50) {
      while (answered < a.sent.length) {
        const m = a.sent[answered++];
        if (m.command.case !== "hello") a.answer(m, { result: ResultCode.OK });
        else if (m.command.value.cursors.length > 0) {
          a.answer(m, { result: ResultCode.CLUSTER_UNAVAILABLE, reason: "adoption under way" });
        } else {
          a.answer(m, {
            result: ResultCode.OK,
            body: { case: "welcome", value: { playerId: 5n, displayName: "Ann", resumeToken: "tok" } },
          });
        }
      }
      await vi.advanceTimersByTimeAsync(50);
    }
    await flush();
    const hellos = a.sent.filter((m) => m.command.case === "hello");
    expect(hellos.every((m) => m.command.case === "hello" && m.command.value.resumeToken === "tok")).toBe(true);
    expect(hellos.length).toBeGreaterThan(5);
    expect(session.playerId).toBe(5n);
    expect(session.error).toMatch(/^Match 7 is moving to another server and none has taken it over yet/);
    expect(localStorage.getItem("duelhall.token")).toBe("tok");
    expect(a.sent.map((m) => m.command.case).slice(-2)).toEqual(["listRulesets", "subscribeLobby"]);
  });
});
