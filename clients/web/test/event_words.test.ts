// Protocol 4's events (src/event_words.ts): word ids joined back into the texts, each word told
// once per match seat and kept by the session, even from an update it drops.
import { describe, expect, it, vi } from "vitest";
import { create } from "@bufbuild/protobuf";
import { ClientMessageSchema } from "../src/gen/envelope_pb";
import { MatchUpdateSchema } from "../src/gen/match_pb";
import { ResultCode } from "../src/gen/result_pb";
import { eventTexts, tellWords, type EventWords } from "../src/event_words";
import { Session } from "../src/session";
import { FakeSocket, useFakeSockets } from "./fake_socket";

const WORDS = [
  { id: 1, text: "@0" },
  { id: 2, text: "takes" },
  { id: 3, text: "a" },
  { id: 4, text: "Middle" },
  { id: 5, text: "Stance" },
  { id: 6, text: "with" },
  { id: 7, text: "5♥" },
  { id: 8, text: "" },
];

describe("event words", () => {
  it("join each event's words with single spaces, 0 between events, texts first", () => {
    const words: EventWords = new Map();
    const u = create(MatchUpdateSchema, { events: ["plain"], words: WORDS, eventWords: [1, 2, 3, 4, 5, 6, 7, 0, 8, 0, 1, 8, 8] });
    tellWords(u, words);
    expect(eventTexts(u, words)).toEqual(["plain", "@0 takes a Middle Stance with 5♥", "", "@0  "]);
    // Told once: a later update carries the ids alone; a word never told shows as "?".
    expect(eventTexts(create(MatchUpdateSchema, { eventWords: [1, 2, 9] }), words)).toEqual(["@0 takes ?"]);
  });
});

describe("session with event words", () => {
  const items = new Map<string, string>();
  useFakeSockets(() => {
    items.clear();
    vi.stubGlobal("localStorage", {
      getItem: (k: string) => items.get(k) ?? null,
      setItem: (k: string, v: string) => void items.set(k, v),
      removeItem: (k: string) => void items.delete(k),
    });
  });

  it("shows the texts of the words told, also by an update it dropped", async () => {
    items.set("duelhall.name", "Ann");
    const session = new Session("ws://node-a/ws");
    const m = session.match(7n);
    m.seat = 0;
    m.seq = 3n;
    m.view = new Uint8Array([1, 2, 3]);
    session.start();
    const socket = FakeSocket.made[0];
    socket.accept();
    await vi.advanceTimersByTimeAsync(0);
    const push = create(ClientMessageSchema, { requestId: 0n });
    const update = (seq: bigint, eventWords: number[], words = WORDS.slice(0, 0)) =>
      socket.answer(push, {
        result: ResultCode.OK,
        body: { case: "update", value: { matchId: 7n, seq, eventWords, words, legalUnchanged: true } },
      });
    update(3n, [], WORDS); // already applied: dropped, but its words are kept
    update(4n, [1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3]);
    await vi.advanceTimersByTimeAsync(0);
    expect(session.matches.get(7n)?.events).toEqual(["@0 takes a Middle Stance with 5♥", "@0 takes a"]);
  });
});
