// The match screen's frame, common to every ruleset: the seat or spectator badge, connection
// state, decision clock, the ruleset's board, the legal actions, the event log and chat.
import { h } from "../dom";
import { checkFairness } from "../fairness";
import { MatchStatus, SeatInfo_Occupant } from "../gen/lobby_pb";
import { forceBattlesScreen } from "../screens/force_battles";
import { genericScreen } from "../screens/generic";
import { jediDuelScreen } from "../screens/jedi_duel";
import type { Screen, ScreenContext } from "../screens/screen";
import { youngJediScreen } from "../screens/young_jedi";
import type { MatchView, Session } from "../session";
import { decodeView } from "../views";
import { ratingNote } from "./account";
import { go, inviteLink } from "./route";

const SCREENS: { [ruleset: string]: Screen } = {
  jedi_duel: jediDuelScreen,
  young_jedi: youngJediScreen,
  force_battles: forceBattlesScreen,
};

const chatInputs = new Map<bigint, HTMLInputElement>();

export function screenFor(ruleset: string): Screen {
  return SCREENS[ruleset] ?? genericScreen;
}

// What the seed commitment says, checked here from the revealed seed.
export function fairnessNote(m: { seedCommitment: string; seed: string; engineVersion: string }): HTMLElement | null {
  const verdict = checkFairness(m);
  const short = m.seedCommitment.slice(0, 16);
  const title = `SHA-256 commitment ${m.seedCommitment} (${m.engineVersion})`;
  switch (verdict) {
    case "none":
      return null;
    case "committed":
      return h("span", { class: "fairness", id: "fairness", title },
        `Seed committed: ${short}\u2026, revealed at the end`);
    case "verified":
      return h("span", { class: "fairness verified", id: "fairness", title: `${title}; seed ${m.seed}` },
        "\u2713 Seed verified: the revealed seed matches the commitment");
    case "mismatch":
      return h("span", { class: "fairness mismatch", id: "fairness", role: "alert", title },
        "\u2717 The revealed seed does not match the commitment");
  }
}

export function seatNamer(mv: MatchView): (seat: number) => string {
  return (seat) => mv.info?.seats[seat]?.name || `seat ${seat}`;
}

// Event texts name seats as @N; the client puts the display names in.
export function withNames(text: string, name: (seat: number) => string): string {
  return text.replace(/@(\d+)/g, (_, n) => name(Number(n)));
}

export function clockText(mv: MatchView): string {
  if (!mv.clockMs) return "";
  const left = Math.max(0, mv.clockMs - (performance.now() - mv.clockAt));
  return `${Math.ceil(left / 1000)} s`;
}

function spectatorBadge(mv: MatchView): HTMLElement {
  const st = mv.info?.settings;
  const delays = [st?.spectatorDelayActions ? `${st.spectatorDelayActions} actions` : "",
    st?.spectatorDelaySeconds ? `${st.spectatorDelaySeconds} s` : ""].filter(Boolean).join(" and ");
  return h("span", { class: "badge spectator", id: "spectator-badge" },
    "Spectating", delays ? ` \u00b7 ${delays} behind` : " \u00b7 live");
}

function board(session: Session, mv: MatchView): HTMLElement {
  if (!mv.info || mv.view === null || mv.info.status === MatchStatus.WAITING) {
    const taken = mv.info?.seats.filter((x) => x.occupant !== 0).length ?? 0;
    const free = Math.max(0, (mv.info?.settings?.seats ?? 0) - taken);
    return h("div", { class: "board waiting" }, h("p", {}, `Waiting for ${free} more player${free === 1 ? "" : "s"}...`),
      mv.inviteCode ? h("p", {}, "Invite link: ", h("input", { readonly: true, id: "invite", value: inviteLink(mv.id, mv.inviteCode), "aria-label": "invite link" })) : null,
      mv.seat === 0 && mv.info ? h("button", { id: "fill-bots", onclick: () =>
        void session.command({ case: "fillWithBots", value: { matchId: mv.id, level: "" } }) }, "Fill empty seats with bots") : null);
  }
  const rs = session.ruleset(mv.info.ruleset);
  const view = rs ? decodeView(rs.viewMessage, mv.view) : undefined;
  if (!view) return h("p", { class: "board" }, `This client cannot draw ${mv.info.ruleset} views yet.`);
  const info = mv.info;
  const ctx: ScreenContext = {
    view, seat: mv.seat, info, legal: mv.legal, seatName: seatNamer(mv),
    param: (name) => {
      const raw = info.settings?.params[name];
      if (raw !== undefined && raw !== "") return Number(raw) || 0;
      return rs?.params.find((p) => p.name === name)?.defaultInt ?? 0;
    },
    act: (code) => void session.act(mv.id, code),
  };
  return screenFor(info.ruleset)(ctx);
}

function actions(session: Session, mv: MatchView): HTMLElement {
  const name = seatNamer(mv);
  const over = mv.outcome || (mv.info && mv.info.status >= MatchStatus.FINISHED);
  return h("section", { class: "panel actions", "aria-labelledby": "actions-h" },
    h("h2", { id: "actions-h" }, over ? "Result" : mv.legal.length ? "Your move" : "Actions"),
    over && mv.outcome ? h("p", { id: "outcome", class: "result" },
      mv.outcome.winners.length > 1 ? `Winners: ${mv.outcome.winners.map(name).join(", ")}`
        : mv.outcome.winners.length ? `Winner: ${name(mv.outcome.winners[0])}` : "No winner",
      mv.outcome.reason ? ` (${withNames(mv.outcome.reason, name)})` : "") : null,
    over ? ratingNote(mv.id) : null,
    mv.notice ? h("p", { class: "notice", role: "alert" }, mv.notice) : null,
    mv.legal.length
      ? h("div", { class: "action-list", id: "actions" }, ...mv.legal.map((a) =>
          h("button", { class: "action", "data-key": `action-${a.code}`, "data-code": String(a.code),
            onclick: () => void session.act(mv.id, a.code) }, withNames(a.label, name))))
      : h("p", { class: "hint" }, over ? "" : mv.seat < 0 ? "You are watching." : "Waiting for the others."));
}

function eventLog(mv: MatchView): HTMLElement {
  const name = seatNamer(mv);
  return h("section", { class: "panel log", "aria-labelledby": "log-h" },
    h("h2", { id: "log-h" }, "Events"),
    h("ol", { id: "event-log", "aria-live": "polite", tabindex: 0, start: Math.max(1, mv.events.length - 59) },
      ...mv.events.slice(-60).map((e) => h("li", {}, withNames(e, name)))));
}

function chat(session: Session, mv: MatchView): HTMLElement {
  let input = chatInputs.get(mv.id);
  if (!input) {
    input = h("input", { id: "chat-input", maxlength: 300, "aria-label": "chat message", autocomplete: "off" }) as HTMLInputElement;
    chatInputs.set(mv.id, input);
  }
  const field = input;
  return h("section", { class: "panel chat", "aria-labelledby": "chat-h" },
    h("h2", { id: "chat-h" }, "Chat"),
    h("ol", { id: "chat-log", "aria-live": "polite" },
      ...mv.chat.slice(-40).map((c) => h("li", {}, h("b", {}, c.from, c.seat < 0 ? " (watching)" : ""), ": ", c.text))),
    h("form", { onsubmit: (e: Event) => {
      e.preventDefault();
      const text = field.value.trim();
      if (!text) return;
      field.value = "";
      void session.command({ case: "chat", value: { matchId: mv.id, text } });
    } }, field, h("button", { type: "submit" }, "Send")));
}

// Who sits where, and whether each human is connected (Presence updates this live).
function seatList(mv: MatchView): HTMLElement | null {
  if (!mv.info) return null;
  return h("ul", { class: "seats", "aria-label": "seats" }, ...mv.info.seats.map((x, i) => {
    const state = x.occupant === SeatInfo_Occupant.BOT ? "bot" : x.occupant === SeatInfo_Occupant.EMPTY ? "free"
      : x.connected ? "connected" : "away";
    return h("li", { class: `seat-${state}` }, h("span", { class: "dot", "aria-hidden": "true" }),
      `${x.name || `seat ${i}`}${i === mv.seat ? " (you)" : ""}: ${state}`);
  }));
}

export function matchScreen(session: Session, mv: MatchView): HTMLElement {
  const rs = mv.info ? session.ruleset(mv.info.ruleset) : undefined;
  return h("main", { class: "match", id: "match", "data-match": String(mv.id) },
    h("header", { class: "match-head" },
      h("h1", {}, rs?.displayName ?? "Match", ` #${mv.id}`),
      mv.seat >= 0 ? h("span", { class: "badge seat" }, `Seat ${mv.seat}`) : spectatorBadge(mv),
      h("span", { class: "clock", id: "clock", role: "timer", "aria-label": "decision clock" }, clockText(mv)),
      h("button", { class: "secondary", onclick: () => {
        void session.leave(mv.id);
        go("#/");
      } }, mv.seat >= 0 && mv.info?.status === MatchStatus.PLAYING ? "Leave (a bot takes over)" : "Back to the lobby"),
      mv.info ? fairnessNote(mv.info) : null,
      seatList(mv)),
    h("div", { class: "match-body" },
      h("div", { class: "main-col" }, board(session, mv), actions(session, mv)),
      h("div", { class: "side-col" }, eventLog(mv), chat(session, mv))));
}
