// Who this browser is to the server: the account as the server last described it, the session
// token and a stable guest token kept in this browser (docs/accounts.md; the server keeps only
// their hashes), and the rated matches' rating changes. The session layer and the account pages
// both read it; it imports neither, so they do not import each other.
import type { AccountInfo, Leaderboard, Profile, RatingUpdate } from "./gen/accounts_pb";

const SESSION_KEY = "duelhall.session";
const GUEST_KEY = "duelhall.guest";

export interface AccountState {
  account: AccountInfo | undefined; // as the server last said (Welcome, SignedIn)
  error: string;
  profile: Profile | undefined;
  profileName: string; // whose profile is loaded ("" : our own)
  board: Leaderboard | undefined;
  ratings: Map<bigint, RatingUpdate>; // rated matches' changes, by match id
  // Bumped whenever something the profile or leaderboard shows may have changed (a rated match
  // ended): a page drawn from an older generation loads its data again.
  generation: number;
  loadedAt: { profile: number; board: number }; // the generation each was loaded at
}

export const accountState: AccountState = {
  account: undefined, error: "", profile: undefined, profileName: "", board: undefined, ratings: new Map(),
  generation: 0, loadedAt: { profile: -1, board: -1 },
};

function guestToken(): string {
  let token = localStorage.getItem(GUEST_KEY);
  if (!token || !/^[0-9a-f]{64}$/.test(token)) {
    const bytes = crypto.getRandomValues(new Uint8Array(32));
    token = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    localStorage.setItem(GUEST_KEY, token);
  }
  return token;
}

// The fields every Hello carries: the session if we have one, else the guest identity.
export function helloTokens(): { sessionToken: string; guestToken: string } {
  const sessionToken = localStorage.getItem(SESSION_KEY) ?? "";
  return { sessionToken, guestToken: sessionToken ? "" : guestToken() };
}
export function hasSession(): boolean {
  return Boolean(localStorage.getItem(SESSION_KEY));
}
export function keepSession(token: string): void {
  localStorage.setItem(SESSION_KEY, token);
}
// The server refused the stored session (expired, revoked): say hello as a guest instead.
export function forgetSession(): void {
  localStorage.removeItem(SESSION_KEY);
  accountState.account = undefined;
}
export function noteAccount(account: AccountInfo | undefined): void {
  accountState.account = account;
}
export function noteRatingUpdate(update: RatingUpdate): void {
  accountState.ratings.set(update.matchId, update);
  accountState.generation += 1; // the profile and leaderboard are out of date now
}
// The data shown again from scratch (a page shown again): the next draw loads it afresh.
export function staleAccountData(): void {
  accountState.generation += 1;
}
export function signedIn(): boolean {
  return Boolean(accountState.account && !accountState.account.guest && accountState.account.name);
}
