// What a moderator's sanction says to the player it hits: one way of writing when it ends (the
// server's own, in UTC, so a mute refusal from the server and a pushed mute notice read alike),
// and a ban, whether it came as the refusal of a Hello or sign-in (an account's ban), as a
// pushed Sanction, or as a refused WebSocket upgrade (an address's ban: the browser cannot read
// that answer, so GET /api/ban says it; docs/moderation.md).
import type { ServerMessage } from "./gen/envelope_pb";
import type { Sanction } from "./gen/moderation_pb";
import { ResultCode } from "./gen/result_pb";

export interface Ban {
  reason: string; // the moderator's reason
  expiresMs: bigint; // 0: for good
  what: "account" | "address";
}

// "until 2026-11-24 21:00:00 UTC", or "for good".
export function untilText(ms: bigint): string {
  return ms === 0n ? "for good" : `until ${new Date(Number(ms)).toISOString().replace("T", " ").slice(0, 19)} UTC`;
}

// A pushed sanction in words: "muted until ...: spam", "kicked: flooding".
export function sanctionText(s: Sanction): string {
  if (s.kind === "kick") return `kicked${s.reason ? `: ${s.reason}` : ""}`;
  return `${s.kind === "ban" ? "banned" : "muted"} ${untilText(s.expiresMs)}${s.reason ? `: ${s.reason}` : ""}`;
}

// The ban a refused Hello or sign-in carries (BANNED with a Sanction body), if it is one.
export function banFromReply(reply: ServerMessage): Ban | null {
  if (reply.result !== ResultCode.BANNED) return null;
  const s = reply.body.case === "sanction" ? reply.body.value : undefined;
  return { reason: s?.reason ?? reply.reason, expiresMs: s?.expiresMs ?? 0n, what: "account" };
}

// Asks the server whether this address is banned (after a refused connection).
export async function addressBan(base: string = location.origin): Promise<Ban | null> {
  try {
    const res = await fetch(`${base}/api/ban`, { cache: "no-store" });
    const body = (await res.json()) as { banned?: boolean; ban_reason?: string; expires_ms?: number };
    if (!body.banned) return null;
    return { reason: body.ban_reason ?? "", expiresMs: BigInt(body.expires_ms ?? 0), what: "address" };
  } catch {
    return null; // no answer: an ordinary outage, the connection keeps trying
  }
}

export function banText(ban: Ban): string {
  const who = ban.what === "address" ? "This address is banned" : "This account is banned";
  return `${who} ${untilText(ban.expiresMs)}${ban.reason ? `. Reason: ${ban.reason}` : ""}.`;
}
