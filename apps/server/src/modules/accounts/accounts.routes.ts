import * as api from "@switchboard/api";
import { ACCOUNT_MESSAGES } from "@switchboard/api";
import { allowedViewingAs, isActingAsHigherRole } from "@switchboard/core";
import type { FastifyRequest } from "fastify";
import { readUploadedFile } from "../../http/multipart.ts";
import { handle } from "../../http/routes.ts";
import { toApiAccount, toApiUser } from "./account-view.ts";
import type { AccountsService } from "./accounts.service.ts";

/** The one image of a profile picture upload, at most `maxBytes`. */
const readUpload = (request: FastifyRequest, maxBytes: number) =>
  readUploadedFile(request, maxBytes, {
    notMultipart: ACCOUNT_MESSAGES.notMultipart,
    noFile: ACCOUNT_MESSAGES.noImage,
    tooLarge: ACCOUNT_MESSAGES.imageTooLarge,
  });

export function accountsRoutes(accounts: AccountsService) {
  return [
    handle(api.getAccount, async (_input, { access }) => ({
      success: true as const,
      account: toApiAccount(access.target),
      homeAccount: access.caller.account ? toApiAccount(access.caller.account) : null,
      user: toApiUser(access.caller.user),
      role: access.caller.role,
      viewingAs: access.viewingAs,
      allowedViewingAs: [...allowedViewingAs(access.rank)],
      actingAsHigherRole: isActingAsHigherRole(access.rank, access.viewingAs),
      permissions: access.permissions,
      timeZone: await accounts.timeZoneOf(access.target),
    })),
    handle(api.saveAccount, async ({ body }, { access }) => ({
      success: true as const,
      account: toApiAccount(await accounts.updateFields(access.target, body)),
    })),
    handle(api.updateAccount, async ({ body }, { access }) => ({
      success: true as const,
      account: toApiAccount(await accounts.updateFields(access.target, body)),
    })),
    handle(api.updateOrganization, async ({ body }, { access }) => ({
      success: true as const,
      account: toApiAccount(await accounts.updateOrganization(access, body)),
    })),
    handle(api.saveAccountSetting, async ({ body }, { access }) => ({
      success: true as const,
      settings: await accounts.saveSettings(access, body.settings),
    })),
    handle(api.saveSocialLinks, async ({ body }, { access }) => ({
      success: true as const,
      ...(await accounts.saveSocialLinks(access.target, body.socialLinks, body.socialLinksPosition)),
    })),
    handle(api.uploadProfileImage, async (_input, { access, request }) => {
      const data = await readUpload(request, api.PROFILE_IMAGE_MAX_BYTES);
      const { image, account } = await accounts.setProfileImage(access.target, data);
      return { success: true as const, image, account: toApiAccount(account) };
    }),
    handle(api.updateUsername, async ({ body }, { access }) => ({
      success: true as const,
      account: toApiAccount(await accounts.updateUsername(access.target, body.username)),
    })),
    handle(api.getPublicProfile, async ({ params }) => ({
      success: true as const,
      account: await accounts.publicProfile(params.username),
    })),
    handle(api.enableAccount, ({ body }) => accounts.setEnabled(body.username, true)),
    handle(api.disableAccount, ({ body }) =>
      accounts.setEnabled(body.username, false, { reason: body.reason, details: body.details }),
    ),
  ];
}
