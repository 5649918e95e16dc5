/**
 * A browser WebSocket cannot send an Authorization header, and an address would keep the session token in
 * logs: the socket offers this subprotocol followed by the token (`new WebSocket(url, wsProtocols(token))`)
 * and the server reads it from Sec-WebSocket-Protocol, answering with this protocol only. The same value as
 * @switchboard/api's WS_BEARER_PROTOCOL (ws-auth.test.ts), kept here so the shell's bundle stays free of
 * the API package.
 */
export const WS_BEARER_PROTOCOL = "switchboard.bearer";

export function wsProtocols(token: string | null | undefined): string[] {
  return token ? [WS_BEARER_PROTOCOL, token] : [];
}
