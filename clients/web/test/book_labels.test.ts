// Protocol 7 (docs/protocol.md, version 7): a ruleset's book may say its action labels, a form
// per action kind naming a template and the code's argument bytes that fill its slots. The server
// then sends no label for such a code, and the page renders it from the code with the book.
import { describe, expect, it } from "vitest";
import { create } from "@bufbuild/protobuf";
import { MatchInfoSchema, MatchStatus, PhraseBookSchema, RulesetInfoSchema, type RulesetInfo } from "../src/gen/lobby_pb";
import { MatchSnapshotSchema, MatchUpdateSchema } from "../src/gen/match_pb";
import { labelText } from "../src/event_phrases";
import { MatchFeed, newMatchView } from "../src/match_feed";
import { PhraseBooks } from "../src/phrase_books";

const BOOK = create(PhraseBookSchema, {
  templates: ["", "attack {s} with {card}{into}", "pass", "Stance {card}"],
  lists: [
    { name: "card", entries: ["5♥", "K♣", "7♠"] },
    { name: "into", entries: ["", " into High", " into Middle"] },
  ],
  // kind 1: attack (card, target, area); kind 2: pass; kind 3 has no form; kind 4: stance
  labels: [{}, { phrase: 1, args: new Uint8Array([1, 0, 2]) }, { phrase: 2 }, {}, { phrase: 3, args: new Uint8Array([0]) }],
});
// A code: the kind in the low byte, argument i in byte i + 1.
const code = (kind: number, ...args: number[]) =>
  args.reduce((c, a, i) => c | (BigInt(a) << BigInt(8 * (i + 1))), BigInt(kind));

describe("labels said by the book", () => {
  it("renders a code's label by its kind's form, its slots taking the arguments the form names", () => {
    expect(labelText(code(1, 1, 3, 1), BOOK)).toBe("attack @3 with K♣ into High");
    expect(labelText(code(1, 2, 0, 0), BOOK)).toBe("attack @0 with 7♠");
    expect(labelText(code(2), BOOK)).toBe("pass");
    expect(labelText(code(4, 0), BOOK)).toBe("Stance 5♥");
  });

  it("has no label for a kind without a form, past the forms, or arguments outside the lists", () => {
    expect(labelText(code(3, 1), BOOK)).toBeUndefined();
    expect(labelText(code(9), BOOK)).toBeUndefined();
    expect(labelText(code(1, 7, 0, 0), BOOK)).toBeUndefined(); // no card 7
  });
});

describe("the match feed with protocol 7", () => {
  function seated(book: () => Promise<RulesetInfo[] | null>) {
    const resyncs: bigint[] = [];
    const asked: string[][] = [];
    const answers: (() => void)[] = [];
    const books = new PhraseBooks((rulesets) => {
      asked.push(rulesets);
      return new Promise((resolve) => answers.push(() => void book().then(resolve)));
    });
    const redraws = { count: 0 };
    const feed = new MatchFeed((id) => resyncs.push(id), books, () => void (redraws.count += 1));
    const mv = newMatchView(7n, "");
    feed.snapshot(mv, create(MatchSnapshotSchema, {
      match: create(MatchInfoSchema, { matchId: 7n, ruleset: "duel", status: MatchStatus.PLAYING }),
      seat: 0, seq: 5n, view: new Uint8Array(), legal: [{ code: 99n, label: "told" }],
    }));
    const answer = async () => {
      answers.shift()!();
      for (let i = 0; i < 4; ++i) await Promise.resolve();
    };
    return { feed, mv, resyncs, asked, answer, redraws };
  }
  const listed = async () => [create(RulesetInfoSchema, { name: "duel", phrases: BOOK })];
  const update = (init: object) => create(MatchUpdateSchema, { matchId: 7n, ...init });

  it("asks for the book when a seat sits, and labels codes the server sent without labels", async () => {
    const { feed, mv, resyncs, asked, answer } = seated(listed);
    expect(asked).toEqual([["duel"]]);
    await answer();
    feed.update(mv, update({ legalCodes: [code(1, 1, 3, 1), code(2), 99n] }));
    expect(mv.legal.map((a) => a.label)).toEqual(["attack @3 with K♣ into High", "pass", "told"]);
    expect(resyncs).toEqual([]);
  });

  it("applies an update whose labels wait for the book, and labels its actions when the book comes", async () => {
    const { feed, mv, resyncs, answer, redraws } = seated(listed);
    feed.update(mv, update({ legalCodes: [code(2), code(4, 2)] }));
    expect(mv.seq).toBe(6n); // the view goes on meanwhile
    expect(mv.legal.map((a) => a.label)).toEqual(["", ""]);
    await answer();
    expect(mv.legal.map((a) => a.label)).toEqual(["pass", "Stance 7♠"]);
    expect(redraws.count).toBe(1);
    expect(resyncs).toEqual([]);
  });

  it("asks for a snapshot when the book comes without the label, or was refused", async () => {
    const { feed, mv, resyncs, answer } = seated(listed);
    feed.update(mv, update({ legalCodes: [code(3, 1)] })); // a kind without a form, never told
    await answer();
    expect(resyncs).toEqual([7n]);
    const refused = seated(async () => null);
    refused.feed.update(refused.mv, update({ legalCodes: [code(2)] }));
    expect(refused.resyncs).toEqual([]);
    await refused.answer();
    expect(refused.resyncs).toEqual([7n]);
  });
});
