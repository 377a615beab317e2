import type { Readable } from "node:stream";
import { ApiFailure } from "@payspec/server-kit";

/**
 * A request body read whole, up to `maxBytes`: past it, reading stops and the caller gets a 413 that
 * says the bound (Fastify's own limit error would name the JSON limit instead).
 */
export function readCappedBody(payload: Readable, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    payload.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        payload.removeAllListeners("data");
        payload.resume();
        reject(
          new ApiFailure("invalid_request", `The statement is larger than ${maxBytes} bytes; split it by value date.`, {
            status: 413,
            param: "statement",
          }),
        );
        return;
      }
      chunks.push(chunk);
    });
    payload.on("end", () => resolve(Buffer.concat(chunks)));
    payload.on("error", reject);
  });
}
