// Protocol 6 sends a seat's own update in ServerMessage.seatUpdate (a one-byte tag; spectators and
// older protocols get `update`) and its legal codes as steps (MatchUpdate.legalSteps: the first
// code, then each less the one before: a seat's codes are sorted and distinct). normalizeUpdate
// puts both back where protocol 5 has them, so the rest of the client reads one shape.
import type { ServerMessage } from "./gen/envelope_pb";

export function normalizeUpdate(m: ServerMessage): ServerMessage {
  if (m.body.case === "seatUpdate") m.body = { case: "update", value: m.body.value };
  if (m.body.case === "update" && m.body.value.legalSteps.length > 0) {
    let code = 0n;
    m.body.value.legalCodes = m.body.value.legalSteps.map((step) => (code += step));
  }
  return m;
}
