import { readFile } from "node:fs/promises";
import { parse } from "yaml";
import { changeClass, type SpecDoc } from "./change-catalogue.js";
import type { SpecChange, SpecDiffer } from "./spec-change.js";

const METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"] as const;
const LOWER_BOUNDS = ["minimum", "exclusiveMinimum", "minLength", "minItems"] as const;
const UPPER_BOUNDS = ["maximum", "exclusiveMaximum", "maxLength", "maxItems"] as const;
const TEXT_BOUNDS = ["pattern", "format"] as const;

type Direction = "request" | "response";

const pointerPart = (part: string) => part.replaceAll("~", "~0").replaceAll("/", "~1");

/** Follows `$ref`s (internal ones) and merges `allOf`, so two schemas can be compared by meaning. */
function resolve(doc: SpecDoc, node: SpecDoc, depth = 0): SpecDoc {
  let current = node;
  for (let hops = 0; current && typeof current === "object" && typeof current.$ref === "string" && hops < 32; hops++) {
    const path = current.$ref.replace(/^#\//, "").split("/");
    current = path.reduce((n: SpecDoc, key: string) => n?.[key.replaceAll("~1", "/").replaceAll("~0", "~")], doc);
  }
  if (current && Array.isArray(current.allOf) && depth < 8) {
    const { allOf, ...own } = current;
    return Object.assign({}, ...allOf.map((part: SpecDoc) => resolve(doc, part, depth + 1)), own);
  }
  return current;
}

function typesOf(schema: SpecDoc): Set<string> | undefined {
  if (schema?.type === undefined) return undefined;
  return new Set(Array.isArray(schema.type) ? schema.type : [schema.type]);
}

/** Whether a value of type `t` is accepted by a schema of types `accepted` (integer is a number). */
function accepts(accepted: Set<string>, t: string): boolean {
  return accepted.has(t) || (t === "integer" && accepted.has("number"));
}

interface Operation {
  readonly path: string;
  readonly method: string;
  readonly node: SpecDoc;
  readonly pathItem: SpecDoc;
}

function operations(doc: SpecDoc): Operation[] {
  const out: Operation[] = [];
  for (const [path, pathItem] of Object.entries<SpecDoc>(doc.paths ?? {})) {
    for (const method of METHODS) if (pathItem?.[method]) out.push({ path, method, node: pathItem[method], pathItem });
  }
  return out;
}

/**
 * payspec's own differ, driven by the change catalogue: it walks both specs operation by operation,
 * following `$ref`s, and classifies every difference a client could notice: requests must stay
 * valid (nothing narrows), responses must stay readable (nothing disappears, nothing new in a closed
 * union). Every finding names its catalogue class, its place, the old and new value and who breaks.
 */
export class PayspecDiffer implements SpecDiffer {
  async compare(beforeFile: string, afterFile: string): Promise<SpecChange[]> {
    const [before, after] = await Promise.all(
      [beforeFile, afterFile].map(async (f) => parse(await readFile(f, "utf8"))),
    );
    return this.compareDocs(before, after);
  }

  compareDocs(before: SpecDoc, after: SpecDoc): SpecChange[] {
    const out: SpecChange[] = [];
    const seen = new Set<string>();
    const report = (
      id: string,
      where: string,
      pointer: string,
      details: { before?: unknown; after?: unknown; message?: string } = {},
    ) => {
      const key = `${id} ${pointer}`;
      if (seen.has(key)) return;
      seen.add(key);
      const cls = changeClass(id);
      const values =
        "before" in details || "after" in details
          ? ` (was ${JSON.stringify(details.before) ?? "absent"}, now ${JSON.stringify(details.after) ?? "absent"})`
          : "";
      out.push({
        severity: cls.severity,
        rule: id,
        message: `${details.message ?? cls.why}${values}`,
        where,
        pointer,
        affects: cls.affects,
        ...("before" in details ? { before: details.before } : {}),
        ...("after" in details ? { after: details.after } : {}),
      });
    };

    const compareSchema = (
      b0: SpecDoc,
      a0: SpecDoc,
      direction: Direction,
      where: string,
      pointer: string,
      depth = 0,
    ): void => {
      const b = resolve(before, b0);
      const a = resolve(after, a0);
      if (!b || !a || depth > 12) return;
      const tb = typesOf(b);
      const ta = typesOf(a);
      if (tb && ta) {
        const narrowed =
          direction === "request" ? [...tb].some((t) => !accepts(ta, t)) : [...ta].some((t) => !accepts(tb, t));
        if (narrowed) report(`${direction}.type.changed`, where, `${pointer}/type`, { before: b.type, after: a.type });
      }
      const eb: unknown[] | undefined = b.enum;
      const ea: unknown[] | undefined = a.enum;
      if (direction === "request") {
        const removed = eb ? (ea ? eb.filter((v) => !ea.includes(v)) : []) : ea ? ["(any value)"] : [];
        if (removed.length > 0) report("request.enum.narrowed", where, `${pointer}/enum`, { before: eb, after: ea });
        else if (eb && ea?.some((v) => !eb.includes(v)))
          report("request.enum.widened", where, `${pointer}/enum`, { before: eb, after: ea });
      } else {
        const added = ea ? (eb ? ea.filter((v) => !eb.includes(v)) : []) : eb ? ["(any value)"] : [];
        if (added.length > 0) report("response.enum.value-added", where, `${pointer}/enum`, { before: eb, after: ea });
      }
      for (const keyword of [...LOWER_BOUNDS, ...UPPER_BOUNDS, ...TEXT_BOUNDS]) {
        const was = b[keyword];
        const now = a[keyword];
        if (was === now) continue;
        const lower = (LOWER_BOUNDS as readonly string[]).includes(keyword);
        const upper = (UPPER_BOUNDS as readonly string[]).includes(keyword);
        const tightened =
          now !== undefined &&
          (was === undefined ||
            (lower && Number(now) > Number(was)) ||
            (upper && Number(now) < Number(was)) ||
            // A changed pattern or format refuses some values it accepted: tighter for requests…
            (direction === "request" && !lower && !upper && now !== was));
        // …and for responses it lets through values old clients' validators refuse, as a removed one does.
        const at = `${pointer}/${keyword}`;
        if (direction === "request") {
          const id = `request.bound.${keyword}`;
          if (tightened) report(id, where, at, { before: was, after: now });
          else report("request.bound.loosened", where, at, { before: was, after: now });
        } else if (!tightened) {
          report("response.bound.loosened", where, at, { before: was, after: now });
        }
      }
      // Objects
      const pb: Record<string, SpecDoc> = b.properties ?? {};
      const pa: Record<string, SpecDoc> = a.properties ?? {};
      const rb = new Set<string>(b.required ?? []);
      const ra = new Set<string>(a.required ?? []);
      for (const name of Object.keys(pb)) {
        const at = `${pointer}/properties/${pointerPart(name)}`;
        const whereProp = `${where}${where.endsWith(":") ? " " : "."}${name}`;
        if (!(name in pa)) {
          if (direction === "request")
            report(
              a.additionalProperties === false ? "request.property.removed-strict" : "request.property.removed",
              whereProp,
              at,
            );
          else report("response.property.removed", whereProp, at);
          continue;
        }
        if (direction === "request" && !rb.has(name) && ra.has(name))
          report("request.property.became-required", whereProp, `${pointer}/required`);
        if (direction === "response" && rb.has(name) && !ra.has(name))
          report("response.property.became-optional", whereProp, `${pointer}/required`);
        compareSchema(pb[name], pa[name], direction, whereProp, at, depth + 1);
      }
      for (const name of Object.keys(pa)) {
        if (name in pb) continue;
        const at = `${pointer}/properties/${pointerPart(name)}`;
        const whereProp = `${where}${where.endsWith(":") ? " " : "."}${name}`;
        if (direction === "request")
          report(ra.has(name) ? "request.property.new-required" : "request.property.new-optional", whereProp, at);
        else report("response.property.added", whereProp, at);
      }
      if (b.items || a.items) compareSchema(b.items, a.items, direction, `${where}[]`, `${pointer}/items`, depth + 1);
      if (typeof b.additionalProperties === "object" && typeof a.additionalProperties === "object") {
        compareSchema(
          b.additionalProperties,
          a.additionalProperties,
          direction,
          `${where}{}`,
          `${pointer}/additionalProperties`,
          depth + 1,
        );
      }
    };

    const parameters = (doc: SpecDoc, operation: Operation): Map<string, SpecDoc> => {
      const all = [...(operation.pathItem.parameters ?? []), ...(operation.node.parameters ?? [])].map((p) =>
        resolve(doc, p),
      );
      return new Map(all.map((p) => [`${p.in}:${p.in === "header" ? String(p.name).toLowerCase() : p.name}`, p]));
    };
    const security = (doc: SpecDoc, operation: Operation) =>
      JSON.stringify(
        (operation.node.security ?? doc.security ?? []).map((requirement: Record<string, unknown>) =>
          Object.keys(requirement)
            .sort()
            .map((name) => {
              const { description: _d, ...scheme } = doc.components?.securitySchemes?.[name] ?? {};
              return { name, scheme };
            }),
        ),
      );

    const afterOps = operations(after);
    const beforeOps = operations(before);
    const find = (ops: Operation[], path: string, method: string) =>
      ops.find((o) => o.path === path && o.method === method);
    for (const b of beforeOps) {
      const label = `${b.method.toUpperCase()} ${b.path}`;
      const opPointer = `/paths/${pointerPart(b.path)}/${b.method}`;
      const a = find(afterOps, b.path, b.method);
      if (!a) {
        const moved = b.node.operationId && afterOps.find((o) => o.node.operationId === b.node.operationId);
        if (moved && moved.path !== b.path)
          report("operation.path-changed", label, opPointer, { before: b.path, after: moved.path });
        else if (moved)
          report("operation.method-changed", label, opPointer, {
            before: b.method.toUpperCase(),
            after: moved.method.toUpperCase(),
          });
        else report("operation.removed", label, opPointer);
        continue;
      }
      if (security(before, b) !== security(after, a)) report("security.changed", label, `${opPointer}/security`);
      // Parameters
      const pb = parameters(before, b);
      const pa = parameters(after, a);
      const removed = [...pb.keys()].filter((k) => !pa.has(k));
      const added = [...pa.keys()].filter((k) => !pb.has(k));
      for (const key of removed) {
        const param = pb.get(key);
        const renamedTo = added.find((k) => k.split(":")[0] === param.in);
        const where = `${label} ${param.in} parameter ${param.name}`;
        if (renamedTo)
          report("request.parameter.renamed", where, `${opPointer}/parameters`, {
            before: param.name,
            after: pa.get(renamedTo).name,
          });
        else report("request.parameter.removed", where, `${opPointer}/parameters`);
      }
      for (const key of added) {
        const param = pa.get(key);
        const where = `${label} ${param.in} parameter ${param.name}`;
        if (removed.some((k) => k.split(":")[0] === param.in) && !param.required) continue;
        if (param.required)
          report(
            param.in === "header" ? "request.header.new-required" : "request.parameter.new-required",
            where,
            `${opPointer}/parameters`,
          );
        else report("request.parameter.new-optional", where, `${opPointer}/parameters`);
      }
      for (const [key, param] of pb) {
        const next = pa.get(key);
        if (!next) continue;
        const where = `${label} ${param.in} parameter ${param.name}`;
        if (!param.required && next.required)
          report("request.parameter.became-required", where, `${opPointer}/parameters`);
        compareSchema(
          param.schema,
          next.schema,
          "request",
          where,
          `${opPointer}/parameters/${pointerPart(param.name)}/schema`,
        );
      }
      // Request body
      const bodyB = resolve(before, b.node.requestBody);
      const bodyA = resolve(after, a.node.requestBody);
      if (bodyB && bodyA) {
        if (!bodyB.required && bodyA.required)
          report("request.property.became-required", `${label} request body`, `${opPointer}/requestBody/required`);
        for (const [media, content] of Object.entries<SpecDoc>(bodyB.content ?? {})) {
          const next = bodyA.content?.[media];
          const at = `${opPointer}/requestBody/content/${pointerPart(media)}`;
          if (!next) {
            report("request.content-type.changed", `${label} request body`, at, {
              before: Object.keys(bodyB.content),
              after: Object.keys(bodyA.content ?? {}),
            });
            continue;
          }
          compareSchema(content.schema, next.schema, "request", `${label} request body:`, `${at}/schema`);
        }
      } else if (!bodyB && bodyA?.required) {
        report("request.property.new-required", `${label} request body`, `${opPointer}/requestBody`);
      }
      // Responses
      for (const [status, response0] of Object.entries<SpecDoc>(b.node.responses ?? {})) {
        const responseB = resolve(before, response0);
        const responseA = resolve(after, a.node.responses?.[status]);
        const at = `${opPointer}/responses/${status}`;
        if (!responseA) {
          if (/^2/.test(status)) {
            report("response.status.removed", `${label} ${status}`, at, {
              before: Object.keys(b.node.responses),
              after: Object.keys(a.node.responses ?? {}),
            });
          }
          continue;
        }
        for (const [media, content] of Object.entries<SpecDoc>(responseB.content ?? {})) {
          const next = responseA.content?.[media];
          if (!next) {
            report("response.content-type.changed", `${label} ${status}`, `${at}/content`, {
              before: Object.keys(responseB.content),
              after: Object.keys(responseA.content ?? {}),
            });
            continue;
          }
          compareSchema(
            content.schema,
            next.schema,
            "response",
            `${label} ${status}:`,
            `${at}/content/${pointerPart(media)}/schema`,
          );
        }
      }
      for (const status of Object.keys(a.node.responses ?? {})) {
        if (!(status in (b.node.responses ?? {})) && !/^2/.test(status)) {
          report("response.error-status.added", `${label} ${status}`, `${opPointer}/responses/${status}`);
        }
      }
    }
    for (const a of afterOps) {
      if (
        !find(beforeOps, a.path, a.method) &&
        !beforeOps.some((b) => b.node.operationId && b.node.operationId === a.node.operationId)
      ) {
        report("operation.added", `${a.method.toUpperCase()} ${a.path}`, `/paths/${pointerPart(a.path)}/${a.method}`);
      }
    }
    return out;
  }
}
