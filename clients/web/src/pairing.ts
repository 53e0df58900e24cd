// Quick pairing and rematches on the client (docs/pairing.md): what the server said of this
// player's seek, the rematch offers received (or our offer's decline), and the Paired that seats
// the player in a match. The pages are ui/pairing_grid.ts and ui/rematch.ts.
// In a cluster a Paired may seat the player in a match on another node (its `redirect`): the
// session joins it there (elsewhere.ts) with the seat option the player sought with, and the page
// goes to the match once seated.
import type { Redirect } from "./gen/cluster_pb";
import type { ServerMessage } from "./gen/envelope_pb";
import type { MatchInfo } from "./gen/lobby_pb";
import type { RematchOffer, SeekStatus } from "./gen/pairing_pb";
import type { MatchView } from "./match_feed";
import { NO_SEAT_OPTION, type SeatOption } from "./elsewhere";

export class PairingState {
  status: SeekStatus | null = null; // set while seeking
  private statusAt = 0; // Date.now() when the status came
  offers = new Map<bigint, RematchOffer>(); // by ended match: offered to us, or our offer declined
  offered = new Set<bigint>(); // matches whose rematch we offered and wait on
  ended = ""; // why the server ended our seek without a match (the reason of its refusal)
  // Called once the player sits in a paired match (the page goes there).
  onPaired: ((id: bigint) => void) | null = null;
  sought: SeatOption = NO_SEAT_OPTION; // the seat option of the latest seek the server took
  // Seats the player in a match on another node (Session.joinElsewhere); true once seated.
  joinElsewhere: ((id: bigint, seat: number, r: Redirect, option: SeatOption) => Promise<boolean>) | null = null;

  seeking(): boolean {
    return this.status?.seeking ?? false;
  }
  // Seconds waited: the server's count at its last status, plus the time since.
  secondsWaited(): number {
    if (!this.status) return 0;
    return this.status.secondsWaited + Math.floor((Date.now() - this.statusAt) / 1000);
  }
  setStatus(status: SeekStatus | undefined): void {
    this.status = status?.seeking ? status : null;
    this.statusAt = Date.now();
  }

  // Takes in a pushed pairing message; false when `m` is none.
  receive(m: ServerMessage, match: (id: bigint) => MatchView): boolean {
    const body = m.body;
    switch (body.case) {
      case "seekStatus":
        this.setStatus(body.value);
        this.ended = m.result === 0 ? "" : m.reason;
        return true;
      case "paired": {
        const p = body.value;
        this.status = null;
        this.offered.delete(p.previousMatchId);
        this.offers.delete(p.previousMatchId);
        if (p.redirect && this.joinElsewhere) {
          // Not seated yet: the match's view is made once the node there has taken the join.
          void this.joinElsewhere(p.matchId, p.seat, p.redirect, this.sought)
            .then((seated) => seated && this.onPaired?.(p.matchId));
          return true;
        }
        const mv = match(p.matchId);
        mv.seat = p.seat;
        if (p.match && !mv.info) mv.info = p.match as MatchInfo;
        this.onPaired?.(p.matchId);
        return true;
      }
      case "rematchOffer": {
        const o = body.value;
        this.offers.set(o.matchId, o);
        if (o.declined) this.offered.delete(o.matchId);
        return true;
      }
      default:
        return false;
    }
  }
}
