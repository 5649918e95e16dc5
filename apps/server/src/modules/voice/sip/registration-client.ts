/**
 * Our server as a registering user agent (RFC 3261 §10): REGISTER to a PBX or trunk's registrar from the SIP
 * port, answering its digest challenge (digest-auth.ts: SHA-512-256, SHA-256 or MD5), refreshed before the
 * binding expires, retried with growing waits after a failure, and removed (Expires 0) when stopped. Calls
 * the PBX then sends to our Contact arrive at the SIP server like any other.
 */
import { authorize, pickChallenge } from "./digest-auth.ts";
import { randomToken } from "./sip-ids.ts";
import { getHeader, getHeaders, headerParams, type SipRequest, type SipResponse } from "./sip-message.ts";
import type { SipRemote } from "./sip-types.ts";

export type RegistrationTarget = {
  host: string;
  port: number;
  transport: "udp" | "tcp";
  username: string;
  authUsername?: string | null;
  password?: string | null;
  domain?: string | null;
  expires: number;
};

export type RegistrationState = "registering" | "registered" | "failed" | "stopped";

export type RegistrationStatus = {
  state: RegistrationState;
  lastError: string | null;
  registeredAt: Date | null;
  expiresAt: Date | null;
};

export type RegistrationSender = {
  /** Our SIP port (Via, Contact). */
  readonly port: number;
  request(message: SipRequest, dest: SipRemote): Promise<SipResponse | null>;
};

/** Waits after failures before trying again (seconds), the last repeating. */
const RETRY_SECONDS = [5, 15, 30, 60, 120, 300];

export function startRegistration(options: {
  sender: RegistrationSender;
  target: RegistrationTarget;
  /** The host the PBX reaches us at (SIP_PUBLIC_HOST). */
  contactHost: string;
  /** Resolves the registrar's host to the address to send to; throws to refuse it (private, unknown). */
  resolve: (host: string) => Promise<string>;
  onStatus: (status: RegistrationStatus, registrar: string | null) => void;
  /** Retry waits in seconds (tests shorten them). */
  retrySeconds?: number[];
  log?: { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void };
}) {
  const { sender, target, contactHost, log } = options;
  const retries = options.retrySeconds ?? RETRY_SECONDS;
  const callId = `${randomToken(12)}@switchboard`;
  const fromTag = randomToken();
  const domain = target.domain || target.host;
  const aor = `sip:${target.username}@${domain}`;
  const requestUri = target.domain ? `sip:${target.domain}` : `sip:${target.host}:${target.port}`;
  const contact = `<sip:${target.username}@${contactHost}:${sender.port}${target.transport === "tcp" ? ";transport=tcp" : ""}>`;
  let cseq = 0;
  let timer: NodeJS.Timeout | null = null;
  let failures = 0;
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  let registrar: SipRemote | null = null;
  let status: RegistrationStatus = {
    state: "registering",
    lastError: null,
    registeredAt: null,
    expiresAt: null,
  };

  function set(next: Partial<RegistrationStatus>) {
    status = { ...status, ...next };
    try {
      options.onStatus(status, registrar ? registrar.address : null);
    } catch (error) {
      // A listener's failure is its own: the registration goes on.
      log?.warn({ err: error }, "a SIP registration status listener failed");
    }
  }

  function build(expires: number, authorization?: [string, string]): SipRequest {
    cseq++;
    const headers: SipRequest["headers"] = [
      [
        "Via",
        `SIP/2.0/${target.transport.toUpperCase()} ${contactHost}:${sender.port};branch=z9hG4bK${randomToken()};rport`,
      ],
      ["Max-Forwards", "70"],
      ["From", `<${aor}>;tag=${fromTag}`],
      ["To", `<${aor}>`],
      ["Call-ID", callId],
      ["CSeq", `${cseq} REGISTER`],
      ["Contact", contact],
      ["Expires", String(expires)],
      ["Allow", "INVITE, ACK, CANCEL, BYE, OPTIONS, INFO, UPDATE"],
      ["User-Agent", "Switchboard"],
    ];
    if (authorization) headers.push(authorization);
    return { kind: "request", method: "REGISTER", uri: requestUri, headers, body: Buffer.alloc(0) };
  }

  /** One REGISTER exchange (with one answer to a challenge); the final response, or a reason it failed. */
  async function exchange(expires: number): Promise<SipResponse | string> {
    const address = await options.resolve(target.host);
    registrar = { transport: target.transport, address, port: target.port };
    let response = await sender.request(build(expires), registrar);
    if (response && (response.status === 401 || response.status === 407)) {
      const challenge = pickChallenge(
        getHeaders(response, response.status === 401 ? "WWW-Authenticate" : "Proxy-Authenticate"),
      );
      if (!challenge) return `${response.status} ${response.reason} (no digest challenge we can answer)`;
      if (!target.password) return `${response.status} ${response.reason} (the registrar wants a password)`;
      const value = authorize({
        challenge,
        method: "REGISTER",
        uri: requestUri,
        username: target.authUsername || target.username,
        password: target.password,
      });
      response = await sender.request(
        build(expires, [response.status === 401 ? "Authorization" : "Proxy-Authorization", value]),
        registrar,
      );
    }
    if (!response) return "The registrar did not answer";
    return response;
  }

  /** The binding's lifetime the registrar granted: our Contact's expires, else Expires, else what we asked. */
  function grantedSeconds(response: SipResponse): number {
    for (const value of getHeaders(response, "Contact")) {
      if (value.includes(`@${contactHost}:${sender.port}`)) {
        const param = headerParams(value).expires;
        if (param && /^\d+$/.test(param)) return Number(param);
      }
    }
    const header = getHeader(response, "Expires");
    if (header && /^\d+$/.test(header)) return Number(header);
    return target.expires;
  }

  function later(seconds: number) {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      running = attempted();
    }, seconds * 1000);
    timer.unref?.();
  }

  async function attempt(expires = target.expires): Promise<void> {
    if (stopped) return;
    if (status.state !== "registered") set({ state: "registering" });
    let outcome: SipResponse | string;
    try {
      outcome = await exchange(expires);
    } catch (error) {
      outcome = error instanceof Error ? error.message : String(error);
    }
    if (stopped) return;
    if (typeof outcome !== "string" && outcome.status === 423) {
      const min = Number(getHeader(outcome, "Min-Expires"));
      if (Number.isFinite(min) && min > expires && min <= 86_400) return attempt(min);
    }
    if (typeof outcome !== "string" && outcome.status >= 200 && outcome.status < 300) {
      failures = 0;
      const granted = Math.max(1, grantedSeconds(outcome));
      const now = Date.now();
      set({
        state: "registered",
        lastError: null,
        registeredAt: new Date(now),
        expiresAt: new Date(now + granted * 1000),
      });
      log?.info({ registrar: `${target.host}:${target.port}`, granted }, "SIP registration accepted");
      // Refresh before it runs out: at 80% of the binding's life (and never later than 30 s before).
      later(Math.max(0.5, Math.min(granted * 0.8, granted - 30 > 0 ? granted - 30 : granted * 0.8)));
      return;
    }
    const reason = typeof outcome === "string" ? outcome : `${outcome.status} ${outcome.reason}`;
    const wait = retries[Math.min(failures, retries.length - 1)] ?? 60;
    failures++;
    set({ state: "failed", lastError: reason, expiresAt: null });
    log?.warn(
      { registrar: `${target.host}:${target.port}`, reason, retryInSeconds: wait },
      "SIP registration failed",
    );
    later(wait);
  }

  /** An attempt nobody may be waiting for: its failure (a status listener that throws) is logged, not lost. */
  function attempted(): Promise<void> {
    return attempt().catch((error: unknown) =>
      log?.warn(
        { err: error, registrar: `${target.host}:${target.port}` },
        "SIP registration attempt failed",
      ),
    );
  }

  // On the next tick: the caller holds the handle before the first status arrives.
  running = Promise.resolve().then(attempted);

  return {
    /** The Call-ID of every REGISTER of this registration (captures). */
    callId,
    get status() {
      return status;
    },
    /** The registrar's address once resolved: the PBX's INVITEs come from there. */
    get registrar() {
      return registrar;
    },
    /** Waits for the attempt in progress (tests). */
    settled: () => running,
    /** Removes our binding (Expires 0, best effort) and stops refreshing. */
    async stop(unregister = true): Promise<void> {
      if (stopped) return;
      if (timer) clearTimeout(timer);
      timer = null;
      await running.catch(() => {});
      stopped = true;
      if (unregister && status.state === "registered") {
        try {
          await Promise.race([exchange(0), new Promise((resolve) => setTimeout(resolve, 4000))]);
        } catch {
          // Best effort: the binding expires on its own.
        }
      }
      status = { ...status, state: "stopped", expiresAt: null };
      options.onStatus(status, null);
    },
  };
}

export type Registration = ReturnType<typeof startRegistration>;
