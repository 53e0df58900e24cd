// Picking a deck when creating or joining a Young Jedi match (or a saved setup for Force Battles): one of the account's saved decks
// (sent as its id, CreateMatch/JoinMatch.saved_deck: the server loads it and checks it at the
// seat), a guest's deck from this browser (sent as its list), or the typed list / ready deck.
import { h } from "../dom";
import { signedIn } from "../identity";
import type { Session } from "../session";
import { deckState, ensureDecks, guestDecks } from "../decks/saved_decks";

export function deckPicker(session: Session, id: string, ruleset = "young_jedi"): HTMLElement {
  ensureDecks(session);
  const deckList = ruleset === "young_jedi";
  // A Force Battles setup is a saved deck of that ruleset, sent as its id the same way.
  const saved = signedIn()
    ? deckState.decks.filter((d) => d.ruleset === ruleset)
        .map((d) => h("option", { value: `s:${d.id}` }, deckList ? `${d.name} (${d.side}, ${d.cards} cards)` : d.name))
    : deckList ? guestDecks().map((d) => h("option", { value: `g:${d.id}` }, d.name)) : [];
  return h("div", { class: "field" }, h("label", { for: id }, deckList ? "Saved deck" : "Saved setup"),
    h("select", { id, name: id }, h("option", { value: "" }, deckList ? "none: the list below, or the ready deck" : "none: the text below, or set up in the match"), ...saved),
    deckList ? h("a", { href: "#/decks", class: "hint" }, " Build decks") : null);
}

// What a seat's typed option is called: a deck list, or a Force Battles setup as text.
export function seatOptionLabel(ruleset: string, displayName: string): string {
  return ruleset === "young_jedi"
    ? `Your ${displayName} deck list (empty: the ready deck)`
    : `Your ${displayName} setup as text (empty: set it up in the match)`;
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
