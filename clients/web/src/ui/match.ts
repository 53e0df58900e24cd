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
import { rematchControl } from "./rematch";
import { decodeView } from "../views";
import { actionsPanel } from "./actions";
import { foldEvents, lineText } from "./events";
import { rulesLink } from "./howto";
import { invitePanel } from "./invite";
import { chatLineTools } from "./moderation";
import { seatNamer, spectatorsText, withNames } from "./names";
import { go } from "./route";
import { setPageName } from "./page";

export { seatNamer, withNames };

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
      return h("span", { class: "fairness mismatch", id: "fairness", "data-say": "fairness", title },
        "\u2717 The revealed seed does not match the commitment");
  }
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
    if (!mv.info) return h("div", { class: "board waiting" }, h("p", {}, "Opening the match..."));
    return h("div", { class: "board waiting" }, h("p", {}, `Waiting for ${free} more player${free === 1 ? "" : "s"}...`),
      free > 0 || !mv.info.settings ? invitePanel(mv) : null,
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
  return h("section", { class: "board-wrap", "aria-labelledby": "board-h" },
    h("h2", { id: "board-h", class: "sr-only" }, "The table"), screenFor(info.ruleset)(ctx));
}

// Force Battles' setup progress is public (F8): the folded line reads it from the view.
function setupProgress(session: Session, mv: MatchView): (tag: string, count: number) => string {
  const rs = mv.info ? session.ruleset(mv.info.ruleset) : undefined;
  const view = rs && mv.view && mv.info?.ruleset === "force_battles" ? decodeView(rs.viewMessage, mv.view) : undefined;
  return (tag, count) => {
    const stage = view?.players?.[Number(tag.slice(1))]?.setupStage;
    return stage !== undefined ? `${tag} is setting up: step ${Math.min(stage, 27)} of 27`
      : `${tag} is setting up (${count} step${count === 1 ? "" : "s"})`;
  };
}

function eventLog(session: Session, mv: MatchView): HTMLElement {
  const name = seatNamer(mv);
  const lines = foldEvents(mv.events, setupProgress(session, mv)).slice(-60);
  // Not a live region: it is redrawn on every update; the page's one region reads new lines.
  return h("section", { class: "panel log", "aria-labelledby": "log-h" },
    h("h2", { id: "log-h" }, "Events"),
    h("ol", { id: "event-log", tabindex: 0, "aria-label": "events, newest last" },
      ...lines.map((l) => h("li", {}, withNames(lineText(l), name)))));
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
    h("ol", { id: "chat-log" },
      ...mv.chat.filter((c) => !session.ignored.has(c.fromPlayer)).slice(-40).map((c) => h("li", {},
        h("b", {}, c.from, c.seat < 0 ? " (watching)" : ""), ": ", c.text, " ", chatLineTools(session, c)))),
    h("form", { onsubmit: (e: Event) => {
      e.preventDefault();
      const text = field.value.trim();
      if (!text) return;
      field.value = "";
      void session.command({ case: "chat", value: { matchId: mv.id, text } });
    } }, field, h("button", { type: "submit" }, "Send")));
}

// Who sits where, and whether each human is connected (Presence updates this live).
function seatList(session: Session, mv: MatchView): HTMLElement | null {
  if (!mv.info) return null;
  return h("ul", { class: "seats", "aria-label": "seats" }, ...mv.info.seats.map((x, i) => {
    const connected = i === mv.seat ? session.link === "online" : x.connected; // our own link we know first-hand
    const state = x.occupant === SeatInfo_Occupant.BOT ? "bot" : x.occupant === SeatInfo_Occupant.EMPTY ? "free"
      : connected ? "connected" : "away";
    return h("li", { class: `seat-${state}` }, h("span", { class: "dot", "aria-hidden": "true" }),
      `${x.name || `seat ${i}`}${i === mv.seat ? " (you)" : ""}: ${state}`);
  }));
}

// Whether another human plays on here: leaving then hands the seat to a bot, else the match
// ends (the server's default for a match with no human left).
function othersSeated(mv: MatchView): boolean {
  return (mv.info?.seats ?? []).some((x, i) => i !== mv.seat && x.occupant === SeatInfo_Occupant.HUMAN);
}

// Resigning asks first: the button opens a confirmation in place. So does leaving a rated match
// with no bot to take over (a rated match has none): leaving concedes it.
const confirming = new Set<bigint>();
const confirmingLeave = new Set<bigint>();

function leaveControl(session: Session, mv: MatchView, playing: boolean): HTMLElement {
  const leave = () => {
    confirmingLeave.delete(mv.id);
    void session.leave(mv.id);
    go("#/");
  };
  const rated = Boolean(mv.info?.settings?.rated);
  if (!playing) return h("button", { class: "secondary", id: "leave", onclick: leave }, "Back to the lobby");
  if (!rated && othersSeated(mv)) return h("button", { class: "secondary", id: "leave", onclick: leave }, "Leave (a bot takes over)");
  if (!confirmingLeave.has(mv.id)) {
    return h("button", { class: "secondary", id: "leave", onclick: () => {
      confirmingLeave.add(mv.id);
      session.changed();
    } }, rated ? "Leave (you lose this rated match)" : "Leave (ends the match)");
  }
  return h("span", { class: "confirm", role: "group", "aria-label": "confirm leaving" },
    h("span", {}, rated ? "Leave and lose this rated match? " : "Leave and end this match? "),
    h("button", { id: "leave-yes", onclick: leave }, rated ? "Yes, leave and lose" : "Yes, leave"),
    h("button", { class: "secondary", id: "leave-no", "data-offline": "ok", onclick: () => {
      confirmingLeave.delete(mv.id);
      session.changed();
    } }, "Stay"));
}
function resignControl(session: Session, mv: MatchView): HTMLElement | null {
  if (mv.seat < 0 || mv.info?.status !== MatchStatus.PLAYING || mv.outcome) return null;
  const live = session.link === "online";
  if (!confirming.has(mv.id)) {
    return h("button", { class: "secondary", id: "resign", disabled: !live, onclick: () => {
      confirming.add(mv.id);
      session.changed();
    } }, "Resign");
  }
  return h("span", { class: "confirm", role: "group", "aria-label": "confirm resigning" },
    h("span", {}, "Resign this match? "),
    h("button", { id: "resign-yes", disabled: !live, onclick: () => {
      confirming.delete(mv.id);
      void session.resign(mv.id);
    } }, "Yes, resign"),
    h("button", { class: "secondary", id: "resign-no", "data-offline": "ok", onclick: () => {
      confirming.delete(mv.id);
      session.changed();
    } }, "Keep playing"));
}

export function matchScreen(session: Session, mv: MatchView): HTMLElement {
  const rs = mv.info ? session.ruleset(mv.info.ruleset) : undefined;
  const playing = mv.seat >= 0 && mv.info?.status === MatchStatus.PLAYING && !mv.outcome;
  setPageName(`${rs?.displayName ?? "Match"} #${mv.id}`);
  return h("main", { class: "match", id: "match", "data-match": String(mv.id) },
    h("div", { class: "match-head" },
      h("h1", { id: "page-h" }, rs?.displayName ?? "Match", ` #${mv.id}`),
      mv.seat >= 0 ? h("span", { class: "badge seat" }, `Seat ${mv.seat}`) : spectatorBadge(mv),
      h("span", { class: "clock", id: "clock", role: "timer", "aria-label": "decision clock" }, clockText(mv)),
      mv.info ? rulesLink(mv.info.ruleset) : null,
      resignControl(session, mv),
      rematchControl(session, mv),
      leaveControl(session, mv, playing),
      mv.info ? fairnessNote(mv.info) : null,
      mv.info?.spectatorsAllowed
        ? h("span", { class: "spectator-count", id: "spectator-count" }, spectatorsText(mv.info.spectators))
        : null,
      seatList(session, mv)),
    h("div", { class: "match-body" },
      h("div", { class: "main-col" }, board(session, mv), actionsPanel(session, mv)),
      h("div", { class: "side-col" }, eventLog(session, mv), chat(session, mv))));
}
