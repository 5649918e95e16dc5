import WebSocket from "ws";

/** The members of a `ws` client socket the providers use. */
export type WsClient = {
  readonly readyState: number;
  send(data: Buffer | string): void;
  close(code?: number, reason?: string): void;
  terminate(): void;
  on(event: "message", listener: (data: Buffer) => void): void;
  on(event: "error", listener: (error: Error) => void): void;
  once(event: "open" | "close", listener: () => void): void;
  once(event: "error", listener: (error: Error) => void): void;
};

export const WS_CONNECTING = 0;
export const WS_OPEN = 1;

/** A WebSocket client to a provider's streaming API (Deepgram), with headers (its key). */
export function connectWebSocket(url: string, headers: Record<string, string>): WsClient {
  return new WebSocket(url, { headers });
}
