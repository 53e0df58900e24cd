// Deck lists in the browser: the plain text the server reads (docs/rules/young-jedi-duel.md: one
// line per card, a count and an id or title; '#' lines and blanks ignored) turned into counts per
// card id for the editor, and counts written back as such a list. The server's CheckDeck stays
// the judge of legality; this only keeps the editor's counts.
import { YOUNG_JEDI_CARDS, type YoungJediCard } from "../gen/young_jedi_cards";

export type DeckCounts = Map<string, number>; // card id -> copies, in the order added

const byId = new Map(YOUNG_JEDI_CARDS.map((c) => [c.id, c]));

export function cardById(id: string): YoungJediCard | undefined {
  return byId.get(id);
}

// The card a list's line names: an id, or a title (of `side` when both sides print it).
export function findCard(idOrTitle: string, side?: string): YoungJediCard | undefined {
  const direct = byId.get(idOrTitle);
  if (direct) return direct;
  const wanted = idOrTitle.toLowerCase();
  const named = YOUNG_JEDI_CARDS.filter((c) => c.title.toLowerCase() === wanted && c.usable);
  return named.find((c) => !side || c.side === side) ?? named[0];
}

// The side a "# Light Side" / "# Dark Side" line declares, if any.
export function declaredSide(text: string): string | undefined {
  const m = /^#\s*(Light|Dark) Side\s*$/im.exec(text);
  return m ? m[1] : undefined;
}

// The counts a list reads to; lines it cannot read are returned to be shown, not dropped.
export function readList(text: string): { counts: DeckCounts; unread: string[] } {
  const counts: DeckCounts = new Map();
  const unread: string[] = [];
  const side = declaredSide(text);
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (!line || line.startsWith("#")) continue;
    const m = /^(\d+)\s*x?\s+(.+)$/.exec(line);
    const card = m ? findCard(m[2].trim(), side) : undefined;
    if (!m || !card) {
      unread.push(line);
      continue;
    }
    counts.set(card.id, (counts.get(card.id) ?? 0) + Number(m[1]));
  }
  return { counts, unread };
}

// A list of the counts as the server's write_deck writes one: the side's line, then one line per
// card, by title where the title reads back as that very printing for the side, else by id.
export function writeList(counts: DeckCounts): string {
  const lines: string[] = [];
  const first = [...counts.keys()].map(cardById).find((c) => c);
  if (first) lines.push(`# ${first.side} Side`);
  for (const [id, n] of counts) {
    if (n <= 0) continue;
    const card = cardById(id);
    const titleReadsBack = card && findCard(card.title, card.side)?.id === id;
    lines.push(`${n} ${titleReadsBack ? card.title : id}`);
  }
  return lines.join("\n") + (lines.length ? "\n" : "");
}

export function totalCards(counts: DeckCounts): number {
  let n = 0;
  for (const c of counts.values()) n += c;
  return n;
}

export function addCard(counts: DeckCounts, id: string, delta: number): DeckCounts {
  const next = new Map(counts);
  const n = (next.get(id) ?? 0) + delta;
  if (n <= 0) next.delete(id);
  else next.set(id, n);
  return next;
}
