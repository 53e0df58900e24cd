// The load generator for the Colyseus peer (server.js), written with colyseus.js 0.16 and
// measuring what duelhall-loadgen measures (docs/performance.md): each match is two client
// connections (one creates the room, the other joins it by id); a seat whose turn it is plays a
// random card of its hand. Fast: as soon as it is offered the turn (one action in flight per
// match, a closed loop). --rate R: open load, R actions per match per second, each match's
// actions at fixed intervals whatever the answers do. Latency: from sending the action to the
// opponent's connection holding the state it caused. CPU per action: the server's (from
// /proc/PID/stat) and this process's, over the measured window. Memory: the server's VmRSS
// before opening and once every match is live, per match.
//
//   node loadgen.js --port P --matches N [--rate R] [--warmup S] [--duration S] [--server-pid P]
'use strict';

const fs = require('fs');
const os = require('os');
const { Client, Room } = require('colyseus.js');

const opt = { port: 2567, matches: 1000, rate: 0, warmup: 2, duration: 10, serverPid: 0 };
for (let i = 2; i + 1 < process.argv.length; i += 2) {
  const key = process.argv[i].replace(/^--/, '').replace(/-(.)/g, (_, c) => c.toUpperCase());
  if (!(key in opt)) {
    process.stderr.write(`unknown option ${process.argv[i]}\n`);
    process.exit(2);
  }
  opt[key] = Number(process.argv[i + 1]);
}

const stats = { recording: false, actions: 0, refused: 0, latencies: [], frames: 0, bytes: 0 };

// Every frame the client receives (patches, joins, messages), for the mean frame size.
const onMessage = Room.prototype.onMessageCallback;
Room.prototype.onMessageCallback = function (event) {
  if (stats.recording && event.data && event.data.byteLength !== undefined) {
    stats.frames += 1;
    stats.bytes += event.data.byteLength;
  }
  return onMessage.call(this, event);
};

function procStat(pid) {
  const s = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;  // USER_HZ is 100 on Linux
}
function rssKib(pid) {
  const m = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) : 0;
}

class Match {
  constructor(rooms) {
    this.rooms = rooms;
    this.inFlight = null;  // { sent, seq }
    this.acted = -1;       // the seq at which the last action was sent
    this.nextAt = 0;
    this.timer = null;
    rooms.forEach((room, i) => {
      room.onStateChange((state) => this.onState(i, state));
      room.onMessage('refused', () => {
        stats.refused += 1;
        this.acted = -1;
      });
    });
  }

  onState(i, state) {
    if (!state.seats || state.seats.length < 2) return;
    if (this.inFlight && i !== this.inFlight.actor && state.seq > this.inFlight.seq) {
      if (stats.recording) {
        stats.actions += 1;
        stats.latencies.push(performance.now() - this.inFlight.sent);
      }
      this.inFlight = null;
    }
    if (state.turn === i && this.acted !== state.seq) this.maybeAct(i);
  }

  maybeAct(i) {
    if (stopping) return;
    if (!opt.rate) return this.act(i);
    if (this.timer) return;
    const now = performance.now();
    if (!this.nextAt) this.nextAt = now + Math.random() * (1000 / opt.rate);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.nextAt = Math.max(this.nextAt, performance.now()) + 1000 / opt.rate;
      this.act(i);
    }, Math.max(0, this.nextAt - now));
  }

  act(i) {
    const room = this.rooms[i];
    const state = room.state;
    if (stopping || state.turn !== i || this.acted === state.seq) return;
    const hand = state.seats[i].hand;
    const card = hand[Math.floor(Math.random() * hand.length)];
    this.acted = state.seq;
    this.inFlight = { sent: performance.now(), seq: state.seq, actor: i };
    room.send('act', card);
  }
}

let stopping = false;

async function openMatch(client) {
  const first = await client.create('duel');
  const second = await client.joinById(first.roomId);
  return new Match([first, second]);
}

async function main() {
  const client = new Client(`ws://127.0.0.1:${opt.port}`);
  const rssBefore = opt.serverPid ? rssKib(opt.serverPid) : 0;
  const t0 = performance.now();
  const matches = [];
  let failed = 0;
  const parallel = 20;
  for (let i = 0; i < opt.matches; i += parallel) {
    const batch = [];
    for (let k = i; k < Math.min(opt.matches, i + parallel); ++k) {
      batch.push(openMatch(client).then((m) => matches.push(m), () => (failed += 1)));
    }
    await Promise.all(batch);
  }
  const openS = (performance.now() - t0) / 1000;
  await new Promise((r) => setTimeout(r, 200));
  const rssOpen = opt.serverPid ? rssKib(opt.serverPid) : 0;
  // Kick every match whose first seat has the turn already (fast mode acts on state changes).
  for (const m of matches) if (m.rooms[0].state.turn === 0) m.maybeAct(0);
  await new Promise((r) => setTimeout(r, opt.warmup * 1000));

  const server0 = opt.serverPid ? procStat(opt.serverPid) : 0;
  const own0 = process.cpuUsage();
  stats.recording = true;
  const w0 = performance.now();
  await new Promise((r) => setTimeout(r, opt.duration * 1000));
  stats.recording = false;
  const window = (performance.now() - w0) / 1000;
  const own = process.cpuUsage(own0);
  const serverCpu = opt.serverPid ? procStat(opt.serverPid) - server0 : 0;
  stopping = true;

  const lat = stats.latencies.sort((a, b) => a - b);
  const pct = (p) => (lat.length ? lat[Math.min(lat.length - 1, Math.floor(p * lat.length))] : 0);
  const n = Math.max(stats.actions, 1);
  const line =
    `RESULT peer=colyseus matches=${opt.matches} rate=${opt.rate} opened=${matches.length} ` +
    `failed=${failed} open_s=${openS.toFixed(2)} ` +
    `actions_per_s=${(stats.actions / window).toFixed(0)} p50_ms=${pct(0.5).toFixed(3)} ` +
    `p99_ms=${pct(0.99).toFixed(3)} p999_ms=${pct(0.999).toFixed(3)} ` +
    `server_cpu_us_per_action=${((1e6 * serverCpu) / n).toFixed(1)} ` +
    `loadgen_cpu_us_per_action=${((own.user + own.system) / n).toFixed(1)} ` +
    `rss_per_match_kib=${(matches.length ? (rssOpen - rssBefore) / matches.length : 0).toFixed(2)} ` +
    `update_bytes=${(stats.frames ? stats.bytes / stats.frames : 0).toFixed(1)} ` +
    `refused=${stats.refused} load_avg=${os.loadavg()[0].toFixed(1)}`;
  process.stdout.write(line + '\n');
  process.exit(0);
}

main().catch((e) => {
  process.stderr.write(`${e && e.stack ? e.stack : e}\n`);
  process.exit(1);
});
