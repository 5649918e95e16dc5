#!/usr/bin/env node
// `npm run start:sip-edge`: Kamailio as the SIP edge in front of several Switchboard SIP endpoints (server
// instances, or voice workers, on this host or others). Writes kamailio.cfg (from
// deploy/kamailio/kamailio.cfg.tmpl), the dispatcher list (SIP_EDGE_TARGETS) and the allow-list (the
// organisations' SIP allow-lists from DATABASE_URL, plus SIP_EDGE_ALLOW) into its runtime directory and runs
// kamailio in the foreground until SIGINT/SIGTERM. The allow-list is written again and reloaded when an
// organisation changes it (PostgreSQL's LISTEN on the channel the server notifies), on SIGHUP, and by
// `npm run sip-edge:reload` (`--reload`: rewrite the lists and tell the running kamailio over its control
// socket). Settings and their defaults: docs/telephony.md#a-sip-edge-for-several-machines-kamailio.
import { spawn, spawnSync } from "node:child_process";
import dgram from "node:dgram";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ipaddr from "ipaddr.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const KAMAILIO = "/usr/sbin/kamailio";
export const KAMCMD = "/usr/sbin/kamcmd";
const MODULES = "/usr/lib/x86_64-linux-gnu/kamailio/modules";
export const TEMPLATE = path.join(root, "deploy/kamailio/kamailio.cfg.tmpl");
/** The channel the server notifies when an organisation's SIP settings change (sip-settings.service.ts). */
const SETTINGS_CHANNEL = "switchboard_sip_settings";

function whole(env, name, fallback, min, max) {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max)
    throw new Error(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
  return value;
}

/** `host:port`, `[v6]:port` or `host` (port 5060) -> { host, port }. */
export function parseTarget(text) {
  const value = text.trim();
  const match = /^\[([^\]]+)\](?::(\d+))?$/.exec(value) ?? /^([^:]+)(?::(\d+))?$/.exec(value);
  const port = match?.[2] ? Number(match[2]) : 5060;
  if (!match?.[1] || !net.isIP(match[1]) || !Number.isInteger(port) || port < 1 || port > 65_535)
    throw new Error(`SIP_EDGE_TARGETS: "${text}" is not an IP address with an optional port (host:port)`);
  return { host: match[1], port };
}

/** The edge's settings from the environment (the same variables as the server's where they overlap). */
export function edgeSettings(env = process.env) {
  const targets = (env.SIP_EDGE_TARGETS ?? "").split(",").filter((t) => t.trim());
  if (targets.length === 0)
    throw new Error(
      "SIP_EDGE_TARGETS must list the Switchboard SIP endpoints, e.g. 10.0.0.5:5060,10.0.0.6:5060",
    );
  const host = env.SIP_EDGE_HOST || "127.0.0.1";
  if (!net.isIP(host)) throw new Error(`SIP_EDGE_HOST must be an IP address (got "${host}")`);
  const algorithm = env.SIP_EDGE_ALGORITHM || "round-robin";
  if (!["round-robin", "call-id"].includes(algorithm))
    throw new Error(`SIP_EDGE_ALGORITHM must be round-robin or call-id (got "${algorithm}")`);
  const production = env.NODE_ENV === "production";
  return {
    host,
    port: whole(env, "SIP_EDGE_PORT", 5060, 1, 65_535),
    targets: targets.map(parseTarget),
    algorithm,
    pingInterval: whole(env, "SIP_EDGE_PING_SECONDS", 2, 1, 3600),
    frTimerMs: whole(env, "SIP_EDGE_TARGET_TIMEOUT_MS", 1500, 100, 60_000),
    answerTimeoutMs: whole(env, "SIP_EDGE_ANSWER_TIMEOUT_MS", 10_000, 1000, 300_000),
    children: whole(env, "SIP_EDGE_CHILDREN", 2, 1, 64),
    sourceRate: whole(env, "SIP_SOURCE_RATE", 200, 1, 1_000_000),
    unlistedRate: whole(env, "SIP_UNLISTED_RATE", 10, 1, 1_000_000),
    trustLoopback: env.SIP_TRUST_LOOPBACK ? env.SIP_TRUST_LOOPBACK === "true" : !production,
    allow: (env.SIP_EDGE_ALLOW ?? "")
      .split(",")
      .map((a) => a.trim())
      .filter(Boolean),
    databaseUrl: env.DATABASE_URL || null,
    runDir: path.resolve(root, env.SIP_EDGE_RUN_DIR || ".tmp/sip-edge"),
    debug: whole(env, "SIP_EDGE_LOG_LEVEL", 1, -5, 3),
  };
}

/** kamailio.cfg: the template with its {{NAME}} values filled in. */
export function renderConfig(settings, template = readFileSync(TEMPLATE, "utf8")) {
  const values = {
    HOST: settings.host,
    HOST_URI: net.isIP(settings.host) === 6 ? `[${settings.host}]` : settings.host,
    PORT: settings.port,
    RUN_DIR: settings.runDir,
    CHILDREN: settings.children,
    DEBUG: settings.debug,
    FR_TIMER_MS: settings.frTimerMs,
    ANSWER_TIMEOUT_MS: settings.answerTimeoutMs,
    PING_INTERVAL: settings.pingInterval,
    ALGORITHM: settings.algorithm === "call-id" ? 0 : 4,
    // pike counts requests over 2-second windows.
    PIKE_DENSITY: settings.sourceRate * 2,
    SOURCE_RATE: settings.sourceRate,
    UNLISTED_RATE: settings.unlistedRate,
  };
  return template.replace(/\{\{([A-Z_]+)\}\}/g, (_match, name) => {
    if (!(name in values)) throw new Error(`kamailio.cfg.tmpl: no value for {{${name}}}`);
    return String(values[name]);
  });
}

/** Dispatcher set 1: every target. */
export function dispatcherList(targets) {
  const lines = targets.map(({ host, port }) => {
    const uri = net.isIP(host) === 6 ? `[${host}]` : host;
    return `1 sip:${uri}:${port} 0 0`;
  });
  return `# set destination flags priority (written by scripts/sip-edge.mjs)\n${lines.join("\n")}\n`;
}

/** One address-file record (group 1) for an allow-list entry (`203.0.113.7`, `203.0.113.0/24`), or null. */
function addressRecord(entry, tag) {
  try {
    const [address, bits] = entry.includes("/")
      ? ipaddr.parseCIDR(entry)
      : [ipaddr.process(entry), entry.includes(":") ? 128 : 32];
    const plain = address.kind() === "ipv6" ? `[${address.toString()}]` : address.toString();
    return `1 ${plain} ${bits} 0 ${tag}`;
  } catch {
    return null;
  }
}

/**
 * The permissions module's address file: the organisations' allow-lists (`rows`), SIP_EDGE_ALLOW, and
 * loopback when SIP_TRUST_LOOPBACK (as on the server: development and test).
 */
export function addressList(settings, rows) {
  const lines = ["# group address mask port tag (written by scripts/sip-edge.mjs)"];
  const seen = new Set();
  const add = (entry, tag) => {
    const line = addressRecord(entry, tag);
    const key = line?.split(" ").slice(1, 3).join(" ");
    if (!line || seen.has(key)) return;
    seen.add(key);
    lines.push(line);
  };
  if (settings.trustLoopback) {
    add("127.0.0.0/8", "loopback");
    add("::1", "loopback");
  }
  for (const entry of settings.allow) add(entry, "SIP_EDGE_ALLOW");
  for (const row of rows) add(row.ip, `org-${row.orgId}`);
  return `${lines.join("\n")}\n`;
}

/** Every organisation's allow-list rows, read from PostgreSQL (none without DATABASE_URL). */
export async function loadAllowRows(databaseUrl) {
  if (!databaseUrl) return [];
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const result = await client.query('select org_id as "orgId", ip from sip_allowlist order by id');
    return result.rows;
  } finally {
    await client.end();
  }
}

/** Writes a file whole (a reload never reads half of one). */
function writeWhole(file, text) {
  writeFileSync(`${file}.new`, text);
  renameSync(`${file}.new`, file);
}

/** Writes kamailio.cfg, the dispatcher list and the address file into the runtime directory. */
export function writeEdgeFiles(settings, rows) {
  mkdirSync(settings.runDir, { recursive: true });
  const files = {
    config: path.join(settings.runDir, "kamailio.cfg"),
    dispatcher: path.join(settings.runDir, "dispatcher.list"),
    addresses: path.join(settings.runDir, "address.list"),
  };
  writeWhole(files.config, renderConfig(settings));
  writeWhole(files.dispatcher, dispatcherList(settings.targets));
  writeWhole(files.addresses, addressList(settings, rows));
  return files;
}

/** Runs one RPC command on the running edge (kamcmd over its control socket); throws when it fails. */
export function edgeCommand(settings, ...command) {
  const socket = `unix:${path.join(settings.runDir, "kamailio.ctl")}`;
  const result = spawnSync(KAMCMD, ["-s", socket, ...command], { encoding: "utf8", timeout: 10_000 });
  // kamcmd exits 0 when the command itself failed ("error: 500 - ..."): read what it said.
  if (result.status !== 0 || /^error:/m.test(result.stdout ?? ""))
    throw new Error(`kamcmd ${command.join(" ")} failed: ${(result.stderr || result.stdout || "").trim()}`);
  return result.stdout;
}

/** Rewrites the dispatcher list and the allow-list from the settings now, and has the edge read them. */
export async function reloadEdge(settings, rows) {
  const allow = rows ?? (await loadAllowRows(settings.databaseUrl));
  writeWhole(path.join(settings.runDir, "dispatcher.list"), dispatcherList(settings.targets));
  writeWhole(path.join(settings.runDir, "address.list"), addressList(settings, allow));
  edgeCommand(settings, "dispatcher.reload");
  edgeCommand(settings, "permissions.addressReload");
  return allow.length;
}

/** Resolves once something answers an OPTIONS on the edge's UDP port (any answer: 200 or 403). */
async function answering(settings, timeoutMs) {
  const socket = dgram.createSocket(net.isIP(settings.host) === 6 ? "udp6" : "udp4");
  const deadline = Date.now() + timeoutMs;
  try {
    await new Promise((resolve, reject) => {
      socket.once("error", reject);
      socket.bind(0, settings.host, resolve);
    });
    const local = socket.address();
    const hostUri = net.isIP(settings.host) === 6 ? `[${settings.host}]` : settings.host;
    let answered = false;
    socket.on("message", () => {
      answered = true;
    });
    for (let n = 1; !answered; n++) {
      if (Date.now() > deadline) return false;
      const branch = `z9hG4bKedgeprobe${n}${Date.now()}`;
      const probe = [
        `OPTIONS sip:${hostUri}:${settings.port} SIP/2.0`,
        `Via: SIP/2.0/UDP ${hostUri}:${local.port};branch=${branch};rport`,
        "Max-Forwards: 2",
        `From: <sip:probe@${hostUri}>;tag=${branch}`,
        `To: <sip:${hostUri}:${settings.port}>`,
        `Call-ID: ${branch}@edge-start`,
        "CSeq: 1 OPTIONS",
        "Content-Length: 0",
        "",
        "",
      ].join("\r\n");
      socket.send(probe, settings.port, settings.host);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return true;
  } finally {
    socket.close();
  }
}

/**
 * Writes the edge's files and starts kamailio in the foreground (its own runtime directory, no system
 * service). Resolves once it answers on its port. With DATABASE_URL it follows the server's SIP settings
 * notifications and reloads the allow-list after each change (`onReload` is told). `stop` ends it
 * (SIGTERM, then SIGKILL after 5 s).
 */
export async function startSipEdge(settings, options = {}) {
  if (!existsSync(KAMAILIO))
    throw new Error("Kamailio is not installed: run `node scripts/ensure-sip-edge.mjs` (as root)");
  const log = options.log ?? (() => {});
  const rows = options.rows ?? (await loadAllowRows(settings.databaseUrl));
  const files = writeEdgeFiles(settings, rows);
  const check = spawnSync(KAMAILIO, ["-c", "-f", files.config, "-L", MODULES], { encoding: "utf8" });
  if (check.status !== 0)
    throw new Error(`kamailio.cfg does not check:\n${(check.stderr || check.stdout).slice(-4000)}`);
  const args = [
    "-DD",
    "-E",
    "-f",
    files.config,
    "-L",
    MODULES,
    "-Y",
    settings.runDir,
    "-P",
    path.join(settings.runDir, "kamailio.pid"),
    "-m",
    String(options.sharedMemoryMb ?? 64),
    "-M",
    "8",
  ];
  const child = spawn(KAMAILIO, args, { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const keep = (chunk) => {
    output = (output + chunk.toString("utf8")).slice(-50_000);
    options.onOutput?.(chunk.toString("utf8"));
  };
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  const exited = new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
  const up = await Promise.race([
    answering(settings, options.startTimeoutMs ?? 15_000),
    exited.then(() => null),
  ]);
  if (!up) {
    if (child.exitCode === null) child.kill("SIGKILL");
    throw new Error(`kamailio did not start:\n${output.slice(-4000)}`);
  }

  // Reloads one after another; a burst of changes is read once.
  let reloading = Promise.resolve();
  const reload = (why, newRows) => {
    const next = reloading.then(async () => {
      const count = await reloadEdge(settings, newRows);
      log(`allow-list reloaded (${why}): ${count} entries`);
      options.onReload?.(count);
      return count;
    });
    reloading = next.catch((error) => log(`reload failed (${why}): ${error.message}`));
    return next;
  };
  let pending = null;
  const unfollow =
    settings.databaseUrl && options.follow !== false
      ? await followSettings(
          settings.databaseUrl,
          () => {
            if (pending) return;
            pending = setTimeout(() => {
              pending = null;
              void reload("settings changed").catch(() => {});
            }, 100);
          },
          log,
        )
      : null;

  return {
    pid: child.pid,
    child,
    exited,
    files,
    output: () => output,
    /** Rewrites the lists (the allow-list from `newRows`, else from the database) and reloads them. */
    reload: (newRows) => reload("asked", newRows),
    command: (...command) => edgeCommand(settings, ...command),
    async stop() {
      if (pending) clearTimeout(pending);
      await unfollow?.();
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Follows the server's SIP settings notifications: calls `onChange` after each (PostgreSQL only). */
async function followSettings(databaseUrl, onChange, log) {
  const { default: pg } = await import("pg");
  let client = null;
  let stopped = false;
  let reconnected = false;
  const connect = async () => {
    if (stopped) return;
    try {
      client = new pg.Client({ connectionString: databaseUrl });
      client.on("notification", () => onChange());
      client.on("error", (error) => {
        log(`lost the settings notifications (${error.message}); reconnecting`);
        client = null;
        setTimeout(connect, 1000).unref();
      });
      await client.connect();
      await client.query(`LISTEN ${SETTINGS_CHANNEL}`);
      // Changes made while not listening (after a loss) are read again.
      if (reconnected) onChange();
      reconnected = true;
    } catch (error) {
      log(`could not follow the SIP settings (${error.message}); retrying`);
      client = null;
      setTimeout(connect, 1000).unref();
    }
  };
  await connect();
  return async () => {
    stopped = true;
    await client?.end().catch(() => {});
  };
}

async function main() {
  const ensure = spawnSync(process.execPath, [path.join(root, "scripts/ensure-sip-edge.mjs")], {
    stdio: "inherit",
  });
  if (ensure.status !== 0) process.exit(1);
  let settings;
  try {
    settings = edgeSettings();
  } catch (error) {
    console.error(`Invalid SIP edge configuration: ${error.message}`);
    process.exit(1);
  }
  const log = (line) => console.log(`[sip-edge] ${line}`);

  if (process.argv.includes("--reload")) {
    try {
      const count = await reloadEdge(settings);
      log(`reloaded: ${settings.targets.length} targets, ${count} allow-list entries from the database`);
    } catch (error) {
      console.error(`[sip-edge] reload failed: ${error.message}`);
      process.exit(1);
    }
    return;
  }

  const edge = await startSipEdge(settings, { onOutput: (text) => process.stderr.write(text), log });
  const hostUri = net.isIP(settings.host) === 6 ? `[${settings.host}]` : settings.host;
  log(
    `kamailio ${edge.pid} on ${hostUri}:${settings.port} (udp, tcp) -> ${settings.targets
      .map((t) => `${t.host}:${t.port}`)
      .join(", ")}; files in ${settings.runDir}`,
  );
  process.on("SIGHUP", () => void edge.reload().catch(() => {}));
  let stopping = false;
  for (const signal of ["SIGINT", "SIGTERM"])
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      void edge.stop().then(() => process.exit(0));
    });
  const { code, signal } = await edge.exited;
  if (stopping) return;
  log(`kamailio exited (${signal ?? code})`);
  await edge.stop();
  process.exit(1);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    console.error(`[sip-edge] ${error.stack ?? error}`);
    process.exit(1);
  });
}
