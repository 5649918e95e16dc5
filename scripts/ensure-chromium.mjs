#!/usr/bin/env node
// e2e needs Debian's Chromium. Installs it with apt-get when missing and running as root;
// otherwise says in one line what to install.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const wanted = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
if (existsSync(wanted)) process.exit(0);
if (process.env.CHROMIUM_PATH) {
  console.error(`CHROMIUM_PATH is set to ${wanted}, which does not exist.`);
  process.exit(1);
}
if (process.getuid?.() !== 0) {
  console.error(
    "e2e tests need Chromium: install Debian's package with `sudo apt-get install -y chromium`, or set CHROMIUM_PATH.",
  );
  process.exit(1);
}
console.log("Chromium is missing: installing Debian's chromium package with apt-get...");
const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
for (const args of [
  ["update", "-qq"],
  ["install", "-y", "-qq", "--no-install-recommends", "chromium"],
]) {
  const result = spawnSync("apt-get", args, { stdio: "inherit", env });
  if (result.status !== 0) {
    console.error(
      `apt-get ${args.join(" ")} failed; install Chromium by hand (apt-get install chromium) or set CHROMIUM_PATH.`,
    );
    process.exit(1);
  }
}
if (!existsSync(wanted)) {
  console.error(`apt-get installed chromium but ${wanted} is still missing; set CHROMIUM_PATH.`);
  process.exit(1);
}
