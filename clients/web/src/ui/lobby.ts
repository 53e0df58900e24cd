// The lobby: the display name, the live list of public matches, and the create form drawn from
// the ruleset's declared parameters (RulesetInfo.params), so a new ruleset needs no code here.
import { h } from "../dom";
import { ResultCode } from "../gen/result_pb";
import { ClockPolicy, MatchStatus, ParamInfo_Kind, type MatchInfo, type RulesetInfo } from "../gen/lobby_pb";
import type { ServerMessage } from "../gen/envelope_pb";
import type { Session } from "../session";
import { deckPicker, pickedDeck, seatOptionLabel } from "./deck_pick";
import { spectatorsText } from "./names";
import { go } from "./route";

const MAX_NAME_CHARS = 32; // the server's limit, in characters (Unicode code points)

export function nameForm(session: Session): HTMLElement {
  const input = h("input", {
    id: "name", name: "name", autocomplete: "nickname", required: true,
    value: session.name, "aria-describedby": "name-help",
  }) as HTMLInputElement;
  return h(
    "form",
    { class: "panel", id: "name-form", onsubmit: (e: Event) => {
      e.preventDefault();
      const name = input.value.trim();
      const chars = [...name].length; // characters as people count them, not UTF-16 units or bytes
      if (chars > MAX_NAME_CHARS) {
        session.error = `A name is at most ${MAX_NAME_CHARS} characters; this one has ${chars}.`;
        session.changed();
        return;
      }
      void session.introduce(name);
    } },
    h("h2", {}, "Your name"),
    h("label", { for: "name" }, "Display name"),
    input,
    h("p", { id: "name-help", class: "hint" }, "Up to 32 characters, kept in this browser; others see it at the table."),
    h("button", { type: "submit" }, "Enter the hall"),
  );
}

function seatsText(m: MatchInfo): string {
  return m.seats.map((s) => (s.occupant === 0 ? "(free)" : s.name)).join(", ");
}

function matchRow(session: Session, m: MatchInfo): HTMLElement {
  const free = m.seats.some((s) => s.occupant === 0);
  const rs = session.ruleset(m.ruleset);
  const display = rs?.displayName ?? m.ruleset;
  const joinable = m.status === MatchStatus.WAITING && free;
  const deckId = `deck-${m.matchId}`;
  return h(
    "li",
    { class: "match-row", "data-match": String(m.matchId) },
    h("span", { class: "match-title" }, `#${m.matchId} ${display}${m.settings?.rated ? " (rated)" : ""}`),
    h("span", { class: "match-seats" }, seatsText(m)),
    h("span", { class: `status status-${MatchStatus[m.status]}` }, MatchStatus[m.status].toLowerCase()),
    m.spectatorsAllowed ? h("span", { class: "match-spectators" }, spectatorsText(m.spectators)) : null,
    joinable && rs?.takesSeatOptions
      ? h("details", { class: "deck", id: `${deckId}-box` }, h("summary", {}, m.ruleset === "young_jedi" ? "Deck" : "Setup"),
          deckPicker(session, `${deckId}-saved`, m.ruleset),
          h("label", { for: deckId }, seatOptionLabel(m.ruleset, display)),
          h("textarea", { id: deckId, rows: 3 }))
      : null,
    joinable
      ? h("button", { class: "join", onclick: () => {
          const typed = (document.getElementById(deckId) as HTMLTextAreaElement | null)?.value ?? "";
          const saved = (document.getElementById(`${deckId}-saved`) as HTMLSelectElement | null)?.value ?? "";
          const deck = pickedDeck(saved, typed);
          void join(session, m.matchId, "", deck.seatOption, deck.savedDeck);
        } }, "Join")
      : null,
    m.spectatorsAllowed && m.status === MatchStatus.PLAYING
      ? h("button", { class: "spectate", onclick: () => go(`#/watch/${m.matchId}`) }, "Watch")
      : null,
  );
}

// Takes a seat; `seatOption` is the seat's setup text (a deck list) for rulesets that take one.
export async function join(session: Session, id: bigint, inviteCode: string, seatOption = "",
  savedDeck = 0n): Promise<void> {
  const reply = await session.command({
    case: "joinMatch", value: { matchId: id, seat: -1, inviteCode, seatOption, savedDeck },
  });
  if (reply.result === ResultCode.OK && reply.body.case === "joined") {
    joinReply(session, id, reply);
    if (inviteCode) session.rememberInvite(id, inviteCode);
    go(`#/match/${id}`);
  }
}

// Takes in a Joined reply: the seat and the match as the server describes it.
export function joinReply(session: Session, id: bigint, reply: ServerMessage): void {
  if (reply.body.case !== "joined") return;
  const mv = session.match(id);
  mv.seat = reply.body.value.seat;
  mv.info = reply.body.value.match;
}

function paramField(p: ParamInfo_Like): HTMLElement {
  const id = `param-${p.name}`;
  const input =
    p.kind === ParamInfo_Kind.CHOICE
      ? h("select", { id, name: p.name }, ...p.choices.map((c) => h("option", { value: c }, c)))
      : h("input", { id, name: p.name, type: "number", min: p.min, max: p.max, value: p.defaultInt });
  return h("div", { class: "field" }, h("label", { for: id, title: p.description }, p.name), input,
    h("span", { class: "hint" }, p.description));
}
type ParamInfo_Like = RulesetInfo["params"][number];

function num(form: HTMLFormElement, name: string): number {
  const el = form.elements.namedItem(name) as HTMLInputElement | null;
  return el ? Number(el.value) || 0 : 0;
}
function checked(form: HTMLFormElement, name: string): boolean {
  return (form.elements.namedItem(name) as HTMLInputElement | null)?.checked ?? false;
}
function text(form: HTMLFormElement, name: string): string {
  return (form.elements.namedItem(name) as HTMLInputElement | null)?.value ?? "";
}

export function createForm(session: Session, chosen: RulesetInfo | undefined, onPick: (n: string) => void): HTMLElement {
  if (!chosen) return h("p", {}, "Loading rulesets...");
  const r = chosen;
  const submit = async (form: HTMLFormElement, vsComputer: boolean) => {
    const seats = num(form, "seats") || r.minSeats;
    const params: { [k: string]: string } = {};
    for (const p of r.params) params[p.name] = text(form, p.name);
    const reply = await session.command({
      case: "createMatch",
      value: {
        join: true,
        ...pickedDeck(text(form, "saved_deck"), text(form, "seat_option")),
        botSeats: vsComputer ? seats - 1 : Math.min(num(form, "bots"), seats - 1),
        settings: {
          ruleset: r.name, params, seats,
          unlisted: checked(form, "unlisted"),
          spectatorsAllowed: checked(form, "spectators"),
          spectatorDelayActions: num(form, "delay_actions"),
          spectatorDelaySeconds: num(form, "delay_seconds"),
          clockSeconds: num(form, "clock"),
          clockPolicy: text(form, "clock_policy") === "forfeit" ? ClockPolicy.CLOCK_FORFEIT : ClockPolicy.CLOCK_BOT_MOVES,
          spectatorChat: checked(form, "spectator_chat"),
          botDelayMs: num(form, "bot_delay"),
          botLevel: text(form, "bot_level"),
          rated: checked(form, "rated"),
        },
      },
    });
    if (reply.result === ResultCode.OK && reply.body.case === "created") {
      const c = reply.body.value;
      if (!c.match) return;
      const mv = session.match(c.match.matchId);
      mv.seat = c.seat;
      mv.info = c.match;
      mv.inviteCode = c.inviteCode;
      session.rememberInvite(c.match.matchId, c.inviteCode);
      go(`#/match/${c.match.matchId}`);
    }
  };
  const form = h(
    "form",
    { class: "panel", id: "create-form", onsubmit: (e: Event) => {
      e.preventDefault();
      void submit(e.target as HTMLFormElement, false);
    } },
    h("h2", {}, "New match"),
    h("div", { class: "field" }, h("label", { for: "ruleset" }, "Ruleset"),
      h("select", { id: "ruleset", name: "ruleset", onchange: (e: Event) => onPick((e.target as HTMLSelectElement).value) },
        ...session.rulesets.map((x) => h("option", { value: x.name, selected: x.name === r.name }, x.displayName)))),
    h("p", { class: "hint" }, r.summary, " ", h("a", { href: `#/rules/${r.name}`, id: "create-rules" }, `How to play ${r.displayName}`)),
    h("div", { class: "field" }, h("label", { for: "seats" }, "Seats"),
      h("input", { id: "seats", name: "seats", type: "number", min: r.minSeats, max: r.maxSeats, value: r.minSeats })),
    r.params.length
      ? h("details", { class: "options", id: "rules-options" }, h("summary", {}, `Rules parameters (${r.params.length})`), ...r.params.map(paramField))
      : null,
    r.takesSeatOptions ? deckPicker(session, "saved_deck", r.name) : null,
    r.takesSeatOptions
      ? h("div", { class: "field" }, h("label", { for: "seat_option" }, seatOptionLabel(r.name, r.displayName)),
          h("textarea", { id: "seat_option", name: "seat_option", rows: 3 }))
      : null,
    h("details", { class: "options", id: "table-options" }, h("summary", {}, "Table, clock and bots"),
    h("fieldset", {}, h("legend", {}, "Table"),
      h("label", {}, h("input", { type: "checkbox", name: "unlisted", id: "unlisted" }), " Private (invite link)"),
      h("label", {}, h("input", { type: "checkbox", name: "rated", id: "rated" }), " Rated (two accounts, no bots)"),
      h("label", {}, h("input", { type: "checkbox", name: "spectators", id: "spectators", checked: true }), " Spectators"),
      h("label", {}, h("input", { type: "checkbox", name: "spectator_chat", id: "spectator_chat", checked: true }), " Spectators may chat"),
      h("div", { class: "field" }, h("label", { for: "delay_actions" }, "Spectator delay (actions)"),
        h("input", { id: "delay_actions", name: "delay_actions", type: "number", min: 0, max: 50, value: 0 })),
      h("div", { class: "field" }, h("label", { for: "delay_seconds" }, "Spectator delay (seconds)"),
        h("input", { id: "delay_seconds", name: "delay_seconds", type: "number", min: 0, max: 600, value: 0 }))),
    h("fieldset", {}, h("legend", {}, "Clock and bots"),
      h("div", { class: "field" }, h("label", { for: "clock" }, "Decision clock (seconds, 0 none)"),
        h("input", { id: "clock", name: "clock", type: "number", min: 0, max: 3600, value: 0 })),
      h("div", { class: "field" }, h("label", { for: "clock_policy" }, "When the clock runs out"),
        h("select", { id: "clock_policy", name: "clock_policy" },
          h("option", { value: "bot" }, "the bot moves"), h("option", { value: "forfeit" }, "forfeit"))),
      h("div", { class: "field" }, h("label", { for: "bots" }, "Bots in empty seats"),
        h("input", { id: "bots", name: "bots", type: "number", min: 0, max: r.maxSeats - 1, value: 0 })),
      h("div", { class: "field" }, h("label", { for: "bot_level" }, "Bot level"),
        h("select", { id: "bot_level", name: "bot_level" }, h("option", { value: "" }, "default"),
          ...r.botLevels.map((l) => h("option", { value: l }, l)))),
      h("div", { class: "field" }, h("label", { for: "bot_delay" }, "Bot delay (ms)"),
        h("input", { id: "bot_delay", name: "bot_delay", type: "number", min: 0, max: 5000, value: 400 })))),
    h("div", { class: "buttons" },
      h("button", { type: "submit", id: "create" }, "Create and sit down"),
      h("button", { type: "button", id: "vs-computer", onclick: (e: Event) =>
        void submit((e.target as HTMLElement).closest("form") as HTMLFormElement, true) }, "Play against the computer")),
  );
  return form;
}

export function matchList(session: Session): HTMLElement {
  const rows = [...session.lobby.values()].sort((a, b) => Number(b.matchId - a.matchId));
  return h("section", { class: "panel", "aria-labelledby": "matches-h" },
    h("h2", { id: "matches-h" }, "Matches"),
    rows.length ? h("ul", { id: "match-list" }, ...rows.map((m) => matchRow(session, m)))
      : h("p", { class: "hint" }, "No public matches yet: create one."));
}
