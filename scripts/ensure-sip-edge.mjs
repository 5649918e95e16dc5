#!/usr/bin/env node
// The SIP edge (`npm run start:sip-edge`, docs/telephony.md) is Kamailio from Debian: its `kamailio` package
// holds the core and every module the edge loads (dispatcher, pike, permissions, htable, tm, rr, ctl).
// Installs it with apt-get when missing and running as root; otherwise says in one line what to install.
// `--check` only reports (exit 1 when something is missing). Debian's package would also start a system
// service where systemd runs; the edge never uses it (it runs its own kamailio in the foreground).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const KAMAILIO = "/usr/sbin/kamailio";
const KAMCMD = "/usr/sbin/kamcmd";
const MODULES = "/usr/lib/x86_64-linux-gnu/kamailio/modules";
/** Debian package -> files of it the edge uses. */
const PACKAGES = [
  [
    "kamailio",
    [KAMAILIO, KAMCMD, ...["dispatcher", "pike", "permissions", "htable"].map((m) => `${MODULES}/${m}.so`)],
  ],
];

const missing = () =>
  PACKAGES.filter(([, files]) => !files.every((file) => existsSync(file))).map(([pkg]) => pkg);

const wanted = missing();
if (wanted.length === 0) process.exit(0);
const command = `apt-get install -y --no-install-recommends ${wanted.join(" ")}`;
if (process.argv.includes("--check") || process.getuid?.() !== 0) {
  console.error(`The SIP edge and its tests need Kamailio: install it with \`sudo ${command}\`.`);
  process.exit(1);
}
console.log(`Kamailio missing (${wanted.join(", ")}): installing it with apt-get...`);
const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
// Another apt-get (a colleague's install, unattended upgrades) may hold the lock: wait for it.
const lock = ["-o", "DPkg::Lock::Timeout=300"];
for (const args of [
  [...lock, "update", "-qq"],
  [...lock, "install", "-y", "-qq", "--no-install-recommends", ...wanted],
]) {
  const result = spawnSync("apt-get", args, { stdio: "inherit", env });
  if (result.status !== 0) {
    console.error(`apt-get ${args.slice(2).join(" ")} failed; install by hand: ${command}`);
    process.exit(1);
  }
}
const still = missing();
if (still.length > 0) {
  console.error(`apt-get finished but these are still missing: ${still.join(", ")}.`);
  process.exit(1);
}
