/**
 * A voice worker's SIP transport when the API process holds the SIP socket: messages arrive over the IPC
 * channel (relayed by Call-ID, supervisor.ts) and what the worker sends goes back the same way, out of the
 * API's socket. Over TCP the API answers on the connection the call came in on.
 */
import { parseSipMessage, type SipMessage, serializeSipMessage } from "../sip/sip-message.ts";
import type { SipLogger, SipTransport, Source } from "../sip/sip-types.ts";
import type { FromWorker } from "./worker-messages.ts";

export type RelayedSip = {
  /** The API process's SIP port (what Via and Contact name). */
  port: number;
  send(message: FromWorker): void;
  /** Called with each relayed message's bytes and source; answers how to stop. */
  onMessage(handler: (data: Uint8Array, source: Source) => void): () => void;
  log?: SipLogger;
};

export function relayedSipTransport(relay: RelayedSip) {
  return async (receive: (message: SipMessage, source: Source) => void): Promise<SipTransport> => {
    let closing = false;
    const stop = relay.onMessage((data, source) => {
      if (closing) return;
      let message: SipMessage;
      try {
        message = parseSipMessage(Buffer.from(data.buffer, data.byteOffset, data.byteLength));
      } catch (error) {
        relay.log?.debug({ err: error }, "dropped a malformed relayed SIP message");
        return;
      }
      receive(message, { transport: source.transport, address: source.address, port: source.port });
    });
    return {
      port: relay.port,
      transmit(message, to) {
        try {
          relay.send({
            t: "sip:out",
            data: new Uint8Array(serializeSipMessage(message)),
            to: { transport: to.transport, address: to.address, port: to.port },
          });
        } catch (error) {
          relay.log?.debug({ err: error }, "could not hand a SIP message to the API process");
        }
      },
      get closing() {
        return closing;
      },
      stopReceiving() {
        closing = true;
      },
      async flush() {},
      async close() {
        closing = true;
        stop();
      },
    };
  };
}
