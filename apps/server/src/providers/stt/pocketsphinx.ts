import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { nicedCommand } from "../child-priority.ts";
import type { SttProvider, SttStream } from "./stt-provider.ts";

const BINARY = "/usr/bin/pocketsphinx_continuous";
const MODEL = "/usr/share/pocketsphinx/model/en-us";

/**
 * Offline recognition with Debian's CMU PocketSphinx 0.8 (`pocketsphinx` + `pocketsphinx-en-us`), one child
 * process per utterance so decoding never runs on the event loop. Loading the model takes 0.3-0.5 s, so a
 * process is started ahead (a warm spare) and the next one as soon as it is taken; frames stream into it
 * while the caller talks, and closing its input at the end of the turn leaves only the last frames to
 * decode (~0.1 s). Good on wideband speech; it does not recognise 8 kHz telephone audio (see
 * ARCHITECTURE.md, Voice).
 */
export function pocketsphinxStt(
  options: {
    binary?: string;
    model?: string;
    timeoutMs?: number;
    /**
     * `fast` (the default): the first, tree-lexicon pass only, whose result is ready as the input ends.
     * `full` adds pocketsphinx's flat-lexicon and lattice passes, which re-decode the whole utterance after
     * it ends (~60-150 ms more at the end of every turn) for a few words fewer wrong (bench/voice-wer).
     */
    passes?: "fast" | "full";
    /** VOICE_CHILD_NICE (child-priority.ts). */
    nice?: number;
  } = {},
) {
  const binary = options.binary ?? BINARY;
  const passArgs = (options.passes ?? "fast") === "fast" ? ["-fwdflat", "no", "-bestpath", "no"] : [];
  const model = options.model ?? MODEL;
  const timeoutMs = options.timeoutMs ?? 15_000;
  let spare: Decoder | null = null;
  let closed = false;

  type Decoder = { child: ChildProcessWithoutNullStreams; output: string[]; errors: string; exited: boolean };

  function launch(): Decoder {
    // Node hands a child a socket for stdin, which pocketsphinx cannot open as `-infile /dev/stdin`; `cat`
    // turns it into a pipe. Its own process group, so one kill ends both. At a lower priority
    // (child-priority.ts): when calls fill the cores, the pacing of every call's audio comes first.
    const command = nicedCommand(
      "sh",
      [
        "-c",
        'cat | exec "$0" "$@"',
        binary,
        "-infile",
        "/dev/stdin",
        "-hmm",
        `${model}/en-us`,
        "-lm",
        `${model}/en-us.lm.bin`,
        "-dict",
        `${model}/cmudict-en-us.dict`,
        ...passArgs,
      ],
      options.nice,
    );
    const child = spawn(command.command, command.args, { stdio: ["pipe", "pipe", "pipe"], detached: true });
    const decoder: Decoder = { child, output: [], errors: "", exited: false };
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (text: string) => decoder.output.push(text));
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (text: string) => {
      decoder.errors = (decoder.errors + text).slice(-2000);
    });
    child.stdin.on("error", () => {});
    child.on("exit", () => {
      decoder.exited = true;
    });
    child.on("error", () => {
      decoder.exited = true;
    });
    return decoder;
  }

  function kill(decoder: Decoder) {
    if (decoder.exited || decoder.child.pid === undefined) return;
    try {
      process.kill(-decoder.child.pid, "SIGKILL");
    } catch {
      decoder.child.kill("SIGKILL");
    }
  }

  function take(): Decoder {
    const taken = spare && !spare.exited ? spare : launch();
    spare = null;
    // The next caller turn's decoder loads while this one is in use.
    setImmediate(() => {
      if (!closed && !spare) spare = launch();
    });
    return taken;
  }

  const provider: SttProvider = {
    name: "pocketsphinx",
    hearsNarrowband: false,
    unavailable() {
      if (!existsSync(binary) || !existsSync(`${model}/en-us`))
        return "Speech recognition needs Debian's pocketsphinx and pocketsphinx-en-us: run `node scripts/ensure-voice-tools.mjs` (as root) or `sudo apt-get install -y pocketsphinx pocketsphinx-en-us`.";
      return null;
    },
    start(): SttStream {
      const decoder = take();
      let finishing: Promise<string> | null = null;
      return {
        write(frame) {
          if (finishing || decoder.exited) return;
          decoder.child.stdin.write(new Uint8Array(frame.buffer, frame.byteOffset, frame.byteLength));
        },
        finish() {
          finishing ??= new Promise<string>((resolve, reject) => {
            const timer = setTimeout(() => {
              kill(decoder);
              reject(new Error(`pocketsphinx did not answer within ${timeoutMs} ms`));
            }, timeoutMs);
            const done = (code: number | null) => {
              clearTimeout(timer);
              if (code === 0) resolve(decoder.output.join("").replace(/\s+/g, " ").trim());
              else
                reject(
                  new Error(
                    `pocketsphinx failed (exit ${code}): ${decoder.errors.trim().split("\n").at(-1) ?? ""}`,
                  ),
                );
            };
            if (decoder.exited) done(decoder.child.exitCode);
            else decoder.child.once("close", done);
            decoder.child.stdin.end();
          });
          return finishing;
        },
        abort() {
          kill(decoder);
        },
      };
    },
    close() {
      closed = true;
      if (spare) kill(spare);
      spare = null;
    },
  };
  return provider;
}
