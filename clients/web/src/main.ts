// Entry point: one session for the page, hash routing, and a redraw on every state change that
// keeps keyboard focus where it was.
import "./style.css";
import { h } from "./dom";
import { Session } from "./session";
import { createForm, join, matchList, nameForm } from "./ui/lobby";
import { clockText, matchScreen } from "./ui/match";
import { accountLinks, accountPage, leaderboardPage, playerPage } from "./ui/account";
import { replayListPage, replayPage } from "./ui/replays";
import { go, parseRoute } from "./ui/route";

const wsUrl = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`;
const session = new Session(wsUrl);
const root = document.getElementById("app") as HTMLElement;
let chosenRuleset = "";
let pendingRoute = ""; // a join/watch link handled once we have an identity
let freshForm = false; // a new ruleset was picked: its create form starts from its defaults

function statusBar(): HTMLElement {
  const labels = { online: "connected", connecting: "connecting...", offline: "offline, reconnecting..." };
  return h("div", { class: "topbar" },
    h("a", { href: "#/", class: "brand" }, "Duelhall"),
    session.hasIdentity ? h("a", { href: "#/replays", id: "replays-link" }, "Replays") : null,
    session.hasIdentity ? h("span", { class: "who" }, session.name) : null,
    session.ready ? accountLinks() : null,
    h("span", { class: `link link-${session.link}`, id: "link-state", role: "status" }, labels[session.link]),
    session.error ? h("span", { class: "error", role: "alert" }, session.error) : null);
}

function lobbyPage(): HTMLElement {
  if (!session.hasIdentity) return h("main", { class: "lobby" }, nameForm(session));
  const chosen = session.ruleset(chosenRuleset) ?? session.rulesets[0];
  const mine = [...session.matches.values()].filter((m) => m.info && m.seat >= 0 && m.info.status <= 1);
  return h("main", { class: "lobby" },
    mine.length ? h("section", { class: "panel" }, h("h2", {}, "Your matches"),
      h("ul", {}, ...mine.map((m) => h("li", {}, h("a", { href: `#/match/${m.id}` }, `#${m.id} ${m.info?.ruleset}`))))) : null,
    createForm(session, chosen, (name) => {
      chosenRuleset = name;
      freshForm = true;
      render();
    }),
    matchList(session));
}

async function followLink(): Promise<void> {
  const route = parseRoute(location.hash);
  if (!session.hasIdentity || pendingRoute === location.hash) return;
  pendingRoute = location.hash;
  if (route.page === "join") {
    await join(session, route.id, route.invite);
  } else if (route.page === "watch") {
    if (await session.spectate(route.id, route.invite)) go(`#/match/${route.id}`);
  }
}

// A match page opened without a seat in it (a reload while watching, a shared link) watches it.
const watchTried = new Set<bigint>();
function watchIfNotSeated(id: bigint): void {
  const m = session.matches.get(id);
  if (!session.ready || session.seated.has(id) || watchTried.has(id) || (m && (m.view || m.seat >= 0))) return;
  watchTried.add(id);
  void session.spectate(id);
}

// Every redraw replaces the page, so what the user is typing or has unfolded is carried over by
// element id (a lobby update must not wipe a half-filled form).
function saveForms(): Map<string, { value: string; checked: boolean; open: boolean }> {
  const saved = new Map<string, { value: string; checked: boolean; open: boolean }>();
  root.querySelectorAll<HTMLElement>("input[id], textarea[id], select[id], details[id]").forEach((el) => {
    const field = el as HTMLInputElement;
    saved.set(el.id, { value: field.value, checked: field.checked, open: (el as HTMLDetailsElement).open });
  });
  return saved;
}
function restoreForms(saved: Map<string, { value: string; checked: boolean; open: boolean }>): void {
  for (const [id, state] of saved) {
    const el = document.getElementById(id);
    if (!el || el.id === "ruleset") continue; // the ruleset choice lives in chosenRuleset
    if (el instanceof HTMLDetailsElement) el.open = state.open;
    else if (el instanceof HTMLInputElement && (el.type === "checkbox" || el.type === "radio")) el.checked = state.checked;
    else if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement) {
      if (!(el instanceof HTMLSelectElement) && el.readOnly) continue;
      el.value = state.value;
    }
  }
}

function render(): void {
  const saved = saveForms();
  const focused = document.activeElement as HTMLElement | null;
  const key = focused?.id || focused?.dataset.key;
  const route = parseRoute(location.hash);
  let page: HTMLElement;
  if (route.page === "match" && session.hasIdentity) {
    watchIfNotSeated(route.id);
    page = matchScreen(session, session.match(route.id));
  } else if (route.page === "replays" && session.ready) {
    page = replayListPage(session);
  } else if (route.page === "replay" && session.ready) {
    page = replayPage(session, route.id);
  } else if (route.page === "account" && session.ready) {
    page = accountPage(session);
  } else if (route.page === "player" && session.ready) {
    page = playerPage(session, route.name);
  } else if (route.page === "leaderboard" && session.ready) {
    page = leaderboardPage(session, route.ruleset);
  } else if (route.page === "join" || route.page === "watch") {
    page = session.hasIdentity ? h("main", {}, h("p", {}, "Opening the match...")) : lobbyPage();
    void followLink();
  } else {
    page = lobbyPage();
  }
  root.replaceChildren(statusBar(), page);
  if (!freshForm) restoreForms(saved);
  freshForm = false;
  const log = document.getElementById("event-log");
  if (log) log.scrollTop = log.scrollHeight; // the newest events in sight
  if (key) {
    const again = document.getElementById(key) ?? root.querySelector<HTMLElement>(`[data-key="${key}"]`);
    if (again) again.focus();
    else if (key.startsWith("action-")) root.querySelector<HTMLElement>(".action")?.focus();
  }
}

// The clock counts down between updates without redrawing the page.
setInterval(() => {
  const route = parseRoute(location.hash);
  const el = document.getElementById("clock");
  if (route.page === "match" && el) el.textContent = clockText(session.match(route.id));
}, 250);

window.addEventListener("hashchange", render);
session.subscribe(render);
session.start();
render();
// Exposed for the browser tests (dropping the connection as a network failure would).
(window as unknown as { duelhall: Session }).duelhall = session;
