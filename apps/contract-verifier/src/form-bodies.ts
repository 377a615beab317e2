import { createHash } from "node:crypto";

// biome-ignore lint/suspicious/noExplicitAny: walks an inlined schema
type Node = Record<string, any>;

/** The form media types a run makes bodies for, besides JSON. */
export const FORM_MEDIA_TYPES: readonly string[] = ["multipart/form-data", "application/x-www-form-urlencoded"];

/** How a form body is sent: its media type, and which of its fields are files (multipart). */
export interface FormBody {
  readonly mediaType: string;
  /** Fields sent as file parts, with the content type each declares (`encoding`), by field name. */
  readonly files: Readonly<Record<string, string>>;
}

/** A field that holds a file: `format: binary` (3.0), `contentMediaType` or `contentEncoding` (3.1), or a list of them. */
function isFile(schema: Node | undefined): boolean {
  if (!schema) return false;
  if (schema.type === "array") return isFile(schema.items);
  return (
    schema.format === "binary" ||
    schema.format === "base64" ||
    "contentMediaType" in schema ||
    "contentEncoding" in schema
  );
}

/** A form media type's fields, as an inlined object schema and the media type object's `encoding` say. */
export function formBodyOf(mediaType: string, schema: Node | undefined, encoding: Node | undefined): FormBody {
  const files: Record<string, string> = {};
  if (mediaType === "multipart/form-data") {
    for (const [name, property] of Object.entries<Node>(schema?.properties ?? {})) {
      if (isFile(property))
        files[name] =
          encoding?.[name]?.contentType?.split(",")[0]?.trim() ??
          property.contentMediaType ??
          property.items?.contentMediaType ??
          "application/octet-stream";
    }
  }
  return { mediaType, files };
}

const asText = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));

/**
 * A form body's bytes and Content-Type: `key=value&…` (lists as repeated keys, objects as JSON), or
 * multipart parts (RFC 7578), each file a small generated one with a filename. The boundary comes
 * from the body itself, so the same data is the same bytes in every run.
 */
export function encodeForm(value: unknown, form: FormBody): { raw: string; contentType: string } {
  const fields = Object.entries(typeof value === "object" && value !== null ? (value as Node) : {});
  const pairs = fields.flatMap(([name, v]): [string, unknown][] =>
    (Array.isArray(v) ? v : [v]).map((item) => [name, item]),
  );
  if (form.mediaType !== "multipart/form-data")
    return {
      raw: new URLSearchParams(pairs.map(([name, v]): [string, string] => [name, asText(v)])).toString(),
      contentType: form.mediaType,
    };
  const boundary = `payspec-${createHash("sha256")
    .update(JSON.stringify(value) ?? "")
    .digest("hex")
    .slice(0, 24)}`;
  const parts = pairs.map(([name, v], i) => {
    const file = form.files[name];
    const disposition = `Content-Disposition: form-data; name="${name.replace(/"/g, "%22")}"`;
    if (file !== undefined)
      return `--${boundary}\r\n${disposition}; filename="payspec-${i + 1}.txt"\r\nContent-Type: ${file}\r\n\r\n${asText(v)}\r\n`;
    const type = typeof v === "object" && v !== null ? "Content-Type: application/json\r\n" : "";
    return `--${boundary}\r\n${disposition}\r\n${type}\r\n${asText(v)}\r\n`;
  });
  return { raw: `${parts.join("")}--${boundary}--\r\n`, contentType: `multipart/form-data; boundary=${boundary}` };
}
