// What a seat's typed option is called on the create, join and pairing forms: a Young Jedi deck
// list, or a Force Battles setup as text (the server makes it at the seat: docs/accounts.md).
import { describe, expect, it } from "vitest";
import { seatOptionLabel } from "../src/ui/deck_pick";

describe("seat option label", () => {
  it("names a deck list for Young Jedi and a setup for Force Battles", () => {
    expect(seatOptionLabel("young_jedi", "Young Jedi")).toBe("Your Young Jedi deck list (empty: the ready deck)");
    expect(seatOptionLabel("force_battles", "Force Battles")).toBe(
      "Your Force Battles setup as text (empty: set it up in the match)");
  });
});
