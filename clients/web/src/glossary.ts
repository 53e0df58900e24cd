// The client's plain-word layer over the engine's action labels: the engine names moves in the
// rules' own terms ("3 in sphere HL", "Stance 5♣ as Middle"); a player new to the game reads
// "Put 3 counters in sphere HL (head, left)" with a hint for each term. Keyed by the engine's
// wording, so a label this table does not know is shown as the engine wrote it.
import { TERMS, type Term } from "./rules/howto";

const AREA_OF_SUIT: { [suit: string]: string } = { "\u2666": "High", "\u2665": "Middle", "\u2660": "Low" };
const SPHERES: { [short: string]: string } = {
  HL: "head, left", HR: "head, right", center: "centre", LT: "torso, left", RT: "torso, right",
  LL: "left leg", RL: "right leg",
};

type Rewrite = [RegExp, (m: RegExpMatchArray) => string];

const REWRITES: { [ruleset: string]: Rewrite[] } = {
  jedi_duel: [
    [/^Stance (\S+) as (High|Middle|Low)$/, (m) => `Play ${m[1]} as your Stance, in ${m[2]}`],
    [/^Stance (\S+?)([\u2666\u2665\u2660])$/, (m) => `Play ${m[1]}${m[2]} as your Stance (${AREA_OF_SUIT[m[2]]})`],
    [/^take it$/, () => "Take the attack (no defence)"],
    [/^discard (.+) to regain fatigue$/, (m) => `Discard ${m[1]} to regain fatigue`],
    [/^pass$/, () => "Pass (nothing to play)"],
  ],
  force_battles: [
    [/^(\d+) in sphere (\S+)$/, (m) => `Put ${m[1]} counter${m[1] === "1" ? "" : "s"} in sphere ${m[2]}` +
      (SPHERES[m[2]] ? ` (${SPHERES[m[2]]})` : "")],
    [/^(\d+) in ATT$/, (m) => `Put ${m[1]} in ATT (attack)`],
    [/^(\d+) in DEF$/, (m) => `Put ${m[1]} in DEF (defence)`],
    [/^(\d+) in (.+)$/, (m) => `Put ${m[1]} on the ${m[2]} GEAS`],
    [/^the (Dark|Light) side$/, (m) => `Play the ${m[1]} side`],
    [/^(left|right)-handed$/, (m) => `Fight ${m[1]}-handed`],
    [/^(green|orange|blue|red|purple|yellow)$/, (m) => `Play ${m[1]} counters`],
    [/^pass$/, () => "Pass"],
  ],
};

function capitalised(text: string): string {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

export function plainLabel(ruleset: string, label: string): string {
  for (const [pattern, rewrite] of REWRITES[ruleset] ?? []) {
    const m = label.match(pattern);
    if (m) return rewrite(m);
  }
  return capitalised(label);
}

// The terms a label uses, each with its explanation.
export function termsIn(ruleset: string, label: string): Term[] {
  return (TERMS[ruleset] ?? []).filter((t) => t.term.test(label));
}

export function hintText(ruleset: string, label: string): string {
  return termsIn(ruleset, label).map((t) => `${t.name}: ${t.hint}`).join("\n");
}
