// Shared links and the pages they land on when the match is not what the link expected: an
// unknown id, a join link to a match that has started, a match that has ended. Each gets a page
// that says what happened and offers what makes sense (watch, the replay, the lobby), instead of
// "Opening the match..." for good.
import { h } from "../dom";
import { ResultCode } from "../gen/result_pb";
import type { Session } from "../session";
import { joinReply } from "./lobby";
import { go, type Route } from "./route";
import { pageHeading } from "./page";

export type ProblemKind = "unknown" | "ended" | "started" | "no-spectators" | "bad-invite" | "other";
export interface Problem {
  hash: string; // the link it belongs to: leaving it clears the problem
  kind: ProblemKind;
  id: bigint;
  invite: string;
  reason: string;
}

let problem: Problem | null = null;
let handled = ""; // the join/watch link already followed
const watchTried = new Set<bigint>();

export function currentProblem(hash: string): Problem | null {
  return problem && problem.hash === hash ? problem : null;
}

export function forgetProblem(hash: string): void {
  if (problem && problem.hash !== hash) problem = null;
  if (handled !== hash) handled = "";
}

// A match the server no longer (or never) hosts may have ended and be stored: its replay says.
async function endedOrUnknown(session: Session, id: bigint): Promise<ProblemKind> {
  const reply = await session.conn.send({ case: "replayView", value: { matchId: id, seat: -1, position: 0 } });
  if (reply.result === ResultCode.OK) return "ended";
  return reply.result === ResultCode.MATCH_NOT_ENDED ? "started" : "unknown";
}

async function classify(session: Session, id: bigint, code: ResultCode): Promise<ProblemKind> {
  switch (code) {
    case ResultCode.UNKNOWN_MATCH:
      return endedOrUnknown(session, id);
    case ResultCode.WRONG_MATCH_STATE:
    case ResultCode.MATCH_FULL: {
      const kind = await endedOrUnknown(session, id);
      return kind === "unknown" ? "started" : kind;
    }
    case ResultCode.SPECTATORS_NOT_ALLOWED:
      return "no-spectators";
    case ResultCode.BAD_INVITE:
      return "bad-invite";
    default:
      return "other";
  }
}

async function report(session: Session, hash: string, id: bigint, invite: string, code: ResultCode, reason: string) {
  const kind = await classify(session, id, code);
  problem = { hash, kind, id, invite, reason };
  session.changed();
}

// Follows #/join/<id>/<invite> and #/watch/<id>/<invite> once the session has an identity.
export async function followLink(session: Session, route: Route, hash: string): Promise<void> {
  if (!session.ready || handled === hash || (route.page !== "join" && route.page !== "watch")) return;
  handled = hash;
  if (route.page === "join") {
    const reply = await session.conn.send({
      case: "joinMatch", value: { matchId: route.id, seat: -1, inviteCode: route.invite, seatOption: "" },
    });
    if (reply.result === ResultCode.OK || reply.result === ResultCode.ALREADY_SEATED) {
      if (reply.result === ResultCode.OK) joinReply(session, route.id, reply);
      session.rememberInvite(route.id, route.invite);
      go(`#/match/${route.id}`);
      return;
    }
    await report(session, hash, route.id, route.invite, reply.result, reply.reason);
    return;
  }
  const reply = await session.conn.send({ case: "spectate", value: { matchId: route.id, inviteCode: route.invite } });
  if (reply.result === ResultCode.OK) {
    session.watched(route.id, route.invite);
    go(`#/match/${route.id}`);
    return;
  }
  await report(session, hash, route.id, route.invite, reply.result, reply.reason);
}

// A match page opened without a seat in it (a reload while watching, a shared link) watches it.
export function watchIfNotSeated(session: Session, id: bigint, hash: string): void {
  const m = session.matches.get(id);
  if (!session.ready || session.seated.has(id) || watchTried.has(id) || (m && (m.view || m.seat >= 0))) return;
  watchTried.add(id);
  const invite = session.inviteFor(id);
  void session.conn.send({ case: "spectate", value: { matchId: id, inviteCode: invite } }).then(async (reply) => {
    if (reply.result === ResultCode.OK) {
      session.watched(id, invite);
      return;
    }
    watchTried.delete(id); // a later visit tries again
    session.matches.delete(id);
    await report(session, hash, id, invite, reply.result, reply.reason);
  });
}

const TITLES: { [k in ProblemKind]: string } = {
  unknown: "No such match",
  ended: "This match has ended",
  started: "This match has already started",
  "no-spectators": "This match cannot be watched",
  "bad-invite": "This invite link is not valid",
  other: "The match could not be opened",
};

function explanation(p: Problem): string {
  switch (p.kind) {
    case "unknown":
      return `There is no match #${p.id} on this server. The link may be mistyped, or the match was never started.`;
    case "ended":
      return `Match #${p.id} is over. Its replay shows every move, step by step.`;
    case "started":
      return `Every seat of match #${p.id} is taken and play has begun. You can still watch it.`;
    case "no-spectators":
      return `The host of match #${p.id} does not allow spectators.`;
    case "bad-invite":
      return `Match #${p.id} is private and this link's invite code does not open it. Ask the host for a new link.`;
    default:
      return p.reason || "The server refused the request.";
  }
}

export function problemPage(p: Problem): HTMLElement {
  const watch = `#/watch/${p.id}${p.invite ? `/${p.invite}` : ""}`;
  return h("main", { class: "lobby", id: "main" },
    h("section", { class: "panel dead-end", id: "dead-end", "data-kind": p.kind, "aria-labelledby": "dead-end-h" },
      pageHeading(TITLES[p.kind], "dead-end-h"),
      h("p", {}, explanation(p)),
      h("div", { class: "buttons" },
        p.kind === "started" ? h("a", { class: "button", id: "dead-end-watch", href: watch }, "Watch the match") : null,
        p.kind === "ended" ? h("a", { class: "button", id: "dead-end-replay", href: `#/replay/${p.id}` }, "Open the replay") : null,
        h("a", { class: p.kind === "unknown" || p.kind === "other" ? "button" : "button secondary", id: "dead-end-lobby", href: "#/" },
          "Back to the lobby"))));
}
