// The event log as a player reads it: an opponent's hidden steps ("@1 made a setup choice", once
// per step of a secret setup) fold into one line per player that counts them, and a line
// repeated back to back shows once with its count.
const HIDDEN_STEP = /^(@\d+) made a setup choice$/;
const OWN_STEP = /^(@\d+) chose (.+)$/; // one's own setup steps: listed on one line

export interface LogLine {
  text: string;
  count: number;
}

export function foldEvents(events: string[], describe: (tag: string, count: number) => string): LogLine[] {
  const lines: LogLine[] = [];
  const hiddenLine = new Map<string, LogLine>(); // seat tag -> its folded line
  for (const text of events) {
    const hidden = text.match(HIDDEN_STEP);
    if (hidden) {
      const tag = hidden[1];
      let line = hiddenLine.get(tag);
      if (!line) {
        line = { text: "", count: 0 };
        hiddenLine.set(tag, line);
        lines.push(line);
      }
      line.count += 1;
      line.text = describe(tag, line.count);
      continue;
    }
    const last = lines[lines.length - 1];
    const own = text.match(OWN_STEP);
    if (own && last && last.text.startsWith(`${own[1]} chose `)) {
      last.text += `, ${own[2]}`;
      continue;
    }
    if (last && last.text === text && !HIDDEN_STEP.test(text)) {
      last.count += 1;
      continue;
    }
    lines.push({ text, count: 1 });
  }
  return lines;
}

export function lineText(line: LogLine): string {
  return line.count === 1 || / is setting up/.test(line.text) ? line.text : `${line.text} (\u00d7${line.count})`;
}

// Scrolls the event log to its newest line, with its top line whole: when the top line would be
// cut in half, the list gets that much padding below and scrolls on to the next line's top.
export function showNewest(log: HTMLElement): void {
  log.style.paddingBottom = "";
  log.scrollTop = log.scrollHeight;
  // Exact (fractional) positions: offsetTop rounds, and a line cut by a pixel shows.
  const top = log.getBoundingClientRect().top + log.clientTop;
  const cut = [...log.children].map((li) => li.getBoundingClientRect())
    .find((r) => r.top < top - 0.5 && r.bottom > top + 0.5);
  if (!cut) return;
  log.style.paddingBottom = `${cut.bottom - top}px`;
  log.scrollTop = log.scrollHeight;
}
