// The card browser (#/decks): every usable card of the shipped catalogue with its game facts
// (no images or lore), filtered by side, type, set, dot colour, power and destiny ranges and
// text, sorted; "Add" puts a copy in the deck open in the editor (ui/decks.ts).
import { h } from "../dom";
import { DOT_COLOURS, type YoungJediCard } from "../gen/young_jedi_cards";
import { browse, dotsText, NO_FILTER, SETS, type CardFilter } from "../decks/card_filter";

export const browserFilter: CardFilter = { ...NO_FILTER };
const PAGE = 60; // cards drawn at once; the rest behind "Show more"
let shown = PAGE;

function select(id: string, label: string, options: [string, string][], value: string,
  set: (v: string) => void, redraw: () => void): HTMLElement {
  return h("div", { class: "field" }, h("label", { for: id }, label),
    h("select", { id, "data-keep": "model", onchange: (e: Event) => {
      set((e.target as HTMLSelectElement).value);
      shown = PAGE;
      redraw();
    } }, ...options.map(([v, text]) => h("option", { value: v, selected: v === value }, text))));
}

function range(id: string, label: string, value: number, set: (v: number) => void, redraw: () => void): HTMLElement {
  return h("div", { class: "field small" }, h("label", { for: id }, label),
    h("input", { id, type: "number", min: -1, max: 99, value, "data-keep": "model", onchange: (e: Event) => {
      const n = Number((e.target as HTMLInputElement).value);
      set(Number.isFinite(n) ? n : 0);
      shown = PAGE;
      redraw();
    } }));
}

function filters(redraw: () => void): HTMLElement {
  const f = browserFilter;
  return h("form", { class: "filters", id: "card-filters", "aria-label": "card filters", onsubmit: (e: Event) => e.preventDefault() },
    select("filter-side", "Side", [["", "any"], ["Light", "Light"], ["Dark", "Dark"]], f.side, (v) => (f.side = v), redraw),
    select("filter-type", "Type", [["", "any"], ["Character", "Character"], ["Weapon", "Weapon"], ["Battle", "Battle card"]],
      f.type, (v) => (f.type = v), redraw),
    select("filter-set", "Set", [["0", "any"], ...SETS.map((s): [string, string] => [String(s), `set ${s}`])], String(f.set),
      (v) => (f.set = Number(v)), redraw),
    select("filter-dot", "Dot colour", [["", "any"], ...DOT_COLOURS.map((c): [string, string] => [c, c])], f.dot,
      (v) => (f.dot = v), redraw),
    range("filter-power-min", "Power from", f.powerMin, (v) => (f.powerMin = v), redraw),
    range("filter-power-max", "to", f.powerMax, (v) => (f.powerMax = v), redraw),
    range("filter-destiny-min", "Destiny from", f.destinyMin, (v) => (f.destinyMin = v), redraw),
    range("filter-destiny-max", "to", f.destinyMax, (v) => (f.destinyMax = v), redraw),
    h("div", { class: "field" }, h("label", { for: "filter-text" }, "Text"),
      h("input", { id: "filter-text", type: "search", value: f.text, "data-keep": "model", oninput: (e: Event) => {
        f.text = (e.target as HTMLInputElement).value;
        shown = PAGE;
        redraw();
      } })),
    select("filter-sort", "Sort by", [["id", "set and number"], ["title", "title"], ["power", "power"],
      ["destiny", "destiny"], ["counters", "deploy cost"]], f.sort, (v) => (f.sort = v as CardFilter["sort"]), redraw));
}

function stat(n: number): string {
  return n < 0 ? "-" : String(n);
}

function row(card: YoungJediCard, add: ((id: string) => void) | null): HTMLElement {
  return h("tr", { "data-card": card.id },
    h("th", { scope: "row" }, card.title, h("span", { class: "hint" }, ` ${card.id}`)),
    h("td", {}, card.side), h("td", {}, card.type), h("td", {}, stat(card.power)), h("td", {}, stat(card.damage)),
    h("td", {}, stat(card.destiny)), h("td", {}, stat(card.counters)), h("td", {}, dotsText(card)),
    h("td", {}, card.abilities.join("; ") || ""),
    h("td", {}, add ? h("button", { class: "small", "aria-label": `Add ${card.title} (${card.id})`, id: `add-${card.id}`,
      onclick: () => add(card.id) }, "Add") : null));
}

// `add` null: nothing to add to (no deck open, or a read-only one).
export function cardBrowser(redraw: () => void, add: ((id: string) => void) | null): HTMLElement {
  const cards = browse(browserFilter);
  return h("section", { class: "panel", id: "card-browser", "aria-labelledby": "card-browser-h" },
    h("h2", { id: "card-browser-h" }, "Cards"),
    filters(redraw),
    h("p", { id: "card-count", "aria-live": "off" }, `${cards.length} card${cards.length === 1 ? "" : "s"}`),
    h("table", { class: "cards", id: "card-table" },
      h("thead", {}, h("tr", {}, ...["Title", "Side", "Type", "Power", "Damage", "Destiny", "Cost", "Dots", "Abilities", ""]
        .map((t) => h("th", { scope: "col" }, t)))),
      h("tbody", {}, ...cards.slice(0, shown).map((c) => row(c, add)))),
    cards.length > shown ? h("button", { class: "secondary", id: "more-cards", onclick: () => {
      shown += PAGE;
      redraw();
    } }, `Show more (${cards.length - shown} left)`) : null);
}
