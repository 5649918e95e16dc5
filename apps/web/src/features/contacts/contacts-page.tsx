import { FeaturePlaceholder } from "../../components/feature-placeholder.tsx";

export function ContactsPage() {
  return (
    <FeaturePlaceholder
      title="Contacts"
      description="Contacts will list the people your agents talk to, with their details and the history of their calls and messages."
    />
  );
}
