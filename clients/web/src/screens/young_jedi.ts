// Young Jedi: Duel of the Fates: the planet, each side's cards in play, the viewer's own hand,
// deck sizes and discard tops, and the duel (dueling hands as counts for the opponent, played
// cards, hit tokens). Cards are catalogue numbers (proto/young_jedi.proto), named from the table
// scripts/gen-cards.mjs builds from the engine's catalogue.
import { h, s } from "../dom";
import { YOUNG_JEDI_CARDS } from "../gen/young_jedi_cards";
import type { ScreenContext } from "./screen";

const PLANETS = ["not chosen", "Tatooine", "Naboo", "Coruscant"];
const PHASES = ["choose planet", "deploy", "choose duel", "choose defender", "defender weapon",
  "attack", "block", "dueling text", "over", "optional draw", "search draw deck"];
const SEARCH_PHASE = 10;
const SIDES = ["Light Side", "Dark Side"];

// A card by catalogue index: its title and printed stats when this build has the catalogue.
const ROLES: { [cls: string]: string } = { dueling: "dueling", armed: "its weapon in the duel" };

function chip(card: number, extra = ""): HTMLElement {
  const c = YOUNG_JEDI_CARDS[card];
  const role = ROLES[extra] ? h("em", { class: "role" }, ` ${ROLES[extra]}`) : null;
  if (!c) return h("span", { class: `chip ${extra}`, "data-card": card }, `card ${card}`, role);
  const stats = [c.power >= 0 && `power ${c.power}`, c.damage >= 0 && `damage ${c.damage}`,
    c.destiny >= 0 && `destiny ${c.destiny}`].filter(Boolean).join(", ");
  return h("span", { class: `chip ${extra}`, "data-card": card, title: `${c.title} (${c.type})` },
    h("b", {}, c.title), stats ? h("small", {}, ` ${stats}`) : null, role);
}
function cardTitle(card: number): string {
  return YOUNG_JEDI_CARDS[card]?.title ?? `card ${card}`;
}

function hits(n: number): SVGElement {
  return s("svg", { class: "hits", viewBox: `0 0 ${Math.max(1, n) * 14} 14`, role: "img", "aria-label": `${n} hits` },
    ...Array.from({ length: n }, (_, i) => s("circle", { cx: i * 14 + 7, cy: 7, r: 6, class: "hit-token" })));
}

function side(ctx: ScreenContext, p: any, seat: number): HTMLElement {
  const v = ctx.view;
  const duel = v.duel;
  const own = seat === ctx.seat;
  const fighter = duel?.characters?.[seat] ?? 0;
  const weapon = duel?.weapons?.[seat] ?? 0;
  const deciding = v.toAct === seat && v.phase !== 8;
  return h("section", { class: `player${own ? " own" : ""}${deciding ? " deciding" : ""}`,
      "aria-label": `${SIDES[seat] ?? "seat " + seat} ${ctx.seatName(seat)}` },
    h("h3", {}, `${ctx.seatName(seat)} (${SIDES[seat] ?? "seat " + seat})`, own ? " (you)" : "",
      deciding ? h("span", { class: "badge" }, "to decide") : null),
    h("p", {}, `deck ${p.drawCount}, hand ${p.handCount}, discard ${p.discardCount}`,
      p.discardTop ? `, top: ${cardTitle(p.discardTop - 1)}` : ""),
    h("div", { class: "in-play", role: "group", "aria-label": "in play" },
      ...p.inPlay.map((c: number, i: number) =>
        chip(c, i + 1 === fighter ? "dueling" : i + 1 === weapon ? "armed" : ""))),
    duel ? h("div", { class: "duel-side", role: "group", "aria-label": "in the duel" },
      h("h4", {}, "In the duel"),
      h("p", {}, `Dueling hand: ${own ? p.duelingHand.length : p.duelingHandCount} card(s)`,
        own || p.duelingHand.length ? h("span", {}, " ", ...p.duelingHand.map((c: number) => chip(c))) : null),
      h("p", {}, "Played: ", p.duelingPile.length ? h("span", {}, ...p.duelingPile.map((c: number) => chip(c))) : "none"),
      h("p", {}, `Hits: ${p.hits} `, hits(p.hits))) : null,
    own ? h("div", { class: "hand", role: "group", "aria-label": "your hand" }, h("h4", {}, "Your hand"),
      ...p.hand.map((c: number) => chip(c)))
      // Another player's cards reach a view only in a replay seen with everything shown.
      : p.hand.length ? h("div", { class: "seen-hand", role: "group", "aria-label": `${ctx.seatName(seat)}'s hand` },
          h("h4", {}, "Hand"), ...p.hand.map((c: number) => chip(c))) : null);
}

// The opening choice, explained where it is made (the rules page says the same).
function planetHelp(): HTMLElement {
  return h("p", { class: "hint", id: "planet-help" },
    "First the planet of the duel: both players drew destiny and the higher draw picks Tatooine, Naboo ",
    "or Coruscant. In this ruleset the planet changes no card: every choice is as good, it only sets the scene.");
}

export function youngJediScreen(ctx: ScreenContext): HTMLElement {
  const v = ctx.view;
  const planet = PLANETS[v.planet] ?? "?";
  return h("div", { class: "board young-jedi" },
    s("svg", { class: "planet", viewBox: "0 0 200 44", role: "img", "aria-label": `planet ${planet}` },
      s("circle", { cx: 22, cy: 22, r: 18, class: `planet-disc planet-${v.planet}` }),
      s("text", { x: 50, y: 28, class: "planet-name" }, planet)),
    v.phase === 0 ? planetHelp() : null,
    h("p", { class: "decision" },
      `Planet: ${planet}. Turn ${v.turn}, ${PHASES[v.phase] ?? "?"}`,
      v.phase !== 8 ? `; ${ctx.seatName(v.toAct)} to act` : "",
      v.countersLeft && v.phase !== 8 ? `; ${v.countersLeft} deploy counters left` : "",
      v.duel?.attackCard ? `; attack to answer: ${cardTitle(v.duel.attackCard - 1)}` : "",
      v.phase === SEARCH_PHASE && v.searchCard ? `; ${cardTitle(v.searchCard - 1)} searches the draw deck` : ""),
    // Y29: only the searcher's own view carries what her draw deck holds for the search.
    v.phase === SEARCH_PHASE && v.toAct === ctx.seat
      ? h("div", { class: "search", role: "group", "aria-label": "found in your draw deck" },
          h("h3", {}, "Found in your draw deck"),
          v.searchCandidates?.length ? h("span", {}, ...v.searchCandidates.map((c: number) => chip(c))) : "nothing it names")
      : null,
    h("div", { class: "table" }, ...v.players.map((p: any, i: number) => side(ctx, p, i))),
    v.phase === 8 ? h("p", { class: "result" }, "The duel of the fates is decided.") : null);
}
