// A match as this client holds it, and how the server's snapshots and updates advance it: the
// view as the server's bytes patched by its diffs, the legal actions with their labels (told
// once per match or per connection, protocols 2 and 3, or rendered with the ruleset's book,
// protocol 7), and the event lines in the server's words (told once per connection, protocol 4)
// or as phrases of the ruleset's book (protocol 5).
// Nothing here knows a rule.
import { create } from "@bufbuild/protobuf";
import { MatchStatus, type MatchInfo } from "./gen/lobby_pb";
import { LegalActionSchema, type ChatMessage, type LegalAction, type MatchSnapshot, type MatchUpdate,
  type Outcome } from "./gen/match_pb";
import { applyPatch } from "./wire_diff";
import { eventTexts, tellWords, type EventWords } from "./event_words";
import { labelText, phraseTexts } from "./event_phrases";
import type { PhraseBooks } from "./phrase_books";

const EVENTS_KEPT = 200;

export interface MatchView {
  id: bigint;
  info: MatchInfo | undefined;
  seat: number; // -1: spectator (or not yet seated)
  seq: bigint; // the view's
  seen: bigint; // the last seq told, applied or not: protocol 5 counts on from it when it is left out
  view: Uint8Array | null; // null until the first snapshot
  legal: LegalAction[];
  labels: Map<bigint, string>; // every action label told in this match (protocol 2 sends each once)
  outcome: Outcome | undefined;
  clockMs: number;
  clockAt: number; // performance.now() when clockMs was received
  events: string[]; // the latest EVENTS_KEPT lines
  eventCount: number; // lines ever told (the live region reads the new ones, ui/turn_focus.ts)
  chat: ChatMessage[];
  inviteCode: string;
  notice: string; // the last refusal, shown next to the actions
  seedAsked: boolean; // the revealed seed was asked for after the end
}

export function newMatchView(id: bigint, inviteCode: string): MatchView {
  return {
    id, info: undefined, seat: -1, seq: 0n, seen: 0n, view: null, legal: [], labels: new Map(), outcome: undefined,
    clockMs: 0, clockAt: 0, events: [], eventCount: 0, chat: [], inviteCode, notice: "", seedAsked: false,
  };
}

function setClock(mv: MatchView, ms: number): void {
  mv.clockMs = ms;
  mv.clockAt = performance.now();
}

export class MatchFeed {
  // Event words told (protocol 4): ids are the node's, and a new connection is told again the
  // words it uses, so they are kept across reconnects (a resume's resent updates use them).
  private eventWords: EventWords = new Map();
  // Labels told on this connection, by ruleset (protocol 3); a match's own come first.
  private connectionLabels = new Map<string, Map<bigint, string>>();
  // Phrases wait for their ruleset's book, asked for the first time they come; a match's later
  // events wait behind them, so that its lines keep their order.
  private waiting = new Map<MatchView, { texts: string[]; phrases: number[] }[]>();
  // Matches whose legal actions wait for their ruleset's book to be labelled (protocol 7).
  private unlabelled = new Set<MatchView>();

  // `resync` asks the server for a fresh snapshot of a match; `books` holds the phrase books;
  // `shown` is told when events that waited for a book are shown (the page redraws).
  constructor(
    private readonly resync: (matchId: bigint) => void,
    private readonly books: PhraseBooks,
    private readonly shown: () => void = () => {},
  ) {
    books.onArrived = () => this.booksArrived();
  }

  private rulesetLabels(mv: MatchView): Map<bigint, string> | undefined {
    const ruleset = mv.info?.ruleset;
    if (!ruleset) return undefined;
    let labels = this.connectionLabels.get(ruleset);
    if (!labels) {
      labels = new Map();
      this.connectionLabels.set(ruleset, labels);
    }
    return labels;
  }

  private tellLabel(mv: MatchView, code: bigint, label: string): void {
    mv.labels.set(code, label);
    this.rulesetLabels(mv)?.set(code, label);
  }

  private labelOf(mv: MatchView, code: bigint): string | undefined {
    const told = mv.labels.get(code) ?? this.rulesetLabels(mv)?.get(code);
    if (told !== undefined) return told;
    const book = this.books.get(mv.info?.ruleset ?? "");
    return book ? labelText(code, book) : undefined;
  }

  snapshot(mv: MatchView, s: MatchSnapshot): void {
    mv.info = s.match;
    mv.seat = s.seat;
    mv.seq = mv.seen = s.seq;
    mv.view = s.view;
    mv.legal = s.legal;
    for (const a of s.legal) this.tellLabel(mv, a.code, a.label);
    // A seat's next labels may be the book's to say (protocol 7): it is asked for now.
    if (s.seat >= 0 && s.match) this.books.ask(s.match.ruleset);
    this.unlabelled.delete(mv);
    mv.outcome = s.outcome;
    mv.notice = "";
    setClock(mv, s.clockMs);
  }

  // The words of every update are taken in, even for a match this page does not hold.
  update(mv: MatchView | undefined, u: MatchUpdate): void {
    tellWords(u, this.eventWords);
    if (!mv) return;
    const seq = u.seq || mv.seen + 1n; // protocol 5 leaves it out when it follows
    mv.seen = seq;
    if (mv.view === null) return;
    if (seq <= mv.seq) return; // already applied (a resume can overlap)
    const next = seq === mv.seq + 1n ? applyPatch(mv.view, u.patch) : null;
    for (const a of u.labels) this.tellLabel(mv, a.code, a.label);
    const ruleset = mv.info?.ruleset ?? "";
    // Protocols 2 and 3: codes only when they changed, each label once per match (2), or
    // once per connection for a ruleset whose labels depend on the code alone (3); protocol 7
    // leaves out the labels the book says, and those wait for the book if it has not come yet.
    const labels = u.legalCodes.map((code) => this.labelOf(mv, code));
    const known = labels.every((label) => label !== undefined);
    const bookComing = this.books.get(ruleset) === undefined;
    if (next === null || (!known && !bookComing)) {
      this.resync(u.matchId);
      return;
    }
    mv.view = next;
    mv.seq = seq;
    if (!u.legalUnchanged) {
      mv.legal = u.legalCodes.length ? u.legalCodes.map((code, i) =>
        create(LegalActionSchema, { code, label: labels[i] ?? "" })) : u.legal;
      if (known) this.unlabelled.delete(mv);
      else {
        this.unlabelled.add(mv);
        this.books.ask(ruleset);
      }
    }
    if (u.outcome) {
      mv.outcome = u.outcome;
      // The seed is revealed once the match has ended; the match's info carries it (for a
      // private match no lobby update does), so ask for it once to check the commitment.
      if (mv.info && !mv.info.seed && !mv.seedAsked) {
        mv.seedAsked = true;
        this.resync(u.matchId);
      }
    }
    mv.notice = "";
    if (mv.info) mv.info.status = u.status || MatchStatus.PLAYING; // left out while it plays
    setClock(mv, u.clockMs);
    const events = { texts: eventTexts(u, this.eventWords), phrases: u.phrases };
    const held = this.waiting.get(mv);
    if (held) held.push(events);
    else if (events.phrases.length && bookComing) {
      this.waiting.set(mv, [events]);
      this.books.ask(ruleset);
    } else this.show(mv, events.texts, events.phrases);
  }

  // After a hello on a new connection: the books still waited for are asked for on it.
  newConnection(): void {
    this.books.newConnection();
    for (const mv of [...this.waiting.keys(), ...this.unlabelled]) {
      this.books.ask(mv.info?.ruleset ?? "");
    }
  }

  // A book came (or was refused): the actions waiting for it are labelled, and the events
  // waiting for it shown, in order.
  private booksArrived(): void {
    let any = this.labelWaiting();
    for (const [mv, held] of this.waiting) {
      if (this.books.get(mv.info?.ruleset ?? "") === undefined) continue;
      for (const events of held) this.show(mv, events.texts, events.phrases);
      this.waiting.delete(mv);
      any = true;
    }
    if (any) this.shown();
  }

  // Labels the legal actions that waited for their book; a label the book does not say either
  // (a book refused) is asked for with a snapshot. True when any was labelled.
  private labelWaiting(): boolean {
    let any = false;
    for (const mv of this.unlabelled) {
      if (this.books.get(mv.info?.ruleset ?? "") === undefined) continue;
      this.unlabelled.delete(mv);
      mv.legal = mv.legal.map((a) => a.label ? a
        : create(LegalActionSchema, { code: a.code, label: this.labelOf(mv, a.code) ?? "" }));
      if (mv.legal.some((a) => !a.label)) this.resync(mv.id);
      any = true;
    }
    return any;
  }

  // A server sends one of texts, words and phrases per update; in that order should it mix them.
  private show(mv: MatchView, texts: string[], phrases: number[]): void {
    if (phrases.length) texts.push(...phraseTexts(phrases, this.books.get(mv.info?.ruleset ?? "") ?? undefined));
    mv.events.push(...texts);
    mv.eventCount += texts.length;
    mv.events.splice(0, Math.max(0, mv.events.length - EVENTS_KEPT));
  }
}
