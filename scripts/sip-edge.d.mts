// Types of scripts/sip-edge.mjs for the TypeScript that drives it (the edge's test and bench).
import type { ChildProcess } from "node:child_process";

export type EdgeTarget = { host: string; port: number };
export type EdgeSettings = {
  host: string;
  port: number;
  targets: EdgeTarget[];
  algorithm: "round-robin" | "call-id";
  pingInterval: number;
  frTimerMs: number;
  answerTimeoutMs: number;
  children: number;
  sourceRate: number;
  unlistedRate: number;
  trustLoopback: boolean;
  allow: string[];
  databaseUrl: string | null;
  runDir: string;
  debug: number;
};
export type AllowRow = { orgId: number; ip: string };
export type SipEdgeProcess = {
  pid: number | undefined;
  child: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  files: { config: string; dispatcher: string; addresses: string };
  output(): string;
  reload(rows?: AllowRow[]): Promise<number>;
  command(...command: string[]): string;
  stop(): Promise<void>;
};

export const KAMAILIO: string;
export const KAMCMD: string;
export const TEMPLATE: string;
export function parseTarget(text: string): EdgeTarget;
export function edgeSettings(env?: Record<string, string | undefined>): EdgeSettings;
export function renderConfig(settings: EdgeSettings, template?: string): string;
export function dispatcherList(targets: EdgeTarget[]): string;
export function addressList(settings: EdgeSettings, rows: AllowRow[]): string;
export function loadAllowRows(databaseUrl: string | null): Promise<AllowRow[]>;
export function writeEdgeFiles(
  settings: EdgeSettings,
  rows: AllowRow[],
): { config: string; dispatcher: string; addresses: string };
export function edgeCommand(settings: EdgeSettings, ...command: string[]): string;
export function reloadEdge(settings: EdgeSettings, rows?: AllowRow[]): Promise<number>;
export function startSipEdge(
  settings: EdgeSettings,
  options?: {
    rows?: AllowRow[];
    follow?: boolean;
    log?: (line: string) => void;
    onReload?: (count: number) => void;
    onOutput?: (text: string) => void;
    startTimeoutMs?: number;
    sharedMemoryMb?: number;
  },
): Promise<SipEdgeProcess>;
