/**
 * The chat of a public page (`/{username}`, and its `?embed=chat` frame that the website widget opens):
 * plain DOM, no framework, so the page stays small and fast. A visitor gets an anonymous session
 * (GET /api/v1/allocateTempUserSession) on the first message, writes with POST /api/v1/messages/{agent},
 * and reads the conversation (the agent's answers and the team's replies) with GET /api/v1/messages/{agent}.
 */

import { wsProtocols } from "../lib/ws-auth.ts";

type ChatMessage = { id: number; role: "user" | "assistant" | "operator" | "system"; text: string };

const TOKEN_KEY = "switchboard-visitor-token";
/** While an answer is awaited: how often and how long to look for it; then how often to look for replies. */
const FAST_POLL_MS = 1200;
const FAST_POLL_FOR_MS = 60_000;
const SLOW_POLL_MS = 10_000;

let memoryToken: string | null = null;

function storedToken(): string | null {
  try {
    return window.localStorage.getItem(TOKEN_KEY) ?? memoryToken;
  } catch {
    return memoryToken; // Storage blocked (a framed page in a strict browser): this page's session only.
  }
}

function storeToken(token: string | null): void {
  memoryToken = token;
  try {
    if (token) window.localStorage.setItem(TOKEN_KEY, token);
    else window.localStorage.removeItem(TOKEN_KEY);
  } catch {
    // Kept in memory only.
  }
}

async function answerOf(response: Response): Promise<Record<string, unknown>> {
  try {
    return (await response.json()) as Record<string, unknown>;
  } catch {
    return {};
  }
}

export function startChat(section: HTMLElement): void {
  const agent = section.dataset.agent;
  const log = section.querySelector<HTMLElement>("#chat-log");
  const form = section.querySelector<HTMLFormElement>("#chat-form");
  const input = section.querySelector<HTMLInputElement>("#chat-input");
  const status = section.querySelector<HTMLElement>("#chat-status");
  if (!agent || !log || !form || !input || !status) return;
  const greeting = log.firstElementChild?.cloneNode(true) ?? null;
  const base = `/api/v1/messages/${encodeURIComponent(agent)}`;
  let shown = "";
  let fastUntil = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let sending = false;
  form.hidden = false;

  function render(messages: ChatMessage[]): void {
    const visible = messages.filter((m) => m.role !== "system" && m.text.trim());
    const key = visible.map((m) => m.id).join(",");
    if (key === shown) return;
    shown = key;
    log?.replaceChildren(...(greeting ? [greeting.cloneNode(true)] : []));
    for (const message of visible) {
      const bubble = document.createElement("p");
      bubble.className = `msg ${message.role === "user" ? "visitor" : "agent"}`;
      bubble.textContent = message.text;
      log?.append(bubble);
    }
    if (log) log.scrollTop = log.scrollHeight;
  }

  async function load(): Promise<ChatMessage[] | null> {
    const token = storedToken();
    if (!token) return null;
    // The visitor's session goes as a header, never in the address (issue 32 item 19).
    const response = await fetch(base, { headers: { authorization: `Bearer ${token}` } });
    if (!response.ok) return null;
    const body = await answerOf(response);
    const messages = Array.isArray(body.messages) ? (body.messages as ChatMessage[]) : [];
    render(messages);
    return messages;
  }

  function schedule(): void {
    if (timer) clearTimeout(timer);
    const fast = Date.now() < fastUntil;
    timer = setTimeout(poll, fast ? FAST_POLL_MS : SLOW_POLL_MS);
  }

  /** The agent has answered the visitor's last message: no more "writing", and back to slow polling. */
  function settle(messages: ChatMessage[] | null): void {
    const last = messages?.at(-1);
    if (last && last.role !== "user" && Date.now() < fastUntil) {
      fastUntil = 0;
      if (status) status.textContent = "";
    }
  }

  async function poll(): Promise<void> {
    timer = null;
    if (document.visibilityState === "visible" || Date.now() < fastUntil)
      settle(await load().catch(() => null));
    if (storedToken()) schedule();
  }

  async function session(): Promise<string> {
    const existing = storedToken();
    if (existing) return existing;
    const response = await fetch("/api/v1/allocateTempUserSession");
    const body = await answerOf(response);
    if (!response.ok || typeof body.token !== "string")
      throw new Error(typeof body.message === "string" ? body.message : "The chat could not start.");
    storeToken(body.token);
    return body.token;
  }

  async function send(text: string, retry = true): Promise<void> {
    const token = await session();
    const response = await fetch(base, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ text }),
    });
    if (response.status === 401 && retry) {
      storeToken(null); // The session expired: start a new one.
      return send(text, false);
    }
    const body = await answerOf(response);
    if (!response.ok)
      throw new Error(typeof body.message === "string" ? body.message : "The message could not be sent.");
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text || sending) return;
    sending = true;
    status.textContent = "Sending…";
    send(text)
      .then(async () => {
        input.value = "";
        status.textContent = "The agent is writing…";
        fastUntil = Date.now() + FAST_POLL_FOR_MS;
        // A quick agent has answered already: it is not still "writing".
        settle(await load());
        schedule();
      })
      .catch((error: unknown) => {
        status.textContent = error instanceof Error ? error.message : "The message could not be sent.";
      })
      .finally(() => {
        sending = false;
        input.focus();
      });
  });

  if (storedToken()) void load().then(() => schedule());
  startTalk(section, agent, session);
}

type PublicCallApi = {
  start(options: {
    url: string;
    protocols?: string[];
    button: HTMLButtonElement;
    log: HTMLElement;
    status: HTMLElement;
  }): void;
};
declare global {
  interface Window {
    SwitchboardPublicCall?: PublicCallApi;
  }
}

/** Loads the call's own script (microphone, audio, WebSocket) once, the first time a visitor talks. */
function loadCallScript(): Promise<PublicCallApi> {
  if (window.SwitchboardPublicCall) return Promise.resolve(window.SwitchboardPublicCall);
  return new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = "/public-call.js";
    script.onload = () =>
      window.SwitchboardPublicCall
        ? resolve(window.SwitchboardPublicCall)
        : reject(new Error("The call could not start."));
    script.onerror = () => reject(new Error("The call could not start."));
    document.head.append(script);
  });
}

/** "Talk to …": a browser call with the page's agent, where the browser can capture a microphone. */
function startTalk(section: HTMLElement, agent: string, session: () => Promise<string>): void {
  const talk = section.querySelector<HTMLElement>("#talk");
  const button = section.querySelector<HTMLButtonElement>("#talk-button");
  const log = section.querySelector<HTMLElement>("#call-log");
  const status = section.querySelector<HTMLElement>("#call-status");
  if (!talk || !button || !log || !status || !navigator.mediaDevices || !window.AudioWorkletNode) return;
  talk.hidden = false;
  const onFirstClick = () => {
    button.disabled = true;
    status.textContent = "Connecting…";
    Promise.all([session(), loadCallScript()])
      .then(([token, call]) => {
        button.removeEventListener("click", onFirstClick);
        button.disabled = false;
        const url = new URL(`/api/v1/voice/public/${encodeURIComponent(agent)}`, window.location.href);
        url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
        // The visitor's session as a subprotocol, not in the address (issue 32 item 19).
        call.start({ url: url.toString(), protocols: wsProtocols(token), button, log, status });
      })
      .catch((error: unknown) => {
        button.disabled = false;
        status.textContent = error instanceof Error ? error.message : "The call could not start.";
      });
  };
  button.addEventListener("click", onFirstClick);
}

const section = document.getElementById("chat");
if (section) startChat(section);
