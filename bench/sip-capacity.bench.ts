// SIP capacity (issue 16): N concurrent sipp calls on loopback, each playing 7 s of A-law speech (Debian's
// g711a.pcap) that our server echoes back through the full media path (RTP in, jitter buffer, G.711 decode,
// 8→16 kHz resampling, 20 ms framing; then re-framing, 16→8 kHz, encode, paced RTP out). Measures our RTP
// send lateness (actual − ideal send time) p99 over all calls, frames dropped (heard but never sent back, or
// lost in the jitter buffer), ticks the pacer had to skip, and CPU. Target: p99 < 20 ms, nothing dropped.
// N = 50 calls (BENCH_SIZE=smoke: 5). Needs sipp (`node scripts/ensure-voice-tools.mjs`). This measures the
// transport alone: the offline speech pipeline (VAD, STT, TTS) costs far more per call and is what limits
// real capacity.
import { monitorEventLoopDelay } from "node:perf_hooks";
import { createLatenessHistogram } from "../apps/server/src/modules/voice/sip/pacer.ts";
import { type SipCallLeg, startSipServer } from "../apps/server/src/modules/voice/sip/sip-server.ts";
import { haveSipp, runSipp, SIPP_MISSING, timerNoise } from "../apps/server/src/modules/voice/sip/sipp.ts";
import { reportFigure } from "./report.ts";

const SMOKE = process.env.BENCH_SIZE === "smoke";
const CALLS = Number(process.env.SIP_CALLS ?? (SMOKE ? 5 : 50));
const TARGET_P99_MS = 20;

if (!haveSipp) {
  console.log(`skipped: ${SIPP_MISSING}`);
  process.exit(0);
}

const legs: SipCallLeg[] = [];
let heard = 0;
let digits = 0;
const server = await startSipServer({
  host: "127.0.0.1",
  port: 0,
  onCall: (leg) => {
    legs.push(leg);
    leg.onAudio((frame) => {
      heard++;
      leg.sendAudio(frame);
    });
    leg.onDtmf(() => digits++);
    return undefined;
  },
});

const loop = monitorEventLoopDelay({ resolution: 5 });
loop.enable();
// The worst lateness of each second, to see when stalls happen (call set-up, steady state, teardown).
const worstBySecond = new Map<number, number>();
const probe = setInterval(() => {
  const second = Math.floor((performance.now() - started) / 1000);
  let worst = 0;
  for (const leg of legs) worst = Math.max(worst, leg.media.lateness.max);
  worstBySecond.set(second, worst);
}, 250);
const cpuBefore = process.cpuUsage();
const started = performance.now();
const [run, noise] = await Promise.all([
  runSipp({
    port: server.port,
    scenario: "uac-pcma-dtmf.xml",
    calls: CALLS,
    limit: CALLS,
    rate: 50,
    timeoutMs: 60_000,
  }),
  timerNoise(9000),
]);
const elapsed = (performance.now() - started) / 1000;
clearInterval(probe);
loop.disable();
const cpu = process.cpuUsage(cpuBefore);
await server.close();

const lateness = createLatenessHistogram();
let sent = 0;
let lost = 0;
for (const leg of legs) {
  lateness.merge(leg.media.lateness.snapshot());
  sent += leg.media.audioFramesSent;
  lost += leg.media.lost;
}
// Echoed frames still queued when sipp hung up are cut by the BYE, not dropped: allow one frame a call.
const dropped = Math.max(0, heard - sent - legs.length) + lost;
const p99 = lateness.quantile(0.99);
const cpuShare = (cpu.user + cpu.system) / 1e6 / elapsed;

console.log(`calls: ${legs.length} of ${CALLS} answered, sipp exit ${run.code}, ${elapsed.toFixed(1)} s`);
console.log(`frames heard ${heard}, echoed ${sent}, dropped ${dropped}; digits ${digits} (2 a call)`);
console.log(
  `RTP send lateness over ${lateness.count} packets: p50 ${lateness.quantile(0.5)} ms, p99 ${p99} ms, max ${lateness.max.toFixed(1)} ms (target p99 < ${TARGET_P99_MS} ms)`,
);
console.log(
  `pacer ticks skipped: ${server.pacer.skipped}; server CPU ${(cpuShare * 100).toFixed(1)}% of one core`,
);
console.log(
  `event-loop delay: p50 ${(loop.percentile(50) / 1e6).toFixed(1)} ms, p99 ${(loop.percentile(99) / 1e6).toFixed(1)} ms, max ${(loop.max / 1e6).toFixed(1)} ms; worst lateness so far, by second: ${[...worstBySecond.values()].map((v) => v.toFixed(0)).join(" ")}`,
);
console.log(
  `machine noise: a bare 20 ms timer in another process, p50 ${noise.p50.toFixed(1)} ms, p99 ${noise.p99.toFixed(1)} ms`,
);
const bench = "sip-capacity";
reportFigure({
  bench,
  name: "RTP send lateness p99",
  value: p99,
  unit: "ms",
  target: TARGET_P99_MS,
  better: "lower",
});
reportFigure({ bench, name: "frames dropped", value: dropped, unit: "frames", target: 0, better: "lower" });
reportFigure({
  bench,
  name: "pacer ticks skipped",
  value: server.pacer.skipped,
  unit: "ticks",
  better: "lower",
});
reportFigure({ bench, name: "server CPU", value: cpuShare * 100, unit: "% of a core", better: "lower" });
reportFigure({ bench, name: "bare timer p99", value: noise.p99, unit: "ms", better: "lower" });
if (run.code !== 0) {
  console.error(run.output.slice(-2000));
  process.exit(1);
}
