/**
 * SIP messages as a libpcap file (the classic format Wireshark and tcpdump read): a global header, then one
 * record per message with a synthesised Ethernet, IPv4 (or IPv6) and UDP header around the SIP text, so the
 * SIP dissector shows the ladder (Telephony → VoIP Calls). Messages that travelled over TCP are written as
 * UDP too: the capture is of SIP, not of the connection.
 */
import net from "node:net";
import { plainAddress } from "./source-guard.ts";

export type PcapPacket = {
  at: Date;
  srcAddress: string;
  srcPort: number;
  dstAddress: string;
  dstPort: number;
  payload: Buffer;
};

export const PCAP_MAGIC = 0xa1b2c3d4;
export const LINKTYPE_ETHERNET = 1;
const SNAPLEN = 262_144;

function globalHeader(): Buffer {
  const header = Buffer.alloc(24);
  header.writeUInt32LE(PCAP_MAGIC, 0);
  header.writeUInt16LE(2, 4);
  header.writeUInt16LE(4, 6);
  header.writeInt32LE(0, 8); // thiszone
  header.writeUInt32LE(0, 12); // sigfigs
  header.writeUInt32LE(SNAPLEN, 16);
  header.writeUInt32LE(LINKTYPE_ETHERNET, 20);
  return header;
}

function ipv4Bytes(address: string): Buffer {
  return Buffer.from(address.split(".").map(Number));
}

function ipv6Bytes(address: string): Buffer {
  const [head = "", tail = ""] = address.split("::");
  const parse = (part: string) => (part ? part.split(":") : []);
  const left = parse(head);
  const right = parse(tail);
  const groups = address.includes("::")
    ? [...left, ...Array(8 - left.length - right.length).fill("0"), ...right]
    : left;
  const out = Buffer.alloc(16);
  groups.forEach((group, i) => {
    out.writeUInt16BE(Number.parseInt(group || "0", 16), i * 2);
  });
  return out;
}

function checksum(buffer: Buffer, initial = 0): number {
  let sum = initial;
  for (let i = 0; i + 1 < buffer.length; i += 2) sum += buffer.readUInt16BE(i);
  if (buffer.length % 2) sum += (buffer[buffer.length - 1] ?? 0) << 8;
  while (sum > 0xffff) sum = (sum & 0xffff) + (sum >>> 16);
  return sum;
}

/** Synthesised addresses for a non-IP name: 192.0.2.x (TEST-NET-1), stable per name. */
function asIp(address: string): string {
  const plain = plainAddress(address);
  if (net.isIP(plain)) return plain;
  let h = 0;
  for (const ch of plain) h = (h * 31 + ch.charCodeAt(0)) & 0xff;
  return `192.0.2.${h || 1}`;
}

function frame(packet: PcapPacket, id: number): Buffer {
  const src = asIp(packet.srcAddress);
  const dst = asIp(packet.dstAddress);
  const v6 = net.isIPv6(src) || net.isIPv6(dst);
  const srcBytes = v6 ? ipv6Bytes(net.isIPv6(src) ? src : `::ffff:${src}`) : ipv4Bytes(src);
  const dstBytes = v6 ? ipv6Bytes(net.isIPv6(dst) ? dst : `::ffff:${dst}`) : ipv4Bytes(dst);
  const udpLength = 8 + packet.payload.length;
  const udp = Buffer.alloc(8);
  udp.writeUInt16BE(packet.srcPort & 0xffff, 0);
  udp.writeUInt16BE(packet.dstPort & 0xffff, 2);
  udp.writeUInt16BE(udpLength & 0xffff, 4);
  // UDP checksum over the pseudo-header, header and payload.
  const pseudo = v6 ? Buffer.alloc(40) : Buffer.alloc(12);
  if (v6) {
    srcBytes.copy(pseudo, 0);
    dstBytes.copy(pseudo, 16);
    pseudo.writeUInt32BE(udpLength, 32);
    pseudo[39] = 17;
  } else {
    srcBytes.copy(pseudo, 0);
    dstBytes.copy(pseudo, 4);
    pseudo[9] = 17;
    pseudo.writeUInt16BE(udpLength & 0xffff, 10);
  }
  let sum = checksum(Buffer.concat([pseudo, udp, packet.payload]));
  sum = ~sum & 0xffff;
  udp.writeUInt16BE(sum === 0 ? 0xffff : sum, 6);

  let ip: Buffer;
  if (v6) {
    ip = Buffer.alloc(40);
    ip.writeUInt32BE(0x60000000, 0);
    ip.writeUInt16BE(udpLength & 0xffff, 4);
    ip[6] = 17; // next header: UDP
    ip[7] = 64; // hop limit
    srcBytes.copy(ip, 8);
    dstBytes.copy(ip, 24);
  } else {
    ip = Buffer.alloc(20);
    ip[0] = 0x45;
    ip.writeUInt16BE((20 + udpLength) & 0xffff, 2);
    ip.writeUInt16BE(id & 0xffff, 4);
    ip[8] = 64; // TTL
    ip[9] = 17; // protocol: UDP
    srcBytes.copy(ip, 12);
    dstBytes.copy(ip, 16);
    ip.writeUInt16BE(~checksum(ip) & 0xffff, 10);
  }
  const ethernet = Buffer.alloc(14);
  // Locally administered MACs: 02:00:00:00:00:01 (us) and :02 (them) are enough for a capture.
  Buffer.from([2, 0, 0, 0, 0, 2]).copy(ethernet, 0);
  Buffer.from([2, 0, 0, 0, 0, 1]).copy(ethernet, 6);
  ethernet.writeUInt16BE(v6 ? 0x86dd : 0x0800, 12);
  return Buffer.concat([ethernet, ip, udp, packet.payload]);
}

/** The packets as one libpcap file, in the order given. */
export function writePcap(packets: PcapPacket[]): Buffer {
  const parts: Buffer[] = [globalHeader()];
  packets.forEach((packet, index) => {
    const data = frame(packet, index + 1);
    const record = Buffer.alloc(16);
    const ms = packet.at.getTime();
    record.writeUInt32LE(Math.floor(ms / 1000), 0);
    record.writeUInt32LE((ms % 1000) * 1000, 4);
    record.writeUInt32LE(data.length, 8);
    record.writeUInt32LE(data.length, 12);
    parts.push(record, data);
  });
  return Buffer.concat(parts);
}

/** Reads a libpcap file written by writePcap (tests): each record's time, addresses, ports and payload. */
export function readPcap(file: Buffer) {
  if (file.readUInt32LE(0) !== PCAP_MAGIC) throw new Error("not a little-endian libpcap file");
  const header = {
    versionMajor: file.readUInt16LE(4),
    versionMinor: file.readUInt16LE(6),
    snaplen: file.readUInt32LE(16),
    linktype: file.readUInt32LE(20),
  };
  const records: Array<PcapPacket & { ipVersion: 4 | 6; udpChecksumOk: boolean }> = [];
  let offset = 24;
  while (offset < file.length) {
    const seconds = file.readUInt32LE(offset);
    const micros = file.readUInt32LE(offset + 4);
    const length = file.readUInt32LE(offset + 8);
    const data = file.subarray(offset + 16, offset + 16 + length);
    offset += 16 + length;
    const etherType = data.readUInt16BE(12);
    const v6 = etherType === 0x86dd;
    const ipStart = 14;
    const ipLength = v6 ? 40 : ((data[ipStart] ?? 0) & 0x0f) * 4;
    const udpStart = ipStart + ipLength;
    const src = v6 ? data.subarray(ipStart + 8, ipStart + 24) : data.subarray(ipStart + 12, ipStart + 16);
    const dst = v6 ? data.subarray(ipStart + 24, ipStart + 40) : data.subarray(ipStart + 16, ipStart + 20);
    const udpLength = data.readUInt16BE(udpStart + 4);
    const pseudo = v6 ? Buffer.alloc(40) : Buffer.alloc(12);
    if (v6) {
      src.copy(pseudo, 0);
      dst.copy(pseudo, 16);
      pseudo.writeUInt32BE(udpLength, 32);
      pseudo[39] = 17;
    } else {
      src.copy(pseudo, 0);
      dst.copy(pseudo, 4);
      pseudo[9] = 17;
      pseudo.writeUInt16BE(udpLength, 10);
    }
    const udpChecksumOk =
      checksum(Buffer.concat([pseudo, data.subarray(udpStart, udpStart + udpLength)])) === 0xffff;
    const address = (bytes: Buffer) =>
      v6
        ? Array.from({ length: 8 }, (_, i) => bytes.readUInt16BE(i * 2).toString(16)).join(":")
        : Array.from(bytes).join(".");
    records.push({
      at: new Date(seconds * 1000 + Math.round(micros / 1000)),
      srcAddress: address(src),
      dstAddress: address(dst),
      srcPort: data.readUInt16BE(udpStart),
      dstPort: data.readUInt16BE(udpStart + 2),
      payload: data.subarray(udpStart + 8, udpStart + udpLength),
      ipVersion: v6 ? 6 : 4,
      udpChecksumOk,
    });
  }
  return { header, records };
}
