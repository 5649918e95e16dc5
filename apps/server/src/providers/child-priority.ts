/**
 * Offline recognisers and synthesisers run as child processes at a lower CPU priority (`nice -n <level>`,
 * VOICE_CHILD_NICE, default 10) so that, when calls fill the cores, the media thread's pacing and the
 * server's own work come before recognition. Without a `nice` binary, or at level 0, the command runs as is.
 */
import { existsSync } from "node:fs";
import path from "node:path";

export const DEFAULT_CHILD_NICE = 10;

let found: string | null | undefined;
function niceBinary(): string | null {
  if (found === undefined) {
    const dirs = (process.env.PATH ?? "/usr/bin:/bin").split(path.delimiter).filter(Boolean);
    found = dirs.map((dir) => path.join(dir, "nice")).find((file) => existsSync(file)) ?? null;
  }
  return found;
}

/** The command and arguments to spawn `command` at nice `level` (0: as it is). */
export function nicedCommand(
  command: string,
  args: string[],
  level: number = DEFAULT_CHILD_NICE,
  nice: string | null = niceBinary(),
): { command: string; args: string[] } {
  if (level <= 0 || !nice) return { command, args };
  return { command: nice, args: ["-n", String(level), command, ...args] };
}
