// The rematch at the end of a two-player match (docs/pairing.md): offer one, answer the other
// player's offer, or read why ours was declined. An accepted rematch lands both players in the
// new match (a Paired push, pairing.ts).
import { h } from "../dom";
import { MatchStatus } from "../gen/lobby_pb";
import { ResultCode } from "../gen/result_pb";
import type { MatchView } from "../match_feed";
import type { Session } from "../session";

async function offer(session: Session, id: bigint): Promise<void> {
  const reply = await session.command({ case: "offerRematch", value: { matchId: id } });
  if (reply.result === ResultCode.OK) session.pairing.offered.add(id);
  session.changed();
}

async function answer(session: Session, id: bigint, accept: boolean): Promise<void> {
  session.pairing.offers.delete(id);
  await session.command({ case: "answerRematch", value: { matchId: id, accept, reason: "" } });
  session.changed();
}

export function rematchControl(session: Session, mv: MatchView): HTMLElement | null {
  const ended = mv.outcome !== undefined || mv.info?.status === MatchStatus.FINISHED;
  if (mv.seat < 0 || !ended || mv.info?.seats.length !== 2) return null;
  const live = session.link === "online";
  const got = session.pairing.offers.get(mv.id);
  if (got && !got.declined) {
    return h("span", { class: "confirm", role: "group", "aria-label": "rematch offer", id: "rematch-offer" },
      h("span", { "data-say": "rematch" }, `${got.from} offers a rematch. `),
      h("button", { id: "rematch-accept", disabled: !live, onclick: () => void answer(session, mv.id, true) }, "Accept rematch"),
      h("button", { class: "secondary", id: "rematch-decline", disabled: !live,
        onclick: () => void answer(session, mv.id, false) }, "Decline"));
  }
  if (got?.declined) {
    return h("span", { id: "rematch-declined", "data-say": "rematch" },
      `${got.from} declined the rematch${got.reason ? `: ${got.reason}` : "."}`);
  }
  if (session.pairing.offered.has(mv.id)) {
    return h("span", { id: "rematch-waiting", "data-say": "rematch" }, "Rematch offered; waiting for an answer.");
  }
  return h("button", { id: "rematch", disabled: !live, onclick: () => void offer(session, mv.id) }, "Rematch");
}
