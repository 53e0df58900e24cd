// Playing cards drawn in SVG: a rank and a suit sign, no artwork. Jedi Duel numbers cards
// 1..54 (proto/jedi_duel.proto): suit * 13 + rank, suits clubs, diamonds, hearts, spades; 53
// and 54 are the Jokers.
import { s } from "../dom";

const SUITS = ["\u2663", "\u2666", "\u2665", "\u2660"];
const SUIT_NAMES = ["clubs", "diamonds", "hearts", "spades"];
const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];

export function cardName(card: number): string {
  if (card === 53 || card === 54) return "Joker";
  if (card < 1 || card > 52) return "no card";
  const suit = Math.floor((card - 1) / 13);
  return `${RANKS[(card - 1) % 13]}${SUITS[suit]}`;
}

function cardTitle(card: number): string {
  if (card === 53 || card === 54) return "Joker";
  const suit = Math.floor((card - 1) / 13);
  return `${RANKS[(card - 1) % 13]} of ${SUIT_NAMES[suit]}`;
}

export function cardSvg(card: number, extraClass = ""): SVGElement {
  const joker = card === 53 || card === 54;
  const red = !joker && [1, 2].includes(Math.floor((card - 1) / 13));
  const label = joker ? "\u2605" : cardName(card);
  const playable = extraClass.split(" ").includes("playable");
  return s("svg", { class: `card ${red ? "red" : "black"} ${extraClass}`, viewBox: "0 0 40 56",
      role: "img", "aria-label": `${cardTitle(card)}${playable ? ", playable" : ""}`, "data-card": card },
    s("rect", { x: 1, y: 1, width: 38, height: 54, rx: 4, class: "card-face" }),
    s("text", { x: 20, y: 34, "text-anchor": "middle", class: "card-label" }, label),
    joker ? s("text", { x: 20, y: 50, "text-anchor": "middle", class: "card-small" }, "JOKER") : null);
}

// A face-down pile or hand shown only as a count: its identities are not in the view.
export function backSvg(count: number, what: string): SVGElement {
  return s("svg", { class: "card back", viewBox: "0 0 40 56", role: "img", "aria-label": `${count} ${what}` },
    s("rect", { x: 1, y: 1, width: 38, height: 54, rx: 4, class: "card-back" }),
    s("text", { x: 20, y: 34, "text-anchor": "middle", class: "card-count" }, String(count)));
}
