// One live connection per browser: the tabs of one player share a resume token, and the server
// keeps only the newest connection per player, so two connected tabs would take it from each
// other forever. The tab that holds the Web Lock "duelhall-live" connects; the others wait for
// the lock quietly (taking over by themselves when the live tab closes) and offer "use here",
// which steals the lock and tells the old tab through a BroadcastChannel to go quiet. The live
// tab also tells the others whether it is the player's move, so their titles can say so.

const LOCK = "duelhall-live";
const CHANNEL = "duelhall-tabs";

export type TabRole = "deciding" | "live" | "quiet";
type Note = { kind: "taken"; by: string } | { kind: "turn"; yours: boolean };

export class TabLock {
  role: TabRole = "deciding";
  otherTurn = false; // the live tab says it is the player's move
  onRole: (role: TabRole) => void = () => {};
  onNote: () => void = () => {};

  private readonly id = `${Date.now()}-${Math.random().toString(36).slice(2)}`;
  private readonly channel: BroadcastChannel | null =
    typeof BroadcastChannel === "function" ? new BroadcastChannel(CHANNEL) : null;
  private release: (() => void) | null = null; // gives the held lock back
  private waiting: AbortController | null = null; // the queued request of a quiet tab

  start(): void {
    if (this.channel) this.channel.onmessage = (e: MessageEvent<Note>) => this.heard(e.data);
    if (!navigator.locks) {
      this.become("live"); // no Web Locks (an old browser): the server's "replaced" still guards
      return;
    }
    void navigator.locks.request(LOCK, { ifAvailable: true }, (lock) => {
      if (!lock) {
        this.become("quiet");
        this.queue();
        return undefined;
      }
      return this.hold();
    }).catch(() => {}); // stolen by "use here" in another tab: its note says so
  }

  // "Use here": take the lock from whichever tab holds it.
  takeOver(): void {
    if (!navigator.locks || this.role === "live") return;
    this.waiting?.abort();
    this.waiting = null;
    void navigator.locks.request(LOCK, { steal: true }, () => this.hold()).catch(() => {});
    this.post({ kind: "taken", by: this.id });
  }

  announceTurn(yours: boolean): void {
    if (this.role === "live") this.post({ kind: "turn", yours });
  }

  private hold(): Promise<void> {
    this.waiting = null;
    this.become("live");
    return new Promise<void>((resolve) => {
      this.release = resolve;
    }).catch(() => {});
  }

  private queue(): void {
    this.waiting = new AbortController();
    navigator.locks
      .request(LOCK, { signal: this.waiting.signal }, () => this.hold())
      .catch(() => {}); // aborted by takeOver, or stolen later: the note says what to do
  }

  private heard(note: Note): void {
    if (note.kind === "turn") {
      this.otherTurn = note.yours;
      this.onNote();
    } else if (note.kind === "taken" && note.by !== this.id && this.role === "live") {
      this.release?.();
      this.release = null;
      this.become("quiet");
      this.queue();
    }
  }

  private become(role: TabRole): void {
    if (this.role === role) return;
    this.role = role;
    this.onRole(role);
  }

  private post(note: Note): void {
    this.channel?.postMessage(note);
  }
}
