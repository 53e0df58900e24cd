// Protocol 5's events (docs/protocol.md, "Events as phrases"): a seat's events come as phrases of
// the match's ruleset's book (RulesetInfo.phrases), each a template's index then the arguments of
// its slots, one event after another with nothing between. Rendered here into the texts the
// engine renders (engine/core/phrase.cpp), seats as "@N" like every other event text. Protocol 7
// sends no label for an action kind the book has a label form for: it is rendered from the code.
import type { PhraseBook } from "./gen/lobby_pb";

// What a phrase that does not fit the book shows, as an event word never told does.
export const UNFIT = "?";

// A slot's text; "unfit" when its arguments do not fit the book; "lost" when the arguments it
// takes cannot be counted (they ran out, a negative count), so nothing after it can be read.
type Slot = { text: string } | "unfit" | "lost";

function slot(book: PhraseBook, name: string, args: readonly number[], at: { next: number }): Slot {
  const take = (): number | null => (at.next < args.length ? args[at.next++] : null);
  if (name === "s" || name === "n") {
    const v = take();
    if (v === null) return "lost";
    if (name === "n") return { text: String(v) };
    return v < 0 ? "unfit" : { text: `@${v}` };
  }
  const many = name.endsWith("*");
  const count = many ? take() : 1;
  if (count === null || count < 0 || count > args.length - at.next) return "lost";
  // The arguments are taken even when the list is missing, so that the next event can be read.
  const indices = args.slice(at.next, at.next + count);
  at.next += count;
  const entries = book.lists.find((l) => l.name === (many ? name.slice(0, -1) : name))?.entries;
  if (!entries || indices.some((i) => i < 0 || i >= entries.length)) return "unfit";
  return { text: indices.map((i) => entries[i]).join(", ") };
}

// One event from `at.next`, advancing it past its arguments; null when the rest cannot be read
// (an unknown template, whose arguments cannot be counted, or arguments that ran out).
function eventText(book: PhraseBook, args: readonly number[], at: { next: number }): string | null {
  const id = args[at.next++];
  if (id <= 0 || id >= book.templates.length) return null;
  const template = book.templates[id];
  let text = "";
  let fits = true;
  let from = 0;
  for (;;) {
    const open = template.indexOf("{", from);
    text += template.slice(from, open < 0 ? undefined : open);
    if (open < 0) break;
    const close = template.indexOf("}", open);
    if (close < 0) return null;
    const s = slot(book, template.slice(open + 1, close), args, at);
    if (s === "lost") return null;
    if (s === "unfit") fits = false;
    else text += s.text;
    from = close + 1;
  }
  return fits ? text : UNFIT;
}

// The texts of an update's phrases. An event that does not fit the book shows as UNFIT; one whose
// arguments cannot be counted ends the list with UNFIT, since where the next event starts is lost.
export function phraseTexts(phrases: readonly number[], book: PhraseBook | undefined): string[] {
  const texts: string[] = [];
  const at = { next: 0 };
  while (at.next < phrases.length) {
    const text = book ? eventText(book, phrases, at) : null;
    if (text === null) {
      texts.push(UNFIT);
      break;
    }
    texts.push(text);
  }
  return texts;
}

// Protocol 7: the label of the action `code` by the book's form for its kind (the code's low
// byte; argument i is byte i + 1); undefined when the book has no form for it or it does not fit.
export function labelText(code: bigint, book: PhraseBook): string | undefined {
  const form = book.labels[Number(code & 0xffn)];
  if (!form || form.phrase === 0) return undefined;
  const args = [form.phrase];
  for (const index of form.args) {
    if (index > 6) return undefined;
    args.push(Number((code >> BigInt(8 * (index + 1))) & 0xffn));
  }
  const at = { next: 0 };
  const text = eventText(book, args, at);
  return text === null || text === UNFIT || at.next !== args.length ? undefined : text;
}
