// Protocol 4's events (docs/protocol.md, Compatibility): a seat's events come as the ids of their
// words, 0 between two events, and each word's text is told once per match seat. Joined by single
// spaces they are exactly the texts older protocols send in `events`.
import type { MatchUpdate } from "./gen/match_pb";

export type EventWords = Map<number, string>;

// Every update's words are kept, even those of an update the session then drops (a resend, a gap):
// the server counts them as told.
export function tellWords(u: MatchUpdate, words: EventWords): void {
  for (const w of u.words) words.set(w.id, w.text);
}

// The update's event texts: `events` as they are, then those of `eventWords`. A word never told
// shows as "?" (in two matches at once, a word's first use may arrive before the update telling it).
export function eventTexts(u: MatchUpdate, words: EventWords): string[] {
  const texts = [...u.events];
  let current: string[] = [];
  const close = () => {
    if (current.length) texts.push(current.join(" "));
    current = [];
  };
  for (const id of u.eventWords) {
    if (id === 0) close();
    else current.push(words.get(id) ?? "?");
  }
  close();
  return texts;
}
