// Moderation in the browser (docs/moderation.md): the moderators' page (#/moderation: connected
// players with mute, kick and ban, live matches with abort, reports, bans, the audit log, an
// announcement, and for admins the moderator role), the announcement banner every page shows,
// and the report and ignore buttons beside chat lines. The server decides who may do what; the
// page only hides what a player could not use.
import { h } from "../dom";
import type { ChatMessage } from "../gen/match_pb";
import type { AuditEntry, BanEntry, ConnectionEntry, ReportEntry } from "../gen/moderation_pb";
import type { MatchInfo } from "../gen/lobby_pb";
import { ResultCode } from "../gen/result_pb";
import type { Session } from "../session";
import { accountState } from "../identity";
import { untilText as when } from "../sanctions";
import { pageHeading } from "./page";

interface ModerationState {
  connections: ConnectionEntry[];
  matches: MatchInfo[];
  reports: ReportEntry[];
  bans: BanEntry[];
  audit: AuditEntry[];
  loading: boolean;
  loadedAt: number;
  notice: string;
}

export const moderationState: ModerationState = {
  connections: [], matches: [], reports: [], bans: [], audit: [], loading: false, loadedAt: 0, notice: "",
};

export function role(): string {
  return accountState.account?.role ?? "";
}
export function isModerator(): boolean {
  return role() === "moderator" || role() === "admin";
}

function value(id: string): string {
  return (document.getElementById(id) as HTMLInputElement | HTMLSelectElement | null)?.value ?? "";
}

// Reloads every list of the page; the page redraws when the answers are in.
export async function refreshModeration(session: Session): Promise<void> {
  if (moderationState.loading) return;
  moderationState.loading = true;
  const [c, m, r, b, a] = await Promise.all([
    session.conn.send({ case: "listConnections", value: {} }),
    session.conn.send({ case: "listLiveMatches", value: {} }),
    session.conn.send({ case: "listReports", value: { includeResolved: false } }),
    session.conn.send({ case: "listBans", value: {} }),
    session.conn.send({ case: "listAudit", value: { limit: 50 } }),
  ]);
  if (c.body.case === "connections") moderationState.connections = c.body.value.connections;
  if (m.body.case === "matches") moderationState.matches = m.body.value.matches;
  if (r.body.case === "reports") moderationState.reports = r.body.value.reports;
  if (b.body.case === "bans") moderationState.bans = b.body.value.bans;
  if (a.body.case === "audit") moderationState.audit = a.body.value.entries;
  moderationState.loading = false;
  moderationState.loadedAt = Date.now();
  session.changed();
}

// Sends one moderator command, shows its outcome and reloads the lists.
async function act(session: Session, command: Parameters<Session["conn"]["send"]>[0], done: string): Promise<void> {
  const reply = await session.conn.send(command);
  moderationState.notice = reply.result === ResultCode.OK ? done : reply.reason || ResultCode[reply.result] || "refused";
  await refreshModeration(session);
}

function seconds(): number {
  return Number(value("mod-duration")) || 0;
}

function playerRow(session: Session, c: ConnectionEntry): HTMLElement {
  const target = { playerId: c.playerId, account: "", address: "" };
  const reason = (): string => value("mod-reason");
  const label = c.account ? `${c.name} (account ${c.account}${c.role ? `, ${c.role}` : ""})` : `${c.name} (guest)`;
  return h("li", { "data-player": String(c.playerId), "data-name": c.name },
    h("span", { class: "who" }, label), " ", h("code", {}, c.address),
    c.muted ? h("span", { class: "badge" }, `muted ${when(c.mutedUntilMs)}`) : null, " ",
    h("button", { class: "small mute", onclick: () => act(session, { case: "mute", value: { target, seconds: seconds(), reason: reason() } }, `${c.name} muted`) }, "Mute"),
    h("button", { class: "small secondary unmute", onclick: () => act(session, { case: "unmute", value: { target } }, `${c.name} unmuted`) }, "Unmute"),
    h("button", { class: "small kick", onclick: () => act(session, { case: "kick", value: { target, reason: reason() } }, `${c.name} kicked`) }, "Kick"),
    h("button", { class: "small ban", onclick: () => act(session, { case: "ban", value: { target, seconds: seconds(), reason: reason() } }, `${c.name} banned`) }, "Ban"),
    h("button", { class: "small secondary ban-address", onclick: () => act(session, { case: "ban", value: { target: { playerId: 0n, account: "", address: c.address }, seconds: seconds(), reason: reason() } }, `${c.address} banned`) }, "Ban address"));
}

function section(id: string, title: string, ...body: (HTMLElement | null)[]): HTMLElement {
  return h("section", { class: "panel", id }, h("h2", {}, title), ...body);
}

export function moderationPage(session: Session): HTMLElement {
  if (!isModerator()) {
    return h("main", { class: "lobby", id: "main" }, pageHeading("Moderation"),
      h("p", { id: "not-moderator" }, "This page is for moderators: sign in to a moderator's account."));
  }
  if (!moderationState.loading && Date.now() - moderationState.loadedAt > 3_000) void refreshModeration(session);
  const s = moderationState;
  return h("main", { class: "moderation", id: "main" }, pageHeading("Moderation"),
    s.notice ? h("p", { id: "mod-notice", "data-say": "mod-notice" }, s.notice) : null,
    section("mod-controls", "Reason and duration",
      h("div", { class: "field" }, h("label", { for: "mod-reason" }, "Reason"), h("input", { id: "mod-reason", maxlength: 500 })),
      h("div", { class: "field" }, h("label", { for: "mod-duration" }, "Duration"),
        h("select", { id: "mod-duration" },
          h("option", { value: "600" }, "10 minutes"), h("option", { value: "3600" }, "1 hour"),
          h("option", { value: "86400" }, "1 day"), h("option", { value: "0" }, "for good"))),
      h("button", { class: "secondary small", id: "mod-refresh", onclick: () => void refreshModeration(session) }, "Refresh")),
    section("mod-players", "Connected players", h("ul", {}, ...s.connections.map((c) => playerRow(session, c)))),
    section("mod-matches", "Live matches", h("ul", {}, ...s.matches.map((m) => h("li", { "data-match": String(m.matchId) },
      `#${m.matchId} ${m.ruleset} `, m.seats.map((seat) => seat.name).join(" vs "), " ",
      h("button", { class: "small abort", onclick: () => act(session, { case: "abortMatch", value: { matchId: m.matchId, reason: value("mod-reason") } }, `match ${m.matchId} aborted`) }, "Abort"))))),
    section("mod-reports", "Reports", h("ul", {}, ...s.reports.map((r) => h("li", { "data-report": String(r.id) },
      h("b", {}, r.target), r.message ? ` said "${r.message}"` : "", ` (reported by ${r.reporter}: ${r.reason}) `,
      h("button", { class: "small resolve", onclick: () => act(session, { case: "resolveReport", value: { reportId: r.id, note: value("mod-reason") } }, `report ${r.id} resolved`) }, "Resolve"))))),
    section("mod-bans", "Bans", h("ul", {}, ...s.bans.map((b) => h("li", { "data-ban": String(b.id) },
      `${b.account || b.address} ${when(b.expiresMs)}: ${b.reason} (by ${b.by}) `,
      h("button", { class: "small secondary unban", onclick: () => act(session, { case: "unban", value: { banId: b.id } }, `ban ${b.id} lifted`) }, "Unban"))))),
    section("mod-announce", "Announcement", h("form", { id: "announce-form", onsubmit: (e: Event) => {
      e.preventDefault();
      void act(session, { case: "announce", value: { text: value("announce-text") } }, "announced");
    } }, h("input", { id: "announce-text", maxlength: 500, "aria-label": "announcement" }), h("button", { type: "submit" }, "Announce"))),
    role() === "admin" ? section("mod-roles", "Moderators", h("form", { id: "role-form", onsubmit: (e: Event) => {
      e.preventDefault();
      void act(session, { case: "setRole", value: { account: value("role-account"), role: value("role-choice") } }, "role changed");
    } }, h("input", { id: "role-account", "aria-label": "account name" }),
      h("select", { id: "role-choice" }, h("option", { value: "moderator" }, "moderator"), h("option", { value: "" }, "no role")),
      h("button", { type: "submit" }, "Set role"))) : null,
    section("mod-audit", "Audit log", h("ol", { id: "audit-log" }, ...s.audit.map((a) => h("li", { "data-action": a.action, "data-target": a.target },
      `${new Date(Number(a.atMs)).toISOString().slice(11, 19)} ${a.actor} ${a.action} ${a.target}`,
      a.reason ? `: ${a.reason}` : "", a.expiresMs ? ` (${when(a.expiresMs)})` : "")))));
}

// The latest announcement, at the top of every page until dismissed.
export function announcementBanner(session: Session): HTMLElement | null {
  const a = session.announcement;
  if (!a) return null;
  return h("div", { class: "flash announcement", id: "announcement" },
    h("span", { "data-say": "announcement" }, h("b", {}, "Announcement"), a.from ? ` from ${a.from}: ` : ": ", a.text),
    h("button", { class: "secondary small", "aria-label": "dismiss", "data-offline": "ok", onclick: () => {
      session.announcement = undefined;
      session.changed();
    } }, "\u2715"));
}

// Report and ignore, beside a chat line of someone else.
export function chatLineTools(session: Session, c: ChatMessage): HTMLElement | null {
  if (c.fromPlayer === 0n || c.fromPlayer === session.playerId) return null;
  return h("span", { class: "chat-tools" },
    h("button", { class: "small secondary report", title: "report this line to the moderators", onclick: async () => {
      const reason = window.prompt("Why report this line?", "abuse") ?? "";
      const reply = await session.command({ case: "report", value: { messageId: c.messageId, reason } });
      if (reply.result === ResultCode.OK) session.notice = "reported to the moderators";
      session.changed();
    } }, "report"),
    h("button", { class: "small secondary ignore", title: `hide ${c.from}'s chat`, onclick: async () => {
      await session.command({ case: "ignore", value: { target: { playerId: c.fromPlayer, account: "", address: "" }, ignore: true } });
      session.ignored.add(c.fromPlayer);
      session.changed();
    } }, "ignore"));
}

// The lobby's chat: every subscriber's lines, each with report and ignore.
export function lobbyChat(session: Session): HTMLElement {
  const input = h("input", { id: "lobby-chat-input", maxlength: 300, "aria-label": "lobby chat message", autocomplete: "off" }) as HTMLInputElement;
  return h("section", { class: "panel chat", id: "lobby-chat" }, h("h2", {}, "Lobby chat"),
    h("ol", { id: "lobby-chat-log" }, // new lines are read by the page's live region (main.ts)
      ...session.lobbyChat.filter((c) => !session.ignored.has(c.fromPlayer)).slice(-30)
        .map((c) => h("li", { "data-from": c.from }, h("b", {}, c.from), ": ", c.text, " ", chatLineTools(session, c)))),
    h("form", { id: "lobby-chat-form", onsubmit: (e: Event) => {
      e.preventDefault();
      const text = input.value.trim();
      if (!text) return;
      input.value = "";
      void session.command({ case: "chat", value: { matchId: 0n, text } });
    } }, input, h("button", { type: "submit" }, "Send")));
}
