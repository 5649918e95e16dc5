/** Account types that can name the account in view in an /app path (product spec §2.2). */
export const ACCOUNT_SEGMENT_TYPES = ["partner", "reseller", "org", "agent"] as const;
export type AccountSegmentType = (typeof ACCOUNT_SEGMENT_TYPES)[number];

export type AccountRef = { type: AccountSegmentType; id: number };

export type AppPath = {
  /** The account in view: the last `<type>/<numeric id>` pair of the path, or null when there is none. */
  account: AccountRef | null;
  /** Every account pair of the path, in order (e.g. a partner, then one of its organisations). */
  accounts: AccountRef[];
  /** `/app` followed by the account pairs; prefix of every in-app link so the account stays in view. */
  accountPrefix: string;
  /** The remaining segments, decoded: the first names the product area (`inbox`, `settings`, ...). */
  rest: string[];
};

const NUMERIC_ID = /^\d{1,15}$/;

function isAccountSegmentType(value: string): value is AccountSegmentType {
  return (ACCOUNT_SEGMENT_TYPES as readonly string[]).includes(value);
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * Reads an /app path: `partner|reseller|org|agent` followed by a numeric id names an account, anywhere
 * under /app (`/app/org/42/inbox` -> org 42, area `inbox`). Returns null for paths outside /app.
 */
export function parseAppPath(pathname: string): AppPath | null {
  const segments = pathname.split("/").filter((segment) => segment !== "");
  if (segments[0] !== "app") return null;
  const accounts: AccountRef[] = [];
  const rest: string[] = [];
  for (let index = 1; index < segments.length; index += 1) {
    const segment = decodeSegment(segments[index] as string);
    const next = segments[index + 1];
    if (isAccountSegmentType(segment) && next !== undefined && NUMERIC_ID.test(next)) {
      accounts.push({ type: segment, id: Number(next) });
      index += 1;
    } else {
      rest.push(segment);
    }
  }
  const accountPrefix = ["/app", ...accounts.map((account) => `${account.type}/${account.id}`)].join("/");
  return { account: accounts.at(-1) ?? null, accounts, accountPrefix, rest };
}

/** Builds an in-app path that keeps the account prefix: appPath("/app/org/42", "inbox") -> /app/org/42/inbox. */
export function appPath(accountPrefix: string, ...segments: string[]): string {
  const tail = segments
    .filter((segment) => segment !== "")
    .map(encodeURIComponent)
    .join("/");
  return tail ? `${accountPrefix}/${tail}` : accountPrefix;
}

const ACCOUNT_TYPE_LABELS: Record<AccountSegmentType, string> = {
  partner: "Partner",
  reseller: "Reseller",
  org: "Organization",
  agent: "Agent account",
};

/** "Organization 42". */
export function describeAccount(account: AccountRef): string {
  return `${ACCOUNT_TYPE_LABELS[account.type]} ${account.id}`;
}

/** The account type an /app segment names: `org` is an organization. */
export const SEGMENT_ACCOUNT_TYPE = {
  partner: "partner",
  reseller: "reseller",
  org: "organization",
  agent: "agent",
} as const satisfies Record<AccountSegmentType, string>;

export type SegmentAccountType = (typeof SEGMENT_ACCOUNT_TYPE)[AccountSegmentType];

const SEGMENT_FOR_TYPE: Record<SegmentAccountType, AccountSegmentType> = {
  partner: "partner",
  reseller: "reseller",
  organization: "org",
  agent: "agent",
};

/** The path segment of an account type: organization -> org. */
export function segmentForAccountType(type: SegmentAccountType): AccountSegmentType {
  return SEGMENT_FOR_TYPE[type];
}

/** The app path that puts an account in view: accountAppPath("organization", 42) -> /app/org/42. */
export function accountAppPath(type: SegmentAccountType, id: number, ...segments: string[]): string {
  return appPath(`/app/${SEGMENT_FOR_TYPE[type]}/${id}`, ...segments);
}

/** Message of the account-type check (spec §5 and §8), word for word. */
export const ACCOUNT_TYPE_MISMATCH = "Account type does not match";

/**
 * The account-type check (spec §5): when the path names a type and the fetched account is of another,
 * the check fails with "Account type does not match". Answers the message, or null when the types agree.
 */
export function checkAccountType(
  expected: AccountSegmentType | null | undefined,
  actual: SegmentAccountType,
): string | null {
  if (!expected) return null;
  return SEGMENT_ACCOUNT_TYPE[expected] === actual ? null : ACCOUNT_TYPE_MISMATCH;
}

const TYPE_LABELS: Record<SegmentAccountType, string> = {
  partner: "Partner",
  reseller: "Reseller",
  organization: "Organization",
  agent: "Agent account",
};

/** "Organization", "Agent account", ... */
export function accountTypeLabel(type: SegmentAccountType): string {
  return TYPE_LABELS[type];
}
