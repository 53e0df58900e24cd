// A seat in a match on another node of a cluster (docs/pairing.md, "Across a cluster"). A push
// that seats the player there (a Paired whose `redirect` is set; a challenge accepted or a
// tournament game across nodes may carry the same) names the match's node and a join ticket for
// the seat: the player sits in the match once it sends JoinMatch{match, seat, its seat option} to
// that node with the ticket. The page has one connection, so it moves there (Connection.moveTo:
// a new WebSocket, the same Hello, never "offline") and joins; its own node would only redirect
// the join again. Both failures leave the page connected and are said in words: a node that
// cannot be reached (the page is back on the node it left) and a join the node refuses (the page
// stays on the new node, which serves the lobby as well as the old one).
import { TICKET_REFUSALS, type Connection } from "./connection";
import type { Redirect } from "./gen/cluster_pb";
import type { Joined } from "./gen/lobby_pb";
import { ResultCode } from "./gen/result_pb";

// The seat's setup the player chose (a deck list or setup text, or a saved deck's id instead),
// as Seek, CreateMatch and JoinMatch carry it.
export interface SeatOption {
  seatOption: string;
  savedDeck: bigint;
}
export const NO_SEAT_OPTION: SeatOption = { seatOption: "", savedDeck: 0n };

// What of the connection a join elsewhere uses (a stand-in in the tests).
export type Mover = Pick<Connection, "address" | "moveTo" | "send">;

export type JoinedElsewhere = { joined: Joined } | { refused: string };

// The words of a seat whose node cannot be reached from here.
export function seatUnreachable(matchId: bigint, r: Redirect): string {
  return `Your seat in match ${matchId} is on server ${r.node || "?"} (${r.address}), which cannot be ` +
    "reached from here; you are still connected to this server";
}

export async function joinElsewhere(conn: Mover, matchId: bigint, seat: number, redirect: Redirect,
  option: SeatOption): Promise<JoinedElsewhere> {
  // Already there (the page moved to that node earlier): the join goes as it is.
  if (conn.address !== redirect.address && !(await conn.moveTo(redirect.address))) {
    return { refused: seatUnreachable(matchId, redirect) };
  }
  const join = { case: "joinMatch", value: { matchId, seat, ...option } } as const;
  // A redirect from that node too (the match moved on meanwhile) is followed once, by send.
  let reply = await conn.send(join, true, redirect.ticket);
  // A ticket refused (expired on a slow move) costs nothing: the node hosts the match, so the
  // join without it is served there (or redirected on).
  if (TICKET_REFUSALS.includes(reply.result)) reply = await conn.send(join);
  if (reply.result === ResultCode.OK && reply.body.case === "joined") return { joined: reply.body.value };
  const why = reply.reason || ResultCode[reply.result] || "refused";
  return { refused: `Match ${matchId} on server ${redirect.node || "?"} did not take you in: ${why}` };
}
