// Force Battles: each character board as a body diagram with its six targets and seven
// spheres holding coloured counters, ATT/DEF, the FORCE POOL, the GEAS slots, this round's dice
// and the setup progress (the secret setup itself is made through the offered actions and stays
// hidden until both confirm).
import { h, s } from "../dom";
import type { ScreenContext } from "./screen";

// Index tables of proto/force_battles.proto.
const COLOURS = ["#3fbf5a", "#f08c2e", "#4a8cff", "#e04848", "#a35ee0", "#f2d23c"];
const TARGET_NAMES = ["head", "left arm", "right arm", "torso", "left leg", "right leg"];
const SPHERE_NAMES = ["HL", "HR", "center", "LT", "RT", "LL", "RL"];
const GEAS_NAMES = ["Hide", "Jump", "Mind Trick", "Sight", "Push", "Pull", "Speed", "Lightning",
  "Lightning Absorb", "Heal", "Choke", "Protect", "Rage"];
// Positions on a 140 x 172 figure facing the viewer (its left arm on the viewer's right).
const TARGETS = [[70, 8], [124, 64], [16, 64], [70, 100], [98, 162], [42, 162]];
const SPHERES = [[80, 22], [60, 22], [70, 50], [82, 76], [58, 76], [84, 122], [56, 122]];

// Own counters in the player's colour; the opponent's counters (placed by their GIVE/Pull) as
// a small disc in the opponent's colour beside the sphere or target.
export function body(board: any, colour: number, foreignColour: number): SVGElement {
  const fill = COLOURS[colour] ?? "#999";
  const foreignFill = COLOURS[foreignColour] ?? "#999";
  const foreign = (x: number, y: number, n: number) => n > 0
    ? [s("circle", { cx: x + 10, cy: y - 8, r: 6, fill: foreignFill, class: "foreign" }),
       s("text", { x: x + 10, y: y - 5, "text-anchor": "middle", class: "count on" }, String(n))]
    : [];
  const parts: SVGElement[] = [
    s("circle", { cx: 70, cy: 22, r: 16, class: "body" }),
    s("line", { x1: 70, y1: 38, x2: 70, y2: 104, class: "limb" }),
    s("line", { x1: 70, y1: 52, x2: 24, y2: 64, class: "limb" }),
    s("line", { x1: 70, y1: 52, x2: 116, y2: 64, class: "limb" }),
    s("line", { x1: 70, y1: 104, x2: 46, y2: 154, class: "limb" }),
    s("line", { x1: 70, y1: 104, x2: 94, y2: 154, class: "limb" }),
  ];
  (board?.targets ?? []).forEach((n: number, i: number) => {
    const [x, y] = TARGETS[i] ?? [0, 0];
    parts.push(s("g", {}, s("title", {}, `${TARGET_NAMES[i] ?? "target"}: ${n}`),
      s("rect", { x: x - 8, y: y - 8, width: 16, height: 16, rx: 2, class: "target" }),
      s("text", { x, y: y + 4, "text-anchor": "middle", class: "count" }, String(n)),
      ...foreign(x, y, board?.targetsForeign?.[i] ?? 0)));
  });
  (board?.spheres ?? []).forEach((n: number, i: number) => {
    const [x, y] = SPHERES[i] ?? [0, 0];
    parts.push(s("g", {}, s("title", {}, `sphere ${SPHERE_NAMES[i] ?? i}: ${n}`),
      s("circle", { cx: x, cy: y, r: 8, class: "sphere", fill: n ? fill : "#0e1015" }),
      s("text", { x, y: y + 4, "text-anchor": "middle", class: n ? "count on" : "count" }, String(n)),
      ...foreign(x, y, board?.spheresForeign?.[i] ?? 0)));
  });
  const label = (names: string[], values: number[] = []) => values.map((n, i) => `${names[i] ?? i} ${n}`).join(", ");
  return s("svg", { class: "body-diagram", viewBox: "0 0 140 172", role: "img",
    "aria-label": `targets: ${label(TARGET_NAMES, board?.targets)}; spheres: ${label(SPHERE_NAMES, board?.spheres)}` }, ...parts);
}

function geasSlots(b: any, used: number): HTMLElement {
  return h("ul", { class: "geas" }, ...(b?.geas ?? []).map((n: number, g: number) =>
    h("li", { class: ((used >> g) & 1) === 1 ? "used" : "" }, `${GEAS_NAMES[g] ?? g} ${n}`)));
}

function board(ctx: ScreenContext, p: any, seat: number): HTMLElement {
  const v = ctx.view;
  const b = p.board;
  const deciding = ((v.pending >> seat) & 1) === 1 || v.actor === seat + 1;
  return h("section", { class: `player${seat === ctx.seat ? " own" : ""}${deciding ? " deciding" : ""}`,
      "aria-label": `seat ${seat} ${ctx.seatName(seat)}` },
    h("h3", {}, ctx.seatName(seat), seat === ctx.seat ? " (you)" : "", deciding ? h("span", { class: "badge" }, "to decide") : null),
    p.revealed
      ? h("div", { class: "player-row" }, body(b, p.colour - 1, (v.players[1 - seat]?.colour ?? 0) - 1),
          h("dl", { class: "stats" },
            h("dt", {}, "side"), h("dd", {}, ["", "Light", "Dark"][p.side] ?? "?"),
            h("dt", {}, "ATT"), h("dd", {}, String(b?.att ?? 0)),
            h("dt", {}, "DEF"), h("dd", {}, String(b?.def ?? 0)),
            h("dt", {}, "pool"), h("dd", {}, String(b?.pool ?? 0), b?.poolForeign ? ` (+${b.poolForeign} theirs)` : ""),
            h("dt", {}, "colour"), h("dd", {}, h("span", { class: "swatch", style: `background:${COLOURS[p.colour - 1] ?? "#999"}` }))),
          geasSlots(b, p.geasUsed))
      : h("p", { class: "hint" }, `setup hidden (stage ${p.setupStage})`));
}

// The secret setup is made one choice at a time through the offered actions; the opponent sees
// only how far it has got (F8) until both have confirmed.
const SETUP_DONE = 27;
function setupNote(ctx: ScreenContext): HTMLElement {
  const me = ctx.view.players[ctx.seat];
  const other = 1 - ctx.seat;
  const theirs = Math.min(ctx.view.players[other]?.setupStage ?? 0, SETUP_DONE);
  // Whose turn it is: ours while a step is offered, else the opponent's (their progress shown).
  const mine = ctx.legal.length > 0;
  return h("section", { class: "setup", id: "setup-note", "aria-label": "secret setup" },
    h("h3", {}, "Your secret setup"),
    mine
      ? h("p", {}, `Step ${Math.min(me?.setupStage ?? 0, SETUP_DONE)} of ${SETUP_DONE}: your turn, choose below. `,
          "Your opponent sees only your progress until both of you confirm.")
      : h("p", { id: "setup-waiting" }, `Your setup is placed. Waiting for ${ctx.seatName(other)} to finish theirs `,
          `(step ${theirs} of ${SETUP_DONE}).`));
}

export function forceBattlesScreen(ctx: ScreenContext): HTMLElement {
  const v = ctx.view;
  const rolls = (v.rolls ?? []).map((r: any) =>
    h("li", {}, `${ctx.seatName(r.seat - 1)} ${r.what}: `, ...r.dice.map((d: number) => h("span", { class: "die" }, String(d)))));
  return h("div", { class: "board force-battles" },
    h("p", { class: "decision" },
      `Round ${v.round}${v.roundLimit ? ` of ${v.roundLimit}` : ""}`,
      v.attacker ? `; ${ctx.seatName(v.attacker - 1)} attacks` : "",
      v.target ? ` at the ${TARGET_NAMES[v.target - 1] ?? "target"}` : "",
      v.hitDie ? `; hit die ${v.hitDie}, block die ${v.blockDie}` : "",
      v.placing ? `; ${v.placing} counters to place` : "",
      v.winner ? (v.winner === 3 ? "; a draw" : `; won by ${ctx.seatName(v.winner - 1)}`) : ""),
    v.phase === 0 && ctx.seat >= 0 ? setupNote(ctx) : null,
    h("div", { class: "table" }, ...v.players.map((p: any, i: number) => board(ctx, p, i))),
    rolls.length ? h("section", { "aria-label": "dice" }, h("h3", {}, "Dice this round"), h("ul", { class: "rolls" }, ...rolls)) : null);
}
