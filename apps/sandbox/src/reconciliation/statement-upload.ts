import multipart from "@fastify/multipart";
import { ApiFailure } from "@payspec/server-kit";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { readCappedBody } from "../infrastructure/control-api/capped-body.js";
import { STATEMENT_MAX_BYTES } from "./statement-file.js";

/**
 * The media types a statement file comes as: what curl, a bank's portal download, a browser and a
 * treasury system send for an XML, MT940 or CSV file. The format is read from the bytes, never from
 * the type (a camt.053 often arrives as text/plain or octet-stream), and any charset is taken.
 */
export const STATEMENT_MEDIA_TYPES: readonly string[] = [
  "application/xml",
  "text/xml",
  "text/plain",
  "text/csv",
  "application/octet-stream",
];

const ACCEPTED = `${STATEMENT_MEDIA_TYPES.join(", ")} or multipart/form-data with one file part`;

const tooLarge = () =>
  new ApiFailure(
    "invalid_request",
    `The statement is larger than ${STATEMENT_MAX_BYTES} bytes; split it by value date.`,
    {
      status: 413,
      param: "statement",
    },
  );

/**
 * Parsers for a statement upload in its own Fastify context: the file's bytes as the body (read
 * whole, bounded), or a multipart form (RFC 7578) read by @fastify/multipart; anything else, JSON
 * included, is a 415 that names the types taken.
 */
export function registerStatementUpload(upload: FastifyInstance): void {
  upload.removeAllContentTypeParsers();
  upload.addContentTypeParser(STATEMENT_MEDIA_TYPES as string[], (_request, payload, done) => {
    readCappedBody(payload, STATEMENT_MAX_BYTES).then(
      (bytes) => done(null, bytes),
      (error: Error) => done(error),
    );
  });
  void upload.register(multipart, { limits: { fileSize: STATEMENT_MAX_BYTES, files: 1, fields: 10, parts: 11 } });
  upload.addContentTypeParser("*", (request, payload, done) => {
    payload.resume();
    const type = request.headers["content-type"]?.split(";")[0]?.trim();
    done(
      new ApiFailure(
        "invalid_request",
        `${type ? `A statement is not taken as ${type}` : "The statement came without a Content-Type"}: send the file as the body with Content-Type ${ACCEPTED}.`,
        { status: 415, param: "Content-Type" },
      ),
    );
  });
}

/** The statement file of an upload: the body itself, or the one file part of a multipart form. */
export async function statementBytes(request: FastifyRequest): Promise<Buffer> {
  if (request.isMultipart()) {
    let bytes: Buffer | undefined;
    let files = 0;
    try {
      for await (const part of request.parts()) {
        if (part.type !== "file") continue;
        files++;
        bytes = await part.toBuffer();
      }
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === "FST_REQ_FILE_TOO_LARGE") throw tooLarge();
      if (code === "FST_FIELDS_LIMIT")
        throw new ApiFailure("invalid_request", "The form has more than 10 fields; send the statement file alone.", {
          param: "file",
        });
      if (code === "FST_FILES_LIMIT" || code === "FST_PARTS_LIMIT")
        throw new ApiFailure("invalid_request", "Upload one statement file at a time: the form held more than one.", {
          param: "file",
        });
      throw new ApiFailure("invalid_request", "The multipart form is malformed; upload the statement file again.", {
        param: "file",
      });
    }
    if (files === 0 || !bytes)
      throw new ApiFailure(
        "invalid_request",
        "The form has no file part: upload the statement as a file (the file field).",
        {
          param: "file",
        },
      );
    return bytes;
  }
  if (!Buffer.isBuffer(request.body) || request.body.length === 0)
    throw new ApiFailure("invalid_request", `Send the statement file as the body, with Content-Type ${ACCEPTED}.`, {
      param: "statement",
    });
  return request.body;
}
