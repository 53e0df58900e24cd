// A Force Battles setup saved as text (src/screens/setup_text.ts): written and read back to the
// same choices, and text that is not a setup read as none.
import { describe, expect, it } from "vitest";
import { parseSetup, setupText } from "../src/screens/setup_text";

const plan = { side: 1, hand: 0, colour: 3, spheres: [3, 2, 4, 1, 3, 3, 2], att: 5, def: 2,
  geas: [0, 1, 0, 0, 2, 0, 0, 1, 0, 0, 1, 0, 0] };

describe("setup text", () => {
  it("reads back the choices it was written from, by name", () => {
    const text = setupText(plan);
    expect(text).toContain("side dark\n");
    expect(text).toContain("colour red\n");
    expect(text).toContain("spheres 3 2 4 1 3 3 2\n");
    expect(parseSetup(text)).toEqual(plan);
    expect(parseSetup(`  # mine\n${text.toUpperCase().replace("DARK", "dark").replace("LEFT", "left").replace("RED", "red")}`))
      .toEqual(plan);
  });

  it("reads no setup from text that is not one", () => {
    expect(parseSetup("")).toBeNull();
    expect(parseSetup("40 1_1\n")).toBeNull();
    expect(parseSetup(setupText(plan).replace("spheres 3 2 4 1 3 3 2", "spheres 3 2"))).toBeNull();
    expect(parseSetup(setupText(plan).replace("att 5", "att -1"))).toBeNull();
    expect(parseSetup(setupText(plan).replace("side dark", "side grey"))).toBeNull();
  });
});
