import type {} from "@fastify/multipart";
import * as api from "@switchboard/api";
import { cleanText } from "@switchboard/core";
import type { FastifyRequest } from "fastify";
import { ApiError } from "../../api-error.ts";
import { MALFORMED_UPLOAD_MESSAGE } from "../../http/multipart.ts";
import { handle } from "../../http/routes.ts";
import type { KnowledgeBaseService } from "./knowledge-base.service.ts";

/** The one file part of an upload with its name and declared type (KB_FILE_MAX_BYTES at most). */
async function readDocumentFile(request: FastifyRequest) {
  if (!request.isMultipart()) throw new ApiError(400, api.KB_MESSAGES.fileType);
  try {
    const part = await request.file({ limits: { fileSize: api.KB_FILE_MAX_BYTES, files: 1 } });
    if (!part) throw new ApiError(400, api.KB_MESSAGES.fileType);
    const data = await part.toBuffer();
    // The part's headers are the client's text too: kept as the document's name.
    return {
      data,
      fileName: cleanText(part.filename).trim() || "document",
      contentType: cleanText(part.mimetype),
    };
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if ((error as { code?: unknown }).code === "FST_REQ_FILE_TOO_LARGE")
      throw new ApiError(413, api.KB_MESSAGES.fileTooLarge);
    throw new ApiError(400, MALFORMED_UPLOAD_MESSAGE);
  }
}

export function knowledgeBaseRoutes(kb: KnowledgeBaseService) {
  return [
    handle(api.discoverSitemap, ({ body }) => kb.sitemap(body.url)),
    handle(api.listKnowledgeBases, (_input, { access }) => kb.list(access)),
    handle(api.createKnowledgeBase, ({ body }, { access }) => kb.create(access, body.title)),
    handle(api.getKnowledgeBase, ({ params }, { access }) => kb.get(access, params.id)),
    handle(api.deleteKnowledgeBase, ({ params }, { access }) => kb.remove(access, params.id)),
    handle(api.listKbDocuments, ({ params }, { access }) => kb.documents(access, params.id)),
    handle(api.addKbDocuments, ({ params, body }, { access }) => kb.add(access, params.id, body)),
    handle(api.uploadKbDocument, async ({ params }, { access, request }) =>
      kb.upload(access, params.id, await readDocumentFile(request)),
    ),
    handle(api.refreshKbDocument, ({ params }, { access }) => kb.refresh(access, params.id, params.docId)),
    handle(api.deleteKbDocument, ({ params }, { access }) =>
      kb.removeDocument(access, params.id, params.docId),
    ),
    handle(api.queryKnowledgeBase, ({ params, body }, { access }) => kb.query(access, params.id, body)),
  ];
}
