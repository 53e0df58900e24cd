// Seat names in texts: the server writes seats as @N, the client puts the display names in.
import type { MatchView } from "../session";

export function seatNamer(mv: MatchView): (seat: number) => string {
  return (seat) => mv.info?.seats[seat]?.name || `seat ${seat}`;
}

export function withNames(text: string, name: (seat: number) => string): string {
  return text.replace(/@(\d+)/g, (_, n) => name(Number(n)));
}

// "3 watching": the lobby's listing and the match page say how many spectators a match has.
export function spectatorsText(count: number): string {
  return `${count} watching`;
}
