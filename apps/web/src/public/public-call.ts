/**
 * A public page visitor's call with the page's agent (the "Talk to …" button): loaded by public-page.js on
 * the first click, so the page itself stays small. The app's browser call (features/voice/voice-call.ts)
 * drives the microphone, the agent's audio and the WebSocket; this file only shows its state in plain DOM.
 */
import { type CallState, VoiceCall } from "../features/voice/voice-call.ts";

type StartOptions = {
  url: string;
  /** The visitor's session as WebSocket subprotocols ([WS_BEARER_PROTOCOL, token]), not in the address. */
  protocols?: string[];
  button: HTMLButtonElement;
  log: HTMLElement;
  status: HTMLElement;
};

function statusText(state: CallState): string {
  switch (state.status) {
    case "connecting":
      return "Connecting…";
    case "live":
      return state.muted ? "On the call (muted)" : "On the call";
    case "idle":
      return "";
    default:
      return state.message ?? "The call has ended.";
  }
}

function start({ url, protocols = [], button, log, status }: StartOptions): void {
  const label = button.textContent ?? "Talk";
  let call: VoiceCall | null = null;
  let shown = "";

  function render(state: CallState): void {
    status.textContent = statusText(state);
    const active = state.status === "connecting" || state.status === "live";
    button.textContent = active ? "Hang up" : label;
    button.classList.toggle("hangup", active);
    button.classList.toggle("secondary", !active);
    const key = state.captions.map((caption) => `${caption.id}:${caption.text}`).join("|");
    if (key === shown) return;
    shown = key;
    log.hidden = state.captions.length === 0;
    log.replaceChildren(
      ...state.captions.map((caption) => {
        const line = document.createElement("p");
        line.className = `msg ${caption.role === "caller" ? "visitor" : "agent"}`;
        line.textContent = caption.text;
        return line;
      }),
    );
    log.scrollTop = log.scrollHeight;
  }

  function begin(): void {
    call?.dispose();
    const next = new VoiceCall(
      () => url,
      () => protocols,
    );
    call = next;
    next.subscribe(() => render(next.getState()));
    void next.start();
  }

  button.addEventListener("click", () => {
    const state = call?.getState().status;
    if (state === "connecting" || state === "live") call?.hangup();
    else begin();
  });
  window.addEventListener("pagehide", () => call?.dispose());
  begin();
}

window.SwitchboardPublicCall = { start };
