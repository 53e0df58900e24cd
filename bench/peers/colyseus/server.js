// The Colyseus 0.16 peer of Duelhall's benchmark (scripts/bench-peers.sh, docs/performance.md):
// the message pattern of a Jedi Duel match as a Colyseus room. Two players take turns; an action
// is one message in ("act" with a card of the actor's hand), validated against whose turn it is
// and the actor's hand, and a small state change out to both players: the card played, the
// scores, whose turn, a sequence number and the actor's redrawn hand card. Each hand is
// per-viewer hidden state (a `view` field, seen only by its owner through a StateView), as
// Duelhall's view(state, viewer) hides the opponent's hand. A finished duel (40 actions) deals
// again in the same room, as duelhall-loadgen replaces a finished match on the same connections.
//
// The patch goes out right after each action (setPatchRate(null) and broadcastPatch()), the way
// a turn-based Colyseus game answers a move at once instead of at the next 50 ms patch tick.
// One Node process: the way one Colyseus server runs without a Redis presence and driver.
//
//   node server.js PORT
'use strict';

const { Server, Room } = require('@colyseus/core');
const { WebSocketTransport } = require('@colyseus/ws-transport');
const { schema, StateView } = require('@colyseus/schema');

const HAND = 5;
const CARDS = 13;
const ACTIONS_PER_DUEL = 40;

const Seat = schema(
  {
    hand: { array: 'uint8', view: true },
    score: { type: 'int16', default: 0 },
    played: { type: 'uint8', default: 0 },
  },
  'Seat'
);

const Duel = schema(
  {
    seats: [Seat],
    turn: { type: 'uint8', default: 0 },
    seq: { type: 'uint32', default: 0 },
    round: { type: 'uint16', default: 0 },
  },
  'Duel'
);

class DuelRoom extends Room {
  onCreate() {
    this.maxClients = 2;
    this.setSeatReservationTime(120);  // opening 1,000 rooms on a loaded machine takes a while
    this.rng = (Math.random() * 0xffffffff) >>> 0;
    this.setState(new Duel());
    this.setPatchRate(null);
    this.onMessage('act', (client, card) => this.act(client, card));
  }

  draw() {
    // xorshift32: the room's own generator, as a Duelhall match draws from its seeded one.
    let x = this.rng;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.rng = x >>> 0;
    return 1 + (this.rng % CARDS);
  }

  deal(seat) {
    seat.hand.clear();
    for (let i = 0; i < HAND; ++i) seat.hand.push(this.draw());
    seat.score = 0;
    seat.played = 0;
  }

  onJoin(client) {
    const seat = new Seat();
    this.deal(seat);
    client.userData = { seat: this.state.seats.length };
    this.state.seats.push(seat);
    client.view = new StateView();
    client.view.add(seat);
    if (this.state.seats.length === 2) this.state.turn = 0;
    this.broadcastPatch();
  }

  act(client, card) {
    const i = client.userData.seat;
    const seat = this.state.seats[i];
    const at = seat ? seat.hand.indexOf(card) : -1;
    if (this.state.seats.length < 2 || this.state.turn !== i || at < 0) {
      client.send('refused', this.state.seq);
      return;
    }
    seat.hand[at] = this.draw();
    seat.score += card;
    seat.played = card;
    this.state.seq += 1;
    if (this.state.seq % ACTIONS_PER_DUEL === 0) {
      this.state.round += 1;
      for (const s of this.state.seats) this.deal(s);
      this.state.turn = 0;
    } else {
      this.state.turn = 1 - i;
    }
    this.broadcastPatch();
  }
}

const port = Number(process.argv[2] || 2567);
const server = new Server({ transport: new WebSocketTransport({ pingInterval: 0 }) });
server.define('duel', DuelRoom);
server.listen(port, '127.0.0.1').then(() => process.stdout.write(`listening ${port}\n`));
