// Replays of ended matches: a list (filtered by ruleset and player name) and a viewer that steps
// through a match forward and back from any perspective the server offers: a seat, the public
// view, or everything once the match has ended. Each position's view is the server's bytes as
// that viewer saw them live, drawn by the ruleset's own screen with no actions offered.
import { create } from "@bufbuild/protobuf";
import { h } from "../dom";
import { MatchInfoSchema, MatchStatus, SeatInfo_Occupant } from "../gen/lobby_pb";
import type { ReplayFrame, ReplaySummary } from "../gen/replay_pb";
import { ResultCode } from "../gen/result_pb";
import type { ScreenContext } from "../screens/screen";
import type { Session } from "../session";
import { decodeView } from "../views";
import { fairnessNote, screenFor, withNames } from "./match";
import { announce, pageHeading, setPageName } from "./page";

export const PUBLIC_VIEW = -1;
export const OMNISCIENT_VIEW = -2;

interface ListState {
  ruleset: string;
  player: string;
  replays: ReplaySummary[];
  loaded: boolean;
  error: string;
}

interface ViewerState {
  id: bigint;
  seat: number;
  frame: ReplayFrame | null;
  error: string;
  busy: boolean;
}

const list: ListState = { ruleset: "", player: "", replays: [], loaded: false, error: "" };
let viewer: ViewerState | null = null;

export async function loadReplays(session: Session): Promise<void> {
  const reply = await session.conn.send({
    case: "listReplays",
    value: { ruleset: list.ruleset, player: list.player, limit: 50, before: 0n },
  });
  list.loaded = true;
  list.error = reply.result === ResultCode.OK ? "" : reply.reason || "the server refused the list";
  list.replays = reply.body.case === "replays" ? reply.body.value.replays : [];
  session.changed();
}

// Opens position `position` of match `id` from `seat`'s perspective.
export async function showReplay(session: Session, id: bigint, seat: number, position: number): Promise<void> {
  if (!viewer || viewer.id !== id) viewer = { id, seat, frame: null, error: "", busy: false };
  viewer.seat = seat;
  viewer.busy = true;
  const reply = await session.conn.send({
    case: "replayView",
    value: { matchId: id, seat, position: Math.max(0, position) },
  });
  if (viewer.id !== id) return; // another replay was opened meanwhile
  viewer.busy = false;
  if (reply.result === ResultCode.OK && reply.body.case === "replayFrame") {
    viewer.frame = reply.body.value;
    viewer.error = "";
    announce(`Position ${viewer.frame.position} of ${viewer.frame.length}`);
  } else {
    viewer.error = reply.reason || "the server refused the replay";
  }
  session.changed();
}

function resultText(r: ReplaySummary): string {
  const name = (seat: number) => r.names[seat] || `seat ${seat}`;
  if (r.aborted) return `stopped: ${withNames(r.reason, name)}`;
  const who = r.winners.length ? `won by ${r.winners.map(name).join(" and ")}` : "no winner";
  return r.reason ? `${who} (${withNames(r.reason, name)})` : who;
}

function when(ms: bigint): string {
  return ms ? new Date(Number(ms)).toLocaleString() : "";
}

export function replayListPage(session: Session): HTMLElement {
  if (!list.loaded) void loadReplays(session);
  const rulesetName = (name: string) => session.ruleset(name)?.displayName ?? name;
  return h("main", { class: "lobby", id: "main" }, pageHeading("Replays"),
    h("section", { class: "panel", "aria-labelledby": "replays-h" },
      h("h2", { id: "replays-h" }, "Replays of ended matches"),
      h("form", { class: "replay-filter", id: "replay-filter", onsubmit: (e: Event) => {
        e.preventDefault();
        const form = e.target as HTMLFormElement;
        list.ruleset = (form.elements.namedItem("replay-ruleset") as HTMLSelectElement).value;
        list.player = (form.elements.namedItem("replay-player") as HTMLInputElement).value.trim();
        void loadReplays(session);
      } },
        h("label", { for: "replay-ruleset" }, "Ruleset "),
        h("select", { id: "replay-ruleset", name: "replay-ruleset" },
          h("option", { value: "" }, "any"),
          ...session.rulesets.map((r) => h("option", { value: r.name, selected: r.name === list.ruleset }, r.displayName))),
        h("label", { for: "replay-player" }, " Player "),
        h("input", { id: "replay-player", name: "replay-player", value: list.player, maxlength: 32, autocomplete: "off" }),
        " ", h("button", { type: "submit" }, "Search")),
      list.error ? h("p", { class: "error", "data-say": "replays-error" }, list.error) : null,
      list.replays.length
        ? h("ul", { id: "replay-list" }, ...list.replays.map((r) =>
            h("li", { "data-replay": String(r.matchId) },
              h("a", { href: `#/replay/${r.matchId}` }, `#${r.matchId} ${rulesetName(r.ruleset)}`),
              ` \u00b7 ${r.names.join(" vs ")} \u00b7 ${resultText(r)} \u00b7 ${r.steps} actions \u00b7 ${when(r.endedMs)}`)))
        : h("p", { class: "hint" }, list.loaded ? "No ended matches found." : "Loading...")));
}

function perspectiveChoice(session: Session, v: ViewerState, summary: ReplaySummary): HTMLElement {
  const seats = summary.names.map((name, i) => ({ seat: i, label: `${name || `seat ${i}`} (seat ${i})` }));
  const choices = [{ seat: PUBLIC_VIEW, label: "Public (what spectators saw)" }, ...seats,
    { seat: OMNISCIENT_VIEW, label: "Everything (every hand and the deck)" }];
  return h("label", { for: "replay-perspective" }, "Perspective ",
    h("select", { id: "replay-perspective", onchange: (e: Event) => {
      const seat = Number((e.target as HTMLSelectElement).value);
      void showReplay(session, v.id, seat, v.frame?.position ?? 0);
    } }, ...choices.map((c) => h("option", { value: c.seat, selected: c.seat === v.seat }, c.label))));
}

// Each seat's deck list (or setup) as the match played it: public once the match has ended.
function setupsPanel(frame: ReplayFrame, name: (seat: number) => string): HTMLElement | null {
  if (!frame.setups.some((s) => s.trim() !== "")) return null;
  return h("section", { class: "panel", id: "replay-setups", "aria-labelledby": "replay-setups-h" },
    h("h2", { id: "replay-setups-h" }, "Decks"),
    ...frame.setups.map((text, seat) => h("details", { "data-setup": String(seat) },
      h("summary", {}, `${name(seat)}'s deck`),
      text.trim() ? h("pre", { class: "deck-list" }, text) : h("p", { class: "hint" }, "The ready deck."))));
}

function stepControls(session: Session, v: ViewerState, frame: ReplayFrame): HTMLElement {
  const at = frame.position;
  const go = (position: number) => () => void showReplay(session, v.id, v.seat, Math.min(frame.length, Math.max(0, position)));
  const button = (id: string, label: string, text: string, position: number, disabled: boolean) =>
    h("button", { id, class: "secondary", "aria-label": label, disabled, onclick: go(position) }, text);
  return h("div", { class: "replay-steps", role: "group", "aria-label": "replay position" },
    button("replay-first", "first position", "\u25c0\u25c0 First", 0, at === 0),
    button("replay-back", "one action back", "\u25c0 Back", at - 1, at === 0),
    h("span", { id: "replay-position" }, `${at} / ${frame.length}`),
    button("replay-forward", "one action forward", "Forward \u25b6", at + 1, at >= frame.length),
    button("replay-last", "last position", "Last \u25b6\u25b6", frame.length, at >= frame.length));
}

function replayBoard(session: Session, frame: ReplayFrame, seat: number): HTMLElement {
  const summary = frame.summary;
  const rs = summary ? session.ruleset(summary.ruleset) : undefined;
  const view = rs ? decodeView(rs.viewMessage, frame.view) : undefined;
  if (!summary || !view) return h("p", { class: "board" }, "This client cannot draw this match's views.");
  const info = create(MatchInfoSchema, {
    matchId: frame.matchId, ruleset: summary.ruleset, status: MatchStatus.FINISHED,
    seats: summary.names.map((name) => ({ occupant: name === "bot" ? SeatInfo_Occupant.BOT : SeatInfo_Occupant.HUMAN, name })),
    seed: summary.seed, seedCommitment: summary.seedCommitment, engineVersion: summary.engineVersion,
  });
  const ctx: ScreenContext = {
    view, seat: seat >= 0 ? seat : -1, info, legal: [],
    seatName: (s) => summary.names[s] || `seat ${s}`,
    param: (name) => {
      const raw = frame.params[name];
      if (raw !== undefined && raw !== "") return Number(raw) || 0;
      return rs?.params.find((p) => p.name === name)?.defaultInt ?? 0;
    },
    act: () => {},
  };
  // Under a heading of its own, as on the match page: the seats' h3 headings follow an h2.
  return h("section", { class: "board-wrap", "aria-labelledby": "board-h" },
    h("h2", { id: "board-h", class: "sr-only" }, "The table"), screenFor(summary.ruleset)(ctx));
}

export function replayPage(session: Session, id: bigint): HTMLElement {
  if (!viewer || viewer.id !== id) void showReplay(session, id, PUBLIC_VIEW, 0);
  const v = viewer;
  const frame = v?.id === id ? v.frame : null;
  const summary = frame?.summary;
  if (!v || !frame || !summary) {
    if (!v?.error) return h("main", { class: "match", id: "main" }, pageHeading(`Replay #${id}`), h("p", {}, "Opening the replay..."));
    return h("main", { class: "lobby", id: "main" }, pageHeading("No replay to show"),
      h("section", { class: "panel dead-end", id: "unknown-replay" },
        h("p", {}, `Match #${id} has no replay here: ${v.error}. `,
          "A replay exists once a match has ended; the number may be mistyped, or the match still going on."),
        h("div", { class: "buttons" }, h("a", { class: "button", href: "#/replays" }, "Find a replay"),
          h("a", { class: "button secondary", href: "#/" }, "Back to the lobby"))));
  }
  setPageName(`Replay #${id}`);
  const name = (seat: number) => summary.names[seat] || `seat ${seat}`;
  return h("main", { class: "match replay", id: "replay", "data-match": String(id),
    onkeydown: (e: KeyboardEvent) => {
      if (e.target instanceof HTMLSelectElement || e.target instanceof HTMLInputElement) return;
      if (e.key === "ArrowRight" && frame.position < frame.length) void showReplay(session, id, v.seat, frame.position + 1);
      if (e.key === "ArrowLeft" && frame.position > 0) void showReplay(session, id, v.seat, frame.position - 1);
    } },
    h("header", { class: "match-head" },
      h("h1", { id: "page-h" }, session.ruleset(summary.ruleset)?.displayName ?? summary.ruleset, ` #${id}, replay`),
      h("span", { class: "badge spectator" }, "Replay"),
      h("a", { class: "button-link", href: "#/replays" }, "Back to the replays"),
      h("a", { class: "button-link", href: `/matches/${id}/export`, download: `duelhall-match-${id}.txt` }, "Export the record"),
      fairnessNote(summary)),
    h("div", { class: "match-body" },
      h("div", { class: "main-col" },
        h("section", { class: "panel replay-controls", "aria-label": "replay controls" },
          perspectiveChoice(session, v, summary), stepControls(session, v, frame),
          v.error ? h("p", { class: "error", "data-say": "replay-error" }, v.error) : null),
        replayBoard(session, frame, v.seat),
        // The result waits for the last step, as it did for the players.
        h("section", { class: "panel actions" }, h("h2", {}, "Result"),
          frame.position >= frame.length
            ? h("p", { id: "replay-result", class: "result" }, resultText(summary))
            : h("p", { id: "replay-result", class: "hint" }, "Shown at the last step."))),
      h("div", { class: "side-col" },
        setupsPanel(frame, name),
        h("section", { class: "panel log", "aria-labelledby": "replay-log-h" },
          h("h2", { id: "replay-log-h" }, frame.position ? `Action ${frame.position}` : "The start"),
          h("ol", { id: "replay-events" },
            ...frame.events.map((e) => h("li", {}, withNames(e, name))))))));
}
