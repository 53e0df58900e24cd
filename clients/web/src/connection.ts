// The WebSocket to the server: one binary frame per ClientMessage/ServerMessage, request ids,
// keep-alive pings, and reconnecting with a growing delay after a drop. What to say after
// (re)connecting is the session's business (onOpen). A connection the server closes because the
// same player connected again elsewhere ("replaced") does not reconnect: two places taking the
// connection from each other would loop forever; the page offers "use here" instead.
import { create, fromBinary, toBinary, type MessageInitShape } from "@bufbuild/protobuf";
import {
  ClientMessageSchema,
  ServerMessageSchema,
  type ServerMessage,
} from "./gen/envelope_pb";

export type LinkState = "connecting" | "online" | "offline" | "elsewhere";
type Command = MessageInitShape<typeof ClientMessageSchema>["command"];

const PING_EVERY_MS = 20_000;
const RETRY_MIN_MS = 300;
const RETRY_MAX_MS = 5_000;

export class Connection {
  state: LinkState = "connecting";
  onOpen: () => void = () => {};
  onMessage: (m: ServerMessage) => void = () => {};
  onState: (s: LinkState) => void = () => {};
  onClosedFor: (reason: string) => void = () => {};

  private ws: WebSocket | null = null;
  private nextId = 1n;
  private retryMs = RETRY_MIN_MS;
  private pinger: ReturnType<typeof setInterval> | null = null;
  private pending = new Map<bigint, (m: ServerMessage) => void>();
  private stopped = true;
  private retry: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly url: string) {}

  open(): void {
    this.stopped = false;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    if (this.ws) return;
    this.setState("connecting");
    const ws = new WebSocket(this.url);
    ws.binaryType = "arraybuffer";
    this.ws = ws;
    ws.onopen = () => {
      this.retryMs = RETRY_MIN_MS;
      this.setState("online");
      this.pinger = setInterval(
        () => this.send({ case: "ping", value: { nonce: BigInt(Date.now()) } }),
        PING_EVERY_MS,
      );
      this.onOpen();
    };
    ws.onmessage = (e) => {
      if (!(e.data instanceof ArrayBuffer)) return;
      let m: ServerMessage;
      try {
        m = fromBinary(ServerMessageSchema, new Uint8Array(e.data));
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
      this.onClosedFor(e.reason);
      // Banned: coming back would only be refused again.
      if (/^BANNED:/.test(e.reason)) {
        this.stopped = true;
        this.setState("offline");
        return;
      }
      if (this.stopped || /replaced by a new connection/.test(e.reason)) {
        this.stopped = true;
        this.setState("elsewhere");
        return;
      }
      this.setState("offline");
      this.retry = setTimeout(() => this.open(), this.retryMs);
      this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS);
    };
  }

  // Sends a command; the promise resolves with its reply (dropped on disconnect).
  send(command: Command): Promise<ServerMessage> {
    const requestId = this.nextId++;
    const frame = toBinary(ClientMessageSchema, create(ClientMessageSchema, { requestId, command }));
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
