// Protocol 5's phrase books (docs/protocol.md, "Events as phrases"), asked for when a match's
// events first need one (ListRulesets.phrases_of) and kept for the connection: the ruleset list
// does not carry them, so a page that never sits at a table never loads one. A new connection
// may reach another build of the server, so its books are asked for again.
import type { Connection } from "./connection";
import type { PhraseBook, RulesetInfo } from "./gen/lobby_pb";

// The rulesets listed with the books of those named; null when the list was refused.
export type ListWithBooks = (rulesets: string[]) => Promise<RulesetInfo[] | null>;

export async function listWithBooks(conn: Pick<Connection, "send">, phrasesOf: string[]): Promise<RulesetInfo[] | null> {
  const reply = await conn.send({ case: "listRulesets", value: { phrasesOf } });
  return reply.body.case === "rulesets" ? reply.body.value.rulesets : null;
}

export class PhraseBooks {
  // A ruleset's book, or null when none is to be had (refused, or the ruleset says text).
  private books = new Map<string, PhraseBook | null>();
  private asking = new Set<string>();
  private connection = 0; // a reply to an earlier connection's request is not kept
  onArrived: () => void = () => {};

  constructor(private readonly list: ListWithBooks) {}

  // undefined while the book has not come (asked or not); null when it will not.
  get(ruleset: string): PhraseBook | null | undefined {
    return this.books.get(ruleset);
  }

  // Asks once per connection; onArrived is called when the answer is in.
  ask(ruleset: string): void {
    if (this.books.has(ruleset) || this.asking.has(ruleset)) return;
    this.asking.add(ruleset);
    const connection = this.connection;
    void this.list([ruleset]).then((rulesets) => {
      if (connection !== this.connection) return;
      this.asking.delete(ruleset);
      this.books.set(ruleset, rulesets?.find((r) => r.name === ruleset)?.phrases ?? null);
      this.onArrived();
    });
  }

  // After a hello on a new connection: what was asked on the old one is asked again when needed
  // (a request in flight when a connection closes is never answered).
  newConnection(): void {
    this.connection += 1;
    this.books.clear();
    this.asking.clear();
  }
}
