// A redraw replaces the page. One that lands between a press and its release takes away the
// element pressed, and the browser then fires no click at all (press and release have no target
// in common): a lobby update or an opponent's move arriving mid-click would eat the player's
// click. So redraws wait while a pointer is pressed, and are made just after the click, or after
// HOLD_MAX_MS for a press that is held (a drag, a release outside the window).
const HOLD_MAX_MS = 2_000;

export class PressGuard {
  private pressed = false;
  private presses = 0; // a release ends only the press it follows, not a quick second one
  private waiting = false; // a redraw was asked for meanwhile
  private limit: number | undefined;

  constructor(private readonly redraw: () => void) {
    window.addEventListener("pointerdown", () => this.press(), true);
    window.addEventListener("pointerup", () => this.release(), true);
    window.addEventListener("pointercancel", () => this.release(), true);
  }

  // Whether a redraw asked for now must wait; it is then made on the release.
  holds(): boolean {
    if (this.pressed) this.waiting = true;
    return this.pressed;
  }

  private press(): void {
    this.pressed = true;
    this.presses += 1;
    clearTimeout(this.limit);
    this.limit = window.setTimeout(() => this.release(), HOLD_MAX_MS);
  }

  // After the click the release leads to (dispatched in the same task), not before it.
  private release(): void {
    clearTimeout(this.limit);
    const press = this.presses;
    setTimeout(() => {
      if (press !== this.presses) return; // pressed again meanwhile: that release redraws
      this.pressed = false;
      if (!this.waiting) return;
      this.waiting = false;
      this.redraw();
    }, 0);
  }
}
