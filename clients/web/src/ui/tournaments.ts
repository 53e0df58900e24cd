// The tournament pages (docs/tournaments.md): #/tournaments lists them (upcoming, running,
// finished) with a create form for signed-in players; #/tournament/<id> shows one live (the
// server pushes its detail): the summary, join and withdraw, the standings, and the games of the
// round (every game by round for a knockout's bracket), each with a link to play, watch or replay
// its match.
import { h } from "../dom";
import { TournamentFormat, TournamentStatus, type TournamentDetail, type TournamentGame,
  type TournamentSummary } from "../gen/tournaments_pb";
import { accountState, signedIn } from "../identity";
import type { Session } from "../session";
import { clockChoices, FORMAT_NAMES, gameLink, gamesByRound, joinDecks, resultText, settingsLine, standingColumns,
  standingFigures, type Tournaments } from "../tournaments";
import { deckState, ensureDecks } from "../decks/saved_decks";
import { isModerator } from "./moderation";
import { pageHeading } from "./page";
import { go } from "./route";

const STATUS_WORDS: Record<number, string> = {
  [TournamentStatus.TOURNAMENT_REGISTERING]: "registering",
  [TournamentStatus.TOURNAMENT_RUNNING]: "running",
  [TournamentStatus.TOURNAMENT_FINISHED]: "finished",
  [TournamentStatus.TOURNAMENT_CANCELLED]: "cancelled",
};

function when(ms: bigint): string {
  return ms ? new Date(Number(ms)).toLocaleString() : "";
}

function summaryItem(t: TournamentSummary): HTMLElement {
  return h("li", { "data-tournament": String(t.id) },
    h("a", { href: `#/tournament/${t.id}` }, t.settings?.name ?? `#${t.id}`), " ",
    h("span", { class: "hint" }, `${settingsLine(t.settings)}; ${t.players} players; ` +
      (t.status === TournamentStatus.TOURNAMENT_REGISTERING ? `starts ${when(t.settings?.startMs ?? 0n)}` : STATUS_WORDS[t.status])));
}

function listSection(title: string, id: string, items: TournamentSummary[]): HTMLElement {
  return h("section", { class: "panel", id, "aria-labelledby": `${id}-h` }, h("h2", { id: `${id}-h` }, title),
    items.length ? h("ul", {}, ...items.map(summaryItem)) : h("p", { class: "hint" }, "None."));
}

// The create form's ruleset, kept across redraws: the clock choices are that ruleset's presets.
let createRuleset = "";

function createForm(session: Session, tours: Tournaments): HTMLElement {
  const ruleset = session.ruleset(createRuleset)?.name ?? session.rulesets[0]?.name ?? "";
  const clocks = clockChoices(session.rulesets, ruleset);
  const field = (f: HTMLFormElement, n: string) => f.elements.namedItem(n) as HTMLInputElement | null;
  const soon = new Date(Date.now() + 10 * 60_000);
  soon.setSeconds(0, 0);
  const local = new Date(soon.getTime() - soon.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
  return h("form", { class: "panel", id: "tournament-create", "aria-labelledby": "tournament-create-h",
    onsubmit: (e: Event) => {
      e.preventDefault();
      const f = e.target as HTMLFormElement;
      const start = new Date(field(f, "start")?.value ?? "").getTime();
      void tours.create({
        name: field(f, "name")?.value ?? "", ruleset: field(f, "ruleset")?.value ?? "",
        format: Number(field(f, "format")?.value) as TournamentFormat, clock: field(f, "clock")?.value ?? "",
        rated: field(f, "rated")?.checked ?? false, startMs: BigInt(Number.isFinite(start) ? start : 0),
        rounds: Number(field(f, "rounds")?.value) || 0, durationMinutes: Number(field(f, "duration")?.value) || 0,
        bestOf: Number(field(f, "best_of")?.value) || 0, minPlayers: Number(field(f, "min_players")?.value) || 0,
        maxPlayers: Number(field(f, "max_players")?.value) || 0,
      }).then((id) => { if (id) go(`#/tournament/${id}`); });
    } },
    h("h2", { id: "tournament-create-h" }, "Create a tournament"),
    h("label", { for: "t-name" }, "Name"), h("input", { id: "t-name", name: "name", maxlength: 80, required: true }),
    h("label", { for: "t-ruleset" }, "Ruleset"),
    h("select", { id: "t-ruleset", name: "ruleset", onchange: (e: Event) => {
      createRuleset = (e.target as HTMLSelectElement).value;
      session.changed();
    } }, ...session.rulesets.map((r) => h("option", { value: r.name, selected: r.name === ruleset }, r.displayName))),
    h("label", { for: "t-format" }, "Format"),
    h("select", { id: "t-format", name: "format" }, ...Object.entries(FORMAT_NAMES).map(([v, n]) => h("option", { value: v }, n))),
    h("label", { for: "t-clock" }, "Clock"),
    h("select", { id: "t-clock", name: "clock" }, ...clocks.map((c) => h("option", { value: c.name, selected: c.name === "rapid" }, c.text))),
    h("label", {}, h("input", { type: "checkbox", name: "rated", id: "t-rated" }), " Rated"),
    h("label", { for: "t-start" }, "Start"), h("input", { id: "t-start", name: "start", type: "datetime-local", step: 1, value: local }),
    h("label", { for: "t-rounds" }, "Rounds (Swiss)"), h("input", { id: "t-rounds", name: "rounds", type: "number", min: 1, max: 30, value: 5 }),
    h("label", { for: "t-duration" }, "Minutes (arena)"), h("input", { id: "t-duration", name: "duration", type: "number", min: 1, max: 1440, value: 30 }),
    h("label", { for: "t-best-of" }, "Best of (knockout)"),
    h("select", { id: "t-best-of", name: "best_of" }, h("option", { value: 1 }, "1"), h("option", { value: 3 }, "3")),
    h("label", { for: "t-min" }, "Fewest players"), h("input", { id: "t-min", name: "min_players", type: "number", min: 2, value: 2 }),
    h("label", { for: "t-max" }, "Most players (0: the server's limit)"), h("input", { id: "t-max", name: "max_players", type: "number", min: 0, value: 0 }),
    h("button", { type: "submit", id: "t-create" }, "Create"));
}

export function tournamentsPage(session: Session, tours: Tournaments): HTMLElement {
  if (tours.list === undefined) void tours.refresh();
  const all = tours.list ?? [];
  const by = (s: TournamentStatus[]) => all.filter((t) => s.includes(t.status));
  return h("main", { class: "lobby", id: "main" }, pageHeading("Tournaments"),
    h("button", { type: "button", class: "secondary", id: "tournaments-refresh", onclick: () => void tours.refresh() }, "Refresh"),
    listSection("Upcoming", "t-upcoming", by([TournamentStatus.TOURNAMENT_REGISTERING])),
    listSection("Running", "t-running", by([TournamentStatus.TOURNAMENT_RUNNING])),
    listSection("Finished", "t-finished", by([TournamentStatus.TOURNAMENT_FINISHED, TournamentStatus.TOURNAMENT_CANCELLED])),
    signedIn() ? createForm(session, tours) : h("p", { class: "hint" }, "Sign in to create or join a tournament."));
}

// Young Jedi: a Light and a Dark deck from the saved ones (none: the ready decks).
function deckChoices(session: Session): HTMLElement {
  ensureDecks(session);
  const side = (which: string) => h("span", {},
    h("label", { for: `t-deck-${which}` }, `${which === "light" ? "Light" : "Dark"} deck`),
    h("select", { id: `t-deck-${which}`, name: `deck-${which}` }, h("option", { value: "" }, "the ready deck"),
      ...deckState.decks.filter((d) => d.ruleset === "young_jedi" && d.side === which)
        .map((d) => h("option", { value: String(d.id) }, d.name))));
  return h("div", { class: "field", id: "t-decks" }, side("light"), " ", side("dark"));
}

function joinControls(session: Session, tours: Tournaments, d: TournamentDetail): HTMLElement | null {
  const s = d.summary;
  if (!s || !signedIn()) return null;
  const open = s.status === TournamentStatus.TOURNAMENT_REGISTERING ||
    (s.status === TournamentStatus.TOURNAMENT_RUNNING && s.settings?.format === TournamentFormat.FORMAT_ARENA);
  if (d.registered) {
    return s.status <= TournamentStatus.TOURNAMENT_RUNNING
      ? h("button", { type: "button", class: "secondary", id: "t-withdraw", onclick: () => void tours.withdraw(s.id) }, "Withdraw")
      : null;
  }
  if (!open) return null;
  const youngJedi = s.settings?.ruleset === "young_jedi";
  return h("div", { class: "field" }, youngJedi ? deckChoices(session) : null,
    h("button", { type: "button", id: "t-join", onclick: () => {
      const picked = youngJedi ? ["light", "dark"].map((w) => (document.getElementById(`t-deck-${w}`) as HTMLSelectElement | null)?.value ?? "") : [];
      const { savedDecks, seatOptions } = joinDecks(picked);
      void tours.join(s.id, savedDecks, seatOptions);
    } }, "Join"));
}

function standingsTable(d: TournamentDetail): HTMLElement {
  const format = d.summary?.settings?.format ?? TournamentFormat.FORMAT_SWISS;
  const [c1, c2, c3] = standingColumns(format);
  return h("table", { id: "t-standings", class: "standings" },
    h("caption", {}, "Standings"),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Rank"), h("th", { scope: "col" }, "Player"),
      h("th", { scope: "col" }, "Rating"), c1 ? h("th", { scope: "col" }, c1) : null, h("th", { scope: "col" }, c2),
      h("th", { scope: "col" }, c3), h("th", { scope: "col" }, "Won, drawn, lost"))),
    h("tbody", {}, ...d.standings.map((s) => {
      const [f1, f2, f3] = standingFigures(format, s.points, s.tiebreak1, s.tiebreak2);
      return h("tr", { "data-standing": s.name, class: s.left ? "left" : "" },
        h("td", {}, String(s.rank)), h("th", { scope: "row" }, h("a", { href: `#/player/${encodeURIComponent(s.name)}` }, s.name),
          s.left ? " (withdrawn)" : ""),
        h("td", {}, String(s.rating)), c1 ? h("td", { class: "t-points" }, f1) : null, h("td", {}, f2), h("td", {}, f3),
        h("td", {}, `${s.wins}, ${s.draws}, ${s.losses}`));
    })));
}

function gamesSection(d: TournamentDetail): HTMLElement {
  const me = signedIn() ? accountState.account?.name ?? "" : "";
  const link = (g: TournamentGame) => {
    const to = gameLink(g, me);
    return to ? h("a", { href: to.href, class: `${to.text.toLowerCase()}-link`, "aria-label": `${to.text} ${g.seats.join(" against ")}` },
      ` ${to.text}`) : null;
  };
  const knockout = d.summary?.settings?.format === TournamentFormat.FORMAT_KNOCKOUT;
  const rounds = gamesByRound(d.games);
  return h("section", { class: "panel", id: knockout ? "t-bracket" : "t-games", "aria-labelledby": "t-games-h" },
    h("h2", { id: "t-games-h" }, knockout ? "Bracket" : "Games"),
    ...rounds.map(([round, games]) => h("div", { class: "t-round", "data-round": String(round) },
      round ? h("h3", {}, `Round ${round}`) : null,
      h("ul", {}, ...games.map((g) => h("li", { class: "t-game" },
        g.seats.join(" against "), " ", h("span", { class: "t-result" }, resultText(g)),
        link(g)))))),
    d.games.length ? null : h("p", { class: "hint" }, "No games yet."));
}

// Moderators and admins: an entrant still in leaves the tournament, marked disqualified.
function disqualifyForm(tours: Tournaments, d: TournamentDetail): HTMLElement | null {
  const s = d.summary;
  const still = d.standings.filter((e) => !e.left);
  if (!s || !isModerator() || s.status > TournamentStatus.TOURNAMENT_RUNNING || !still.length) return null;
  return h("form", { class: "panel", id: "t-disqualify", "aria-labelledby": "t-disqualify-h", onsubmit: (e: Event) => {
    e.preventDefault();
    const f = e.target as HTMLFormElement;
    const field = (n: string) => (f.elements.namedItem(n) as HTMLInputElement | null)?.value ?? "";
    void tours.disqualify(s.id, field("entrant"), field("reason"));
  } },
  h("h2", { id: "t-disqualify-h" }, "Disqualify a player"),
  h("label", { for: "t-dq-entrant" }, "Player"),
  h("select", { id: "t-dq-entrant", name: "entrant" }, ...still.map((e) => h("option", { value: e.name }, e.name))),
  h("label", { for: "t-dq-reason" }, "Reason"), h("input", { id: "t-dq-reason", name: "reason", maxlength: 200, required: true }),
  h("button", { type: "submit", class: "secondary", id: "t-dq" }, "Disqualify"));
}

export function tournamentPage(session: Session, tours: Tournaments, id: bigint): HTMLElement {
  if (tours.watching !== id && session.ready) void tours.watch(id);
  const d = tours.shown?.summary?.id === id ? tours.shown : undefined;
  if (!d?.summary) return h("main", { class: "lobby", id: "main" }, pageHeading("Tournament"), h("p", { class: "hint" }, "Loading..."));
  const s = d.summary;
  return h("main", { class: "lobby", id: "main" }, pageHeading(s.settings?.name ?? "Tournament"),
    h("section", { class: "panel", id: "t-summary" },
      h("p", {}, settingsLine(s.settings)),
      h("p", { id: "t-status", "data-status": STATUS_WORDS[s.status] ?? "" },
        `${STATUS_WORDS[s.status] ?? ""}${s.round ? `, round ${s.round}` : ""}; ${s.players} players; ` +
        (s.status === TournamentStatus.TOURNAMENT_REGISTERING ? `starts ${when(s.settings?.startMs ?? 0n)}` : "") +
        (s.endsMs ? `ends ${when(s.endsMs)}` : "")),
      d.registered ? h("p", { id: "t-registered" }, "You are registered.") : null,
      joinControls(session, tours, d)),
    standingsTable(d), gamesSection(d), disqualifyForm(tours, d),
    h("p", {}, h("a", { href: "#/tournaments" }, "All tournaments")));
}
