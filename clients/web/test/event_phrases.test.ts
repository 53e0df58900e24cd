// Protocol 5's events (src/event_phrases.ts): phrases of the ruleset's book rendered into the
// texts the engine renders (engine/core/phrase.cpp), events one after another in one list, and an
// event that does not fit the book shown as "?" without losing those that can still be read.
import { describe, expect, it, vi } from "vitest";
import { create } from "@bufbuild/protobuf";
import { MatchInfoSchema, PhraseBookSchema, RulesetInfoSchema, type RulesetInfo } from "../src/gen/lobby_pb";
import { MatchUpdateSchema } from "../src/gen/match_pb";
import { ResultCode } from "../src/gen/result_pb";
import { phraseTexts } from "../src/event_phrases";
import { MatchFeed, newMatchView } from "../src/match_feed";
import { PhraseBooks } from "../src/phrase_books";
import { Session } from "../src/session";
import { FakeSocket, memoryStorage, useFakeSockets } from "./fake_socket";

const BOOK = create(PhraseBookSchema, {
  templates: [
    "",
    "{s} attacks {s} {area} with {card}", // 1
    "{s} draws {n} cards", // 2
    "{s} discards {card*}", // 3
    "Game over", // 4
    "{s} plays {nothing}", // 5: a list the book lacks
    "{s} takes {card} and {card*}: {n}", // 6
    "{s} opens {card", // 7: a slot never closed
  ],
  lists: [
    { name: "area", entries: ["high", "middle", "low"] },
    { name: "card", entries: ["5♥", "Luke", "Yoda", "7♠"] },
  ],
});

const render = (phrases: number[]) => phraseTexts(phrases, BOOK);

describe("phrases", () => {
  it("render every kind of slot: a seat as @N, a number, a list's entry, a counted run of entries", () => {
    expect(render([1, 0, 1, 2, 1])).toEqual(["@0 attacks @1 low with Luke"]);
    expect(render([2, 1, 3])).toEqual(["@1 draws 3 cards"]);
    expect(render([4])).toEqual(["Game over"]);
    expect(render([6, 1, 2, 2, 0, 3, 7])).toEqual(["@1 takes Yoda and 5♥, 7♠: 7"]);
  });

  it("join a {LIST*} slot's 0, 1 or 3 entries with commas", () => {
    expect(render([3, 1, 0])).toEqual(["@1 discards "]);
    expect(render([3, 1, 1, 3])).toEqual(["@1 discards 7♠"]);
    expect(render([3, 0, 3, 0, 2, 1])).toEqual(["@0 discards 5♥, Yoda, Luke"]);
  });

  it("write negative numbers with their sign", () => {
    expect(render([2, 0, -2])).toEqual(["@0 draws -2 cards"]);
    expect(render([2, 0, -2147483648])).toEqual(["@0 draws -2147483648 cards"]);
    expect(render([6, 0, 1, 0, -7])).toEqual(["@0 takes Luke and : -7"]);
  });

  it("read events one after another, each taking the arguments its template's slots take", () => {
    expect(render([2, 0, 1, 1, 1, 0, 0, 3])).toEqual(["@0 draws 1 cards", "@1 attacks @0 high with 7♠"]);
    expect(render([3, 1, 2, 0, 1, 4, 3, 0, 0])).toEqual(["@1 discards 5♥, Luke", "Game over", "@0 discards "]);
    expect(render([])).toEqual([]);
  });

  it("agree with the engine's renderer on the texts it gives", () => {
    // Written from the template rules and checked against engine/core/phrase.cpp's render.
    expect(render([1, 1, 0, 0, 0, 6, 1, 3, 2, 1, 2, 0])).toEqual([
      "@1 attacks @0 high with 5♥",
      "@1 takes 7♠ and Luke, Yoda: 0",
    ]);
    expect(phraseTexts([1, 0, 1], create(PhraseBookSchema, { templates: ["", "{s} and {s}"] }))).toEqual(["@0 and @1"]);
  });

  it("show an event that does not fit the book as ? and read on when its arguments can be counted", () => {
    expect(render([5, 0, 0, 4])).toEqual(["?", "Game over"]); // a missing list
    expect(render([1, 0, 1, 3, 0, 4])).toEqual(["?", "Game over"]); // an entry past the list's end
    expect(render([3, 0, 2, 1, -1, 4])).toEqual(["?", "Game over"]); // a negative entry
    expect(render([2, -1, 3, 4])).toEqual(["?", "Game over"]); // a negative seat
  });

  it("end with one ? when where the next event starts is lost", () => {
    expect(render([2, 0, 1, 99, 4])).toEqual(["@0 draws 1 cards", "?"]); // an unknown template
    expect(render([0, 4])).toEqual(["?"]); // index 0 is no template
    expect(render([-3, 4])).toEqual(["?"]);
    expect(render([1, 0, 1])).toEqual(["?"]); // arguments ran out
    expect(render([3, 0, -1, 4])).toEqual(["?"]); // a negative count
    expect(render([3, 0, 5, 1])).toEqual(["?"]); // a count past the arguments
    expect(render([7, 0, 4])).toEqual(["?"]); // a slot never closed
    expect(phraseTexts([4], undefined)).toEqual(["?"]); // no book
  });
});

describe("the match feed with protocol 5", () => {
  // A feed whose books are answered by hand: `answer` resolves the oldest request.
  function feedOnDuel() {
    const asked: string[][] = [];
    const answers: ((r: RulesetInfo[] | null) => void)[] = [];
    const books = new PhraseBooks((rulesets) => {
      asked.push(rulesets);
      return new Promise((resolve) => answers.push(resolve));
    });
    const redraws = { count: 0 };
    const feed = new MatchFeed(() => {}, books, () => void (redraws.count += 1));
    const mv = newMatchView(7n, "");
    mv.info = create(MatchInfoSchema, { matchId: 7n, ruleset: "duel" });
    mv.view = new Uint8Array();
    const answer = async (r: RulesetInfo[] | null) => {
      answers.shift()!(r);
      await Promise.resolve();
      await Promise.resolve();
    };
    return { feed, mv, asked, answer, redraws };
  }
  const duelListed = () => [create(RulesetInfoSchema, { name: "other" }), create(RulesetInfoSchema, { name: "duel", phrases: BOOK })];
  const update = (seq: bigint, init: { phrases?: number[]; events?: string[] }) =>
    create(MatchUpdateSchema, { matchId: 7n, seq, legalUnchanged: true, ...init });

  it("asks for the book of the match's ruleset when phrases first come, and renders them after its texts", async () => {
    const { feed, mv, asked, answer } = feedOnDuel();
    feed.update(mv, update(1n, { events: ["plain"] }));
    expect(asked).toEqual([]); // texts need no book
    feed.update(mv, update(2n, { phrases: [2, 0, 1, 4] }));
    expect(asked).toEqual([["duel"]]);
    await answer(duelListed());
    feed.update(mv, update(3n, { phrases: [2, 1, 3] }));
    expect(mv.events).toEqual(["plain", "@0 draws 1 cards", "Game over", "@1 draws 3 cards"]);
    expect(mv.eventCount).toBe(4);
    expect(asked).toEqual([["duel"]]); // once per connection
  });

  it("holds phrases until their book comes, and the match's later lines behind them", async () => {
    const { feed, mv, answer, redraws } = feedOnDuel();
    feed.update(mv, update(1n, { events: ["before"] }));
    feed.update(mv, update(2n, { phrases: [4] }));
    feed.update(mv, update(3n, { events: ["after"] }));
    expect(mv.seq).toBe(3n); // the view goes on meanwhile
    expect(mv.events).toEqual(["before"]);
    expect(redraws.count).toBe(0);
    await answer(duelListed());
    expect(mv.events).toEqual(["before", "Game over", "after"]);
    expect(redraws.count).toBe(1); // the page is told to show them
  });

  it("shows \"?\" for phrases whose book was refused, and asks again on a new connection", async () => {
    const { feed, mv, asked, answer } = feedOnDuel();
    feed.update(mv, update(1n, { phrases: [4] }));
    await answer(null);
    expect(mv.events).toEqual(["?"]);
    feed.newConnection();
    feed.update(mv, update(2n, { phrases: [4] }));
    expect(asked).toEqual([["duel"], ["duel"]]);
    await answer(duelListed());
    expect(mv.events).toEqual(["?", "Game over"]);
  });

  it("asks again on a new connection for phrases still waiting, and drops the old connection's answer", async () => {
    const { feed, mv, asked, answer } = feedOnDuel();
    feed.update(mv, update(1n, { phrases: [4] }));
    feed.newConnection(); // the request above is never answered on the new connection
    expect(asked).toEqual([["duel"], ["duel"]]);
    await answer(null); // the old connection's, late: ignored
    expect(mv.events).toEqual([]);
    await answer(duelListed());
    expect(mv.events).toEqual(["Game over"]);
  });
});

describe("session with protocol 7", () => {
  useFakeSockets(() => vi.stubGlobal("localStorage", memoryStorage()));

  it("says hello in protocol 7, lists the rulesets without books, and asks for a match's book when a seat's snapshot comes", async () => {
    localStorage.setItem("duelhall.name", "Ann");
    const session = new Session("ws://node-a/ws");
    session.start();
    const socket = FakeSocket.made[0];
    socket.accept();
    await vi.advanceTimersByTimeAsync(0);
    const hello = socket.sent.find((c) => c.command.case === "hello");
    expect(hello?.command.case === "hello" && hello.command.value.protocolVersion).toBe(7);
    socket.answer(hello!, {
      result: ResultCode.OK,
      body: { case: "welcome", value: { playerId: 5n, displayName: "Ann", resumeToken: "tok" } },
    });
    await vi.advanceTimersByTimeAsync(0);
    const list = socket.last();
    expect(list.command.case === "listRulesets" && list.command.value.phrasesOf).toEqual([]);
    // A seat's snapshot and the opponent's move overtake the list (as after a page reload).
    socket.push({
      result: ResultCode.OK,
      body: { case: "snapshot", value: { match: { matchId: 7n, ruleset: "duel" }, seat: 0, seq: 3n, view: new Uint8Array() } },
    });
    socket.push({
      result: ResultCode.OK,
      body: { case: "update", value: { matchId: 7n, seq: 4n, legalUnchanged: true, phrases: [1, 1, 0, 2, 3] } },
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(session.matches.get(7n)?.events).toEqual([]);
    const ask = socket.last();
    expect(ask.command.case === "listRulesets" && ask.command.value.phrasesOf).toEqual(["duel"]);
    socket.answer(ask, {
      result: ResultCode.OK,
      body: { case: "rulesets", value: { rulesets: [create(RulesetInfoSchema, { name: "duel", phrases: BOOK })] } },
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(session.matches.get(7n)?.events).toEqual(["@1 attacks @0 low with 7♠"]);
    socket.push({ // protocol 6: a seat's update in its one-byte field
      result: ResultCode.OK,
      body: { case: "seatUpdate", value: { matchId: 7n, seq: 5n, legalUnchanged: true, phrases: [2, 0, 4] } },
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(session.matches.get(7n)?.events).toEqual(["@1 attacks @0 low with 7♠", "@0 draws 4 cards"]);
    expect(socket.sent.filter((c) => c.command.case === "listRulesets")).toHaveLength(2);
  });
});
