const VIEWING_AS_LABELS: Record<string, string> = {
  superAdmin: "Super admin",
  partner: "Partner",
  reseller: "Reseller",
  owner: "Owner",
  admin: "Admin",
};

/** A role to view the app as, by name (superAdmin -> "Super admin"). */
export function viewingAsLabel(value: string): string {
  return VIEWING_AS_LABELS[value] ?? value;
}
