import { createServer, type Server } from "node:net";

/** A minimal SMTP server on loopback that records what it receives. */
export function startSmtpServer(): Promise<{
  server: Server;
  port: number;
  received: { rcpt: string[]; data: string }[];
}> {
  const received: { rcpt: string[]; data: string }[] = [];
  const server = createServer((socket) => {
    let buffer = "";
    let inData = false;
    let current = { rcpt: [] as string[], data: "" };
    socket.write("220 test ESMTP\r\n");
    socket.on("data", (chunk) => {
      buffer += chunk.toString("utf8");
      for (let index = buffer.indexOf("\r\n"); index >= 0; index = buffer.indexOf("\r\n")) {
        const line = buffer.slice(0, index);
        buffer = buffer.slice(index + 2);
        if (inData) {
          if (line === ".") {
            inData = false;
            received.push(current);
            current = { rcpt: [], data: "" };
            socket.write("250 queued\r\n");
          } else current.data += `${line}\n`;
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === "EHLO" || verb === "HELO") socket.write("250 test\r\n");
        else if (verb === "RCPT") {
          current.rcpt.push(line);
          socket.write("250 ok\r\n");
        } else if (verb === "DATA") {
          inData = true;
          socket.write("354 go ahead\r\n");
        } else if (verb === "QUIT") socket.end("221 bye\r\n");
        else socket.write("250 ok\r\n");
      }
    });
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      resolve({ server, port: typeof address === "object" && address ? address.port : 0, received });
    }),
  );
}
