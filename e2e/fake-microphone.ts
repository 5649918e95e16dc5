import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, renameSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { CHROMIUM_ARGS } from "./playwright.config.ts";

/** The fake microphone: quiet (the agent greets first; nobody speaks), 20 s of 16 kHz silence. */
function quietWav(): string {
  const dir = path.join(os.tmpdir(), "switchboard-e2e-numbers");
  const file = path.join(dir, "quiet.wav");
  if (existsSync(file)) return file;
  mkdirSync(dir, { recursive: true });
  const out = path.join(dir, `quiet.${process.pid}.wav`);
  execFileSync("sox", [
    "-n",
    "-r",
    "16000",
    "-c",
    "1",
    "-b",
    "16",
    "-e",
    "signed-integer",
    out,
    "trim",
    "0",
    "20",
  ]);
  renameSync(out, file);
  return file;
}

/** `test.use(...)` for journeys that call from the browser: a microphone that is allowed and quiet. */
export function quietMicrophone() {
  return {
    permissions: ["microphone"],
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
      args: [
        ...CHROMIUM_ARGS,
        "--use-fake-device-for-media-stream",
        "--use-fake-ui-for-media-stream",
        `--use-file-for-fake-audio-capture=${quietWav()}`,
      ],
    },
  };
}
