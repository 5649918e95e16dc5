// One Switchboard SIP endpoint for bench/sip-edge-kamailio.bench.ts, in a process of its own (so the bench
// can kill -9 it): the SIP server with the SIP settings' edge policy (it trusts the edge at 127.0.0.1 and
// judges each call by the caller the edge names) answering every call it may take at once, without the
// agent pipeline (this measures the edge and call set-up, not speech). Reports each call answered and
// ended to the parent over IPC.
//   node --import tsx bench/sip-edge-target.ts <port> <allowed caller>
import { createSipEdgePolicy } from "../apps/server/src/modules/sip-settings/sip-edge.ts";
import { createCaptureRecorder } from "../apps/server/src/modules/voice/sip/sip-capture.ts";
import { startSipServer } from "../apps/server/src/modules/voice/sip/sip-server.ts";

const port = Number(process.argv[2]);
const allowed = process.argv[3] ?? "127.0.0.2";
const send = (message: { type: string; callId?: string; port?: number }) => {
  if (process.connected) process.send?.(message);
};

const recorder = createCaptureRecorder({
  sink: async () => {},
  localAddress: () => ({ address: "127.0.0.1", port }),
});
const policy = createSipEdgePolicy({
  trustLoopback: false,
  sourceRate: 200,
  unlistedRate: 10,
  recorder,
  trustedEdge: ["127.0.0.1"],
});
policy.setAllowlist([{ orgId: 1, ip: allowed }]);

const server = await startSipServer({
  host: "127.0.0.1",
  port,
  admit: policy.edge.admit,
  screen: policy.edge.screen,
  onCall: (leg, target) => {
    const caller = policy.edge.caller?.(leg.info.callId, target.remote) ?? target.remote;
    if (!policy.edge.allows(1, caller.address)) return { status: 403 };
    send({ type: "answered", callId: leg.info.callId });
    leg.onHangup(() => send({ type: "ended", callId: leg.info.callId }));
    return undefined;
  },
});
send({ type: "ready", port: server.port });
process.on("SIGTERM", () => {
  void server.close().then(() => process.exit(0));
});
process.on("disconnect", () => {
  void server.close().then(() => process.exit(0));
});
