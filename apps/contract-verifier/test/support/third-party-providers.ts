import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * Small hand-written providers for a few operations of each third-party spec the any-spec tests
 * use: written from the specs' words, not generated from them, so that the verifier is held against
 * a provider it did not shape. Each checks its credentials, validates what it reads and answers
 * in the spec's shapes.
 */
export interface Provider {
  readonly url: string;
  close(): Promise<void>;
}

type Handler = (request: {
  method: string;
  url: URL;
  headers: IncomingMessage["headers"];
  body: unknown;
  rawBody: string;
}) => { status: number; body?: unknown; headers?: Record<string, string> };

/** `basePath`: where the provider mounts the API (`/api/v1/rest`), as a spec's `servers` say. */
async function serve(handle: Handler, basePath = ""): Promise<Provider> {
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const rawBody = Buffer.concat(chunks).toString("utf8");
    let body: unknown;
    let unreadable = false;
    if (rawBody) {
      try {
        body = JSON.parse(rawBody);
      } catch {
        unreadable = true;
      }
    }
    const answer = unreadable
      ? { status: 400, body: { title: "Bad Request", status: 400, detail: "The body is not JSON." } }
      : handle({
          method: req.method ?? "GET",
          url: new URL(
            (req.url ?? "/").startsWith(basePath) ? (req.url ?? "/").slice(basePath.length) || "/" : "/-",
            "http://provider",
          ),
          headers: req.headers,
          body,
          rawBody,
        });
    const text = answer.body === undefined ? "" : JSON.stringify(answer.body);
    res.writeHead(answer.status, {
      ...(text ? { "content-type": answer.headers?.["content-type"] ?? "application/json" } : {}),
      ...answer.headers,
    });
    res.end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const isInt = (value: unknown) => typeof value === "number" && Number.isInteger(value);
const optional = (value: unknown, valid: (v: unknown) => boolean) => value === undefined || valid(value);

/**
 * OpenAPI Petstore (openapi-generator's 3.0 spec, mounted at its server path /v2): getPetById and getInventory behind the `api_key`
 * header, placeOrder and getUserByName open. Anything else is 404, as the spec says nothing of it.
 */
export function startPetstoreProvider(apiKey: string): Promise<Provider> {
  const pets = new Map([
    [10, { id: 10, name: "doggie", photoUrls: ["https://example.com/dog.jpg"], status: "available" }],
  ]);
  return serve(({ method, url, headers, body }) => {
    const keyed = () => headers.api_key === apiKey;
    const pet = /^\/pet\/([^/]+)$/.exec(url.pathname);
    if (method === "GET" && pet) {
      if (!keyed()) return { status: 401 };
      if (!/^-?\d+$/.test(pet[1] as string)) return { status: 400 };
      const id = Number(pet[1]);
      if (id < 0) return { status: 404 };
      return { status: 200, body: pets.get(id) ?? { id, name: `pet ${id}`, photoUrls: [], status: "pending" } };
    }
    if (method === "GET" && url.pathname === "/store/inventory") {
      if (!keyed()) return { status: 401 };
      return { status: 200, body: { available: 1, pending: 0, sold: 0 } };
    }
    if (method === "POST" && url.pathname === "/store/order") {
      const order = body;
      const valid =
        isObject(order) &&
        optional(order.id, isInt) &&
        optional(order.petId, isInt) &&
        optional(order.quantity, (q) => isInt(q) && (q as number) >= -(2 ** 31) && (q as number) < 2 ** 31) &&
        optional(order.shipDate, (d) => typeof d === "string" && !Number.isNaN(Date.parse(d)) && /T/.test(d)) &&
        optional(order.status, (s) => s === "placed" || s === "approved" || s === "delivered") &&
        optional(order.complete, (c) => typeof c === "boolean");
      if (!valid) return { status: 400 };
      return { status: 200, body: { id: 1, quantity: 1, status: "placed", complete: false, ...order } };
    }
    const user = /^\/user\/([^/]+)$/.exec(url.pathname);
    if (method === "GET" && user && user[1] !== "login" && user[1] !== "logout") {
      const name = decodeURIComponent(user[1] as string);
      return name === "user1"
        ? { status: 200, body: { id: 1, username: "user1", firstName: "Ada", email: "ada@example.com", userStatus: 1 } }
        : { status: 404 };
    }
    return { status: 404 };
  }, "/v2");
}

const problem = (status: number, title: string, detail: string) => ({
  status,
  body: { type: `https://example.com/errors/${title.toLowerCase().replaceAll(" ", "-")}`, title, status, detail },
  headers: { "content-type": "application/problem+json", ratelimit: "limit=100, remaining=99, reset=60" },
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Train Travel API (Bump.sh's 3.1 example): get-stations, create-booking and get-booking behind an
 * OAuth2 bearer token, errors as application/problem+json.
 */
export function startTrainTravelProvider(token: string): Promise<Provider> {
  const bookings = new Map<string, Record<string, unknown>>();
  const station = {
    id: "efdbb9d1-02c2-4bc3-afb7-6788d8782b1e",
    name: "Berlin Hauptbahnhof",
    address: "Invalidenstraße 10557 Berlin, Germany",
    country_code: "DE",
    timezone: "Europe/Berlin",
  };
  return serve(({ method, url, headers, body }) => {
    const auth = headers.authorization;
    if (!auth) return problem(401, "Unauthorized", "Send an OAuth 2.0 access token.");
    if (auth !== `Bearer ${token}`) return problem(401, "Unauthorized", "The access token is not valid.");
    const rate = { ratelimit: "limit=100, remaining=99, reset=60" };
    if (method === "GET" && url.pathname === "/stations") {
      return {
        status: 200,
        body: { data: [station], links: { self: "https://api.example.com/stations" } },
        headers: rate,
      };
    }
    if (method === "POST" && url.pathname === "/bookings") {
      const b = body;
      const valid =
        isObject(b) &&
        optional(b.trip_id, (v) => typeof v === "string" && UUID.test(v)) &&
        optional(b.passenger_name, (v) => typeof v === "string") &&
        optional(b.has_bicycle, (v) => typeof v === "boolean") &&
        optional(b.has_dog, (v) => typeof v === "boolean");
      if (!valid) return problem(400, "Bad Request", "The booking is not valid: see the Booking schema.");
      const id = randomUUID();
      const { id: _ignored, links: _links, ...fields } = b as Record<string, unknown>;
      const booking = { id, ...fields };
      bookings.set(id, booking);
      return { status: 201, body: { ...booking, links: { self: `https://api.example.com/bookings/${id}` } } };
    }
    const one = /^\/bookings\/([^/]+)$/.exec(url.pathname);
    if (method === "GET" && one) {
      const id = decodeURIComponent(one[1] as string);
      if (!UUID.test(id)) return problem(400, "Bad Request", "bookingId must be a UUID.");
      const booking = bookings.get(id);
      if (!booking) return problem(404, "Not Found", "No such booking.");
      return {
        status: 200,
        body: { ...booking, links: { self: `https://api.example.com/bookings/${id}` } },
        headers: rate,
      };
    }
    return problem(404, "Not Found", "No such resource.");
  });
}

/**
 * STAPI, the Star Trek API (3.0, no security): `GET /animal?uid=` and `GET /book?uid=`, mounted
 * where its `servers` entry says (`/api/v1/rest`).
 */
export function startStarTrekProvider(): Promise<Provider> {
  const error = (code: string, message: string) => ({ status: 400, body: { code, message } });
  return serve(({ method, url }) => {
    if (method !== "GET") return { status: 404 };
    const uid = url.searchParams.get("uid");
    if (url.pathname === "/animal") {
      if (!uid) return error("MISSING_UID", "uid is required");
      return { status: 200, body: { animal: { uid, name: "Tribble", earthAnimal: false, avian: false } } };
    }
    if (url.pathname === "/book") {
      if (!uid) return error("MISSING_UID", "uid is required");
      return {
        status: 200,
        body: {
          book: {
            uid,
            title: "The Final Reflection",
            ...Object.fromEntries(
              ["referenceBook", "biographyBook", "rolePlayingBook", "eBook", "anthology", "novelization"].map((k) => [
                k,
                false,
              ]),
            ),
            novel: true,
            audiobook: false,
            audiobookAbridged: false,
          },
        },
      };
    }
    return { status: 404 };
  }, "/api/v1/rest");
}
