// Protocol 6 (docs/protocol.md, version 6): a seat's update arrives in ServerMessage.seatUpdate
// with its legal codes as steps; the connection hands the rest of the client protocol 5's shape.
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { ServerMessageSchema, type ServerMessage } from "../src/gen/envelope_pb";
import { MatchUpdateSchema } from "../src/gen/match_pb";
import { normalizeUpdate } from "../src/seat_updates";

const wire = (body: ServerMessage["body"]) =>
  fromBinary(ServerMessageSchema, toBinary(ServerMessageSchema, create(ServerMessageSchema, { body })));

describe("protocol 6's seat updates", () => {
  it("reads a seat update as an update, its steps added up to the codes", () => {
    const attack = BigInt(5 | (12 << 8) | (1 << 16) | (2 << 24));
    const steps = [3n, 1n, attack - 4n];
    const m = normalizeUpdate(wire({ case: "seatUpdate", value: create(MatchUpdateSchema, { matchId: 9n, legalSteps: steps }) }));
    expect(m.body.case).toBe("update");
    if (m.body.case !== "update") return;
    expect(m.body.value.matchId).toBe(9n);
    expect(m.body.value.legalCodes).toEqual([3n, 4n, attack]);
  });

  it("leaves an update with whole codes, a spectator's or protocol 5's, as it came", () => {
    const m = normalizeUpdate(wire({ case: "update", value: create(MatchUpdateSchema, { matchId: 9n, legalCodes: [7n, 9n] }) }));
    expect(m.body.case).toBe("update");
    if (m.body.case === "update") expect(m.body.value.legalCodes).toEqual([7n, 9n]);
  });

  it("takes one byte less on the wire for the same update", () => {
    const u = create(MatchUpdateSchema, { matchId: 9n, patch: new Uint8Array(24) });
    const as6 = toBinary(ServerMessageSchema, create(ServerMessageSchema, { body: { case: "seatUpdate", value: u } }));
    const as5 = toBinary(ServerMessageSchema, create(ServerMessageSchema, { body: { case: "update", value: u } }));
    expect(as5.length - as6.length).toBe(1);
  });
});
