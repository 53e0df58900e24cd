// What a ruleset's match screen is given: the decoded view, the viewer and a way to act. A
// screen only draws; the choices it offers are the server's legal actions.
import type { LegalAction } from "../gen/match_pb";
import type { MatchInfo } from "../gen/lobby_pb";
import type { AnyView } from "../views";

export interface ScreenContext {
  view: AnyView;
  seat: number; // -1 spectator
  info: MatchInfo;
  legal: LegalAction[];
  seatName(seat: number): string;
  param(name: string): number; // a numeric match parameter (or its declared default)
  act(code: bigint): void;
}

export type Screen = (ctx: ScreenContext) => HTMLElement;

// The action code's kind byte and argument bytes (engine/core/action.hpp).
export function kindOf(code: bigint): number {
  return Number(code & 0xffn);
}
export function argOf(code: bigint, i: number): number {
  return Number((code >> BigInt(8 * (i + 1))) & 0xffn);
}
