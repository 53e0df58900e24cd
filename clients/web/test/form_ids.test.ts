// Every redraw replaces the page and carries form fields over by element id (src/ui/forms.ts): a
// field drawn without one is reset by any lobby update while the player fills the form (a
// "Private" box once unticked itself that way between the tick and the click on Create).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const UI = join(__dirname, "../src/ui");
const FIELD = /h\("(input|select|textarea)",\s*\{([^}]*)/g;

function fieldsWithoutId(): string[] {
  const missing: string[] = [];
  for (const file of readdirSync(UI).filter((f) => f.endsWith(".ts"))) {
    const text = readFileSync(join(UI, file), "utf8");
    for (const m of text.matchAll(FIELD)) {
      if (!/(^|[\s,{])id\b/.test(m[2])) missing.push(`${file}: ${m[0].replace(/\s+/g, " ").slice(0, 80)}`);
    }
  }
  return missing;
}

describe("form fields", () => {
  it("finds the fields it checks", () => {
    const all = [...readdirSync(UI).filter((f) => f.endsWith(".ts"))]
      .flatMap((f) => [...readFileSync(join(UI, f), "utf8").matchAll(FIELD)]);
    expect(all.length).toBeGreaterThan(20);
  });
  it("every input, select and textarea has an id, so a redraw keeps what the player entered", () => {
    expect(fieldsWithoutId()).toEqual([]);
  });
});
