import { createHash } from "node:crypto";

/**
 * JobNimbus (a CRM for contractors), reached with the business's API key as a Bearer token. The real client
 * speaks JobNimbus's public API v1 (`/api1`); the offline sandbox (the default) accepts keys that start with
 * `sandbox_` and answers a small contractor's account. A refusal carries JobNimbus's HTTP status, which the
 * routes answer as `valid: false, status`.
 */

export type JobNimbusWorkflow = { id: number; name: string; statuses: string[] };
export type JobNimbusMember = { id: string; name: string; email: string | null; busyCount: number };

export type JobNimbusApi = {
  kind: "jobnimbus" | "sandbox";
  settings(apiKey: string): Promise<{ workflows: JobNimbusWorkflow[] }>;
  /** Active team members and how many tasks each has on the day [dayStart, dayEnd). */
  team(apiKey: string, dayStart: Date, dayEnd: Date): Promise<JobNimbusMember[]>;
};

export class JobNimbusRefused extends Error {
  override name = "JobNimbusRefused";
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/** `Bearer abc` or `abc` → `abc`. */
export function bareKey(authorization: string): string {
  return authorization.replace(/^bearer\s+/i, "").trim();
}

type Json = Record<string, unknown>;
const list = (answer: unknown, key: string): Json[] =>
  (Array.isArray(answer)
    ? answer
    : Array.isArray((answer as Json)?.[key])
      ? (answer as Json)[key]
      : []) as Json[];

export function jobNimbusClient(apiUrl: string): JobNimbusApi {
  const base = apiUrl.replace(/\/$/, "");
  async function get(path: string, apiKey: string): Promise<unknown> {
    let response: Response;
    try {
      response = await fetch(`${base}${path}`, {
        headers: { authorization: `Bearer ${apiKey}`, accept: "application/json" },
        signal: AbortSignal.timeout(10_000),
      });
    } catch (error) {
      throw new JobNimbusRefused(`JobNimbus could not be reached (${(error as Error).message})`, 502);
    }
    if (!response.ok)
      throw new JobNimbusRefused(
        `JobNimbus answered ${response.status} ${response.statusText}`,
        response.status,
      );
    return response.json();
  }
  return {
    kind: "jobnimbus",
    async settings(apiKey) {
      const answer = (await get("/account/settings", apiKey)) as Json;
      return {
        workflows: list(answer, "workflows").map((workflow) => ({
          id: Number(workflow.id),
          name: String(workflow.name ?? ""),
          statuses: list(workflow, "status").map((status) => String(status.name ?? "")),
        })),
      };
    },
    async team(apiKey, dayStart, dayEnd) {
      const users = list(await get("/account/users", apiKey), "results").filter(
        (user) => user.is_active !== false,
      );
      const filter = JSON.stringify({
        must: [
          {
            range: {
              date_start: {
                gte: Math.floor(dayStart.getTime() / 1000),
                lt: Math.floor(dayEnd.getTime() / 1000),
              },
            },
          },
        ],
      });
      const tasks = list(
        await get(`/tasks?size=1000&filter=${encodeURIComponent(filter)}`, apiKey),
        "results",
      );
      return users.map((user) => {
        const id = String(user.jnid ?? user.id ?? "");
        const name = String(user.name ?? [user.first_name, user.last_name].filter(Boolean).join(" "));
        const busyCount = tasks.filter((task) =>
          list(task, "owners").some((owner) => String(owner.id) === id),
        ).length;
        return { id, name, email: typeof user.email === "string" ? user.email : null, busyCount };
      });
    },
  };
}

const SANDBOX_WORKFLOWS: JobNimbusWorkflow[] = [
  {
    id: 1,
    name: "Roof replacement",
    statuses: ["Lead", "Inspection booked", "Estimate sent", "Sold", "Installed", "Paid"],
  },
  {
    id: 2,
    name: "Insurance claim",
    statuses: ["Lead", "Claim filed", "Adjuster meeting", "Approved", "Completed"],
  },
  { id: 3, name: "Repair", statuses: ["Lead", "Scheduled", "Completed"] },
];
const SANDBOX_TEAM = [
  { id: "sbx-user-1", name: "Dana Ortiz", email: "dana@sandbox-roofing.example" },
  { id: "sbx-user-2", name: "Lee Park", email: "lee@sandbox-roofing.example" },
  { id: "sbx-user-3", name: "Sam Reyes", email: "sam@sandbox-roofing.example" },
];

/** The offline JobNimbus: a sandbox roofing company with three workflows and a team of three. */
export function sandboxJobNimbus(): JobNimbusApi {
  const check = (apiKey: string) => {
    if (!apiKey.startsWith("sandbox_") || apiKey.length < 12)
      throw new JobNimbusRefused("JobNimbus answered 401 Unauthorized", 401);
  };
  return {
    kind: "sandbox",
    async settings(apiKey) {
      check(apiKey);
      return { workflows: SANDBOX_WORKFLOWS };
    },
    async team(apiKey, dayStart) {
      check(apiKey);
      const day = dayStart.toISOString().slice(0, 10);
      // Each member's load on a day is fixed by the key and the day, so the sandbox answers the same twice.
      return SANDBOX_TEAM.map((member) => ({
        ...member,
        busyCount: (createHash("sha256").update(`${apiKey}:${member.id}:${day}`).digest()[0] ?? 0) % 5,
      }));
    },
  };
}
