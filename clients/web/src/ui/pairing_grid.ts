// The pairing grid, first on the lobby page (docs/pairing.md): a button per ruleset and clock
// preset (RulesetInfo.clock_presets), rated or casual (rated needs an account), and while
// seeking, the pool, the seconds waited and Cancel. A Paired push lands the player in the match.
import { h } from "../dom";
import { ResultCode } from "../gen/result_pb";
import type { ClockPreset, RulesetInfo } from "../gen/lobby_pb";
import type { Session } from "../session";
import { signedIn } from "./account";
import { deckPicker, pickedDeck, seatOptionLabel } from "./deck_pick";

let rated = false; // the toggle, kept across redraws

function presetText(p: ClockPreset): string {
  return p.clockSeconds ? `${p.clockSeconds} s a move` : "no clock";
}

async function seek(session: Session, r: RulesetInfo, p: ClockPreset): Promise<void> {
  const typed = (document.getElementById(`pair-deck-${r.name}`) as HTMLTextAreaElement | null)?.value ?? "";
  const picked = (document.getElementById(`pair-saved-${r.name}`) as HTMLSelectElement | null)?.value ?? "";
  // A saved deck goes as its id (the server loads it, Seek.saved_deck); a typed list as text.
  const { savedDeck, seatOption } = pickedDeck(picked, typed);
  const reply = await session.command({
    case: "seek", value: { ruleset: r.name, clock: p.name, rated: rated && signedIn(), seatOption, savedDeck, seats: 0 },
  });
  if (reply.result === ResultCode.OK && reply.body.case === "seekStatus") {
    session.pairing.sought = { seatOption, savedDeck }; // joined with, when paired on another node
    session.pairing.ended = "";
    session.pairing.setStatus(reply.body.value);
    session.changed();
  }
}

async function cancel(session: Session): Promise<void> {
  const reply = await session.command({ case: "cancelSeek", value: {} });
  // Refused as NOT_SEEKING: the seek is over already (paired, or the connection dropped it).
  if (reply.result === ResultCode.OK || reply.result === ResultCode.NOT_SEEKING) {
    session.pairing.setStatus(undefined);
    if (reply.result === ResultCode.NOT_SEEKING) session.clearError();
    session.changed();
  }
}

// "Waited 12 s, 3 players in this pool": redrawn each second by main.ts without a full redraw.
export function waitedText(session: Session): string {
  const s = session.pairing.status;
  if (!s) return "";
  const n = s.playersInPool;
  return `Waited ${session.pairing.secondsWaited()} s, ${n} player${n === 1 ? "" : "s"} in this pool`;
}

function seekingPanel(session: Session): HTMLElement {
  const s = session.pairing.status;
  const r = s ? session.ruleset(s.ruleset) : undefined;
  return h("section", { class: "panel", id: "pairing", "aria-labelledby": "pairing-h" },
    h("h2", { id: "pairing-h" }, "Quick pairing"),
    h("p", { id: "seeking", "data-say": "seeking" },
      `Seeking a ${s?.rated ? "rated" : "casual"} ${r?.displayName ?? s?.ruleset ?? ""} opponent, ${s?.clock ?? ""} clock...`),
    h("p", { class: "hint", id: "seek-waited" }, waitedText(session)),
    h("button", { id: "seek-cancel", class: "secondary", onclick: () => void cancel(session) }, "Cancel"));
}

export function pairingGrid(session: Session): HTMLElement {
  if (session.pairing.seeking()) return seekingPanel(session);
  const account = signedIn();
  const rows = session.rulesets.filter((r) => r.clockPresets.length);
  return h("section", { class: "panel", id: "pairing", "aria-labelledby": "pairing-h" },
    h("h2", { id: "pairing-h" }, "Quick pairing"),
    h("p", { class: "hint" }, "Pick a game and a clock: you are paired with a player near your rating in seconds."),
    session.pairing.ended ? h("p", { class: "error", id: "seek-ended", "data-say": "seek-ended" }, session.pairing.ended) : null,
    h("label", { class: "toggle" },
      h("input", { type: "checkbox", id: "pair-rated", checked: rated && account, disabled: !account,
        "aria-describedby": "pair-rated-help",
        onchange: (e: Event) => void (rated = (e.target as HTMLInputElement).checked) }),
      " Rated"),
    h("span", { class: "hint", id: "pair-rated-help" },
      account ? "Rated games change your rating." : "Guests play casual games: sign in to play rated."),
    h("table", { class: "pairing-grid", id: "pairing-grid" },
      h("caption", { class: "sr-only" }, "Ruleset and clock"),
      h("tbody", {}, ...rows.map((r) => h("tr", {},
        h("th", { scope: "row" }, r.displayName),
        h("td", {}, ...r.clockPresets.map((p) => h("button", {
          class: "pair", id: `pair-${r.name}-${p.name}`,
          "aria-label": `Seek ${r.displayName}, ${p.name}, ${presetText(p)}`,
          onclick: () => void seek(session, r, p),
        }, h("span", {}, p.name), " ", h("small", {}, presetText(p))))),
        r.takesSeatOptions
          ? h("td", {}, h("details", { class: "deck" }, h("summary", {}, r.name === "young_jedi" ? "Deck" : "Setup"),
              deckPicker(session, `pair-saved-${r.name}`, r.name),
              h("label", { for: `pair-deck-${r.name}` }, seatOptionLabel(r.name, r.displayName)),
              h("textarea", { id: `pair-deck-${r.name}`, rows: 3 })))
          : null)))));
}
