// The matches a page spectates, watched again after every (re)connect (a spectate is not a
// cursor of the Hello: the server forgets a spectator with its connection).
// In a cluster (docs/cluster.md, Failover) the match may have moved meanwhile (a 1012
// MATCH_MOVED close, or its node died and another adopted it). The spectate sent again is then
// answered:
//  - REDIRECT: the match is on the node named. A page that only spectates (it holds no seat in
//    a match in play) follows it there, for the match it watched last (one connection, one
//    node): the page moves (Connection.moveTo, saying its Hello there) and spectates again there
//    with the redirect's ticket. A page that holds a seat stays where its seat is and stops
//    watching that match, as before. A node named that cannot be reached (it just died, its
//    listing not yet gone) is asked about again, as below.
//  - CLUSTER_UNAVAILABLE: no node holds the match yet (the adoption is under way). Asked again
//    after RESUME_RETRY_MIN_MS, doubling up to RESUME_RETRY_MAX_MS, for at most
//    RESUME_GIVE_UP_MS from the first refusal, as a resumed seat is; then it ends in words.
import { Connection, RESUME_GIVE_UP_MS, RESUME_RETRY_MAX_MS, RESUME_RETRY_MIN_MS, TICKET_REFUSALS } from "./connection";
import { ResultCode } from "./gen/result_pb";

export class Watching {
  private codes = new Map<bigint, string>(); // spectated match -> invite code
  private last = 0n; // the match spectated last: the one a page that only spectates follows
  private tickets = new Map<bigint, Uint8Array>(); // from the redirect the page followed
  // A match found not here: since when, and how long to wait before asking again.
  private moving = new Map<bigint, { since: number; delay: number }>();
  private round = 0; // one per hello: a retry of an earlier connection stops

  constructor(
    private readonly conn: Connection,
    private readonly gaveUp: (words: string) => void,
  ) {}

  add(id: bigint, inviteCode: string): void {
    this.codes.set(id, inviteCode);
    this.last = id;
    this.moving.delete(id);
  }

  delete(id: bigint): void {
    this.codes.delete(id);
    this.tickets.delete(id);
    this.moving.delete(id);
  }

  has(id: bigint): boolean {
    return this.codes.has(id);
  }

  // After a hello: every match spectated is asked for again where the page now is. `follow`:
  // the page only spectates, so it may move to the node of the match it watched last.
  again(follow: boolean): void {
    const round = ++this.round;
    for (const id of this.codes.keys()) {
      const follows = follow && id === this.last;
      // Back where it was after a move that failed: the wait before asking again still applies.
      const wait = this.moving.get(id);
      if (wait && !this.tickets.has(id)) void this.later(id, round, follows, wait.delay);
      else void this.watch(id, round, follows);
    }
  }

  private async later(id: bigint, round: number, follow: boolean, delay: number): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, delay));
    if (round !== this.round || !this.conn.live) return; // a reconnect asks again
    return this.watch(id, round, follow);
  }

  private async watch(id: bigint, round: number, follow: boolean): Promise<void> {
    const ticket = this.tickets.get(id) ?? new Uint8Array();
    this.tickets.delete(id);
    const command = { case: "spectate", value: { matchId: id, inviteCode: this.codes.get(id) ?? "" } } as const;
    const reply = await this.conn.send(command, false, ticket);
    if (round !== this.round || !this.codes.has(id)) return;
    if (reply.result === ResultCode.OK) {
      this.moving.delete(id);
      return;
    }
    // A ticket refused (expired on the way, say) costs nothing: asked again without.
    if (ticket.length > 0 && TICKET_REFUSALS.includes(reply.result)) return this.watch(id, round, follow);
    const redirect = reply.result === ResultCode.REDIRECT && reply.body.case === "redirect" ? reply.body.value : null;
    if (redirect && !follow) {
      this.delete(id); // on another node, and the page stays where its seat is
      return;
    }
    if (reply.result !== ResultCode.CLUSTER_UNAVAILABLE && !redirect) {
      this.moving.delete(id); // refused for a reason of its own: asked again at the next hello
      return;
    }
    const wait = this.moving.get(id) ?? { since: Date.now(), delay: RESUME_RETRY_MIN_MS };
    this.moving.set(id, wait);
    if (Date.now() - wait.since + wait.delay > RESUME_GIVE_UP_MS) {
      this.delete(id);
      this.gaveUp(`Match ${id} is moving to another server and none has taken it over yet; ` +
        "watch it again in a moment");
      return;
    }
    const delay = wait.delay;
    wait.delay = Math.min(wait.delay * 2, RESUME_RETRY_MAX_MS);
    if (redirect) {
      this.tickets.set(id, redirect.ticket);
      if (await this.conn.moveTo(redirect.address)) return; // the hello there watches it again
      this.tickets.delete(id);
      if (round !== this.round) return; // back where it was, whose hello asks again after the wait
    }
    return this.later(id, round, follow, delay);
  }
}
