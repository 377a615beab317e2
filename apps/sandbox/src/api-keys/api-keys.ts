import { randomBytes } from "node:crypto";
import { ApiFailure, assertStorableText, containsCardNumber, parseRequest } from "@payspec/server-kit";
import { z } from "zod";
import { type SandboxClocks, workspaceScope } from "../clock/index.js";
import { calendarDay } from "../infrastructure/i18n/formats.js";
import { t } from "../infrastructure/i18n/locale.js";
import type { SandboxSecret } from "../infrastructure/secret/sandbox-secret.js";
import { endOfIstanbulDate, istanbulDate } from "../infrastructure/time/istanbul-time.js";
import { workspaceTag } from "../workspaces/index.js";
import type { ApiKeyStore, StoredApiKey } from "./api-key-store.js";

/** Every key the sandbox makes starts so: a secret scanner (and a person) knows it for a sandbox key. */
export const API_KEY_PREFIX = "sk_sandbox_";
/** Keys not revoked per workspace: enough for any rotation scheme, small enough to list on one page. */
export const MAX_LIVE_KEYS = 100;
export const MAX_KEY_NAME_LENGTH = 100;
/** `last used` is written at most this often per key and instance: a busy key costs no write per request. */
const LAST_USED_RESOLUTION_MS = 60_000;
/** The id under which a workspace's configured key (PAYSPEC_API_KEYS) is listed. */
export const CONFIGURED_KEY_ID = "configured";

/** What an unknown key hears (the same whether it was never issued or belongs to no workspace here). */
export const UNKNOWN_KEY = "The API key is not valid for this service.";

export type ApiKeyStatus = "active" | "expired" | "revoked";

/** A key as the control API and the dashboard show it: never the key itself. */
export interface ApiKeyView {
  readonly id: string;
  readonly name: string;
  readonly masked: string;
  /** `environment`: one of PAYSPEC_API_KEYS (valid while configured, cannot be revoked); `created`: made here. */
  readonly source: "environment" | "created";
  readonly status: ApiKeyStatus;
  readonly created_at?: string;
  readonly expires_on?: string;
  readonly last_used_at?: string;
  readonly revoked_at?: string;
}

export type Authentication =
  | { readonly ok: true; readonly workspace: string }
  | { readonly ok: false; readonly message: string };

/**
 * A create's body, checked whole: every problem (a blank name and a past expiry) is said at once.
 * The expiry is judged on the workspace's sandbox clock (`now`), Europe/Istanbul's calendar.
 */
const createBody = (now: number) =>
  z.object({
    body: z.strictObject({
      // Messages as functions: said in the language of whoever asked (the dashboard's, else English).
      name: z
        .string()
        .min(1)
        .max(MAX_KEY_NAME_LENGTH)
        .regex(/\S/, { error: () => t("must hold more than spaces", "boşluktan başka bir şey içermeli") })
        .refine((name) => !containsCardNumber(name), {
          error: () =>
            t(
              "looks like it holds a card number; card numbers may not be sent in free text. Remove it.",
              "bir kart numarası içeriyor gibi görünüyor; kart numarası serbest metinde gönderilemez. Silin.",
            ),
        }),
      expires_on: z
        .string()
        .regex(/^\d{4}-\d{2}-\d{2}$/, {
          error: () => t("must be a date, yyyy-MM-dd", "YYYY-AA-GG biçiminde bir tarih olmalı"),
        })
        .superRefine((date, context) => {
          const end = endOfIstanbulDate(date);
          if (end === undefined)
            context.addIssue({
              code: "custom",
              message: t(
                "not a calendar date; send a real date as yyyy-MM-dd.",
                "takvimde olmayan bir tarih; YYYY-AA-GG biçiminde gerçek bir tarih verin.",
              ),
            });
          else if (end <= now)
            context.addIssue({
              code: "custom",
              message: t(
                `must be today (${istanbulDate(now)}, Europe/Istanbul, on this workspace's sandbox clock) or later.`,
                `bugün (${calendarDay(istanbulDate(now))}, İstanbul saatiyle, bu çalışma alanının sandbox saatine göre) ya da sonrası olmalı.`,
              ),
            });
        })
        .optional(),
    }),
  });

export function maskKey(key: string): string {
  return `${key.startsWith(API_KEY_PREFIX) ? API_KEY_PREFIX : ""}…${key.slice(-4)}`;
}

const iso = (ms: number) => new Date(ms).toISOString();

function statusOf(key: StoredApiKey, now: number): ApiKeyStatus {
  if (key.revokedAt !== undefined) return "revoked";
  if (key.expiresAt !== undefined && now >= key.expiresAt) return "expired";
  return "active";
}

function toView(key: StoredApiKey, now: number): ApiKeyView {
  return {
    id: key.id,
    name: key.name,
    masked: key.masked,
    source: "created",
    status: statusOf(key, now),
    created_at: iso(key.createdAt),
    ...(key.expiresOn === undefined ? {} : { expires_on: key.expiresOn }),
    ...(key.lastUsedAt === undefined ? {} : { last_used_at: iso(key.lastUsedAt) }),
    ...(key.revokedAt === undefined ? {} : { revoked_at: iso(key.revokedAt) }),
  };
}

/**
 * A workspace's API keys: the one it is configured with (PAYSPEC_API_KEYS), which names it and stays
 * valid, and any number made in the dashboard or the control API, each shown once, kept only as a
 * keyed hash, with an optional expiry date (the end of that Istanbul date on the workspace's sandbox
 * clock) and revocable at once on every instance.
 */
export class ApiKeys {
  readonly #store: ApiKeyStore;
  readonly #secret: SandboxSecret;
  readonly #clocks: SandboxClocks;
  readonly #configured: ReadonlySet<string>;
  readonly #byTag: ReadonlyMap<string, string>;
  readonly #lastWritten = new Map<string, number>();

  constructor(store: ApiKeyStore, secret: SandboxSecret, clocks: SandboxClocks, configured: readonly string[]) {
    this.#store = store;
    this.#secret = secret;
    this.#clocks = clocks;
    this.#configured = new Set(configured);
    this.#byTag = new Map(configured.map((key) => [workspaceTag(key), key]));
  }

  #hash(key: string): string {
    return this.#secret.digest("api-key", key).toString("hex");
  }

  #now(workspace: string): Promise<number> {
    return this.#clocks.now(workspaceScope(workspace));
  }

  /** The workspace a configured key opens, at once; undefined for any other key (authenticate decides those). */
  configuredWorkspace(presented: string): string | undefined {
    return this.#configured.has(presented) ? presented : undefined;
  }

  /** The workspace a presented key opens, or why it opens none (never quoting the key). */
  async authenticate(presented: string): Promise<Authentication> {
    const configured = this.configuredWorkspace(presented);
    if (configured !== undefined) return { ok: true, workspace: configured };
    const unknown = { ok: false, message: UNKNOWN_KEY } as const;
    if (!presented.startsWith(API_KEY_PREFIX)) return unknown;
    const key = await this.#store.byHash(this.#hash(presented));
    const workspace = key && this.#byTag.get(key.workspaceTag);
    if (!key || !workspace) return unknown;
    if (key.revokedAt !== undefined) {
      return {
        ok: false,
        message: t(
          `The API key ${key.masked} ("${key.name}") was revoked on ${istanbulDate(key.revokedAt)}. Use another key of the workspace, or create one under Settings → API keys.`,
          `${key.masked} API anahtarı ("${key.name}") ${calendarDay(istanbulDate(key.revokedAt))} tarihinde iptal edildi. Çalışma alanının başka bir anahtarını kullanın ya da API anahtarları sayfasında yenisini oluşturun.`,
        ),
      };
    }
    const now = await this.#now(workspace);
    if (key.expiresAt !== undefined && now >= key.expiresAt) {
      return {
        ok: false,
        message: t(
          `The API key ${key.masked} ("${key.name}") expired on ${key.expiresOn} (at the end of that day, Europe/Istanbul, on this workspace's sandbox clock). Create a new key under Settings → API keys.`,
          `${key.masked} API anahtarının ("${key.name}") süresi ${calendarDay(key.expiresOn ?? "")} tarihinde doldu (o günün sonunda, İstanbul saatiyle, bu çalışma alanının sandbox saatine göre). API anahtarları sayfasında yeni bir anahtar oluşturun.`,
        ),
      };
    }
    const written = this.#lastWritten.get(key.id) ?? Number.NEGATIVE_INFINITY;
    if (now - written >= LAST_USED_RESOLUTION_MS || now < written) {
      this.#lastWritten.set(key.id, now);
      await this.#store.markUsed(key.id, now);
    }
    return { ok: true, workspace };
  }

  /** A new key for the workspace: the only time the key itself is ever returned. 400 for bad input. */
  async create(workspace: string, input: unknown): Promise<{ key: string; view: ApiKeyView }> {
    assertStorableText(input);
    const now = await this.#now(workspace);
    const { body } = parseRequest(createBody(now), { body: input });
    const expiresAt = body.expires_on === undefined ? undefined : endOfIstanbulDate(body.expires_on);
    const key = `${API_KEY_PREFIX}${randomBytes(24).toString("base64url")}`;
    const stored: StoredApiKey = {
      id: `key_${randomBytes(8).toString("hex")}`,
      workspaceTag: workspaceTag(workspace),
      name: body.name,
      hash: this.#hash(key),
      masked: maskKey(key),
      createdAt: now,
      ...(body.expires_on === undefined ? {} : { expiresOn: body.expires_on, expiresAt: expiresAt as number }),
    };
    if (!(await this.#store.create(stored, MAX_LIVE_KEYS))) {
      throw new ApiFailure(
        "invalid_request",
        t(
          `This workspace already has ${MAX_LIVE_KEYS} keys that are not revoked; revoke one before creating another.`,
          `Bu çalışma alanında iptal edilmemiş ${MAX_LIVE_KEYS} anahtar var; yenisini oluşturmadan önce birini iptal edin.`,
        ),
        { status: 409 },
      );
    }
    return { key, view: toView(stored, now) };
  }

  /** The configured key first, then the created ones, oldest first. */
  async list(workspace: string): Promise<ApiKeyView[]> {
    const now = await this.#now(workspace);
    const created = await this.#store.list(workspaceTag(workspace));
    const configured: ApiKeyView = {
      id: CONFIGURED_KEY_ID,
      name: "PAYSPEC_API_KEYS",
      masked: maskKey(workspace),
      source: "environment",
      status: "active",
    };
    return [configured, ...created.map((key) => toView(key, now))];
  }

  /** Revokes a created key (at once, on every instance); 404 for no such key, 409 for the configured one. */
  async revoke(workspace: string, id: string): Promise<ApiKeyView> {
    if (id === CONFIGURED_KEY_ID) {
      throw new ApiFailure(
        "invalid_request",
        "The workspace's configured key (PAYSPEC_API_KEYS) stays valid for as long as it is configured; create a key here to try revocation.",
        { status: 409, param: "id" },
      );
    }
    const now = await this.#now(workspace);
    const revoked = await this.#store.revoke(workspaceTag(workspace), id, now);
    if (!revoked) throw new ApiFailure("not_found", "No API key with that id in this workspace.", { param: "id" });
    return toView(revoked, now);
  }

  /** A workspace's created keys gone (its reset), or every created key (a sandbox reset). */
  async forget(workspace?: string): Promise<void> {
    await this.#store.deleteFor(workspace === undefined ? undefined : workspaceTag(workspace));
  }
}
