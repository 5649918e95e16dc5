#!/usr/bin/env node
// The offline voice stack and its tests need Debian's speech tools: espeak-ng (text to speech), pocketsphinx
// with its US English model (speech to text), sox (resampling), festival with an HTS voice (test questions)
// and sipp (the SIP test peer). Installs the missing ones with apt-get when running as root; otherwise says
// in one line what to install. `--check` only reports (exit 1 when something is missing).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

/** Debian package -> a file it installs that we use. */
const TOOLS = [
  ["espeak-ng", ["/usr/bin/espeak-ng"]],
  ["sox", ["/usr/bin/sox"]],
  ["pocketsphinx", ["/usr/bin/pocketsphinx_continuous", "/usr/bin/pocketsphinx"]],
  ["pocketsphinx-en-us", ["/usr/share/pocketsphinx/model/en-us/en-us"]],
  ["festival", ["/usr/bin/text2wave"]],
  ["festvox-us-slt-hts", ["/usr/share/festival/voices/us/cmu_us_slt_arctic_hts"]],
  ["sip-tester", ["/usr/bin/sipp"]],
];

const missing = () =>
  TOOLS.filter(([, files]) => !files.some((file) => existsSync(file))).map(([pkg]) => pkg);

const wanted = missing();
if (wanted.length === 0) process.exit(0);
const command = `apt-get install -y --no-install-recommends ${wanted.join(" ")}`;
if (process.argv.includes("--check") || process.getuid?.() !== 0) {
  console.error(
    `Voice calls and their tests need Debian's speech tools: install them with \`sudo ${command}\`.`,
  );
  process.exit(1);
}
console.log(`Voice tools missing (${wanted.join(", ")}): installing them with apt-get...`);
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
