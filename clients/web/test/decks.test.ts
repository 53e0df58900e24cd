// The deck builder's own layers (docs/accounts.md, "Saved decks"): the card browser's filters and
// sorts over the catalogue, and deck-list text read into counts and written back so that it reads
// the same (the server's check stays the judge of legality).
import { describe, expect, it } from "vitest";
import { browse, NO_FILTER } from "../src/decks/card_filter";
import { addCard, readList, totalCards, writeList } from "../src/decks/deck_text";
import { YOUNG_JEDI_CARDS } from "../src/gen/young_jedi_cards";

describe("card browser", () => {
  it("filters by side, type, set, dot colour, ranges and text, and never offers unusable cards", () => {
    const all = browse(NO_FILTER);
    expect(all.length).toBe(YOUNG_JEDI_CARDS.filter((c) => c.usable).length);
    const lightWeapons = browse({ ...NO_FILTER, side: "Light", type: "Weapon" });
    expect(lightWeapons.length).toBeGreaterThan(0);
    expect(lightWeapons.every((c) => c.side === "Light" && c.type === "Weapon")).toBe(true);
    const orange = browse({ ...NO_FILTER, dot: "orange", set: 1 });
    expect(orange.every((c) => c.dots[1] !== 0 && c.set === 1)).toBe(true);
    const strong = browse({ ...NO_FILTER, powerMin: 6, destinyMax: 2 });
    expect(strong.every((c) => c.power >= 6 && c.destiny <= 2)).toBe(true);
    expect(browse({ ...NO_FILTER, text: "sith lightsaber" }).map((c) => c.id)).toContain("1_107");
  });
  it("sorts by title, power or set and number", () => {
    const byPower = browse({ ...NO_FILTER, type: "Character", sort: "power" });
    for (let i = 1; i < byPower.length; ++i) expect(byPower[i - 1].power).toBeGreaterThanOrEqual(byPower[i].power);
    const byId = browse({ ...NO_FILTER, set: 1 });
    const numbers = byId.map((c) => Number(c.id.split("_")[1]));
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
  });
});

describe("deck-list text", () => {
  it("reads counts by id or title and writes them back to the same counts", () => {
    const { counts, unread } = readList("# Dark Side\n3 Sith Lightsaber\n2 1_71\n\n# note\nfour Maul\n");
    expect([...counts]).toEqual([["1_107", 3], ["1_71", 2]]);
    expect(unread).toEqual(["four Maul"]);
    const text = writeList(counts);
    expect(text.startsWith("# Dark Side\n")).toBe(true);
    expect([...readList(text).counts]).toEqual([...counts]);
  });
  it("adds and removes copies, dropping a card at zero", () => {
    let counts = readList("1 1_107\n").counts;
    counts = addCard(counts, "1_107", 2);
    counts = addCard(counts, "1_71", 1);
    expect(totalCards(counts)).toBe(4);
    counts = addCard(counts, "1_71", -1);
    expect(counts.has("1_71")).toBe(false);
  });
});
