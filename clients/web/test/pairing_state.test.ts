// The client's pairing state from the server's pushes (src/pairing.ts): a SeekStatus starts and
// ends the seeking state, a refused end keeps its reason, a Paired seats the player in the match
// and calls the page's hook (one on another node once the session has joined it there, with the
// seat option sought with), and a RematchOffer (offered or declined) is kept by match.
import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { ServerMessageSchema } from "../src/gen/envelope_pb";
import { ResultCode } from "../src/gen/result_pb";
import { newMatchView, type MatchView } from "../src/match_feed";
import { PairingState } from "../src/pairing";

function views(): [Map<bigint, MatchView>, (id: bigint) => MatchView] {
  const all = new Map<bigint, MatchView>();
  return [all, (id) => all.get(id) ?? all.set(id, newMatchView(id, "")).get(id)!];
}

describe("pairing state", () => {
  it("seeks, is told the wait, and ends with the server's reason", () => {
    const state = new PairingState();
    const [, match] = views();
    state.receive(create(ServerMessageSchema, {
      body: { case: "seekStatus", value: { seeking: true, ruleset: "jedi_duel", clock: "rapid", secondsWaited: 7, playersInPool: 3 } },
    }), match);
    expect(state.seeking()).toBe(true);
    expect(state.secondsWaited()).toBeGreaterThanOrEqual(7);
    state.receive(create(ServerMessageSchema, {
      result: ResultCode.BAD_PARAMETERS, reason: "the decks do not fit",
      body: { case: "seekStatus", value: { seeking: false } },
    }), match);
    expect(state.seeking()).toBe(false);
    expect(state.ended).toBe("the decks do not fit");
  });

  it("lands in the paired match at its seat and forgets the rematch it came from", () => {
    const state = new PairingState();
    const [all, match] = views();
    const landed: bigint[] = [];
    state.onPaired = (id) => landed.push(id);
    state.offered.add(4n);
    state.receive(create(ServerMessageSchema, {
      body: { case: "paired", value: { matchId: 9n, seat: 1, rematch: true, previousMatchId: 4n } },
    }), match);
    expect(all.get(9n)?.seat).toBe(1);
    expect(landed).toEqual([9n]);
    expect(state.offered.has(4n)).toBe(false);
  });

  it("a Paired on another node is joined there with the seat option sought with, then lands", async () => {
    const state = new PairingState();
    const [all, match] = views();
    const landed: bigint[] = [];
    const asked: unknown[] = [];
    let seated = false;
    state.onPaired = (id) => landed.push(id);
    state.sought = { seatOption: "my deck", savedDeck: 0n };
    state.joinElsewhere = (id, seat, r, option) => {
      asked.push([id, seat, r.node, option]);
      return Promise.resolve(seated);
    };
    const paired = create(ServerMessageSchema, {
      body: { case: "paired", value: { matchId: 9n, seat: 1, redirect: { node: "node-b", address: "ws://b/ws" } } },
    });
    state.receive(paired, match);
    await Promise.resolve();
    expect(asked).toEqual([[9n, 1, "node-b", { seatOption: "my deck", savedDeck: 0n }]]);
    expect(all.has(9n)).toBe(false); // seated only once the node there has taken the join
    expect(landed).toEqual([]); // refused: the page stays
    seated = true;
    state.receive(paired, match);
    await Promise.resolve();
    expect(landed).toEqual([9n]);
  });

  it("keeps a rematch offer, and a decline ends our own offer", () => {
    const state = new PairingState();
    const [, match] = views();
    state.offered.add(4n);
    state.receive(create(ServerMessageSchema, {
      body: { case: "rematchOffer", value: { matchId: 4n, from: "Ben", declined: true, reason: "bed" } },
    }), match);
    expect(state.offers.get(4n)?.reason).toBe("bed");
    expect(state.offered.has(4n)).toBe(false);
    expect(state.receive(create(ServerMessageSchema, { body: { case: "pong", value: { nonce: 1n } } }), match)).toBe(false);
  });
});
