// The client's own layers over what the server sends: the event log's folding, the plain-word
// action labels with their hints, and Force Battles' setup plan picking among the legal steps.
import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { LegalActionSchema } from "../src/gen/match_pb";
import { hintText, plainLabel } from "../src/glossary";
import { isSetupStep, setupChoice } from "../src/screens/force_battles_setup";
import { foldEvents, lineText } from "../src/ui/events";

const code = (kind: number, a = 0, b = 0) => BigInt(kind | (a << 8) | (b << 16));
const legal = (codes: bigint[]) => codes.map((c) => create(LegalActionSchema, { code: c, label: "" }));

describe("event log", () => {
  it("folds an opponent's hidden setup steps into one line per player", () => {
    const events = ["@0 chose the Light side", "@1 made a setup choice", "@0 chose right-handed",
      "@1 made a setup choice", "@1 made a setup choice", "@0 chose green"];
    const lines = foldEvents(events, (tag, n) => `${tag} is setting up: step ${n} of 27`).map(lineText);
    expect(lines).toEqual(["@0 chose the Light side", "@1 is setting up: step 3 of 27", "@0 chose right-handed, green"]);
  });
  it("shows a line repeated back to back once, with its count", () => {
    const lines = foldEvents(["@0 passed", "@0 passed", "@0 passed", "@1 drew"], () => "").map(lineText);
    expect(lines).toEqual(["@0 passed (\u00d73)", "@1 drew"]);
  });
});

describe("plain-word labels", () => {
  it("rewrites the engine's terms and explains them", () => {
    expect(plainLabel("force_battles", "3 in sphere HL")).toBe("Put 3 counters in sphere HL (head, left)");
    expect(plainLabel("jedi_duel", "Stance 5\u2663 as Middle")).toBe("Play 5\u2663 as your Stance, in Middle");
    expect(plainLabel("jedi_duel", "Stance 7\u2666")).toBe("Play 7\u2666 as your Stance (High)");
    expect(hintText("force_battles", "2 in Mind Trick")).toMatch(/^Mind Trick \(GEAS\): the defender names the target$/);
    expect(hintText("jedi_duel", "Stance 5\u2663 as Middle")).toMatch(/^Stance: /);
    expect(hintText("young_jedi", "deploy nothing from your draw deck")).toMatch(/^deploy: .*\nfrom your draw deck: .*1 damage$/);
  });
  it("leaves a label it does not know as the engine wrote it, capitalised", () => {
    expect(plainLabel("young_jedi", "no duel this turn")).toBe("No duel this turn");
    expect(plainLabel("some_new_game", "x")).toBe("X");
  });
});

describe("Force Battles setup plan", () => {
  it("takes the planned count when offered, else the nearest offered", () => {
    const sphere = legal([1, 2, 3, 4].map((n) => code(4, 2, n)));
    expect(setupChoice(1n, sphere).code).toBe(code(4, 2, 3)); // 3 in every sphere
    const fewer = legal([1, 2].map((n) => code(4, 6, n)));
    expect(setupChoice(1n, fewer).code).toBe(code(4, 6, 2));
    const att = legal([0, 1, 2, 3, 4, 5].map((n) => code(5, n)));
    expect(setupChoice(1n, att).code).toBe(code(5, 4));
    const colours = legal([code(3, 3)]); // the Dark side's only colour
    expect(setupChoice(1n, colours).code).toBe(code(3, 3));
  });
  it("knows a setup step from a round's actions", () => {
    expect(isSetupStep(legal([code(9)]))).toBe(true);
    expect(isSetupStep(legal([code(10), code(9)]))).toBe(false);
    expect(isSetupStep([])).toBe(false);
  });
});
