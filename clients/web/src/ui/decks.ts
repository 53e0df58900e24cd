// The decks page (#/decks, a shared deck at #/deck/<id>): the saved decks (an account's on the
// server, a guest's in this browser), the deck editor with the server's live Y1 check and the
// deck's figures, import and export as deck-list text, and the card browser (card_browser.ts).
import { h } from "../dom";
import type { DeckCheck } from "../gen/decks_pb";
import { signedIn } from "../identity";
import type { Session } from "../session";
import { addCard, cardById, readList, totalCards, writeList } from "../decks/deck_text";
import { checkList, copyDeck, deckState, deleteDeck, ensureDecks, guestDecks, openDeck,
  saveEditing } from "../decks/saved_decks";
import { cardBrowser } from "./card_browser";
import { pageHeading } from "./page";

let opened = ""; // the route whose deck was opened last

function editList(session: Session, list: string): void {
  if (!deckState.editing) return;
  deckState.editing.list = list;
  deckState.check = undefined; // "Checking..." until the server has read this very list
  session.changed();
  void checkList(session, list);
}

function adder(session: Session): ((id: string) => void) | null {
  const e = deckState.editing;
  if (!e || !e.own) return null;
  return (id) => editList(session, writeList(addCard(readList(e.list).counts, id, 1)));
}

function savedList(session: Session): HTMLElement {
  const local = guestDecks();
  const items = signedIn()
    ? deckState.decks.map((d) => h("li", {},
        h("button", { class: "link", id: `open-deck-${d.id}`, onclick: () => void openDeck(session, d.id) }, d.name),
        ` ${d.side} side, ${d.cards} cards${d.isPublic ? ", public" : ""} `,
        h("button", { class: "small secondary", "aria-label": `Duplicate ${d.name}`, onclick: () => void copyDeck(session, d.id) }, "Duplicate"),
        h("button", { class: "small secondary", "aria-label": `Delete ${d.name}`, onclick: () => {
          if (confirm(`Delete the deck "${d.name}"?`)) void deleteDeck(session, d.id);
        } }, "Delete")))
    : local.map((d) => h("li", {},
        h("button", { class: "link", onclick: () => void openDeck(session, BigInt(d.id)) }, d.name),
        h("button", { class: "small secondary", "aria-label": `Delete ${d.name}`, onclick: () => void deleteDeck(session, BigInt(d.id)) }, "Delete")));
  return h("section", { class: "panel", id: "saved-decks", "aria-labelledby": "saved-decks-h" },
    h("h2", { id: "saved-decks-h" }, signedIn() ? "Your decks" : "Decks in this browser"),
    signedIn() ? h("p", { class: "hint" }, `${deckState.decks.length} of ${deckState.maxDecks} decks`)
      : h("p", { class: "hint" }, "As a guest your decks stay in this browser; they move to your account when you sign up or in."),
    items.length ? h("ul", { id: "deck-list" }, ...items) : h("p", {}, "No saved decks yet."),
    h("button", { id: "new-deck", onclick: () => void openDeck(session, 0n) }, "New deck"));
}

function figures(check: DeckCheck | undefined): HTMLElement | null {
  const f = check?.figures;
  if (!f) return null;
  const spread = (xs: { value: number; cards: number }[]) => xs.map((x) => `${x.value}: ${x.cards}`).join(", ") || "none";
  return h("dl", { class: "figures", id: "deck-figures" },
    h("dt", {}, "Cards"), h("dd", { id: "deck-size" }, String(f.cards)),
    h("dt", {}, "Characters, weapons, battle cards"), h("dd", {}, `${f.characters}, ${f.weapons}, ${f.battleCards}`),
    h("dt", {}, "Dots (coloured + white)"),
    h("dd", {}, f.dots.filter((d) => d.coloured || d.white).map((d) => `${d.colour} ${d.coloured}+${d.white}`).join(", ") || "none"),
    h("dt", {}, "Destiny"), h("dd", {}, spread(f.destiny)),
    h("dt", {}, "Power"), h("dd", {}, spread(f.power)));
}

function legality(check: DeckCheck | undefined): HTMLElement {
  if (!check) return h("p", { id: "deck-legality" }, "Checking...");
  if (check.legal) return h("p", { id: "deck-legality", class: "ok", "data-say": "deck" }, `Legal ${check.side} side deck.`);
  return h("div", { id: "deck-legality" },
    h("p", { "data-say": "deck" }, `Not legal yet: ${check.problems.length} problem${check.problems.length === 1 ? "" : "s"}.`),
    h("ul", { id: "deck-problems" }, ...check.problems.map((p) => h("li", {},
      p.line ? `Line ${p.line}: ` : "", p.text))));
}

function counts(session: Session, list: string, own: boolean): HTMLElement {
  const { counts: c, unread } = readList(list);
  return h("section", { "aria-labelledby": "deck-cards-h" }, h("h3", { id: "deck-cards-h" }, `Cards (${totalCards(c)})`),
    h("ul", { id: "deck-cards" }, ...[...c].map(([id, n]) => h("li", { "data-card": id }, `${n} × ${cardById(id)?.title ?? id} `,
      own ? h("button", { class: "small", "aria-label": `One more ${cardById(id)?.title}`, onclick: () =>
        editList(session, writeList(addCard(c, id, 1))) }, "+") : null,
      own ? h("button", { class: "small", "aria-label": `One fewer ${cardById(id)?.title}`, onclick: () =>
        editList(session, writeList(addCard(c, id, -1))) }, "\u2212") : null))),
    unread.length ? h("p", { class: "hint" }, `Lines not read: ${unread.join("; ")}`) : null);
}

function editor(session: Session): HTMLElement | null {
  const e = deckState.editing;
  if (!e) return null;
  const link = e.id > 0n ? `${location.origin}${location.pathname}#/deck/${e.id}` : "";
  return h("section", { class: "panel", id: "deck-editor", "aria-labelledby": "deck-editor-h" },
    h("h2", { id: "deck-editor-h" }, e.own ? "Deck editor" : `${e.name} by ${e.ownerName} (read-only)`),
    e.own ? h("div", { class: "field" }, h("label", { for: "deck-name" }, "Name"),
      h("input", { id: "deck-name", maxlength: 64, value: e.name, "data-keep": "model",
        oninput: (ev: Event) => (e.name = (ev.target as HTMLInputElement).value) })) : null,
    e.own && signedIn() ? h("label", {}, h("input", { type: "checkbox", id: "deck-public", checked: e.isPublic, "data-keep": "model",
      onchange: (ev: Event) => (e.isPublic = (ev.target as HTMLInputElement).checked) }), " Public: others may open and copy it") : null,
    legality(deckState.check), figures(deckState.check), counts(session, e.list, e.own),
    h("details", { id: "deck-text-box" }, h("summary", {}, "Deck-list text (import and export)"),
      h("label", { for: "deck-text" }, "Deck list: paste one to import, copy it to export"),
      h("textarea", { id: "deck-text", rows: 8, readonly: !e.own, value: e.list, "data-keep": "model",
        onchange: (ev: Event) => editList(session, (ev.target as HTMLTextAreaElement).value) })),
    e.own ? h("button", { id: "save-deck", onclick: () => void saveEditing(session) }, "Save deck")
      : signedIn() ? h("button", { id: "copy-deck", onclick: () => void copyDeck(session, e.id) }, "Copy to my decks") : null,
    link && e.isPublic ? h("p", {}, "Share link: ", h("a", { href: link, id: "share-link" }, link)) : null);
}

export function decksPage(session: Session, deckId: bigint | null): HTMLElement {
  ensureDecks(session);
  const route = deckId === null ? "" : String(deckId);
  if (route && opened !== route) {
    opened = route;
    void openDeck(session, deckId as bigint);
  }
  return h("main", { class: "lobby decks", id: "main" }, pageHeading("Decks"),
    deckState.error ? h("p", { class: "error", id: "deck-error", "data-say": "deck-error" }, deckState.error) : null,
    deckState.notice ? h("p", { class: "notice", id: "deck-notice", "data-say": "deck-notice" }, deckState.notice) : null,
    savedList(session), editor(session), cardBrowser(() => session.changed(), adder(session)));
}
