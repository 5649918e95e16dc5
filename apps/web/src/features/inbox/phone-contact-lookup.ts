import { useMutation, useQueryClient } from "@tanstack/react-query";
import { newRequestId, requestNative } from "../../lib/native-bridge.ts";
import { useSaveContact } from "../contacts/api.ts";

/** What the native app answers to `searchContact` (README: the mobile app's contract). */
type SearchAnswer = { name?: string | null } | null;

export const PHONE_LOOKUP_MESSAGES = {
  noAnswer: "The app did not answer. Update the app and try again.",
  notFound: "This number is not in the phone's contacts.",
} as const;

/**
 * In the mobile app: looks a conversation's number up in the phone's own contacts (`searchContact`) and,
 * when the phone knows the name, saves it as a contact of the organisation (when the user may edit), so
 * the inbox shows the name from then on. Answers the name found.
 */
export function usePhoneContactLookup(canSave: boolean) {
  const save = useSaveContact();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (number: string): Promise<string> => {
      const answer = (await requestNative({
        command: "searchContact",
        value: number,
        requestId: newRequestId("searchContact"),
      })) as SearchAnswer;
      if (!answer) throw new Error(PHONE_LOOKUP_MESSAGES.noAnswer);
      const name = answer.name?.trim();
      if (!name) throw new Error(PHONE_LOOKUP_MESSAGES.notFound);
      if (canSave) {
        const [firstName, ...rest] = name.split(/\s+/);
        await save.mutateAsync({ newData: { firstName, lastName: rest.join(" "), phone: number } });
      }
      return name;
    },
    // The open conversation shows the saved name.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["inbox", "room"] }),
  });
}
