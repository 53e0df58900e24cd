// The client's whole state: who we are, the lobby, and the matches we play or watch. Views are
// kept as the server's bytes and advanced only by the server's patches (match_feed.ts); nothing
// here knows a rule. Listeners re-render on every change.
import { Connection, type LinkState } from "./connection";
import { joinElsewhere, type SeatOption } from "./elsewhere";
import type { Redirect } from "./gen/cluster_pb";
import { ResultCode } from "./gen/result_pb";
import type { ServerMessage } from "./gen/envelope_pb";
import { MatchStatus, type MatchInfo, type RulesetInfo } from "./gen/lobby_pb";
import type { Announcement } from "./gen/moderation_pb";
import type { ChatMessage } from "./gen/match_pb";
import { forgetSession, hasSession, helloTokens, noteAccount, noteRatingUpdate, staleAccountData } from "./identity";
import { MatchFeed, newMatchView, type MatchView } from "./match_feed";
import { listWithBooks, PhraseBooks } from "./phrase_books";
import { PairingState } from "./pairing";
import { addressBan, banFromReply, sanctionText, type Ban } from "./sanctions";
import { Watching } from "./watching";

// How long after a timed ban's end the page knocks again (the server's clock may run a little
// behind), and the longest a browser timer waits (about 24 days: a longer ban is knocked on then).
const BAN_END_SLACK_MS = 500;
const MAX_TIMER_MS = 2_000_000_000;

export type { MatchView };

const RATINGS_SETTLE_MS = 1_500;

const NAME_KEY = "duelhall.name";
const TOKEN_KEY = "duelhall.token";
// Protocol 6: legal labels told once per connection, a seat's events as phrases of its ruleset's
// book, its updates in a one-byte field with the legal codes as steps (docs/protocol.md).
const PROTOCOL = 7;
const INVITE_KEY = "duelhall.invite."; // + match id: the code of a match we host or were invited to

export class Session {
  readonly conn: Connection;
  name = localStorage.getItem(NAME_KEY) ?? "";
  playerId = 0n;
  link: LinkState = "connecting";
  error = "";
  rulesets: RulesetInfo[] = [];
  lobby = new Map<bigint, MatchInfo>();
  lobbyChat: ChatMessage[] = [];
  matches = new Map<bigint, MatchView>();
  private listeners: (() => void)[] = [];
  private watching: Watching; // spectated matches, watched again after each (re)connect
  seated = new Set<bigint>(); // matches the server says we sit in (Welcome.matches)
  ready = false; // identity, rulesets and lobby are in after the latest hello
  announcement: Announcement | undefined; // the latest, until dismissed (ui/moderation.ts)
  notice = ""; // what a moderator did to us (muted, kicked), or that a report went in
  ignored = new Set<bigint>(); // players whose chat this page hides (the server stops it too)
  ban: Ban | null = null; // the server will not take us (an account's or this address's ban)
  // Pushes other rooms take (hall.ts): each returns whether the message was its own.
  pushHandlers: ((m: ServerMessage) => boolean)[] = [];
  // Called once the session is ready after each hello.
  readyHandlers: (() => void)[] = [];
  pairing = new PairingState(); // quick pairing and rematches (pairing.ts)
  private feed = new MatchFeed(
    (matchId) => void this.conn.send({ case: "resync", value: { matchId } }),
    new PhraseBooks((phrasesOf) => listWithBooks(this.conn, phrasesOf)),
    () => this.changed(),
  );

  constructor(url: string) {
    this.conn = new Connection(url);
    this.watching = new Watching(this.conn, (words) => void ((this.error = words), this.changed()));
    this.conn.onState = (s) => {
      this.link = s;
      this.changed();
    };
    // A move to another node (a REDIRECT) waits for this hello before the command goes again.
    this.conn.onOpen = () => this.hello();
    this.conn.onMessage = (m) => this.receive(m);
    this.pairing.joinElsewhere = (id, seat, r, option) => this.joinElsewhere(id, seat, r, option);
    // A kick or a ban closes with its reason; a ban also refuses the next hello (BANNED). A
    // connection refused before it opened may be an address's ban: GET /api/ban says.
    this.conn.onClosedFor = (reason, opened) => {
      if (/^(KICKED|BANNED):/.test(reason)) this.error = reason;
      if (!opened || /^BANNED:/.test(reason)) void addressBan().then((ban) => ban && this.banned(ban));
    };
  }

  start(): void {
    if (this.ban) return; // knocking again would only be refused
    this.conn.open();
  }
  subscribe(fn: () => void): void {
    this.listeners.push(fn);
  }
  changed(): void {
    for (const fn of this.listeners) fn();
  }
  get hasIdentity(): boolean {
    return this.playerId !== 0n;
  }

  // After (re)connecting: resume with the stored token, else introduce ourselves if we have a
  // name. After a page reload there are no views in memory, so no cursors: the server then
  // sends snapshots. After a drop the cursors fetch only the missed updates. In a cluster the
  // cursors may send the page on to the node that now hosts their matches (Connection.hello);
  // when no node takes them in time, the page goes on without them (the same token), saying so.
  private async hello(resume = true): Promise<void> {
    const token = localStorage.getItem(TOKEN_KEY);
    if (token) {
      for (const m of this.matches.values()) m.seen = m.seq; // what follows a cursor is resent
      const cursors = [...this.matches.values()]
        .filter((m) => resume && m.view !== null && m.seat >= 0)
        .map((m) => ({ matchId: m.id, seq: m.seq }));
      const reply = await this.conn.hello({ protocolVersion: PROTOCOL, resumeToken: token, cursors, ...helloTokens() });
      if (reply.result === ResultCode.REDIRECT) return; // said again on the node named (a failover)
      if (reply.result === ResultCode.CLUSTER_UNAVAILABLE) {
        await this.hello(false);
        this.error = reply.reason;
        this.changed();
        return;
      }
      if (reply.result === ResultCode.BAD_SESSION) {
        forgetSession(); // signed out elsewhere or expired: on as a guest
        return this.hello();
      }
      if (this.refusedForBan(reply)) return;
      if (reply.result === ResultCode.OK && reply.body.case === "welcome") {
        noteAccount(reply.body.value.account);
        this.welcomed(reply.body.value.playerId, reply.body.value.displayName, token);
        for (const id of reply.body.value.matches) {
          this.seated.add(id);
          const m = this.match(id);
          if (m.view === null) void this.conn.send({ case: "resync", value: { matchId: id } });
        }
        await this.afterHello();
        return;
      }
      localStorage.removeItem(TOKEN_KEY); // expired: start afresh under the same name
    }
    if (this.name || hasSession()) await this.introduce(this.name);
    else await this.afterHello();
  }

  async introduce(name: string): Promise<boolean> {
    const reply = await this.conn.send({
      case: "hello",
      value: { protocolVersion: PROTOCOL, displayName: name, ...helloTokens() },
    });
    if (reply.result === ResultCode.BAD_SESSION) {
      forgetSession();
      return this.introduce(name);
    }
    if (this.refusedForBan(reply)) return false;
    if (reply.result !== ResultCode.OK || reply.body.case !== "welcome") {
      this.error = reply.reason || "the server refused the name";
      this.changed();
      return false;
    }
    const w = reply.body.value;
    noteAccount(w.account);
    if (!w.account || w.account.guest) localStorage.setItem(NAME_KEY, w.displayName); // a guest's own name
    this.welcomed(w.playerId, w.displayName, w.resumeToken);
    await this.afterHello();
    return true;
  }

  // A rated match ended somewhere: the profile and leaderboard pages load again, now and once
  // more a little later (the ratings are stored after the end is announced).
  private ratingsMoved(): void {
    staleAccountData();
    setTimeout(() => {
      staleAccountData();
      this.changed();
    }, RATINGS_SETTLE_MS);
  }

  // A Hello refused for a ban: the page says so, and stops knocking.
  private refusedForBan(reply: ServerMessage): boolean {
    const ban = banFromReply(reply);
    if (ban) this.banned(ban);
    return ban !== null;
  }
  private banned(ban: Ban): void {
    this.ban = ban;
    this.conn.halt();
    this.changed();
    // A ban for a time (a kick's hold is one) ends by itself: the page knocks again once it has.
    if (ban.expiresMs !== 0n) {
      const wait = Math.max(Number(ban.expiresMs) - Date.now(), 0) + BAN_END_SLACK_MS;
      setTimeout(() => {
        if (this.ban !== ban) return;
        this.ban = null;
        this.changed();
        this.conn.open();
      }, Math.min(wait, MAX_TIMER_MS));
    }
  }

  private welcomed(id: bigint, name: string, token: string): void {
    this.pairing.setStatus(undefined); // a new connection seeks nothing (the server dropped the seek)
    this.feed.newConnection(); // its phrase books are asked for on it
    this.playerId = id;
    this.name = name;
    this.error = "";
    localStorage.setItem(TOKEN_KEY, token);
  }

  private async afterHello(): Promise<void> {
    this.ready = false;
    if (!this.hasIdentity) {
      this.changed();
      return;
    }
    const rs = await this.conn.send({ case: "listRulesets", value: {} });
    if (rs.body.case === "rulesets") this.rulesets = rs.body.value.rulesets;
    const lobby = await this.conn.send({ case: "subscribeLobby", value: { subscribe: true } });
    if (lobby.body.case === "matches") {
      this.lobby.clear();
      for (const m of lobby.body.value.matches) this.lobby.set(m.matchId, m);
    }
    // Watched again here (watching.ts): a page with no seat in play follows its match's node,
    // unless this hello is on the way somewhere for a command (a spectate elsewhere).
    this.watching.again(!this.conn.moving && ![...this.matches.values()].some((m) => m.seat >= 0 && !m.outcome));
    this.ready = true;
    for (const fn of this.readyHandlers) fn();
    this.changed();
  }

  match(id: bigint): MatchView {
    let m = this.matches.get(id);
    if (!m) {
      m = newMatchView(id, this.inviteFor(id));
      this.matches.set(id, m);
    }
    return m;
  }

  // Invite codes live in the browser, so a reload of a waiting page still shows its link.
  rememberInvite(id: bigint, code: string): void {
    if (!code) return;
    try {
      localStorage.setItem(INVITE_KEY + id, code);
    } catch {
      // storage full or disabled: the link lasts until the reload
    }
    const m = this.matches.get(id);
    if (m) m.inviteCode = code;
  }
  inviteFor(id: bigint): string {
    return localStorage.getItem(INVITE_KEY + id) ?? "";
  }

  // Whether any match we sit in waits for our decision.
  get myTurn(): boolean {
    for (const m of this.matches.values()) {
      if (m.seat >= 0 && m.legal.length > 0 && !m.outcome) return true;
    }
    return false;
  }

  clearError(): void {
    if (!this.error) return;
    this.error = "";
    this.changed();
  }

  ruleset(name: string): RulesetInfo | undefined {
    return this.rulesets.find((r) => r.name === name);
  }

  // Replies that fail leave their reason on the session (lobby) or the match (actions).
  async command(command: Parameters<Connection["send"]>[0]): Promise<ServerMessage> {
    const reply = await this.conn.send(command);
    if (reply.result !== ResultCode.OK) {
      this.error = reply.reason || ResultCode[reply.result] || "refused";
      this.changed();
    } else if (this.error) {
      this.clearError(); // the last refusal no longer applies
    }
    return reply;
  }

  // Takes a seat the server holds for us in a match on another node (elsewhere.ts): the page's
  // connection moves there and joins with the ticket. True once seated; else the words say why
  // (the page still connected, to the node it left or to the match's).
  async joinElsewhere(id: bigint, seat: number, redirect: Redirect, option: SeatOption): Promise<boolean> {
    const got = await joinElsewhere(this.conn, id, seat, redirect, option);
    if ("refused" in got) {
      this.error = got.refused;
      this.changed();
      return false;
    }
    const m = this.match(id);
    m.seat = got.joined.seat;
    if (got.joined.match) m.info = got.joined.match;
    this.changed();
    return true;
  }

  async spectate(id: bigint, inviteCode = ""): Promise<boolean> {
    const reply = await this.command({ case: "spectate", value: { matchId: id, inviteCode } });
    if (reply.result !== ResultCode.OK) return false;
    this.watched(id, inviteCode);
    return true;
  }
  // The server took us as a spectator of `id` (re-sent after a reconnect).
  watched(id: bigint, inviteCode: string): void {
    this.match(id).seat = -1;
    this.watching.add(id, inviteCode);
    this.rememberInvite(id, inviteCode);
  }

  async resign(id: bigint): Promise<void> {
    const reply = await this.conn.send({ case: "resign", value: { matchId: id } });
    const m = this.match(id);
    m.notice = reply.result === ResultCode.OK ? "" : reply.reason || "refused";
    this.changed();
  }

  async act(id: bigint, code: bigint): Promise<void> {
    const m = this.match(id);
    const reply = await this.conn.send({
      case: "action",
      value: { matchId: id, code, seq: m.seq },
    });
    m.notice = reply.result === ResultCode.OK ? "" : reply.reason || "refused";
    if (reply.result === ResultCode.STALE_SEQ) {
      void this.conn.send({ case: "resync", value: { matchId: id } });
    }
    this.changed();
  }

  async leave(id: bigint): Promise<void> {
    await this.conn.send({ case: "leaveMatch", value: { matchId: id } });
    this.watching.delete(id);
    this.matches.delete(id);
    this.changed();
  }

  private receive(m: ServerMessage): void {
    const body = m.body;
    switch (body.case) {
      case "snapshot":
        if (body.value.match) this.feed.snapshot(this.match(body.value.match.matchId), body.value);
        break;
      case "update":
        this.feed.update(this.matches.get(body.value.matchId), body.value);
        break;
      case "joined":
      case "created": {
        const info = body.value.match;
        if (info) this.lobby.set(info.matchId, info);
        break;
      }
      case "lobbyUpdate": {
        const u = body.value;
        if (!u.match) break;
        if (u.removed) this.lobby.delete(u.match.matchId);
        else this.lobby.set(u.match.matchId, u.match);
        if (u.match.settings?.rated && (u.removed || u.match.status >= MatchStatus.FINISHED)) this.ratingsMoved();
        const mv = this.matches.get(u.match.matchId);
        if (mv && !u.removed) mv.info = u.match;
        break;
      }
      case "spectatorCount": {
        // The match's spectators came or went (the listing gets the same number).
        const { matchId, spectators } = body.value;
        const info = this.matches.get(matchId)?.info;
        if (info) info.spectators = spectators;
        const listed = this.lobby.get(matchId);
        if (listed) listed.spectators = spectators;
        break;
      }
      case "presence": {
        const p = body.value;
        const seat = this.matches.get(p.matchId)?.info?.seats[p.seat];
        if (seat) seat.connected = p.connected;
        break;
      }
      case "ratingUpdate":
        noteRatingUpdate(body.value);
        break;
      case "announcement":
        this.announcement = body.value;
        break;
      case "sanction": {
        const sanction = body.value;
        if (m.requestId !== 0n) return; // a refusal's body: the reply's reason is shown
        this.notice = sanctionText(sanction);
        if (sanction.kind === "ban") this.ban = { reason: sanction.reason, expiresMs: sanction.expiresMs, what: "account" };
        break;
      }
      case "chat": {
        const c = body.value;
        if (c.matchId === 0n) this.lobbyChat.push(c);
        else this.match(c.matchId).chat.push(c);
        break;
      }
      default:
        if (!this.pairing.receive(m, (id) => this.match(id)) && !this.pushHandlers.some((fn) => fn(m))) return;
    }
    this.changed();
  }
}
