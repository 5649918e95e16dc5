import {
  type AccountFields,
  emailRequestVerificationCode,
  emailValidateVerificationCode,
  saveAccount,
  saveSocialLinks,
  updateUsername,
  uploadProfileImage,
} from "@switchboard/api";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useAccountState } from "../../lib/account-state.ts";
import { apiClient } from "../../lib/api-client.ts";

/** Reloads the account in view (and anything listing accounts) after an edit. */
function useAfterEdit() {
  const { refresh } = useAccountState();
  const queryClient = useQueryClient();
  return async () => {
    await Promise.all([refresh(), queryClient.invalidateQueries({ queryKey: ["account-lists"] })]);
  };
}

/** POST /api/v1/account: the account fields of the account in view. */
export function useSaveAccountFields() {
  const after = useAfterEdit();
  return useMutation({
    mutationFn: (fields: AccountFields) => apiClient.call(saveAccount, { body: fields }),
    onSuccess: after,
  });
}

/** POST /api/v1/updateUsername. */
export function useUpdateUsername() {
  const after = useAfterEdit();
  return useMutation({
    mutationFn: (username: string) => apiClient.call(updateUsername, { body: { username } }),
    onSuccess: after,
  });
}

/** POST /api/v1/account/socialLinks. */
export function useSaveSocialLinks() {
  const after = useAfterEdit();
  return useMutation({
    mutationFn: (input: { socialLinks: Record<string, string>; socialLinksPosition: string | null }) =>
      apiClient.call(saveSocialLinks, { body: input }),
    onSuccess: after,
  });
}

/** POST /api/v1/profile/dp: multipart upload of the profile image. */
export function useUploadAvatar() {
  const after = useAfterEdit();
  return useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.append("image", file, file.name);
      return apiClient.call(uploadProfileImage, { form });
    },
    onSuccess: after,
  });
}

/** POST /api/v1/email/requestVerificationCode: e-mails a code to the new address. */
export function useRequestEmailCode() {
  return useMutation({
    mutationFn: (email: string) => apiClient.call(emailRequestVerificationCode, { body: { email } }),
  });
}

/** POST /api/v1/email/validateVerificationCode: the address becomes the user's verified e-mail. */
export function useValidateEmailCode() {
  const after = useAfterEdit();
  return useMutation({
    mutationFn: (code: string) =>
      apiClient.call(emailValidateVerificationCode, { body: { verificationCode: Number(code) } }),
    onSuccess: after,
  });
}
