// The player's part of the match screen: the result, the last refusal, and the offered actions
// in plain words with a hint for each game term (glossary.ts). On a phone the panel sticks to the
// bottom of the screen, so the moves are in reach without scrolling. Buttons are disabled while
// the connection is not live: a click then could not reach the server.
import { h } from "../dom";
import { hintText, plainLabel, termsIn } from "../glossary";
import { MatchStatus } from "../gen/lobby_pb";
import type { Term } from "../rules/howto";
import { driveSetup, isSetupStep, setupPlanner } from "../screens/force_battles_setup";
import { setupSaves } from "./setup_saves";
import type { MatchView, Session } from "../session";
import { seatNamer, withNames } from "./names";
import { ratingNote } from "./account";

function outcomeText(mv: MatchView): HTMLElement | null {
  if (!mv.outcome) return null;
  const name = seatNamer(mv);
  const o = mv.outcome;
  // Every seat among the winners (Jedi Duel's shared end) is a shared result, not a win.
  const shared = o.winners.length > 1 && o.winners.length >= (mv.info?.seats.length ?? 2);
  const mine = mv.seat < 0 ? ""
    : shared ? " \u2014 a draw, shared with everyone"
    : o.winners.includes(mv.seat) ? (o.winners.length > 1 ? " \u2014 you share the win" : " \u2014 you win")
    : o.winners.length ? " \u2014 you lose" : "";
  return h("p", { id: "outcome", class: "result" },
    shared ? `Shared by ${o.winners.map(name).join(" and ")}`
      : o.winners.length > 1 ? `Winners: ${o.winners.map(name).join(", ")}`
      : o.winners.length ? `Winner: ${name(o.winners[0])}` : "No winner",
    o.reason ? ` (${withNames(o.reason, name)})` : "", mine);
}

function termList(terms: Term[]): HTMLElement | null {
  if (!terms.length) return null;
  return h("details", { class: "terms-box", id: "terms-box" }, h("summary", {}, "What the words mean"),
    h("dl", { class: "terms" }, ...terms.flatMap((t) => [h("dt", {}, t.name), h("dd", {}, t.hint)])));
}

export function actionsPanel(session: Session, mv: MatchView): HTMLElement {
  const name = seatNamer(mv);
  const ruleset = mv.info?.ruleset ?? "";
  const over = Boolean(mv.outcome) || (mv.info !== undefined && mv.info.status >= MatchStatus.FINISHED);
  const live = session.link === "online";
  const act = (code: bigint) => void session.act(mv.id, code);
  if (live && !over && ruleset === "force_battles") driveSetup(mv.id, mv.seq, mv.legal, (code) => session.act(mv.id, code));
  const planner = !over && ruleset === "force_battles" && live
    ? setupPlanner(mv.id, mv.legal, mv.info?.settings?.params.competency || "learner", () => session.changed(),
      isSetupStep(mv.legal) ? setupSaves(session, mv.id) : null) : null;
  const terms = new Map<string, Term>();
  const buttons = mv.legal.map((a) => {
    const label = withNames(a.label, name);
    for (const t of termsIn(ruleset, a.label)) terms.set(t.name, t);
    return h("button", { class: "action", "data-key": `action-${a.code}`, "data-code": String(a.code),
      title: hintText(ruleset, a.label) || undefined, disabled: !live, onclick: () => act(a.code) },
      plainLabel(ruleset, label));
  });
  const list = h("div", { class: "action-list", id: "actions" }, ...buttons);
  // tabindex -1: focus can rest on the panel between moves (ui/turn_focus.ts), not fall to the body.
  return h("section", { class: `panel actions${mv.legal.length ? " my-move" : ""}`, id: "action-bar", tabindex: -1,
      "aria-labelledby": "actions-h" },
    h("h2", { id: "actions-h" }, over ? "Result" : mv.legal.length ? "Your move" : "Actions"),
    over ? outcomeText(mv) : null,
    over ? ratingNote(mv.id) : null,
    over ? h("p", { class: "after" }, h("a", { href: `#/replay/${mv.id}`, id: "open-replay" }, "Open the replay"), " \u00b7 ",
      h("a", { href: "#/", id: "to-lobby" }, "Back to the lobby")) : null,
    mv.notice ? h("p", { class: "notice", "data-say": "notice" }, mv.notice) : null,
    !live && mv.legal.length ? h("p", { class: "notice" }, "Not connected: the moves come back when the connection does.") : null,
    planner,
    planner && isSetupStep(mv.legal) ? h("p", { class: "hint" }, "Or choose one step at a time:") : null,
    mv.legal.length
      ? list
      : h("p", { class: "hint" }, over ? "" : mv.seat < 0 ? "You are watching." : "Waiting for the others."),
    mv.legal.length ? termList([...terms.values()]) : null);
}
