import multipart, { type MultipartFile } from "@fastify/multipart";
import type { FastifyInstance, FastifyRequest, RouteShorthandOptions } from "fastify";
import { mediaTypeOf } from "./dashboard-security.js";

declare module "fastify" {
  interface FastifyContextConfig {
    /** This route's form carries a file (multipart/form-data); every other dashboard form is urlencoded. */
    dashboardFileForm?: boolean;
  }
}

/** A file box's file, when it was larger than its route allows: the page says so beside the box. */
export const FILE_TOO_LARGE = Symbol("file too large");

/**
 * The route options of a form that uploads one file of at most `maxBytes` (with `enctype=
 * "multipart/form-data"`), as a browser sends it without any script. Its text fields read as an
 * urlencoded form's do (`formField`), its file with `formFile`.
 */
export function fileForm(maxBytes: number): Pick<RouteShorthandOptions, "config"> {
  return {
    config: {
      dashboardFileForm: true,
      multipartOptions: { limits: { fileSize: maxBytes, files: 1, fields: 10, parts: 11 } },
    },
  };
}

/** Whether the request is a file form sent to a route that takes one (see fileForm). */
export function isFileForm(request: FastifyRequest): boolean {
  return mediaTypeOf(request) === "multipart/form-data" && request.routeOptions.config?.dashboardFileForm === true;
}

/**
 * Reads file forms (RFC 7578) with @fastify/multipart, fields and file into `request.body` before the
 * shell's token check: a file over its route's limit becomes FILE_TOO_LARGE instead of an error page,
 * so its form can say so beside the box.
 */
export async function registerFileForms(dashboard: FastifyInstance): Promise<void> {
  await dashboard.register(multipart, {
    attachFieldsToBody: "keyValues",
    // Read to its limit and marked, not thrown: a throw ends the form as an error page.
    throwFileSizeLimit: false,
    async onFile(part: MultipartFile & { value?: unknown }) {
      const bytes = await part.toBuffer();
      part.value = part.file.truncated ? FILE_TOO_LARGE : bytes;
    },
  });
}

/** The file of a file form's box: its bytes, FILE_TOO_LARGE, or undefined when no file was chosen. */
export function formFile(request: FastifyRequest, name: string): Buffer | typeof FILE_TOO_LARGE | undefined {
  const value = (request.body as Record<string, unknown> | undefined)?.[name];
  if (value === FILE_TOO_LARGE) return FILE_TOO_LARGE;
  // A browser sends an empty part for a file box left empty.
  return Buffer.isBuffer(value) && value.length > 0 ? value : undefined;
}
