// Entry point: one session for the page, hash routing, and a redraw on every state change that
// keeps keyboard focus where it was. Only the tab holding the live connection talks to the server
// (tabs.ts); the others show "use here".
import "./style.css";
import { h } from "./dom";
import { Session } from "./session";
import { TabLock } from "./tabs";
import { showTurn, soundToggle } from "./ui/attention";
import { restoreForms, saveForms } from "./ui/forms";
import { rulesPage } from "./ui/howto";
import { currentProblem, followLink, forgetProblem, problemPage, watchIfNotSeated } from "./ui/links";
import { createForm, matchList, nameForm } from "./ui/lobby";
import { clockText, matchScreen } from "./ui/match";
import { accountLinks, accountPage, leaderboardPage, playerPage } from "./ui/account";
import { replayListPage, replayPage } from "./ui/replays";
import { announcementBanner, isModerator, lobbyChat, moderationPage } from "./ui/moderation";
import { parseRoute } from "./ui/route";

const wsUrl = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`;
const session = new Session(wsUrl);
const tabs = new TabLock();
const root = document.getElementById("app") as HTMLElement;
let chosenRuleset = "";
let freshForm = false; // a new ruleset was picked: its create form starts from its defaults

function useHere(): void {
  if (tabs.role === "live") session.start(); // another browser or device had taken over
  else tabs.takeOver();
}

function statusBar(): HTMLElement {
  const labels = { online: "connected", connecting: "connecting...", offline: "offline, reconnecting...",
    elsewhere: "open in another tab" };
  return h("div", { class: "topbar" },
    h("a", { href: "#/", class: "brand" }, "Duelhall"),
    session.hasIdentity ? h("a", { href: "#/replays", id: "replays-link" }, "Replays") : null,
    h("a", { href: `#/rules/${chosenRuleset || session.rulesets[0]?.name || ""}`, id: "rules-link" }, "How to play"),
    session.hasIdentity ? h("span", { class: "who" }, session.name) : null,
    session.ready ? accountLinks() : null,
    session.ready && isModerator() ? h("a", { href: "#/moderation", id: "moderation-link" }, "Moderation") : null,
    soundToggle(render),
    h("span", { class: `link link-${session.link}`, id: "link-state", role: "status" }, labels[session.link]));
}

// Errors sit at the top of the page the user is on, and go when the page changes.
function flash(): HTMLElement | null {
  if (!session.error && !session.notice) return null;
  return h("div", { class: "flash", id: "flash", role: "alert" }, h("span", {}, session.error || session.notice),
    h("button", { class: "secondary small", "aria-label": "dismiss", "data-offline": "ok", onclick: () => {
      session.notice = "";
      session.clearError();
      session.changed();
    } }, "\u2715"));
}

function quietPage(): HTMLElement {
  return h("main", { class: "lobby" }, h("section", { class: "panel elsewhere", id: "elsewhere" },
    h("h2", {}, "Duelhall is open in another tab"),
    h("p", {}, "Only one tab plays at a time, so the two do not take the connection from each other. ",
      tabs.otherTurn ? h("strong", {}, "It is your move there.") : null),
    h("button", { id: "use-here", "data-offline": "ok", onclick: useHere }, "Use here")));
}

function lobbyPage(): HTMLElement {
  if (!session.hasIdentity) return h("main", { class: "lobby" }, nameForm(session));
  const chosen = session.ruleset(chosenRuleset) ?? session.rulesets[0];
  const mine = [...session.matches.values()].filter((m) => m.info && m.seat >= 0 && m.info.status <= 1);
  return h("main", { class: "lobby" },
    mine.length ? h("section", { class: "panel" }, h("h2", {}, "Your matches"),
      h("ul", {}, ...mine.map((m) => h("li", {}, h("a", { href: `#/match/${m.id}` }, `#${m.id} ${m.info?.ruleset}`),
        m.legal.length ? h("span", { class: "badge" }, "your move") : null)))) : null,
    createForm(session, chosen, (name) => {
      chosenRuleset = name;
      freshForm = true;
      render();
    }),
    matchList(session),
    lobbyChat(session));
}

function page(): HTMLElement {
  const route = parseRoute(location.hash);
  if (tabs.role === "quiet" || session.link === "elsewhere") return quietPage();
  const problem = currentProblem(location.hash);
  if (problem) return problemPage(problem);
  if (route.page === "rules") return rulesPage(session, route.ruleset);
  if (route.page === "match" && session.hasIdentity) {
    watchIfNotSeated(session, route.id, location.hash);
    return matchScreen(session, session.match(route.id));
  }
  if (route.page === "replays" && session.ready) return replayListPage(session);
  if (route.page === "replay" && session.ready) return replayPage(session, route.id);
  if (route.page === "account" && session.ready) return accountPage(session);
  if (route.page === "moderation" && session.ready) return moderationPage(session);
  if (route.page === "player" && session.ready) return playerPage(session, route.name);
  if (route.page === "leaderboard" && session.ready) return leaderboardPage(session, route.ruleset);
  if (route.page === "join" || route.page === "watch") {
    if (!session.hasIdentity) return lobbyPage();
    void followLink(session, route, location.hash);
    return h("main", {}, h("p", { class: "opening" }, "Opening the match..."));
  }
  return lobbyPage();
}

function render(): void {
  const saved = saveForms(root);
  const focused = document.activeElement as HTMLElement | null;
  const key = focused?.id || focused?.dataset.key;
  const main = page();
  // Nothing a click could send goes out while the link is down: such buttons wait for it.
  if (session.link !== "online") {
    main.querySelectorAll<HTMLButtonElement>("button:not([data-offline])").forEach((b) => (b.disabled = true));
  }
  root.replaceChildren(statusBar(), ...[announcementBanner(session), flash()].filter((x): x is HTMLElement => x !== null), main);
  if (!freshForm) restoreForms(saved);
  freshForm = false;
  const log = document.getElementById("event-log");
  if (log) log.scrollTop = log.scrollHeight; // the newest events in sight
  if (key) {
    const again = document.getElementById(key) ?? root.querySelector<HTMLElement>(`[data-key="${key}"]`);
    if (again) again.focus();
    else if (key.startsWith("action-")) root.querySelector<HTMLElement>(".action")?.focus();
  }
  const turn = tabs.role === "live" ? session.myTurn : tabs.otherTurn;
  showTurn(turn);
  tabs.announceTurn(turn);
}

// The clock counts down between updates without redrawing the page.
setInterval(() => {
  const route = parseRoute(location.hash);
  const el = document.getElementById("clock");
  if (route.page === "match" && el) el.textContent = clockText(session.match(route.id));
}, 250);

window.addEventListener("hashchange", () => {
  forgetProblem(location.hash);
  session.error = "";
  render();
});
session.subscribe(render);
tabs.onRole = (role) => {
  if (role === "live") session.start();
  else session.conn.stop();
  render();
};
tabs.onNote = render;
tabs.start();
render();
// Exposed for the browser tests (dropping the connection as a network failure would).
(window as unknown as { duelhall: Session; duelhallTabs: TabLock }).duelhall = session;
(window as unknown as { duelhallTabs: TabLock }).duelhallTabs = tabs;
