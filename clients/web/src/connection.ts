// The WebSocket to the server: one binary frame per ClientMessage/ServerMessage, request ids,
// keep-alive pings, and reconnecting with a growing delay after a drop. What to say after
// (re)connecting is the session's business (onOpen). A connection the server closes because the
// same player connected again elsewhere ("replaced") does not reconnect: two places taking the
// connection from each other would loop forever; the page offers "use here" instead.
// In a cluster (docs/cluster.md) a node may answer REDIRECT: the connection moves to the node it
// names, the session says hello there (onOpen, with the same identity), and the command goes
// again with the ticket, with no "offline" in between. A node that cannot be reached (or drops
// the page before its hello is through) within MOVE_TIMEOUT_MS sends the page back to the node it
// left, and the command's reply says so in words.
// A Hello goes through hello(): when the node hosts none of the matches its cursors name (their
// node stopped and another adopted them) it answers REDIRECT with a resume ticket, and the
// connection goes on to the node named, where the session says the same Hello with the ticket;
// CLUSTER_UNAVAILABLE (no node holds them yet) is asked again after a growing delay, for at most
// RESUME_GIVE_UP_MS. A node that closes with 1012 and "MATCH_MOVED: ..." (the match went to
// another node) is reconnected to at once, and sends the page on. A node the page was sent to
// that cannot be reached any more sends the page back to its own server (the address it was
// opened with), which knows where its matches went. None of this shows "offline".
import { create, fromBinary, toBinary, type MessageInitShape } from "@bufbuild/protobuf";
import {
  ClientMessageSchema,
  ServerMessageSchema,
  type ServerMessage,
} from "./gen/envelope_pb";
import type { Redirect } from "./gen/cluster_pb";
import { ResultCode } from "./gen/result_pb";
import { normalizeUpdate } from "./seat_updates";

export type LinkState = "connecting" | "online" | "offline" | "elsewhere" | "banned";
type Command = MessageInitShape<typeof ClientMessageSchema>["command"];
type HelloInit = MessageInitShape<typeof ClientMessageSchema>["command"] & { case: "hello" };

const PING_EVERY_MS = 20_000;
const RETRY_MIN_MS = 300;
const RETRY_MAX_MS = 5_000;
export const MOVE_TIMEOUT_MS = 10_000;
export const RESUME_RETRY_MIN_MS = 150;
export const RESUME_RETRY_MAX_MS = 2_000;
export const RESUME_GIVE_UP_MS = 20_000;
export const TICKET_REFUSALS = [ResultCode.TICKET_FORGED, ResultCode.TICKET_EXPIRED, ResultCode.TICKET_WRONG_MATCH];
const SERVICE_RESTART = 1012; // the WebSocket close code a node closes moved matches with

// A move to another node under way: where from (to go back), the socket opened there, and
// whether it is on its way back (the node named failed: done once the hello is through there).
interface Move {
  from: string;
  ws: WebSocket | null;
  back: boolean;
  done: (ok: boolean) => void;
}

// The words of a redirect that could not be followed.
export function unreachableNode(r: Redirect): string {
  const what = r.matchId === 0n ? "The new match was placed on" : `Match ${r.matchId} is on`;
  return `${what} server ${r.node || "?"} (${r.address}), which cannot be reached from here; ` +
    "you are still connected to this server: try again in a moment";
}

export class Connection {
  state: LinkState = "connecting";
  onOpen: () => void | Promise<void> = () => {};
  onMessage: (m: ServerMessage) => void = () => {};
  onState: (s: LinkState) => void = () => {};
  // Why the server closed the socket, and whether it had opened (a refused upgrade has not).
  onClosedFor: (reason: string, opened: boolean) => void = () => {};

  private ws: WebSocket | null = null;
  private nextId = 1n;
  private retryMs = RETRY_MIN_MS;
  private pinger: ReturnType<typeof setInterval> | null = null;
  private pending = new Map<bigint, (m: ServerMessage) => void>();
  private stopped = true;
  private retry: ReturnType<typeof setTimeout> | null = null;
  private move: Move | null = null;
  private quiet = false; // the next reconnect goes on to another node: no "offline", no delay
  private ticket: Uint8Array = new Uint8Array(); // for the next Hello, on the node a resume was sent to
  private readonly home: string;

  constructor(private url: string) {
    this.home = url;
  }

  open(): void {
    this.stopped = false;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    if (this.ws) return;
    if (!this.move && !this.quiet) this.setState("connecting");
    const ws = new WebSocket(this.url);
    ws.binaryType = "arraybuffer";
    this.ws = ws;
    if (this.move) this.move.ws = ws;
    let opened = false;
    ws.onopen = () => {
      opened = true;
      this.retryMs = RETRY_MIN_MS;
      if (!this.move) this.setState("online");
      this.pinger = setInterval(
        () => this.send({ case: "ping", value: { nonce: BigInt(Date.now()) } }),
        PING_EVERY_MS,
      );
      void Promise.resolve(this.onOpen()).then(() => {
        const move = this.move;
        if (this.ws !== ws || !move || move.ws !== ws) return;
        this.move = null;
        this.setState("online");
        move.done(!move.back);
      });
    };
    ws.onmessage = (e) => {
      if (!(e.data instanceof ArrayBuffer)) return;
      let m: ServerMessage;
      try {
        m = normalizeUpdate(fromBinary(ServerMessageSchema, new Uint8Array(e.data)));
      } catch {
        return; // not a ServerMessage: nothing sensible to do with it
      }
      const waiter = m.requestId ? this.pending.get(m.requestId) : undefined;
      if (waiter) {
        this.pending.delete(m.requestId);
        waiter(m);
      }
      this.onMessage(m);
    };
    ws.onclose = (e) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.pinger) clearInterval(this.pinger);
      this.pending.clear();
      const goingOn = this.quiet && opened; // closed by resumeAt: on to the node named
      this.quiet = false;
      const move = this.move;
      if (move) {
        // Either the socket left behind closed (on to the new node), or the new node failed
        // before the hello was through: back to the node we came from, and the command's reply
        // once the hello is through there (its welcome would clear the reply's words).
        if (move.ws !== ws) {
          this.open();
          return;
        }
        if (!move.back) {
          move.back = true;
          this.url = move.from;
          this.open();
          return;
        }
        this.move = null; // the node we came from failed too: an ordinary drop
        move.done(false);
      }
      this.onClosedFor(e.reason, opened);
      if (this.state === "banned") return; // halted meanwhile
      // Banned: coming back would only be refused again.
      if (/^BANNED:/.test(e.reason)) {
        this.halt();
        return;
      }
      if (this.stopped || /replaced by a new connection/.test(e.reason)) {
        this.stopped = true;
        this.setState("elsewhere");
        return;
      }
      if (!opened && this.url !== this.home) {
        this.url = this.home; // the node we were sent to is gone: our own server knows where to
        this.ticket = new Uint8Array();
      }
      if (goingOn || (e.code === SERVICE_RESTART && /^MATCH_MOVED:/.test(e.reason))) {
        this.quiet = true;
        this.open();
        return;
      }
      this.setState("offline");
      this.retry = setTimeout(() => this.open(), this.retryMs);
      this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS);
    };
  }

  // Says the session's Hello on a (re)connect. REDIRECT: on to the node named, where the session
  // says it again (the reply is the REDIRECT: nothing more to do on this socket); during a move
  // for a command it goes again without cursors instead (their node is the one the page left).
  // CLUSTER_UNAVAILABLE: again after a growing delay, for at most RESUME_GIVE_UP_MS, then the
  // reply says so in words.
  async hello(value: HelloInit["value"]): Promise<ServerMessage> {
    const ws = this.ws;
    let ticket: Uint8Array = this.ticket;
    this.ticket = new Uint8Array();
    let delay = RESUME_RETRY_MIN_MS;
    const since = Date.now();
    for (;;) {
      const ticketed = ticket.length > 0;
      const reply = await this.sendOnce({ case: "hello", value }, ticket);
      ticket = new Uint8Array();
      // A ticket refused (expired on the way, say) costs nothing: the Hello goes again without.
      if (ticketed && TICKET_REFUSALS.includes(reply.result)) continue;
      if (reply.result === ResultCode.REDIRECT && reply.body.case === "redirect") {
        if (!this.move) {
          this.resumeAt(reply.body.value);
          return reply;
        }
        value = { ...value, cursors: [] };
        continue;
      }
      if (reply.result !== ResultCode.CLUSTER_UNAVAILABLE) return reply;
      if (Date.now() - since + delay > RESUME_GIVE_UP_MS) {
        const id = value.cursors?.[0]?.matchId ?? "";
        reply.reason = `Match ${id} is moving to another server and none has taken it over yet; ` +
          "reconnect in a moment to go on with it";
        return reply;
      }
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 2, RESUME_RETRY_MAX_MS);
      if (this.ws !== ws) return reply; // dropped meanwhile: the next connection says hello
    }
  }

  // Goes on to the node a Hello was redirected to; the session says the Hello there again, with
  // the ticket.
  private resumeAt(r: Redirect): void {
    this.url = r.address;
    this.ticket = r.ticket;
    this.quiet = true;
    this.ws?.close();
  }

  // Sends a command; the promise resolves with its reply (dropped on disconnect). A REDIRECT is
  // followed once (unless `follow` is false): to the node it names, with its ticket. When that
  // node cannot be reached the reply stays the REDIRECT, its reason saying so in words.
  // `ticket`: a ticket the page already holds for this command here (from a redirect it followed).
  async send(command: Command, follow = true, ticket: Uint8Array = new Uint8Array()): Promise<ServerMessage> {
    const reply = await this.sendOnce(command, ticket);
    if (!follow || reply.result !== ResultCode.REDIRECT || reply.body.case !== "redirect") {
      return reply;
    }
    const redirect = reply.body.value;
    if (!(await this.moveTo(redirect.address))) {
      return create(ServerMessageSchema, {
        requestId: reply.requestId,
        result: ResultCode.REDIRECT,
        reason: unreachableNode(redirect),
        body: { case: "redirect", value: redirect },
      });
    }
    return this.sendOnce(command, redirect.ticket);
  }

  // The node's address the connection is on (or moving to).
  get address(): string {
    return this.url;
  }

  // Whether the connection is moving to another node for a command (moveTo), until the hello
  // there is through.
  get moving(): boolean {
    return this.move !== null;
  }

  // Reconnects to another node's address; true once the session has said hello there, false
  // when it could not be reached within MOVE_TIMEOUT_MS (once the hello is through back on the
  // node it left, or that node failed too).
  moveTo(url: string): Promise<boolean> {
    if (this.move) return Promise.resolve(false); // one move at a time
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        if (this.move === move && !move.back && move.ws && this.ws === move.ws) move.ws.close();
      }, MOVE_TIMEOUT_MS);
      const move: Move = {
        from: this.url,
        ws: null,
        back: false,
        done: (ok) => {
          clearTimeout(timer);
          resolve(ok);
        },
      };
      this.move = move;
      this.url = url;
      if (this.retry) clearTimeout(this.retry);
      this.retry = null;
      if (this.ws) this.ws.close();
      else this.open();
    });
  }

  private sendOnce(command: Command, ticket: Uint8Array): Promise<ServerMessage> {
    const requestId = this.nextId++;
    const frame = toBinary(
      ClientMessageSchema,
      create(ClientMessageSchema, { requestId, command, ticket }),
    );
    return new Promise((resolve) => {
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return;
      this.pending.set(requestId, resolve);
      this.ws.send(frame);
    });
  }

  // Closes for good (another tab of this browser holds the live connection now).
  stop(): void {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    if (this.ws) this.ws.close();
    else this.setState("elsewhere");
  }

  // Closes for good because the server will not take this client (a ban): no reconnecting.
  halt(): void {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    this.setState("banned");
    this.ws?.close();
  }

  get live(): boolean {
    return this.ws !== null && this.ws.readyState === WebSocket.OPEN;
  }

  // Drops the socket as a network failure would (used by the reconnect button and tests).
  drop(): void {
    this.ws?.close();
  }

  private setState(s: LinkState): void {
    this.state = s;
    this.onState(s);
  }
}
