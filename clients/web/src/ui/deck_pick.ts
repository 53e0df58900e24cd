// Picking a deck when creating or joining a Young Jedi match: one of the account's saved decks
// (sent as its id, CreateMatch/JoinMatch.saved_deck: the server loads it and checks it at the
// seat), a guest's deck from this browser (sent as its list), or the typed list / ready deck.
import { h } from "../dom";
import { signedIn } from "../identity";
import type { Session } from "../session";
import { deckState, ensureDecks, guestDecks } from "../decks/saved_decks";

export function deckPicker(session: Session, id: string): HTMLElement {
  ensureDecks(session);
  const saved = signedIn()
    ? deckState.decks.filter((d) => d.ruleset === "young_jedi")
        .map((d) => h("option", { value: `s:${d.id}` }, `${d.name} (${d.side}, ${d.cards} cards)`))
    : guestDecks().map((d) => h("option", { value: `g:${d.id}` }, d.name));
  return h("div", { class: "field" }, h("label", { for: id }, "Saved deck"),
    h("select", { id, name: id }, h("option", { value: "" }, "none: the list below, or the ready deck"), ...saved),
    h("a", { href: "#/decks", class: "hint" }, " Build decks"));
}

// The seat's deck from a picker's value and the typed list.
export function pickedDeck(value: string, typed: string): { savedDeck: bigint; seatOption: string } {
  if (value.startsWith("s:")) return { savedDeck: BigInt(value.slice(2)), seatOption: "" };
  if (value.startsWith("g:")) {
    const local = guestDecks().find((d) => String(d.id) === value.slice(2));
    return { savedDeck: 0n, seatOption: local?.list ?? typed };
  }
  return { savedDeck: 0n, seatOption: typed };
}
