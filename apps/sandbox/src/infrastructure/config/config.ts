import { StartupProblem } from "@payspec/server-kit";
import { DEFAULT_POOL_SIZE } from "../postgres/pool.js";

/** Everything the sandbox reads from its environment, with the documented defaults. */
export interface SandboxConfig {
  readonly host: string;
  /** 0 picks a free port. */
  readonly port: number;
  /** One workspace per key. */
  readonly apiKeys: readonly string[];
  readonly completeAfterSeconds: number;
  readonly gatewayKey: string;
  readonly gatewaySecret: string;
  readonly tokenTtlSeconds: number;
  /** The /_sandbox control API. */
  readonly control: boolean;
  /** One log line per request (method, path, status, ms). */
  readonly logRequests: boolean;
  /**
   * Signs cursors and keys card-number hashes. Unset: random per process (cursors die with it).
   * Instances that share state must share it.
   */
  readonly secret?: string;
  /**
   * PostgreSQL connection URL: the state lives there, shared by every instance using it and kept across
   * restarts. Unset: in memory, per process.
   */
  readonly databaseUrl?: string;
  /**
   * At most this many connections to the database per instance. Unset: DEFAULT_POOL_SIZE (10,
   * node-postgres' own). Fewer answer faster when the database shares the instance's few cores.
   */
  readonly databasePoolSize?: number;
  /** A few completed and pending payments in every workspace at start and after a reset. */
  readonly samplePayments: boolean;
  /** A dashboard session unused this long is over (OWASP's idle timeout). */
  readonly dashboardIdleSeconds: number;
  /** A dashboard session ends this long after sign-in, however busy (OWASP's absolute timeout). */
  readonly dashboardMaxSeconds: number;
  /**
   * An SMTP server (`smtp://user:pass@host:port`, or `smtps://`) that also receives every e-mail the
   * sandbox sends. Unset: e-mail is only caught in the dashboard's Outbox.
   */
  readonly smtpUrl?: string;
  /** The From of the sandbox's e-mail. */
  readonly mailFrom: string;
  /** The first retry of a failed SMTP delivery waits this long; each next one twice as long. */
  readonly smtpRetryMs: number;
  /** A dashboard export of more rows than this is queued and sent as a link instead of downloaded. */
  readonly exportQueueRows: number;
  /**
   * The most payments the in-memory store keeps, every workspace together (400–560 bytes of heap each):
   * a create beyond it is refused with a 400 that says what to do. PostgreSQL has no such bound.
   */
  readonly memoryMaxPayments: number;
  /** Hours a queued export's download link works, on the workspace's sandbox clock. */
  readonly exportLinkHours: number;
  /**
   * A running export job renews its lease as it writes; one whose instance has been silent this long
   * (it died) is taken over by another instance.
   */
  readonly jobLeaseSeconds: number;
  /** The address links in e-mail start with. Unset: the address the sandbox listens on. */
  readonly publicUrl?: string;
}

export const DEFAULT_PORT = 4010;
export const DEMO_API_KEYS = ["sk_sandbox_demo_1", "sk_sandbox_demo_2"] as const;
/**
 * The workspace kept for `payspec-verify` (its default --api-key): served whenever the demo keys are,
 * never given sample payments, and emptied by the verifier before a run that writes, so that a
 * verification leaves the demo workspaces' data alone.
 */
export const VERIFY_API_KEY = "sk_sandbox_verify";
export const DEMO_GATEWAY_KEY = "gw_demo_key";
export const DEMO_GATEWAY_SECRET = "gw_demo_secret";

function positiveNumber(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) {
    throw new StartupProblem(
      `${name} must be a number of at least 0, got "${raw}": fix it or unset it for the default.`,
    );
  }
  return value;
}

/** A setting that takes one of a few words; unset or empty is its default. */
function oneOf<const T extends string>(name: string, raw: string | undefined, words: readonly T[]): T | undefined {
  if (raw === undefined || raw === "") return undefined;
  if ((words as readonly string[]).includes(raw)) return raw as T;
  throw new StartupProblem(`${name} must be ${words.join(" or ")}, got "${raw}": fix it or unset it for the default.`);
}

function poolSize(raw: string): number {
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > 1000) {
    throw new StartupProblem(
      `PAYSPEC_DATABASE_POOL_SIZE must be a whole number from 1 to 1000, got "${raw}": fix it or unset it for the default (${DEFAULT_POOL_SIZE}).`,
    );
  }
  return value;
}

function smtpUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    url = new URL("invalid:");
  }
  if (url.protocol !== "smtp:" && url.protocol !== "smtps:") {
    throw new StartupProblem(
      "PAYSPEC_SMTP_URL must be an smtp:// or smtps:// URL, such as smtp://127.0.0.1:1025: fix it or unset it to keep e-mail in the Outbox only.",
    );
  }
  return raw;
}

/** Reads the sandbox's settings; unknown or malformed values fail at start with the variable's name. */
/** A million payments: at most about 560 MB of heap (the due-completion bench), inside Node's default limit. */
export const DEFAULT_MEMORY_MAX_PAYMENTS = 1_000_000;

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): SandboxConfig {
  const keys = (env.PAYSPEC_API_KEYS ?? "")
    .split(",")
    .map((k) => k.trim())
    .filter(Boolean);
  return {
    host: env.HOST ?? "127.0.0.1",
    port: positiveNumber("PORT", env.PORT, DEFAULT_PORT),
    apiKeys: keys.length > 0 ? keys : [...DEMO_API_KEYS, VERIFY_API_KEY],
    completeAfterSeconds: positiveNumber("PAYSPEC_COMPLETE_AFTER_SECONDS", env.PAYSPEC_COMPLETE_AFTER_SECONDS, 30),
    gatewayKey: env.PAYSPEC_GATEWAY_KEY || DEMO_GATEWAY_KEY,
    gatewaySecret: env.PAYSPEC_GATEWAY_SECRET || DEMO_GATEWAY_SECRET,
    tokenTtlSeconds: positiveNumber("PAYSPEC_TOKEN_TTL_SECONDS", env.PAYSPEC_TOKEN_TTL_SECONDS, 3600),
    control: oneOf("PAYSPEC_SANDBOX_CONTROL", env.PAYSPEC_SANDBOX_CONTROL, ["on", "off"]) !== "off",
    logRequests: oneOf("PAYSPEC_LOG", env.PAYSPEC_LOG, ["requests", "off"]) === "requests",
    samplePayments: oneOf("PAYSPEC_SAMPLE_PAYMENTS", env.PAYSPEC_SAMPLE_PAYMENTS, ["on", "off"]) === "on",
    dashboardIdleSeconds: positiveNumber("PAYSPEC_DASHBOARD_IDLE_SECONDS", env.PAYSPEC_DASHBOARD_IDLE_SECONDS, 1800),
    dashboardMaxSeconds: positiveNumber("PAYSPEC_DASHBOARD_MAX_SECONDS", env.PAYSPEC_DASHBOARD_MAX_SECONDS, 43_200),
    mailFrom: env.PAYSPEC_MAIL_FROM || "payspec sandbox <sandbox@payspec.localhost>",
    smtpRetryMs: positiveNumber("PAYSPEC_SMTP_RETRY_MS", env.PAYSPEC_SMTP_RETRY_MS, 1000),
    exportQueueRows: positiveNumber("PAYSPEC_EXPORT_QUEUE_ROWS", env.PAYSPEC_EXPORT_QUEUE_ROWS, 10_000),
    memoryMaxPayments: positiveNumber(
      "PAYSPEC_MEMORY_MAX_PAYMENTS",
      env.PAYSPEC_MEMORY_MAX_PAYMENTS,
      DEFAULT_MEMORY_MAX_PAYMENTS,
    ),
    jobLeaseSeconds: positiveNumber("PAYSPEC_JOB_LEASE_SECONDS", env.PAYSPEC_JOB_LEASE_SECONDS, 30),
    exportLinkHours: positiveNumber("PAYSPEC_EXPORT_LINK_HOURS", env.PAYSPEC_EXPORT_LINK_HOURS, 24),
    ...(env.PAYSPEC_SMTP_URL ? { smtpUrl: smtpUrl(env.PAYSPEC_SMTP_URL) } : {}),
    ...(env.PAYSPEC_PUBLIC_URL ? { publicUrl: env.PAYSPEC_PUBLIC_URL.replace(/\/+$/, "") } : {}),
    ...(env.PAYSPEC_SANDBOX_SECRET ? { secret: env.PAYSPEC_SANDBOX_SECRET } : {}),
    ...(env.PAYSPEC_DATABASE_URL ? { databaseUrl: env.PAYSPEC_DATABASE_URL } : {}),
    ...(env.PAYSPEC_DATABASE_POOL_SIZE ? { databasePoolSize: poolSize(env.PAYSPEC_DATABASE_POOL_SIZE) } : {}),
  };
}
