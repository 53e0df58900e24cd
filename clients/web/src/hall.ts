// The hall's social state (docs/pairing.md, "Challenges, presence and TV"): challenges sent and
// received, the followed accounts' presence, the lobby's counts, the TV's featured match, and
// the notifications they raise. The server pushes each (hall.proto); nothing here is polled.
import { ChallengeUpdate_State, FollowedPlayer_Presence, type ChallengeUpdate, type FollowedPlayer,
  type HallCounts, type OnlineList, type TvFeature } from "./gen/hall_pb";
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { MatchSettingsSchema } from "./gen/lobby_pb";
import { ResultCode } from "./gen/result_pb";
import type { ServerMessage } from "./gen/envelope_pb";
import type { Session } from "./session";

// `play`: a match of ours to go to (a tournament game that started while we played another).
export type Notice = { id: number; text: string; watch?: bigint; challenge?: bigint; play?: bigint };

export class Hall {
  incoming = new Map<bigint, ChallengeUpdate>(); // challenges waiting for our answer
  outgoing = new Map<bigint, ChallengeUpdate>(); // ours, waiting for theirs
  followed: FollowedPlayer[] = [];
  counts: HallCounts | undefined;
  tv: TvFeature | undefined;
  online: OnlineList | undefined; // the lobby's "who is online", asked for when opened
  onlineChallenge = ""; // the name whose challenge form the online list shows
  tvRuleset = ""; // the TV page shown, subscribed again after a reconnect
  notices: Notice[] = [];
  unseen = 0; // notifications raised while the page was in the background
  private nextNotice = 1;

  constructor(private session: Session) {
    session.pushHandlers.push((m) => this.receive(m));
    session.readyHandlers.push(() => this.afterHello());
    document.addEventListener("visibilitychange", () => {
      if (!document.hidden && this.unseen) {
        this.unseen = 0;
        session.changed();
      }
    });
  }

  notify(notice: Omit<Notice, "id">): void {
    this.notices.push({ id: this.nextNotice++, ...notice });
    if (this.notices.length > 8) this.notices.shift();
    if (document.hidden) this.unseen++;
  }
  dismiss(id: number): void {
    this.notices = this.notices.filter((n) => n.id !== id);
    this.session.changed();
  }

  private afterHello(): void {
    void this.session.conn.send({ case: "getFollowed", value: {} }).then((r) => {
      if (r.result === ResultCode.OK && r.body.case === "followed") this.takeFollowed(r.body.value.players, r.body.value.counts);
    });
    if (this.tvRuleset) void this.watchTv(this.tvRuleset);
  }

  private takeFollowed(players: FollowedPlayer[], counts: HallCounts | undefined): void {
    const before = new Map(this.followed.map((p) => [p.name, p]));
    for (const p of players) {
      const was = before.get(p.name);
      if (p.presence === FollowedPlayer_Presence.PLAYING && was && was.matchId !== p.matchId) {
        this.notify({ text: `${p.name} started a match`, watch: p.matchId });
      }
    }
    this.followed = players;
    if (counts) this.counts = counts;
  }

  receive(m: ServerMessage): boolean {
    const body = m.body;
    if (body.case === "challengeUpdate") this.challengeChanged(body.value);
    else if (body.case === "followed") this.takeFollowed(body.value.players, body.value.counts);
    else if (body.case === "hallCounts") this.counts = body.value;
    else if (body.case === "tv") this.tvChanged(body.value);
    else return false;
    return true;
  }

  private challengeChanged(u: ChallengeUpdate): void {
    const c = u.challenge;
    if (!c) return;
    const mine = u.incoming ? this.incoming : this.outgoing;
    const who = u.incoming ? c.from : c.to;
    if (u.state === ChallengeUpdate_State.PENDING) {
      mine.set(c.challengeId, u);
      if (u.incoming) this.notify({ text: `${c.from} challenges you to ${c.settings?.ruleset ?? "a match"}`, challenge: c.challengeId });
      return;
    }
    mine.delete(c.challengeId);
    const words: Record<number, string> = {
      [ChallengeUpdate_State.ACCEPTED]: `${who} accepted your challenge`,
      [ChallengeUpdate_State.DECLINED]: `${who} declined your challenge${u.reason ? `: ${u.reason}` : ""}`,
      [ChallengeUpdate_State.EXPIRED]: `The challenge ${u.incoming ? "from" : "to"} ${who} expired`,
      [ChallengeUpdate_State.WITHDRAWN]: `${who} withdrew the challenge${u.reason ? `: ${u.reason}` : ""}`,
    };
    this.notify({ text: words[u.state] ?? "", watch: undefined });
    if (u.state === ChallengeUpdate_State.ACCEPTED && u.matchId) {
      const mv = this.session.match(u.matchId);
      mv.seat = 0; // the challenger sits in seat 0 (hall.proto)
      location.hash = `#/match/${u.matchId}`;
    }
  }

  private tvChanged(tv: TvFeature): void {
    if (tv.ruleset !== this.tvRuleset) return;
    const before = this.tv?.matchId ?? 0n;
    this.tv = tv;
    if (tv.matchId === before) return;
    if (before) void this.session.leave(before); // ended: stop watching it
    if (tv.matchId) void this.session.spectate(tv.matchId);
  }

  async challenge(to: string, settings: MessageInitShape<typeof MatchSettingsSchema>, seatOption = ""): Promise<ServerMessage> {
    const reply = await this.session.command({ case: "challenge", value: { toName: to, settings, seatOption } });
    if (reply.result === ResultCode.OK && reply.body.case === "challengeUpdate") this.challengeChanged(reply.body.value);
    this.session.changed();
    return reply;
  }

  async answer(id: bigint, accept: boolean, reason = "", seatOption = ""): Promise<void> {
    const reply = await this.session.command({ case: "answerChallenge", value: { challengeId: id, accept, reason, seatOption } });
    this.incoming.delete(id);
    this.notices = this.notices.filter((n) => n.challenge !== id);
    if (reply.result === ResultCode.OK && reply.body.case === "joined" && reply.body.value.match) {
      const mv = this.session.match(reply.body.value.match.matchId);
      mv.seat = reply.body.value.seat;
      mv.info = reply.body.value.match;
      location.hash = `#/match/${reply.body.value.match.matchId}`;
    } else if (reply.result === ResultCode.OK && reply.body.case === "paired" && reply.body.value.redirect) {
      // In a cluster, a challenger on another node: the match is there, seat 1 kept for us.
      const p = reply.body.value;
      if (await this.session.joinElsewhere(p.matchId, p.seat, p.redirect!, { seatOption, savedDeck: 0n })) {
        location.hash = `#/match/${p.matchId}`;
      }
    }
    this.session.changed();
  }

  async cancel(id: bigint): Promise<void> {
    await this.session.command({ case: "cancelChallenge", value: { challengeId: id } });
    this.outgoing.delete(id);
    this.session.changed();
  }

  async follow(name: string, on: boolean): Promise<void> {
    const reply = await this.session.command(on ? { case: "follow", value: { name } } : { case: "unfollow", value: { name } });
    if (reply.result === ResultCode.OK && reply.body.case === "followed") this.takeFollowed(reply.body.value.players, reply.body.value.counts);
    this.session.changed();
  }

  follows(name: string): boolean {
    return this.followed.some((p) => p.name.toLowerCase() === name.toLowerCase());
  }

  // Who is online (ListOnline: signed-in accounts by name, at most 50, with their presence).
  async listOnline(): Promise<void> {
    const reply = await this.session.command({ case: "listOnline", value: { limit: 50 } });
    if (reply.result === ResultCode.OK && reply.body.case === "online") {
      this.online = reply.body.value;
      if (reply.body.value.counts) this.counts = reply.body.value.counts;
    }
    this.session.changed();
  }

  async watchTv(ruleset: string): Promise<void> {
    if (this.tvRuleset && this.tvRuleset !== ruleset) {
      void this.session.conn.send({ case: "getTv", value: { ruleset: this.tvRuleset, subscribe: false } });
    }
    this.tvRuleset = ruleset;
    const reply = await this.session.conn.send({ case: "getTv", value: { ruleset, subscribe: true } });
    if (reply.result === ResultCode.OK && reply.body.case === "tv") this.tvChanged(reply.body.value);
    this.session.changed();
  }

  stopTv(): void {
    if (!this.tvRuleset) return;
    void this.session.conn.send({ case: "getTv", value: { ruleset: this.tvRuleset, subscribe: false } });
    this.tvRuleset = "";
    this.tv = undefined;
  }
}
