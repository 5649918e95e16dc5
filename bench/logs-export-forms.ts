// Where the streaming export's CPU goes, per form of the slice statement (docs/benchmarks.md, "Streaming
// export: lines built in Node, measured"). Runs on a database kept by the logs bench (`BENCH_KEEP=1
// BENCH_LOGS_DB=<name> node --import tsx bench/logs.bench.ts`), over the measured organisation's rows in 25
// time slices on one connection, and prints per form the backend's CPU (from /proc: PostgreSQL on this
// machine) and this process's, three rounds (BENCH_ROUNDS) in turns:
//   sql       the lines built in SQL, as the export builds them (csvLineSql, string_agg per slice)
//   raw       the raw columns as array rows (identity type parsers), Node only receiving
//   rawlines  the same, with the lines built in Node
//   copy      COPY (SELECT raw columns) TO STDOUT, Node only receiving
//   copylines the same, each row's COPY text turned into the export's CSV bytes in Node
//   copycsv   the export on a PostgreSQL server: COPY (SELECT copyCellSql cells) TO STDOUT (FORMAT csv)
//             through pg-copy-streams, its bytes made the export's by CopyCsvLines
// BENCH_CHECK=1 compares copylines, copycsv and rawlines with sql slice by slice (byte-identical, or it
// throws).
// `node --import tsx bench/logs-export-forms.ts [form,...]`
import { readFileSync } from "node:fs";
import pg from "pg";
import { to as copyTo } from "pg-copy-streams";
import { CopyCsvLines, copyCellSql, csvCell, csvLineSql } from "../apps/server/src/modules/logs/csv.ts";

const serverUrl =
  process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const url = new URL(serverUrl);
url.pathname = `/${process.env.BENCH_LOGS_DB ?? "sb_bench_logs"}`;
const client = new pg.Client({ connectionString: url.toString() });
await client.connect();
await client.query("SET jit = off");
const pid = Number((await client.query("SELECT pg_backend_pid() AS pid")).rows[0]?.pid);
/** CPU ms of the backend (utime + stime, 10 ms ticks). */
function backendMs(): number {
  const fields = (readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1] ?? "").split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
const [org] = (
  await client.query<{ id: number }>(
    `SELECT m.account_id AS id FROM memberships m JOIN users u ON u.id = m.user_id WHERE u.email = 'bench-0@bench.example'`,
  )
).rows;
if (!org) throw new Error("no bench organisation: generate the database with the logs bench first");
const span = (
  await client.query<{ lo: number; hi: number }>(
    `SELECT (extract(epoch FROM min("timestamp")) * 1000)::float8 AS lo, (extract(epoch FROM max("timestamp")) * 1000 + 1)::float8 AS hi
     FROM conversation_logs WHERE org_id = $1`,
    [org.id],
  )
).rows[0];
if (!span) throw new Error("no rows");
const SLICES = 25;
const step = (span.hi - span.lo) / SLICES;
const windows = Array.from({ length: SLICES }, (_, i) => [
  new Date(span.lo + i * step).toISOString(),
  new Date(span.lo + (i + 1) * step).toISOString(),
]) as Array<[string, string]>;

// The bench's 13 columns. kind: 0 text, 1 plain (integer), 2 the timestamp.
const COLUMNS: Array<{ raw: string; text: string; kind: 0 | 1 | 2 }> = [
  {
    raw: `("timestamp" AT TIME ZONE 'UTC')`,
    text: `to_char("timestamp" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
    kind: 2,
  },
  { raw: "direction", text: "direction", kind: 0 },
  { raw: "from_number", text: "from_number", kind: 0 },
  { raw: "to_number", text: "to_number", kind: 0 },
  { raw: "duration", text: "duration::text", kind: 1 },
  { raw: "transfer", text: "transfer", kind: 0 },
  { raw: "data ->> 'reason'", text: "data ->> 'reason'", kind: 0 },
  { raw: "data ->> 'appointmentBooked'", text: "data ->> 'appointmentBooked'", kind: 0 },
  { raw: "uuid", text: "uuid", kind: 0 },
  { raw: "call_id", text: "call_id", kind: 0 },
  { raw: "account_id", text: "account_id::text", kind: 1 },
  { raw: "agent_id", text: "agent_id::text", kind: 1 },
  { raw: "room_id", text: "room_id", kind: 0 },
];
const KINDS = COLUMNS.map((column) => column.kind);
const line = csvLineSql(COLUMNS.map((column, i) => ({ text: `b.c${i}`, plain: column.kind !== 0 })));
const rawList = COLUMNS.map((column, i) => `${column.raw} AS c${i}`).join(", ");
const WHERE = `org_id = $1 AND "timestamp" >= $2 AND "timestamp" < $3`;
/** COPY takes no parameters: the slice's values as literals (numbers and ISO text made here). */
const literalWhere = (from: string, to: string) =>
  `org_id = ${Number(org.id)} AND "timestamp" >= '${from}' AND "timestamp" < '${to}'`;

async function sqlLines(from: string, to: string): Promise<string> {
  const text = COLUMNS.map((column, i) => `${column.text} AS c${i}`).join(", ");
  const result = await client.query({
    text: `SELECT string_agg(${line}, '' ORDER BY b.ts DESC, b.id DESC) FROM (SELECT "timestamp" AS ts, id, ${text}
      FROM conversation_logs WHERE ${WHERE} OFFSET 0) b`,
    values: [org?.id, from, to],
    rowMode: "array",
  });
  return (result.rows[0]?.[0] as string | null) ?? "";
}

const identity = { getTypeParser: () => (value: string) => value };
async function rawRows(from: string, to: string): Promise<Array<Array<string | null>>> {
  const result = await client.query({
    text: `SELECT ${rawList} FROM conversation_logs WHERE ${WHERE} ORDER BY "timestamp" DESC, id DESC`,
    values: [org?.id, from, to],
    rowMode: "array",
    types: identity,
  });
  return result.rows as Array<Array<string | null>>;
}

/** ISO cell (ms, Z) of `YYYY-MM-DD HH:MI:SS[.ffffff]`, milliseconds truncated as to_char's MS. */
function isoOf(text: string): string {
  const dot = text.indexOf(".", 19);
  const ms = dot < 0 ? "000" : `${text.slice(dot + 1, dot + 4)}00`.slice(0, 3);
  return `${text.slice(0, 10)}T${text.slice(11, 19)}.${ms}Z`;
}
function linesOf(rows: Array<Array<string | null>>): string {
  const lines: string[] = [];
  for (const row of rows) {
    const cells: string[] = [];
    for (let i = 0; i < KINDS.length; i++) {
      const value = row[i] ?? null;
      cells.push(KINDS[i] === 2 && value !== null ? isoOf(value) : csvCell(value));
    }
    lines.push(`${cells.join(",")}\r\n`);
  }
  return lines.join("");
}

/** A COPY … TO STDOUT run through node-postgres: each row's COPY text is handed to `onRow`. */
class CopyOut {
  readonly done: Promise<void>;
  private settle: { resolve: () => void; reject: (error: unknown) => void } | null = null;
  private error: unknown = null;
  constructor(
    private readonly text: string,
    private readonly onRow: (row: Buffer) => void,
  ) {
    this.done = new Promise((resolve, reject) => {
      this.settle = { resolve, reject };
    });
  }
  submit(connection: { query(text: string): void }) {
    connection.query(this.text);
  }
  handleCopyData(message: { chunk: Buffer }) {
    this.onRow(message.chunk);
  }
  handleError(error: unknown) {
    this.error = error;
  }
  handleReadyForQuery() {
    if (this.error) this.settle?.reject(this.error);
    else this.settle?.resolve();
  }
  handleCommandComplete() {}
  handleRowDescription() {}
  handleDataRow() {}
  handleEmptyQuery() {}
  handlePortalSuspended() {}
  handleCopyInResponse() {}
}

const isDigit = (c: number) => c >= 48 && c <= 57;
/** Bytes [from, to) of `src` are a plain number such as -12 or +15035550100 (never defused). */
function plainNumber(src: Buffer, from: number, to: number): boolean {
  let k = from + (src[from] === 43 || src[from] === 45 ? 1 : 0);
  const digits = k;
  while (k < to && isDigit(src[k] as number)) k++;
  if (k === digits) return false;
  if (k === to) return true;
  if (src[k] !== 46) return false;
  const fraction = ++k;
  while (k < to && isDigit(src[k] as number)) k++;
  return k > fraction && k === to;
}

/** Turns rows of COPY text (tab-separated, backslash escapes, \N for NULL) into the export's CSV bytes. */
class CopyToCsv {
  readonly chunks: Buffer[] = [];
  private out = Buffer.allocUnsafe(1 << 22);
  private at = 0;
  private readonly cell = Buffer.allocUnsafe(1 << 16);
  bytes = 0;
  row(b: Buffer): void {
    const n = b.length;
    if (this.out.length - this.at < n * 2 + 64) this.flush();
    const out = this.out;
    let o = this.at;
    let i = 0;
    for (let f = 0; f < KINDS.length; f++) {
      let end = i;
      let quote = false;
      let escaped = false;
      while (end < n) {
        const c = b[end] as number;
        if (c === 9 || c === 10) break;
        if (c === 92) escaped = true;
        else if (c === 34 || c === 44) quote = true;
        end++;
      }
      if (f > 0) out[o++] = 44;
      const kind = KINDS[f];
      if (escaped && end - i === 2 && b[i + 1] === 78) {
        // \N: NULL, an empty cell
      } else if (kind === 1) {
        o += b.copy(out, o, i, end);
      } else if (kind === 2) {
        o += b.copy(out, o, i, i + 10);
        out[o++] = 84;
        o += b.copy(out, o, i + 11, i + 19);
        out[o++] = 46;
        for (let k = 0; k < 3; k++) out[o++] = i + 20 + k < end ? (b[i + 20 + k] as number) : 48;
        out[o++] = 90;
      } else if (end > i) {
        let src = b;
        let from = i;
        let to = end;
        if (escaped) {
          let w = 0;
          for (let k = i; k < end; k++) {
            let c = b[k] as number;
            if (c === 92) {
              const d = b[++k] as number;
              c =
                d === 110
                  ? 10
                  : d === 114
                    ? 13
                    : d === 116
                      ? 9
                      : d === 98
                        ? 8
                        : d === 102
                          ? 12
                          : d === 118
                            ? 11
                            : d;
              if (c === 10 || c === 13) quote = true;
            }
            this.cell[w++] = c;
          }
          src = this.cell;
          from = 0;
          to = w;
        }
        const first = src[from] as number;
        const defuse =
          (first === 61 || first === 43 || first === 45 || first === 64 || first === 9 || first === 13) &&
          !plainNumber(src, from, to);
        if (defuse || quote) {
          out[o++] = 34;
          if (defuse) out[o++] = 39;
          for (let k = from; k < to; k++) {
            const c = src[k] as number;
            out[o++] = c;
            if (c === 34) out[o++] = 34;
          }
          out[o++] = 34;
        } else o += src.copy(out, o, from, to);
      }
      i = end + 1;
    }
    out[o++] = 13;
    out[o++] = 10;
    this.at = o;
  }
  flush(): void {
    this.chunks.push(this.out.subarray(0, this.at));
    this.bytes += this.at;
    this.out = Buffer.allocUnsafe(1 << 22);
    this.at = 0;
  }
}

const check = process.env.BENCH_CHECK === "1";
const copyStatement = (from: string, to: string) =>
  `COPY (SELECT ${rawList} FROM conversation_logs WHERE ${literalWhere(from, to)} ORDER BY "timestamp" DESC, id DESC) TO STDOUT`;
/** The export's own COPY statement (logs.repository.ts csvCopy) over the slice. */
const copyCsvStatement = (from: string, to: string) => {
  const text = COLUMNS.map((column, i) => `${column.text} AS c${i}`).join(", ");
  const cells = COLUMNS.map((column, i) => `${copyCellSql(`b.c${i}`, column.kind !== 0)} AS c${i}`).join(
    ", ",
  );
  return `COPY (SELECT ${cells} FROM (SELECT "timestamp" AS ts, id, ${text} FROM conversation_logs
    WHERE ${literalWhere(from, to)} ORDER BY "timestamp" DESC, id DESC OFFSET 0) b ORDER BY b.ts DESC, b.id DESC)
    TO STDOUT WITH (FORMAT csv)`;
};
const forms: Record<string, (from: string, to: string) => Promise<number>> = {
  sql: async (from, to) => (await sqlLines(from, to)).length,
  raw: async (from, to) => (await rawRows(from, to)).length,
  rawlines: async (from, to) => {
    const text = linesOf(await rawRows(from, to));
    if (check && text !== (await sqlLines(from, to))) throw new Error(`rawlines differ in ${from}..${to}`);
    return text.length;
  },
  copy: async (from, to) => {
    let bytes = 0;
    const copy = new CopyOut(copyStatement(from, to), (row) => {
      bytes += row.length;
    });
    client.query(copy);
    await copy.done;
    return bytes;
  },
  copycsv: async (from, to) => {
    const lines = new CopyCsvLines();
    const chunks: Buffer[] = [];
    let bytes = 0;
    for await (const chunk of client.query(copyTo(copyCsvStatement(from, to)))) {
      const out = lines.push(chunk as Buffer);
      bytes += out.length;
      if (check) chunks.push(out);
    }
    if (check && Buffer.concat(chunks).toString() !== (await sqlLines(from, to)))
      throw new Error(`copycsv differs in ${from}..${to}`);
    return bytes;
  },
  copylines: async (from, to) => {
    const csv = new CopyToCsv();
    const copy = new CopyOut(copyStatement(from, to), (row) => csv.row(row));
    client.query(copy);
    await copy.done;
    csv.flush();
    if (check && Buffer.concat(csv.chunks).toString() !== (await sqlLines(from, to)))
      throw new Error(`copylines differ in ${from}..${to}`);
    return csv.bytes;
  },
};

const chosen = (process.argv[2] ?? "sql,raw,rawlines,copy,copylines").split(",");
console.log(
  `organisation ${org.id}, ${SLICES} slices; load average ${readFileSync("/proc/loadavg", "utf8").trim()}`,
);
for (let round = 1; round <= Number(process.env.BENCH_ROUNDS ?? 3); round++) {
  for (const name of chosen) {
    const form = forms[name];
    if (!form) throw new Error(`no form ${name}: ${Object.keys(forms).join(", ")}`);
    const backend = backendMs();
    const cpu = process.cpuUsage();
    const started = performance.now();
    let size = 0;
    for (const [from, to] of windows) size += await form(from, to);
    const used = process.cpuUsage(cpu);
    console.log(
      `round ${round} ${name}: backend ${backendMs() - backend} ms, node ${Math.round((used.user + used.system) / 1000)} ms, wall ${Math.round(performance.now() - started)} ms (${size} rows or characters)`,
    );
  }
}
await client.end();
