import { VOICE_MESSAGES, type VoiceCallServerMessage } from "@switchboard/api";
import { loadCallWorklets, MIC_PROCESSOR, PLAYER_PROCESSOR } from "./audio-worklet.ts";
import { addCaption, type Caption } from "./captions.ts";

export type CallStatus =
  | "idle"
  | "connecting"
  | "live"
  | "ended"
  /** The browser or the person refused the microphone. */
  | "denied"
  /** No microphone (or no media support, e.g. an insecure page). */
  | "no-microphone"
  /** The call could not be set up, or the connection dropped. */
  | "failed";

export type CallState = {
  status: CallStatus;
  /** Why the call ended or failed (the server's reason, or the browser's). */
  message: string | null;
  captions: Caption[];
  /** Microphone level, 0-1 (RMS of the last 20 ms). */
  level: number;
  muted: boolean;
  /** The conversation's uuid once the server set it up (its transcript in Calls). */
  uuid: string | null;
};

const INITIAL: CallState = {
  status: "idle",
  message: null,
  captions: [],
  level: 0,
  muted: false,
  uuid: null,
};

function microphoneError(error: unknown): { status: CallStatus; message: string } {
  const name = error instanceof DOMException ? error.name : "";
  if (name === "NotAllowedError" || name === "SecurityError")
    return { status: "denied", message: VOICE_MESSAGES.microphoneDenied };
  if (name === "NotFoundError" || name === "OverconstrainedError" || name === "NotReadableError")
    return { status: "no-microphone", message: VOICE_MESSAGES.noMicrophone };
  return { status: "failed", message: error instanceof Error ? error.message : VOICE_MESSAGES.callFailed };
}

/**
 * One browser test call: the microphone through an AudioWorklet (16 kHz PCM16, 20 ms frames) to the
 * call's WebSocket, the agent's audio back through a jitter-buffered player, captions of both sides.
 * Framework-free; `useVoiceCall` subscribes React to it.
 */
export class VoiceCall {
  private state: CallState = INITIAL;
  private listeners = new Set<() => void>();
  private socket: WebSocket | null = null;
  private context: AudioContext | null = null;
  private stream: MediaStream | null = null;
  private mic: AudioWorkletNode | null = null;
  private player: AudioWorkletNode | null = null;
  private captionId = 0;
  private lastLevelAt = 0;
  /** Bumped by every start and stop: work of an older attempt ends quietly. */
  private attempt = 0;

  /** `url` answers the call's WebSocket address when the call connects (call-url.ts for the app's calls). */
  /**
   * `protocols`: the WebSocket subprotocols to offer — the app's session as [WS_BEARER_PROTOCOL, token]
   * (lib/ws-auth.ts), so the token is not in the address; none for a public page's visitor.
   */
  constructor(
    private readonly url: () => string,
    private readonly protocols: () => string[] = () => [],
  ) {}

  getState = (): CallState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private set(patch: Partial<CallState>) {
    this.state = { ...this.state, ...patch };
    for (const listener of this.listeners) listener();
  }

  async start(): Promise<void> {
    if (this.state.status === "connecting" || this.state.status === "live") return;
    const attempt = ++this.attempt;
    this.captionId = 0;
    this.set({ ...INITIAL, status: "connecting" });
    if (!navigator.mediaDevices?.getUserMedia) {
      const message = window.isSecureContext ? VOICE_MESSAGES.noMicrophone : VOICE_MESSAGES.insecurePage;
      this.set({ status: "no-microphone", message });
      return;
    }
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({
        audio: { channelCount: 1, echoCancellation: true, noiseSuppression: true, autoGainControl: true },
      });
    } catch (error) {
      if (attempt === this.attempt) this.set(microphoneError(error));
      return;
    }
    if (attempt !== this.attempt) {
      for (const track of stream.getTracks()) track.stop();
      return;
    }
    this.stream = stream;
    try {
      const context = new AudioContext();
      this.context = context;
      await loadCallWorklets(context);
      await context.resume();
      if (attempt !== this.attempt) return;
      const mic = new AudioWorkletNode(context, MIC_PROCESSOR, { numberOfOutputs: 1 });
      const player = new AudioWorkletNode(context, PLAYER_PROCESSOR, {
        numberOfInputs: 0,
        outputChannelCount: [1],
      });
      // The microphone node only listens: it is pulled through a silent gain.
      const sink = context.createGain();
      sink.gain.value = 0;
      context.createMediaStreamSource(stream).connect(mic).connect(sink).connect(context.destination);
      player.connect(context.destination);
      this.mic = mic;
      this.player = player;
      mic.port.postMessage({ muted: this.state.muted });
      mic.port.onmessage = (event: MessageEvent<{ frame: ArrayBuffer; level: number }>) =>
        this.onMicFrame(event.data);
    } catch (error) {
      this.cleanup();
      if (attempt === this.attempt)
        this.set({ status: "failed", message: error instanceof Error ? error.message : String(error) });
      return;
    }
    this.connect(attempt);
  }

  private connect(attempt: number) {
    const socket = new WebSocket(this.url(), this.protocols());
    socket.binaryType = "arraybuffer";
    this.socket = socket;
    socket.onmessage = (event: MessageEvent<ArrayBuffer | string>) => {
      if (attempt !== this.attempt) return;
      if (typeof event.data !== "string") {
        this.player?.port.postMessage(event.data, [event.data]);
        return;
      }
      let message: VoiceCallServerMessage;
      try {
        message = JSON.parse(event.data) as VoiceCallServerMessage;
      } catch {
        return;
      }
      this.onMessage(message);
    };
    socket.onclose = () => {
      if (attempt !== this.attempt) return;
      const { status } = this.state;
      if (status === "connecting" || status === "live")
        this.finish("failed", status === "live" ? VOICE_MESSAGES.connectionLost : VOICE_MESSAGES.callFailed);
    };
  }

  private onMessage(message: VoiceCallServerMessage) {
    switch (message.type) {
      case "ready":
        this.set({ status: "live", uuid: message.uuid });
        break;
      case "caption":
        this.set({ captions: addCaption(this.state.captions, message, ++this.captionId) });
        break;
      case "clear":
        this.player?.port.postMessage("clear");
        break;
      case "ended": {
        const failed = message.outcome === "failed";
        // The last words still in the jitter buffer play out before the audio stops.
        this.finish(failed ? "failed" : "ended", message.reason, failed ? 0 : 400);
        break;
      }
    }
  }

  private onMicFrame({ frame, level }: { frame: ArrayBuffer; level: number }) {
    const socket = this.socket;
    if (socket?.readyState === WebSocket.OPEN) socket.send(frame);
    const now = performance.now();
    if (now - this.lastLevelAt >= 60) {
      this.lastLevelAt = now;
      this.set({ level: Math.min(1, level * 4) });
    }
  }

  setMuted(muted: boolean) {
    this.mic?.port.postMessage({ muted });
    this.set({ muted });
  }

  sendDigit(digit: string) {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify({ type: "dtmf", digit }));
  }

  /** The caller hangs up. */
  hangup() {
    const { status } = this.state;
    if (status !== "connecting" && status !== "live") return;
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify({ type: "hangup" }));
    this.finish("ended", VOICE_MESSAGES.hungUp);
  }

  private finish(status: CallStatus, message: string, drainMs = 0) {
    this.attempt++;
    this.set({ status, message, level: 0 });
    const release = this.detach();
    if (drainMs > 0) setTimeout(release, drainMs);
    else release();
  }

  /** Takes the call's socket and audio off this object (a new call may start) and answers their closing. */
  private detach(): () => void {
    const { socket, stream, mic, context } = this;
    this.socket = null;
    this.stream = null;
    this.mic = null;
    this.player = null;
    this.context = null;
    if (mic) mic.port.onmessage = null;
    return () => {
      if (socket && socket.readyState <= WebSocket.OPEN) socket.close(1000);
      for (const track of stream?.getTracks() ?? []) track.stop();
      mic?.port.close();
      void context?.close().catch(() => {});
    };
  }

  private cleanup() {
    this.detach()();
  }

  /** Leaving the screen: hang up and release the microphone. */
  dispose() {
    this.hangup();
    this.attempt++;
    this.cleanup();
    this.listeners.clear();
  }
}
