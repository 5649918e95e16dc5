/**
 * SIP's way in and out: one UDP socket and a TCP listener on the same port, TCP stream framing, the open
 * connections (answers and our own requests go back over them), and a fresh connection when none is open.
 */
import dgram from "node:dgram";
import net from "node:net";
import {
  createSipStreamParser,
  parseSipMessage,
  type SipMessage,
  serializeSipMessage,
} from "./sip-message.ts";
import type { SipLogger, SipTransport, Source } from "./sip-types.ts";

export async function startSipTransport(options: {
  host: string;
  port: number;
  tcp?: boolean;
  log?: SipLogger;
  receive: (message: SipMessage, source: Source) => void;
  /** Flood limits: false drops what this address sent, unparsed. */
  admit?: (address: string) => boolean;
}): Promise<SipTransport> {
  const { log } = options;
  const connections = new Map<string, net.Socket>();
  const pendingSends = new Set<Promise<void>>();
  let closing = false;

  const udp = dgram.createSocket(net.isIP(options.host) === 6 ? "udp6" : "udp4");
  await new Promise<void>((resolve, reject) => {
    udp.once("error", reject);
    udp.bind(options.port, options.host, () => {
      udp.off("error", reject);
      resolve();
    });
  });
  udp.on("error", (error) => log?.warn({ err: error }, "SIP UDP socket error"));
  const port = udp.address().port;

  let tcpServer: net.Server | null = null;
  if (options.tcp ?? true) {
    tcpServer = net.createServer((socket) => acceptTcp(socket));
    try {
      await new Promise<void>((resolve, reject) => {
        tcpServer?.once("error", reject);
        tcpServer?.listen(port, options.host, () => {
          tcpServer?.off("error", reject);
          resolve();
        });
      });
    } catch (error) {
      log?.warn({ err: error, port }, "SIP over TCP is off: the port is taken");
      tcpServer = null;
    }
  }

  function receive(message: SipMessage, source: Source) {
    if (closing) return;
    options.receive(message, source);
  }

  udp.on("message", (data, rinfo) => {
    if (data.length <= 4 && data.every((b) => b === 0x0d || b === 0x0a || b === 0)) return; // keep-alive
    if (options.admit && !options.admit(rinfo.address)) return;
    let message: SipMessage;
    try {
      message = parseSipMessage(data);
    } catch (error) {
      log?.debug({ err: error, from: `${rinfo.address}:${rinfo.port}` }, "dropped a malformed SIP datagram");
      return;
    }
    receive(message, { transport: "udp", address: rinfo.address, port: rinfo.port });
  });

  function acceptTcp(socket: net.Socket) {
    if (closing) {
      socket.destroy();
      return;
    }
    const parser = createSipStreamParser();
    const source: Source = {
      transport: "tcp",
      address: socket.remoteAddress ?? "",
      port: socket.remotePort ?? 0,
      socket,
    };
    const key = `${source.address}:${source.port}`;
    connections.set(key, socket);
    socket.on("close", () => {
      if (connections.get(key) === socket) connections.delete(key);
    });
    socket.on("error", () => {});
    socket.on("data", (chunk: Buffer) => {
      if (options.admit && !options.admit(source.address)) return;
      let messages: SipMessage[];
      try {
        messages = parser.push(chunk);
      } catch (error) {
        log?.debug({ err: error, from: key }, "closed a SIP TCP connection that sent a malformed message");
        socket.destroy();
        return;
      }
      for (const message of messages) receive(message, source);
    });
  }

  /**
   * Sends a message. Never throws: an address from a peer's headers (a Contact or Via with port 99999, a
   * name that does not resolve) costs that message, not the server.
   */
  function transmit(message: SipMessage, to: Source): void {
    if (!Number.isInteger(to.port) || to.port < 1 || to.port > 65_535 || !to.address) {
      log?.debug(
        { to: `${to.address}:${to.port}` },
        "dropped a SIP message to an address one cannot send to",
      );
      return;
    }
    try {
      send(message, to);
    } catch (error) {
      log?.debug({ err: error, to: `${to.address}:${to.port}` }, "could not send a SIP message");
    }
  }

  function send(message: SipMessage, to: Source): void {
    const data = serializeSipMessage(message);
    if (to.transport === "tcp") {
      const socket =
        to.socket && !to.socket.destroyed ? to.socket : connections.get(`${to.address}:${to.port}`);
      if (socket && !socket.destroyed) {
        socket.write(data);
        return;
      }
      // No open connection (requests we originate after theirs closed): open one.
      const fresh = net.connect({ host: to.address, port: to.port });
      fresh.on("error", () => {});
      fresh.write(data);
      acceptTcpReplies(fresh, to);
      return;
    }
    const sent = new Promise<void>((resolve) => {
      udp.send(data, to.port, to.address, () => resolve());
    });
    pendingSends.add(sent);
    void sent.then(() => pendingSends.delete(sent));
  }

  function acceptTcpReplies(socket: net.Socket, to: Source) {
    const parser = createSipStreamParser();
    const key = `${to.address}:${to.port}`;
    connections.set(key, socket);
    socket.on("close", () => {
      if (connections.get(key) === socket) connections.delete(key);
    });
    socket.on("data", (chunk: Buffer) => {
      try {
        for (const message of parser.push(chunk)) receive(message, { ...to, socket });
      } catch {
        socket.destroy();
      }
    });
  }

  return {
    port,
    transmit,
    get closing() {
      return closing;
    },
    stopReceiving() {
      closing = true;
    },
    async flush() {
      await Promise.race([Promise.all([...pendingSends]), new Promise((r) => setTimeout(r, 200))]);
    },
    async close() {
      for (const socket of connections.values()) socket.destroy();
      connections.clear();
      await new Promise<void>((resolve) => udp.close(() => resolve()));
      if (tcpServer) await new Promise<void>((resolve) => tcpServer?.close(() => resolve()));
    },
  };
}
