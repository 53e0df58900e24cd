// Every redraw replaces the page, so what the user is typing or has unfolded is carried over by
// element id (a lobby update must not wipe a half-filled form).
type Saved = Map<string, { value: string; checked: boolean; open: boolean }>;

export function saveForms(root: HTMLElement): Saved {
  const saved: Saved = new Map();
  root.querySelectorAll<HTMLElement>("input[id], textarea[id], select[id], details[id]").forEach((el) => {
    const field = el as HTMLInputElement;
    saved.set(el.id, { value: field.value, checked: field.checked, open: (el as HTMLDetailsElement).open });
  });
  return saved;
}

export function restoreForms(saved: Saved): void {
  for (const [id, state] of saved) {
    const el = document.getElementById(id);
    if (!el || el.id === "ruleset" || el.dataset.keep === "model") continue; // drawn from their own state
    if (el instanceof HTMLDetailsElement) el.open = state.open;
    else if (el instanceof HTMLInputElement && (el.type === "checkbox" || el.type === "radio")) el.checked = state.checked;
    else if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement) {
      if (!(el instanceof HTMLSelectElement) && el.readOnly) continue;
      el.value = state.value;
    }
  }
}
