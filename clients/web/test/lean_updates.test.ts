// Protocol 5 leaves out of a seat's update what the client can tell (docs/protocol.md, version
// 5): the sequence when it follows the seat's previous update, the status while the match plays,
// and "unchanged" for a seat that still has no legal actions. The feed counts on from the last
// sequence it was told, applied or not.
import { describe, expect, it } from "vitest";
import { create } from "@bufbuild/protobuf";
import { MatchInfoSchema, MatchStatus } from "../src/gen/lobby_pb";
import { MatchSnapshotSchema, MatchUpdateSchema } from "../src/gen/match_pb";
import { MatchFeed, newMatchView } from "../src/match_feed";
import { PhraseBooks } from "../src/phrase_books";

function seated() {
  const resyncs: bigint[] = [];
  const feed = new MatchFeed((id) => resyncs.push(id), new PhraseBooks(async () => null));
  const mv = newMatchView(7n, "");
  feed.snapshot(mv, create(MatchSnapshotSchema, {
    match: create(MatchInfoSchema, { matchId: 7n, ruleset: "duel", status: MatchStatus.PLAYING }),
    seat: 0, seq: 5n, view: new Uint8Array(),
    legal: [{ code: 1n, label: "one" }, { code: 2n, label: "two" }],
  }));
  return { feed, mv, resyncs };
}
const update = (init: object) => create(MatchUpdateSchema, { matchId: 7n, ...init });
const settle = async () => {
  await Promise.resolve();
  await Promise.resolve();
};

describe("protocol 5's lean updates", () => {
  it("counts the sequence on from the last one told when an update leaves it out", () => {
    const { feed, mv, resyncs } = seated();
    feed.update(mv, update({ events: ["a"], legalCodes: [2n] }));
    feed.update(mv, update({ events: ["b"] }));
    expect(mv.seq).toBe(7n);
    expect(mv.events).toEqual(["a", "b"]);
    feed.update(mv, update({ seq: 8n, events: ["c"] })); // said when the server says it
    expect(mv.seq).toBe(8n);
    expect(resyncs).toEqual([]);
  });

  it("an update without a status means the match plays; a status given is taken", () => {
    const { feed, mv } = seated();
    feed.update(mv, update({}));
    expect(mv.info?.status).toBe(MatchStatus.PLAYING);
    feed.update(mv, update({ status: MatchStatus.FINISHED, outcome: { winners: [0], reason: "done" } }));
    expect(mv.info?.status).toBe(MatchStatus.FINISHED);
  });

  it("no codes and no \"unchanged\" means no legal actions; \"unchanged\" keeps them", () => {
    const { feed, mv } = seated();
    feed.update(mv, update({ legalUnchanged: true }));
    expect(mv.legal.map((a) => a.code)).toEqual([1n, 2n]);
    feed.update(mv, update({}));
    expect(mv.legal).toEqual([]);
    feed.update(mv, update({})); // still none: the server sends nothing for it
    expect(mv.legal).toEqual([]);
  });

  it("an update it cannot apply still counts: the next one is not taken for it, and a snapshot sets the count", async () => {
    const { feed, mv, resyncs } = seated();
    await settle(); // the book the snapshot asked for is refused: labels are only told
    feed.update(mv, update({ legalCodes: [9n] })); // 6: a code never labelled, so a resync
    expect(resyncs).toEqual([7n]);
    expect(mv.seq).toBe(5n);
    feed.update(mv, update({ events: ["late"] })); // 7, not 6: not applied over a gap
    expect(mv.seq).toBe(5n);
    expect(mv.events).toEqual([]);
    feed.snapshot(mv, create(MatchSnapshotSchema, {
      match: create(MatchInfoSchema, { matchId: 7n, ruleset: "duel" }), seat: 0, seq: 7n, view: new Uint8Array(),
    }));
    feed.update(mv, update({ events: ["after"] }));
    expect(mv.seq).toBe(8n);
    expect(mv.events).toEqual(["after"]);
  });
});
