// Entry point: one session for the page, hash routing, and a redraw on every state change that
// keeps keyboard focus where it was (and in the move panel on a match, ui/turn_focus.ts). Only
// the tab holding the live connection talks to the server (tabs.ts); the others show "use here".
import "./style.css";
import { h } from "./dom";
import { Session } from "./session";
import { TabLock } from "./tabs";
import { showTurn, soundToggle } from "./ui/attention";
import { restoreForms, saveForms } from "./ui/forms";
import { rulesPage } from "./ui/howto";
import { currentProblem, followLink, forgetProblem, problemPage, watchIfNotSeated } from "./ui/links";
import { createForm, matchList, nameForm } from "./ui/lobby";
import { pairingGrid, waitedText } from "./ui/pairing_grid";
import { clockText, matchScreen } from "./ui/match";
import { showNewest } from "./ui/events";
import { accountLinks, accountPage, leaderboardPage, playerPage, signedIn } from "./ui/account";
import { staleAccountData } from "./identity";
import { banText } from "./sanctions";
import { announce, liveRegion, pageHeading, sayNewMessages, setPageName } from "./ui/page";
import { afterMatchRedraw, focusPlace, skipLinkTarget } from "./ui/turn_focus";
import { replayListPage, replayPage } from "./ui/replays";
import { announcementBanner, isModerator, lobbyChat, moderationPage } from "./ui/moderation";
import { Hall } from "./hall";
import { challengeForm, countsLine, followedPanel, noticeBadge, notifications, onlinePanel, titleWithUnseen, tvPage } from "./ui/hall";
import { go, parseRoute } from "./ui/route";
import { decksPage } from "./ui/decks";
import { goesToGame, Tournaments } from "./tournaments";
import { tournamentPage, tournamentsPage } from "./ui/tournaments";
import { PressGuard } from "./ui/press_guard";

const wsUrl = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`;
const session = new Session(wsUrl);
const hall = new Hall(session);
const tours = new Tournaments(session);
const tabs = new TabLock();
const root = document.getElementById("app") as HTMLElement;
const ACCOUNT_DATA_REFRESH_MS = 30_000; // an open leaderboard or profile follows others' matches
let chosenRuleset = "";
let freshForm = false; // a new ruleset was picked: its create form starts from its defaults

function useHere(): void {
  if (tabs.role === "live") session.start(); // another browser or device had taken over
  else tabs.takeOver();
}

// The match shown, when one of its moves waits for the player: the skip link leads there.
function shownMatchWithMove(): bigint | null {
  const route = parseRoute(location.hash);
  if (route.page !== "match") return null;
  const mv = session.matches.get(route.id);
  return mv && mv.seat >= 0 && mv.legal.length && !mv.outcome ? mv.id : null;
}

const LINK_LABELS = { online: "connected", connecting: "connecting...", offline: "offline, reconnecting...",
  elsewhere: "open in another tab", banned: "banned" };
let linkSaid = ""; // the connection state last said; nothing is said before the first "connected"

// The connection's state through the live region when it changes, once the page has been online
// (the status line itself is redrawn with everything else).
function sayLinkChange(): void {
  if (session.link === "online" && !linkSaid) linkSaid = "online";
  if (!linkSaid || session.link === linkSaid) return;
  linkSaid = session.link;
  announce(`Connection: ${LINK_LABELS[session.link]}`);
}

function statusBar(): HTMLElement {
  const moveIn = shownMatchWithMove();
  // The account's name is the account link; a guest's name stands alone.
  return h("header", { class: "topbar" },
    moveIn !== null ? h("a", { class: "skip-link", id: "skip-to-move", href: `#/match/${moveIn}`, onclick: skipLinkTarget },
      "Skip to your move") : null,
    h("nav", { class: "topnav", "aria-label": "site" },
      h("a", { href: "#/", class: "brand" }, "Duelhall"),
      session.hasIdentity ? h("a", { href: "#/replays", id: "replays-link" }, "Replays") : null,
      session.hasIdentity ? h("a", { href: "#/decks", id: "decks-link" }, "Decks") : null,
      session.hasIdentity ? h("a", { href: "#/tournaments", id: "tournaments-link" }, "Tournaments") : null,
      h("a", { href: `#/rules/${chosenRuleset || session.rulesets[0]?.name || ""}`, id: "rules-link" }, "How to play"),
      session.hasIdentity && !signedIn() ? h("span", { class: "who" }, session.name) : null,
      session.ready ? accountLinks() : null,
      session.ready && isModerator() ? h("a", { href: "#/moderation", id: "moderation-link" }, "Moderation") : null),
    noticeBadge(hall),
    soundToggle(render),
    h("span", { class: `link link-${session.link}`, id: "link-state" }, LINK_LABELS[session.link]),
    ...[announcementBanner(session), flash(), notifications(hall)].filter((x): x is HTMLElement => x !== null));
}

// A banned address or account: the ban, its reason and its end, instead of "reconnecting" for ever.
function banPage(): HTMLElement {
  const ban = session.ban;
  return h("main", { class: "lobby", id: "main" }, h("section", { class: "panel dead-end", id: "ban", "data-say": "ban" },
    pageHeading("You cannot play here for now"),
    h("p", { id: "ban-text" }, ban ? banText(ban) : ""),
    h("p", { class: "hint" }, "If you think this is a mistake, ask the server's moderators.")));
}

// Errors sit at the top of the page the user is on, and go when the page changes.
function flash(): HTMLElement | null {
  if (!session.error && !session.notice) return null;
  return h("div", { class: "flash", id: "flash" }, h("span", { "data-say": "flash" }, session.error || session.notice),
    h("button", { class: "secondary small", "aria-label": "dismiss", "data-offline": "ok", onclick: () => {
      session.notice = "";
      session.clearError();
      session.changed();
    } }, "\u2715"));
}

function quietPage(): HTMLElement {
  return h("main", { class: "lobby", id: "main" }, h("section", { class: "panel elsewhere", id: "elsewhere" },
    pageHeading("Duelhall is open in another tab"),
    h("p", {}, "Only one tab plays at a time, so the two do not take the connection from each other. ",
      tabs.otherTurn ? h("strong", {}, "It is your move there.") : null),
    h("button", { id: "use-here", "data-offline": "ok", onclick: useHere }, "Use here")));
}

function lobbyPage(): HTMLElement {
  if (!session.hasIdentity) return h("main", { class: "lobby", id: "main" }, pageHeading("Welcome to Duelhall"), nameForm(session));
  const chosen = session.ruleset(chosenRuleset) ?? session.rulesets[0];
  const mine = [...session.matches.values()].filter((m) => m.info && m.seat >= 0 && m.info.status <= 1);
  const heading = pageHeading("The lobby");
  setPageName(""); // the lobby's title is the site's name alone
  return h("main", { class: "lobby", id: "main" }, heading, countsLine(hall), followedPanel(hall),
    mine.length ? h("section", { class: "panel" }, h("h2", {}, "Your matches"),
      h("ul", {}, ...mine.map((m) => h("li", {}, h("a", { href: `#/match/${m.id}` }, `#${m.id} ${m.info?.ruleset}`),
        m.legal.length ? h("span", { class: "badge" }, "your move") : null)))) : null,
    pairingGrid(session),
    h("p", { class: "panel", id: "lobby-tournaments" }, h("a", { href: "#/tournaments" }, "Tournaments"),
      " (Swiss, arena and knockout): upcoming, running and finished."),
    onlinePanel(session, hall),
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
  if (session.ban) return banPage();
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
  if (route.page === "decks" && session.ready) return decksPage(session, route.deck);
  if (route.page === "tournaments" && session.ready) return tournamentsPage(session, tours);
  if (route.page === "tournament" && session.ready) return tournamentPage(session, tours, route.id);
  if (route.page === "moderation" && session.ready) return moderationPage(session);
  if (route.page === "player" && session.ready) {
    const main = playerPage(session, route.name);
    if (signedIn() && route.name.toLowerCase() !== session.name.toLowerCase()) main.append(challengeForm(session, hall, route.name));
    return main;
  }
  if (route.page === "tv" && session.ready) {
    return tvPage(session, hall, route.ruleset, (id) => matchScreen(session, session.match(id)));
  }
  if (route.page === "leaderboard" && session.ready) return leaderboardPage(session, route.ruleset);
  if (route.page === "join" || route.page === "watch") {
    if (!session.hasIdentity) return lobbyPage();
    void followLink(session, route, location.hash);
    return h("main", { id: "main" }, pageHeading("Opening the match..."));
  }
  return lobbyPage();
}

let lobbyChatRead = 0; // lobby chat lines already read out
const pressGuard = new PressGuard(() => render());

function render(): void {
  if (pressGuard.holds()) return; // made on the release, after the click
  const saved = saveForms(root);
  const focused = document.activeElement as HTMLElement | null;
  const key = focused?.id || focused?.dataset.key;
  const focusWas = focusPlace();
  const main = page();
  // Nothing a click could send goes out while the link is down: such buttons wait for it.
  if (session.link !== "online") {
    main.querySelectorAll<HTMLButtonElement>("button:not([data-offline])").forEach((b) => (b.disabled = true));
  }
  root.replaceChildren(statusBar(), main);
  if (!freshForm) restoreForms(saved);
  freshForm = false;
  const log = document.getElementById("event-log");
  if (log) showNewest(log); // the newest events in sight, the top line whole
  if (key) {
    const again = document.getElementById(key) ?? root.querySelector<HTMLElement>(`[data-key="${key}"]`);
    if (again) again.focus();
  }
  const route = parseRoute(location.hash);
  const mv = route.page === "match" ? session.matches.get(route.id) : undefined;
  if (mv && document.getElementById("match")) afterMatchRedraw(mv, focusWas);
  if (session.lobbyChat.length > lobbyChatRead && document.getElementById("lobby-chat-log")) {
    announce(session.lobbyChat.slice(lobbyChatRead).slice(-3).map((c) => `${c.from} says: ${c.text}`).join(" "));
  }
  lobbyChatRead = session.lobbyChat.length;
  sayNewMessages(root);
  sayLinkChange();
  const turn = tabs.role === "live" ? session.myTurn : tabs.otherTurn;
  showTurn(turn);
  document.title = titleWithUnseen(hall, document.title);
  tabs.announceTurn(turn);
}

// The clock counts down between updates without redrawing the page.
setInterval(() => {
  const route = parseRoute(location.hash);
  const el = document.getElementById("clock");
  if (route.page === "match" && el) el.textContent = clockText(session.match(route.id));
  const waited = document.getElementById("seek-waited");
  if (waited) waited.textContent = waitedText(session);
}, 250);

window.addEventListener("hashchange", () => {
  if (parseRoute(location.hash).page !== "tv") hall.stopTv();
  if (parseRoute(location.hash).page !== "tournament") void tours.unwatch();
  forgetProblem(location.hash);
  session.error = "";
  staleAccountData(); // a profile or leaderboard shown again loads afresh
  render();
});
// Back to this tab after a while: what it shows may have moved on.
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState !== "visible") return;
  staleAccountData();
  render();
});
setInterval(() => {
  const page = parseRoute(location.hash).page;
  if (document.visibilityState !== "visible" || !["leaderboard", "player", "account"].includes(page)) return;
  staleAccountData();
  render();
}, ACCOUNT_DATA_REFRESH_MS);
session.subscribe(render);
// Paired (quick pairing or an accepted rematch): the page goes to the match.
session.pairing.onPaired = (id) => {
  announce(`Paired: match ${id} is yours to play.`);
  go(`#/match/${id}`);
};
// A tournament game of ours started: a notification (counted in the tab's title while the page is
// in the background), and the page goes to the match unless we are playing another one.
tours.onGameReady = (ready) => {
  hall.notify({ text: `Your game in ${ready.tournamentName} (round ${ready.round}) has started: ${ready.seats.join(" against ")}`,
    play: ready.matchId });
  const route = parseRoute(location.hash);
  const shown = route.page === "match" ? session.matches.get(route.id) : undefined;
  announce(`Your tournament game has started: match ${ready.matchId}.`);
  if (goesToGame(shown, ready.matchId)) go(`#/match/${ready.matchId}`);
  else render();
};
tabs.onRole = (role) => {
  if (role === "live") session.start();
  else session.conn.stop();
  render();
};
tabs.onNote = render;
tabs.start();
liveRegion();
render();
// Exposed for the browser tests (dropping the connection as a network failure would).
(window as unknown as { duelhall: Session; duelhallTabs: TabLock }).duelhall = session;
(window as unknown as { duelhallTabs: TabLock }).duelhallTabs = tabs;
