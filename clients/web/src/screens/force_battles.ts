// Force Battles: each character board as a body diagram with its six targets and seven
// spheres holding coloured counters, ATT/DEF, the FORCE POOL, the GEAS slots, this round's dice
// and the setup progress (the secret setup itself is made through the offered actions and stays
// hidden until both confirm).
import { h, s } from "../dom";
import type { ScreenContext } from "./screen";

const COLOURS = ["#888", "#d33", "#36c", "#2a2", "#c90", "#a3c", "#0aa", "#eee"];
// Sphere and target positions on a 100 x 160 figure: head to feet.
const SPHERES = [[50, 14], [50, 34], [50, 54], [50, 74], [50, 94], [30, 120], [70, 120]];
const TARGETS = [[50, 8], [22, 50], [78, 50], [50, 66], [36, 150], [64, 150]];

function body(board: any, colour: number): SVGElement {
  const fill = COLOURS[colour] ?? COLOURS[0];
  const parts: SVGElement[] = [
    s("circle", { cx: 50, cy: 14, r: 12, class: "body" }),
    s("line", { x1: 50, y1: 26, x2: 50, y2: 100, class: "limb" }),
    s("line", { x1: 50, y1: 40, x2: 18, y2: 62, class: "limb" }),
    s("line", { x1: 50, y1: 40, x2: 82, y2: 62, class: "limb" }),
    s("line", { x1: 50, y1: 100, x2: 34, y2: 156, class: "limb" }),
    s("line", { x1: 50, y1: 100, x2: 66, y2: 156, class: "limb" }),
  ];
  (board?.targets ?? []).forEach((n: number, i: number) => {
    const [x, y] = TARGETS[i] ?? [0, 0];
    parts.push(s("rect", { x: x - 7, y: y - 7, width: 14, height: 14, class: "target" }),
      s("text", { x, y: y + 4, "text-anchor": "middle", class: "count" }, String(n)));
  });
  (board?.spheres ?? []).forEach((n: number, i: number) => {
    const [x, y] = SPHERES[i] ?? [0, 0];
    parts.push(s("circle", { cx: x + 14, cy: y, r: 7, class: "sphere", fill: n ? fill : "none" }),
      s("text", { x: x + 14, y: y + 4, "text-anchor": "middle", class: "count" }, String(n)));
  });
  return s("svg", { class: "body-diagram", viewBox: "0 0 100 165", role: "img",
    "aria-label": `targets ${(board?.targets ?? []).join(" ")}; spheres ${(board?.spheres ?? []).join(" ")}` }, ...parts);
}

function board(ctx: ScreenContext, p: any, seat: number): HTMLElement {
  const v = ctx.view;
  const b = p.board;
  const deciding = ((v.pending >> seat) & 1) === 1 || v.actor === seat + 1;
  return h("section", { class: `player${seat === ctx.seat ? " own" : ""}${deciding ? " deciding" : ""}`,
      "aria-label": `seat ${seat} ${ctx.seatName(seat)}` },
    h("h3", {}, ctx.seatName(seat), seat === ctx.seat ? " (you)" : "", deciding ? h("span", { class: "badge" }, "to decide") : null),
    p.revealed
      ? h("div", { class: "player-row" }, body(b, p.colour - 1),
          h("dl", { class: "stats" },
            h("dt", {}, "side"), h("dd", {}, ["", "Light", "Dark"][p.side] ?? "?"),
            h("dt", {}, "ATT"), h("dd", {}, String(b?.att ?? 0)),
            h("dt", {}, "DEF"), h("dd", {}, String(b?.def ?? 0)),
            h("dt", {}, "pool"), h("dd", {}, String(b?.pool ?? 0)),
            h("dt", {}, "GEAS"), h("dd", { class: "geas" }, (b?.geas ?? []).map((n: number) => String(n)).join(" "))))
      : h("p", { class: "hint" }, `setup hidden (stage ${p.setupStage})`));
}

export function forceBattlesScreen(ctx: ScreenContext): HTMLElement {
  const v = ctx.view;
  const rolls = (v.rolls ?? []).map((r: any) =>
    h("li", {}, `${ctx.seatName(r.seat - 1)} ${r.what}: `, ...r.dice.map((d: number) => h("span", { class: "die" }, String(d)))));
  return h("div", { class: "board force-battles" },
    h("p", { class: "decision", "aria-live": "polite" },
      `Round ${v.round}${v.roundLimit ? ` of ${v.roundLimit}` : ""}`,
      v.attacker ? `; ${ctx.seatName(v.attacker - 1)} attacks` : "",
      v.target ? ` target ${v.target - 1}` : "",
      v.hitDie ? `; hit die ${v.hitDie}, block die ${v.blockDie}` : "",
      v.placing ? `; ${v.placing} counters to place` : "",
      v.winner ? (v.winner === 3 ? "; a draw" : `; won by ${ctx.seatName(v.winner - 1)}`) : ""),
    h("div", { class: "table" }, ...v.players.map((p: any, i: number) => board(ctx, p, i))),
    rolls.length ? h("section", { "aria-label": "dice" }, h("h3", {}, "Dice this round"), h("ul", { class: "rolls" }, ...rolls)) : null);
}
