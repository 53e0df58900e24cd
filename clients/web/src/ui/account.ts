// Accounts in the browser: sign up, sign in and out, the profile with its match history, the
// leaderboard per ruleset, and the rating change at the end of a rated match. What this browser
// keeps of its identity is ../identity.ts. A profile or leaderboard loads again when a rated
// match ends (identity.ts counts such changes), when the page is shown again, and every
// half-minute while one is open (others' matches change a leaderboard too; main.ts).
import { h } from "../dom";
import type { Profile } from "../gen/accounts_pb";
import type { ServerMessage } from "../gen/envelope_pb";
import { ResultCode } from "../gen/result_pb";
import { accountState, forgetSession, keepSession, signedIn } from "../identity";
import type { Session } from "../session";
import { deckState } from "../decks/saved_decks";
import { go } from "./route";
import { pageHeading } from "./page";

export { accountState, signedIn };

const NAME_RULES = "3 to 20 characters: letters, digits, _ and -, starting with a letter or a digit.";

// A refused sign-in says how many tries are left before the pause, or how long the pause is,
// when the server says so (ServerMessage.attempts_left, retry_after_ms).
export function refusalText(reply: ServerMessage): string {
  const base = reply.reason || ResultCode[reply.result] || "refused";
  if (reply.result === ResultCode.WRONG_PASSWORD && reply.attemptsLeft > 0) {
    const n = reply.attemptsLeft;
    return `${base}. ${n} more wrong password${n === 1 ? "" : "s"} and sign-in pauses for a while.`;
  }
  if (reply.result === ResultCode.TOO_MANY_ATTEMPTS && reply.retryAfterMs > 0) {
    const minutes = Math.ceil(reply.retryAfterMs / 60_000);
    return `${base}. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
  }
  return base;
}

function field(id: string, label: string, type: string, autocomplete: string, help = ""): HTMLElement {
  return h("div", { class: "field" }, h("label", { for: id }, label),
    h("input", { id, name: id, type, autocomplete, required: true, maxlength: 128,
      "aria-describedby": help ? `${id}-help` : undefined }),
    help ? h("span", { class: "hint", id: `${id}-help` }, help) : null);
}

function value(id: string): string {
  return (document.getElementById(id) as HTMLInputElement | null)?.value ?? "";
}

async function enter(session: Session, kind: "registerAccount" | "signIn", name: string, password: string): Promise<void> {
  const reply = await session.conn.send({ case: kind, value: { name, password } });
  if (reply.result !== ResultCode.OK || reply.body.case !== "signedIn") {
    accountState.error = refusalText(reply);
    session.changed();
    return;
  }
  keepSession(reply.body.value.sessionToken);
  deckState.loaded = false; // the account's decks load, and this browser's move to it, next time
  accountState.account = reply.body.value.account;
  accountState.error = "";
  accountState.profile = undefined;
  session.name = reply.body.value.account?.name ?? session.name;
  void loadProfile(session, "");
}

async function signOut(session: Session): Promise<void> {
  await session.conn.send({ case: "signOut", value: {} });
  forgetSession();
  accountState.profile = undefined;
  session.name = localStorage.getItem("duelhall.name") ?? session.name;
  session.changed();
}

// Change the password (every other session ends) or delete the account (its matches stay).
async function manage(session: Session, kind: "changePassword" | "deleteAccount"): Promise<void> {
  const reply = kind === "changePassword"
    ? await session.conn.send({ case: kind, value: { oldPassword: value("old-password"), newPassword: value("new-password") } })
    : await session.conn.send({ case: kind, value: { password: value("delete-password") } });
  accountState.error = reply.result === ResultCode.OK
    ? (kind === "changePassword" ? "Password changed; your other sessions are signed out." : "")
    : refusalText(reply);
  if (reply.result === ResultCode.OK && kind === "deleteAccount") {
    forgetSession();
    accountState.profile = undefined;
    accountState.error = "The account is deleted; its matches stay, as a deleted player.";
  }
  session.changed();
}

function manageForms(session: Session): HTMLElement {
  const submit = (kind: "changePassword" | "deleteAccount") => (e: Event) => {
    e.preventDefault();
    void manage(session, kind);
  };
  return h("details", { class: "options", id: "manage-account" }, h("summary", {}, "Password and account"),
    h("form", { id: "password-form", onsubmit: submit("changePassword") },
      field("old-password", "Current password", "password", "current-password"),
      field("new-password", "New password (8 characters or more)", "password", "new-password"),
      h("button", { type: "submit" }, "Change the password")),
    h("form", { id: "delete-form", onsubmit: submit("deleteAccount") },
      field("delete-password", "Password, to delete the account", "password", "current-password"),
      h("button", { type: "submit" }, "Delete the account")));
}

export async function loadProfile(session: Session, name: string): Promise<void> {
  accountState.profileName = name;
  accountState.loadedAt.profile = accountState.generation;
  const reply = await session.conn.send({ case: "getProfile", value: { name } });
  accountState.profile = reply.body.case === "profile" ? reply.body.value : undefined;
  accountState.error = reply.result === ResultCode.OK ? "" : reply.reason || "no such account";
  session.changed();
}

export async function loadLeaderboard(session: Session, ruleset: string): Promise<void> {
  accountState.loadedAt.board = accountState.generation;
  const reply = await session.conn.send({ case: "getLeaderboard", value: { ruleset, offset: 0, limit: 50 } });
  accountState.board = reply.body.case === "leaderboard" ? reply.body.value : undefined;
  session.changed();
}

const profileStale = () => accountState.loadedAt.profile !== accountState.generation;

function signed(n: number): string {
  const r = Math.round(n);
  return r >= 0 ? `+${r}` : `${r}`;
}

function profileView(session: Session, p: Profile): HTMLElement {
  const display = (name: string) => session.ruleset(name)?.displayName ?? name;
  return h("section", { class: "panel", id: "profile", "aria-labelledby": "profile-h" },
    h("h2", { id: "profile-h" }, p.account?.name || "Guest"),
    h("h3", {}, "Ratings"),
    p.ratings.length
      ? h("ul", { id: "ratings" }, ...p.ratings.map((r) => h("li", { "data-ruleset": r.ruleset },
          `${display(r.ruleset)}: ${Math.round(r.rating)}${r.provisional ? "?" : ""} `,
          h("span", { class: "hint" }, `\u00b1${Math.round(r.deviation * 2)}, ${r.games} rated games${r.provisional ? ", provisional" : ""}`))))
      : h("p", { class: "hint" }, "No rated games yet."),
    h("h3", {}, "Matches"),
    p.history.length
      ? h("ol", { id: "history" }, ...p.history.map((e) => h("li", { "data-history": String(e.matchId) },
          `#${e.matchId} ${display(e.ruleset)}: ${e.result} against ${e.opponents.map((o) => o.name).join(", ") || "nobody"}`,
          e.rated ? h("span", { class: "rating-change" }, ` ${signed(e.ratingAfter - e.ratingBefore)} (${Math.round(e.ratingAfter)})`) : null,
          e.endedMs ? h("span", { class: "hint" }, ` ${new Date(Number(e.endedMs)).toLocaleString()}`) : null,
          " ", h("a", { href: `#/replay/${e.matchId}` }, "replay"))))
      : h("p", { class: "hint" }, "No ended matches yet."));
}

// #/account: the forms when signed out, our own profile and sign-out when signed in.
export function accountPage(session: Session): HTMLElement {
  const error = accountState.error ? h("p", { class: "error", "data-say": "account-error", id: "account-error" }, accountState.error) : null;
  if (signedIn()) {
    if (!accountState.profile || accountState.profileName !== "" || profileStale()) void loadProfile(session, "");
    return h("main", { class: "lobby", id: "main" }, pageHeading("Your account"),
      h("section", { class: "panel" }, h("h2", {}, `Signed in as ${accountState.account?.name}`), error,
        h("button", { id: "sign-out", onclick: () => void signOut(session) }, "Sign out"), manageForms(session)),
      accountState.profile && accountState.profileName === "" ? profileView(session, accountState.profile) : h("p", {}, "Loading..."));
  }
  const form = (kind: "registerAccount" | "signIn", title: string, prefix: string) =>
    h("form", { class: "panel", id: `${prefix}-form`, onsubmit: (e: Event) => {
      e.preventDefault();
      void enter(session, kind, value(`${prefix}-name`).trim(), value(`${prefix}-password`));
    } },
    h("h2", {}, title),
    field(`${prefix}-name`, "User name", "text", "username", kind === "registerAccount" ? NAME_RULES : ""),
    field(`${prefix}-password`, "Password (8 characters or more)", "password", kind === "signIn" ? "current-password" : "new-password"),
    h("button", { type: "submit" }, title));
  return h("main", { class: "lobby", id: "main" }, pageHeading("Sign in or create an account"), error,
    form("signIn", "Sign in", "signin"),
    form("registerAccount", "Create an account", "signup"),
    h("p", { class: "hint" }, "Your matches as a guest stay yours when you create an account from this browser."));
}

// #/player/<name>: someone's profile.
export function playerPage(session: Session, name: string): HTMLElement {
  if (accountState.profileName !== name || profileStale()) void loadProfile(session, name);
  const p = accountState.profileName === name ? accountState.profile : undefined;
  if (p) return h("main", { class: "lobby", id: "main" }, pageHeading(`Player ${name}`), profileView(session, p));
  if (!accountState.error) return h("main", { class: "lobby", id: "main" }, pageHeading(`Player ${name}`), h("p", {}, "Loading..."));
  return h("main", { class: "lobby", id: "main" }, pageHeading("No such player"),
    h("section", { class: "panel dead-end", id: "unknown-player" },
      h("p", {}, `There is no account named "${name}" on this server. The name may be mistyped, or the account was deleted.`),
      h("div", { class: "buttons" }, h("a", { class: "button", href: "#/leaderboard" }, "The leaderboard"),
        h("a", { class: "button secondary", href: "#/" }, "Back to the lobby"))));
}

// #/leaderboard[/<ruleset>]: the established ratings of a ruleset, best first.
export function leaderboardPage(session: Session, ruleset: string): HTMLElement {
  const chosen = ruleset || session.rulesets[0]?.name || "";
  const stale = accountState.loadedAt.board !== accountState.generation;
  if (chosen && (accountState.board?.ruleset !== chosen || stale)) void loadLeaderboard(session, chosen);
  const board = accountState.board?.ruleset === chosen ? accountState.board : undefined;
  return h("main", { class: "lobby", id: "main" }, pageHeading("Leaderboard"), h("section", { class: "panel", "aria-labelledby": "board-h" },
    h("h2", { id: "board-h" }, session.ruleset(chosen)?.displayName ?? "Ratings"),
    h("label", { for: "board-ruleset" }, "Ruleset "),
    h("select", { id: "board-ruleset", onchange: (e: Event) => go(`#/leaderboard/${(e.target as HTMLSelectElement).value}`) },
      ...session.rulesets.map((r) => h("option", { value: r.name, selected: r.name === chosen }, r.displayName))),
    board && board.entries.length
      ? h("ol", { id: "leaderboard" }, ...board.entries.map((e) => h("li", { "data-name": e.name },
          h("a", { href: `#/player/${e.name}` }, e.name), ` ${Math.round(e.rating)} `,
          h("span", { class: "hint" }, `\u00b1${Math.round(e.deviation * 2)}, ${e.games} games`))))
      : h("p", { class: "hint" }, board ? "No established ratings yet." : "Loading...")));
}

// The top bar's links.
export function accountLinks(): HTMLElement {
  return h("span", { class: "account-links" },
    h("a", { href: "#/leaderboard", id: "leaderboard-link" }, "Leaderboard"), " ",
    h("a", { href: "#/account", id: "account-link" }, signedIn() ? accountState.account?.name ?? "Account" : "Sign in"));
}

// Under a rated match's result: each seat's rating change.
export function ratingNote(id: bigint): HTMLElement | null {
  const update = accountState.ratings.get(id);
  if (!update) return null;
  return h("p", { id: "rating-change", class: "result" }, "Ratings: ",
    update.changes.map((c) => `${c.name} ${Math.round(c.after)} (${signed(c.after - c.before)})${c.provisional ? "?" : ""}`).join(", "));
}
