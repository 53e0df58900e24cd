// The TypeScript apply side of the view diff against the C++ reference (proto/wire_diff.cpp):
// vectors made by tests/web/diff_vectors.cpp from real games (a fresh, larger set when ctest
// passes DUELHALL_DIFF_VECTORS), plus hand-made patches for the edge cases.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { applyPatch, parseRecords } from "../src/wire_diff";

const here = dirname(fileURLToPath(import.meta.url));
const file = process.env.DUELHALL_DIFF_VECTORS ?? join(here, "diff_vectors.jsonl");

function bytes(hex: string): Uint8Array {
  return Uint8Array.from(hex.match(/../g) ?? [], (b) => parseInt(b, 16));
}
function hexOf(b: Uint8Array | null): string | null {
  return b === null ? null : [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
}

interface Vector {
  before: string;
  after: string;
  patch: string;
}
const vectors: Vector[] = readFileSync(file, "utf8").trim().split("\n").map((l: string) => JSON.parse(l));

describe("vectors from the C++ library", () => {
  it(`has vectors to check (${file})`, () => {
    expect(vectors.length).toBeGreaterThan(20);
    expect(vectors.some((v) => v.patch.length > 0 && !v.patch.startsWith("00"))).toBe(true);
  });
  it("rebuilds every view exactly from the one before and the patch", () => {
    let failures = 0;
    for (const v of vectors) {
      if (hexOf(applyPatch(bytes(v.before), bytes(v.patch))) !== v.after) ++failures;
    }
    expect(failures).toBe(0);
  });
  it("refuses a patch applied to the wrong view rather than inventing one", () => {
    // A truncated view cannot be patched: its last record is cut.
    const v = vectors.find((x) => x.before.length > 20 && !x.patch.startsWith("00"))!;
    const cut = bytes(v.before).subarray(0, bytes(v.before).length - 1);
    const out = applyPatch(cut, bytes(v.patch));
    expect(out === null || hexOf(out) !== v.after).toBe(true);
  });
});

describe("hand-made patches", () => {
  const view = bytes("0801" + "1a0408021003" + "1a0408031004"); // 1: 1; 3: {1:2,2:3}; 3: {1:3,2:4}
  it("an empty patch keeps the view", () => {
    expect(hexOf(applyPatch(view, new Uint8Array()))).toBe(hexOf(view));
  });
  it("header 0 carries the whole new view", () => {
    expect(hexOf(applyPatch(view, bytes("00020805")))).toBe("0805");
    expect(applyPatch(view, bytes("0002080500"))).toBeNull(); // trailing bytes
  });
  it("replaces one field's records and keeps the rest", () => {
    // field 1 (header 1<<2|0 = 04): records "0807"
    expect(hexOf(applyPatch(view, bytes("04020807")))).toBe("0807" + "1a0408021003" + "1a0408031004");
  });
  it("edits one element of a repeated message with a nested patch", () => {
    // field 3 elements (0d), 1 edit, index 1 nested (item 3), nested patch: field 2 replace "1009"
    expect(hexOf(applyPatch(view, bytes("0d01" + "03" + "04" + "08021009"))))
      .toBe("0801" + "1a0408021003" + "1a0408031009");
  });
  it("writes a scalar's new value and removes a field", () => {
    // field 1 VARINT (1<<2|2 = 06) 300 (ac02); field 3 REMOVE (3<<2|3 = 0f)
    expect(hexOf(applyPatch(view, bytes("06ac02" + "0f")))).toBe("08ac02");
    // a VARINT for a field the old view lacks puts it in order: field 2 (0a) value 5
    expect(hexOf(applyPatch(view, bytes("0a05")))).toBe("0801" + "1005" + "1a0408021003" + "1a0408031004");
    expect(applyPatch(view, bytes("06ff"))).toBeNull(); // a truncated value
  });
  it("refuses fields out of order, bad ops and indexes past the records", () => {
    expect(applyPatch(view, bytes("0d010304" + "08021009" + "04020807"))).toBeNull();
    expect(applyPatch(view, bytes("0f" + "04020807"))).toBeNull(); // field 3 then field 1
    expect(applyPatch(view, bytes("0d01" + "05" + "02" + "0807"))).toBeNull(); // index 2 of 2
    expect(applyPatch(view, bytes("0d00"))).toBeNull(); // zero edits
  });
  it("parses records and rejects truncation", () => {
    expect(parseRecords(view)?.map((r) => r.field)).toEqual([1, 3, 3]);
    expect(parseRecords(bytes("1a05080210"))).toBeNull();
  });
});
