// Jedi Duel: the table of players with their Stance cards, fatigue tracks in their columns,
// the viewer's own hand, others' hand counts, the deck and discard, and the pending decision.
import { h, s } from "../dom";
import { backSvg, cardName, cardSvg } from "./cards";
import { argOf, type ScreenContext } from "./screen";

const AREAS = ["", "High", "Middle", "Low"];
const PHASES = ["", "setup", "Stance step", "action step", "defence", "fumble choice",
  "Force Sense", "Low-stance return", "over"];
const ATTACKS = ["", "attack", "Joker attack", "Force Lightning"];

// The fatigue track as its columns (J9: start 21, columns of 7 by default), with the counter.
function fatigueTrack(fatigue: number, start: number, height: number): SVGElement {
  const columns = Math.max(1, Math.ceil(start / height));
  const cell = 14;
  const cells: SVGElement[] = [];
  for (let c = 0; c < columns; ++c) {
    for (let r = 0; r < height; ++r) {
      const value = start - c * height - r;
      if (value < 1) continue;
      const here = value === fatigue;
      cells.push(s("rect", { x: c * (cell + 4), y: r * cell, width: cell, height: cell - 1,
        class: here ? "track-cell current" : value <= fatigue ? "track-cell left" : "track-cell spent" }));
      if (here) {
        cells.push(s("text", { x: c * (cell + 4) + cell / 2, y: r * cell + 10, "text-anchor": "middle",
          class: "track-value" }, String(value)));
      }
    }
  }
  return s("svg", { class: "fatigue", viewBox: `0 0 ${columns * (cell + 4)} ${height * cell}`,
    role: "img", "aria-label": `fatigue ${fatigue} of ${start}` }, ...cells);
}

function playerPanel(ctx: ScreenContext, p: any, start: number, height: number): HTMLElement {
  const v = ctx.view;
  const own = ctx.seat === p.seat;
  const deciding = v.decider === p.seat && v.phase !== 8;
  const flags = [p.out && "out", p.shielded && "shielded (Force Push)", p.owesReplacement && "owes a draw"]
    .filter(Boolean).join(", ");
  return h("section", { class: `player${own ? " own" : ""}${deciding ? " deciding" : ""}${p.out ? " is-out" : ""}`,
      "aria-label": `seat ${p.seat} ${ctx.seatName(p.seat)}` },
    h("h3", {}, ctx.seatName(p.seat), own ? " (you)" : "", deciding ? h("span", { class: "badge" }, "to decide") : null),
    h("div", { class: "player-row" },
      h("figure", { class: "stance" }, p.stanceCard ? cardSvg(p.stanceCard) : backSvg(0, "no Stance"),
        h("figcaption", {}, p.stanceCard ? `Stance ${AREAS[p.area] ?? ""}` : "no Stance")),
      h("figure", { class: "track" }, fatigueTrack(p.fatigue, start, height),
        h("figcaption", {}, `fatigue ${p.fatigue}`)),
      own ? null
        // Another player's cards reach a view only in a replay seen with everything shown.
        : p.hand.length
          ? h("div", { class: "cards seen-hand", role: "group", "aria-label": `${ctx.seatName(p.seat)}'s hand` },
              ...p.hand.map((c: number) => cardSvg(c)))
          : h("figure", { class: "hand-count" }, backSvg(p.handCount, "cards in hand"), h("figcaption", {}, "hand"))),
    flags ? h("p", { class: "flags" }, flags) : null);
}

function decision(ctx: ScreenContext): HTMLElement {
  const v = ctx.view;
  const a = v.attack;
  const parts: (HTMLElement | string)[] = [
    h("p", {}, v.phase === 8 ? "The game is over."
      : `${ctx.seatName(v.turn)}'s turn: ${PHASES[v.phase] ?? "?"}, ${ctx.seatName(v.decider)} to decide`),
  ];
  if (a && (v.phase === 4 || v.phase === 5)) {
    parts.push(h("p", { class: "attack" },
      `${ATTACKS[a.kind] ?? "attack"} by ${ctx.seatName(a.attacker)} on ${ctx.seatName(a.target)}`,
      a.card ? ` with ${cardName(a.card)}` : "", a.area ? ` into ${AREAS[a.area]}` : "",
      `: attack ${a.attackTotal} against defence ${a.defenceTotal}`));
  }
  if (v.sensedSeat) {
    parts.push(h("div", { class: "reveal", role: "group", "aria-label": "Force Sense reveal" },
      h("p", {}, `Force Sense: ${ctx.seatName(v.sensedSeat - 1)}'s hand, shown to you alone`),
      h("div", { class: "cards" }, ...v.sensedHand.map((c: number) => cardSvg(c)))));
  }
  if (v.justDrawn.length) {
    parts.push(h("div", { class: "reveal" }, h("p", {}, "Drawn in Low Stance: put one back"),
      h("div", { class: "cards" }, ...v.justDrawn.map((c: number) => cardSvg(c)))));
  }
  if (v.phase === 8) {
    const winners = v.winners.map((w: number) => ctx.seatName(w)).join(" and ");
    const verdict = v.winners.length > 1 ? `Shared by ${winners}` : winners ? `Won by ${winners}` : "No winner";
    parts.push(h("p", { class: "result" }, verdict, v.endReason ? ` (${v.endReason})` : ""));
  }
  return h("section", { class: "decision", "aria-label": "the decision" }, ...parts);
}

// A card of the viewer's hand; one that an offered move plays is marked by more than its colour:
// a raised frame, a "\u25b2 playable" caption and its name read as "playable".
function handCard(card: number, playable: boolean): HTMLElement {
  return h("figure", { class: `hand-card${playable ? " playable" : ""}` }, cardSvg(card, playable ? "playable" : ""),
    playable ? h("figcaption", { class: "playable-mark" }, "\u25b2 playable") : null);
}

export function jediDuelScreen(ctx: ScreenContext): HTMLElement {
  const v = ctx.view;
  const start = ctx.param("fatigue_start") || 21;
  const height = ctx.param("column_height") || 7;
  const me = v.players.find((p: any) => p.seat === ctx.seat);
  const usable = new Set(ctx.legal.map((a) => argOf(a.code, 0)));
  const known = v.knownDeckCards.map((k: any) => `${cardName(k.card)} at depth ${k.depth}`).join(", ");
  return h("div", { class: "board jedi-duel" },
    h("div", { class: "table" }, ...v.players.map((p: any) => playerPanel(ctx, p, start, height))),
    h("div", { class: "piles" },
      h("figure", {}, backSvg(v.deckSize, "cards in the draw deck"), h("figcaption", {}, `deck ${v.deckSize}`)),
      h("figure", {}, v.discardTop ? cardSvg(v.discardTop) : backSvg(v.discardSize, "discarded"),
        h("figcaption", {}, `discard ${v.discardSize}`)),
      h("p", { class: "hint" }, `passes ${v.passes} of ${v.passesToEnd}`, known ? `; you know: ${known}` : "")),
    decision(ctx),
    me
      ? h("section", { class: "hand", "aria-labelledby": "hand-h" }, h("h3", { id: "hand-h" }, `Your hand (${me.hand.length})`,
            usable.size ? h("span", { class: "hint" }, " \u2014 \u25b2 playable now") : null),
          h("div", { class: "cards" }, ...me.hand.map((c: number) => handCard(c, usable.has(c)))))
      : null);
}
