// The card browser's filters and sorts over the shipped catalogue (game facts only): side, type,
// set, dot colour, power and destiny ranges, text in the title, id or abilities. Pure, so the
// browser page and its unit test share it.
import { DOT_COLOURS, YOUNG_JEDI_CARDS, type YoungJediCard } from "../gen/young_jedi_cards";

export interface CardFilter {
  side: string; // "" any, "Light", "Dark"
  type: string; // "" any, "Character", "Weapon", "Battle"
  set: number; // 0 any
  dot: string; // "" any, else a colour of DOT_COLOURS (coloured or white dot in that row)
  powerMin: number;
  powerMax: number;
  destinyMin: number;
  destinyMax: number;
  text: string;
  sort: "id" | "title" | "power" | "destiny" | "counters";
}

export const NO_FILTER: CardFilter = {
  side: "", type: "", set: 0, dot: "", powerMin: -1, powerMax: 99, destinyMin: -1, destinyMax: 99,
  text: "", sort: "id",
};

export const SETS = [...new Set(YOUNG_JEDI_CARDS.map((c) => c.set))].sort((a, b) => a - b);

// By set, then card number: 1_71 before 1_107.
function idOrder(a: YoungJediCard, b: YoungJediCard): number {
  const [as, an] = a.id.split("_").map(Number);
  const [bs, bn] = b.id.split("_").map(Number);
  return as - bs || an - bn;
}

export function dotsText(card: YoungJediCard): string {
  return card.dots.map((d, i) => (d === 1 ? DOT_COLOURS[i] : d === 2 ? `white (${DOT_COLOURS[i]})` : ""))
    .filter((x) => x).join(", ") || "none";
}

export function matches(card: YoungJediCard, f: CardFilter): boolean {
  if (!card.usable) return false; // never allowed in a deck
  if (f.side && card.side !== f.side) return false;
  if (f.type && card.type !== f.type) return false;
  if (f.set && card.set !== f.set) return false;
  if (f.dot) {
    const row = DOT_COLOURS.indexOf(f.dot);
    if (row < 0 || card.dots[row] === 0) return false;
  }
  if (card.power < f.powerMin || card.power > f.powerMax) return false;
  if (card.destiny < f.destinyMin || card.destiny > f.destinyMax) return false;
  if (f.text) {
    const t = f.text.toLowerCase();
    const hay = `${card.id} ${card.title} ${card.abilities.join(" ")}`.toLowerCase();
    if (!hay.includes(t)) return false;
  }
  return true;
}

export function browse(f: CardFilter): YoungJediCard[] {
  const out = YOUNG_JEDI_CARDS.filter((c) => matches(c, f));
  const by: Record<CardFilter["sort"], (a: YoungJediCard, b: YoungJediCard) => number> = {
    id: idOrder,
    title: (a, b) => a.title.localeCompare(b.title) || idOrder(a, b),
    power: (a, b) => b.power - a.power || idOrder(a, b),
    destiny: (a, b) => b.destiny - a.destiny || idOrder(a, b),
    counters: (a, b) => a.counters - b.counters || idOrder(a, b),
  };
  return out.sort(by[f.sort]);
}
