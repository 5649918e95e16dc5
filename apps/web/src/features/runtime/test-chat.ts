import type { TestChatEvent, ToolCall, ToolResult } from "@switchboard/api";
import { ExternalStore } from "../../lib/external-store.ts";
import type { TestChatRequest } from "./chat-stream.ts";

export type ToolStep = { call: ToolCall; result: ToolResult | null };

export type ChatMessage = {
  key: string;
  role: "user" | "assistant";
  text: string;
  tools: ToolStep[];
  status: "streaming" | "complete" | "failed";
  error: string | null;
  model: string | null;
};

export type Stage = "staging" | "production";

export type TestChatState = {
  stage: Stage;
  roomId: string | null;
  uuid: string | null;
  /** The model that answers ("Sandbox model" when none is configured). */
  model: string | null;
  messages: ChatMessage[];
  busy: boolean;
  /** The agent ended the conversation (end call): restart to talk again. */
  ended: boolean;
  /** A failure before any answer (the request was refused). */
  error: string | null;
};

export type TestChatBackend = {
  stream: (
    request: TestChatRequest,
    onEvent: (event: TestChatEvent) => void,
    signal: AbortSignal,
  ) => Promise<void>;
  restart: (uuid: string) => Promise<void>;
  errorText: (error: unknown) => string;
};

let keys = 0;
const nextKey = () => `m${++keys}`;

/**
 * A test conversation with one agent (testAgent and chat overlays): every turn streams in as events, text
 * deltas grow the agent's message, tool calls and their results show inline, and a failed turn keeps
 * nothing half-written as the answer. Framework-free so its event handling can be tested.
 */
export class TestChatSession extends ExternalStore<TestChatState> {
  private controller: AbortController | null = null;

  constructor(
    private readonly agentId: number,
    private readonly backend: TestChatBackend,
    stage: Stage = "staging",
  ) {
    super({
      stage,
      roomId: null,
      uuid: null,
      model: null,
      messages: [],
      busy: false,
      ended: false,
      error: null,
    });
  }

  private updateMessage(key: string, update: (message: ChatMessage) => ChatMessage): void {
    this.set({
      messages: this.state.messages.map((message) => (message.key === key ? update(message) : message)),
    });
  }

  /** Starts a new conversation: the agent greets first. */
  start(): Promise<void> {
    return this.turn(undefined);
  }

  send(text: string): Promise<void> {
    const message = text.trim();
    if (!message || this.state.busy || this.state.ended) return Promise.resolve();
    this.set({
      messages: [
        ...this.state.messages,
        {
          key: nextKey(),
          role: "user",
          text: message,
          tools: [],
          status: "complete",
          error: null,
          model: null,
        },
      ],
    });
    return this.turn(message);
  }

  private async turn(message: string | undefined): Promise<void> {
    const key = nextKey();
    this.controller = new AbortController();
    this.set({
      busy: true,
      error: null,
      messages: [
        ...this.state.messages,
        { key, role: "assistant", text: "", tools: [], status: "streaming", error: null, model: null },
      ],
    });
    const request: TestChatRequest = {
      agentId: this.agentId,
      stage: this.state.stage,
      ...(this.state.roomId ? { roomId: this.state.roomId } : {}),
      ...(this.state.uuid ? { uuid: this.state.uuid } : {}),
      ...(message ? { message } : {}),
    };
    let finished = false;
    let started = false;
    let spoke = false;
    try {
      await this.backend.stream(
        request,
        (event) => {
          if (event.event === "start") started = true;
          else spoke = true;
          if (this.handle(key, event)) finished = true;
        },
        this.controller.signal,
      );
      // A new conversation with an agent that has no greeting: the server opens it and the agent waits for
      // the first message. Nothing was cut off; there is just no first bubble.
      if (!finished && message === undefined && started && !spoke) this.removeMessage(key);
      else if (!finished) this.failTurn(key, "The agent's answer was cut off. Try again.");
    } catch (error) {
      if (this.controller?.signal.aborted) return;
      this.failTurn(key, this.backend.errorText(error));
    } finally {
      this.controller = null;
      this.set({ busy: false });
    }
  }

  /** Applies one event of the turn; answers whether it ended the turn. */
  private handle(key: string, event: TestChatEvent): boolean {
    switch (event.event) {
      case "start":
        this.set({ roomId: event.data.roomId, uuid: event.data.uuid, model: event.data.model });
        return false;
      case "text":
        this.updateMessage(key, (message) => ({ ...message, text: message.text + event.data.delta }));
        return false;
      case "tool-call":
        this.updateMessage(key, (message) => ({
          ...message,
          tools: [...message.tools, { call: event.data, result: null }],
        }));
        return false;
      case "tool-result":
        this.updateMessage(key, (message) => ({
          ...message,
          tools: message.tools.map((step) =>
            step.call.toolCallId === event.data.toolCallId ? { ...step, result: event.data } : step,
          ),
        }));
        return false;
      case "done":
        this.updateMessage(key, (message) => ({
          ...message,
          text: event.data.text,
          status: "complete",
          model: event.data.model,
        }));
        this.set({ model: event.data.model, ended: event.data.conversationStatus === "ended" });
        return true;
      case "error":
        this.failTurn(key, event.data.message);
        return true;
    }
  }

  private removeMessage(key: string): void {
    this.set({ messages: this.state.messages.filter((message) => message.key !== key) });
  }

  private failTurn(key: string, error: string): void {
    this.updateMessage(key, (message) => ({ ...message, text: "", status: "failed", error }));
  }

  /** Ends this conversation and starts a new one in the same room. */
  async restart(stage: Stage = this.state.stage): Promise<void> {
    this.controller?.abort();
    const uuid = this.state.uuid;
    this.set({ stage, uuid: null, messages: [], ended: false, busy: false, error: null });
    if (uuid) {
      try {
        await this.backend.restart(uuid);
      } catch (error) {
        this.set({ error: this.backend.errorText(error) });
      }
    }
    await this.start();
  }

  dispose(): void {
    this.controller?.abort();
  }
}
