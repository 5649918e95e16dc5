import { AccountLayer } from "./account-layer.tsx";
import { AppLayout } from "./app-layout.tsx";

/** What /app renders once the gate lets a visit through (a chunk of its own, see app-gate.tsx). */
export default function SignedInShell() {
  return (
    <AccountLayer>
      <AppLayout />
    </AccountLayer>
  );
}
