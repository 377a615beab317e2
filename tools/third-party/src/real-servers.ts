import { execFile } from "node:child_process";
import { cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { postgresBinDir, startPostgres } from "@payspec/test-postgres";
import { node24BinDir } from "./node-24.js";
import { getText, startOnFreePort, startProcess } from "./process-server.js";
import { installFromRegistry } from "./registry-install.js";
import { startingWith, type Teardown } from "./teardown.js";

/**
 * A real open-source server, installed from the npm registry or Debian's packages and running on
 * 127.0.0.1 with the spec its own authors publish (fetched from the server itself) or its framework's
 * standard generator makes: what the contract verifier is proven on.
 */
export interface RealServer {
  readonly name: string;
  /** The package and version installed, as `name@version`. */
  readonly release: string;
  readonly url: string;
  /** The server's own OpenAPI document, saved to a file for `--spec`. */
  readonly specFile: string;
  /** The verifier flags this server needs: its credentials. */
  readonly verifyArgs: readonly string[];
  /** What a read-only run must leave as it was (its database, its stubs), as text to compare. */
  state(): Promise<string>;
  /**
   * The records the server holds, each as one line of text (its identity, and its content where no
   * clock changes it): a full run may add records, but every line there before must be there after.
   */
  records(): Promise<string[]>;
  stop(): Promise<void>;
}

const exec = promisify(execFile);

/** Creates records through the server's own API before any run, as a team's staging server has them. */
async function seed(
  name: string,
  url: string,
  headers: Record<string, string>,
  records: readonly [string, unknown][],
): Promise<void> {
  for (const [path, body] of records) {
    const reply = await fetch(`${url}${path}`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    if (!reply.ok)
      throw new Error(`${name} refused the seed record POST ${path} (${reply.status}): ${await reply.text()}`);
  }
}

/**
 * Each record of each list, as `path field=value …` for the fields named: where the records sit in
 * the answer (a property, or "" for the answer itself) and which fields say who they are.
 */
async function identities(
  url: string,
  headers: Record<string, string>,
  lists: Readonly<Record<string, readonly [string, readonly string[]]>>,
): Promise<string[]> {
  const lines: string[] = [];
  for (const [path, [holder, fields]] of Object.entries(lists)) {
    const { status, text } = await getText(`${url}${path}`, headers);
    if (status !== 200) throw new Error(`GET ${path} answered ${status}, so its records cannot be compared.`);
    const body = JSON.parse(text) as Record<string, unknown>;
    const items = (holder ? body[holder] : body) as Record<string, unknown>[];
    for (const item of items) lines.push(`${path} ${fields.map((f) => `${f}=${JSON.stringify(item[f])}`).join(" ")}`);
  }
  return lines;
}

/** A server's whole database as pg_dump writes it: what a read-only run must leave as it was. */
async function databaseDump(database: string): Promise<string> {
  const { stdout } = await exec(join(postgresBinDir(), "pg_dump"), ["--no-owner", database], {
    maxBuffer: 256 * 1024 * 1024,
  });
  // pg_dump 15.14+ opens and closes with a random \restrict key: not part of the data.
  return stdout.replace(/^\\(un)?restrict .*$/gm, "");
}

/** An SQLite database as Python's sqlite3 dumps it (`iterdump`): what a read-only run must leave as it was. */
async function sqliteDump(file: string): Promise<string> {
  const script = "import sqlite3, sys\nfor line in sqlite3.connect(sys.argv[1]).iterdump(): print(line)";
  const { stdout } = await exec("/usr/bin/python3", ["-c", script, file], { maxBuffer: 256 * 1024 * 1024 });
  return stdout;
}

/** A new temporary directory, removed by the server's teardown (after its process has stopped). */
async function temporaryDir(teardown: Teardown, prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  teardown.add(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** How to run a server's process on the port it is given, and the path that answers 200 once it is ready. */
interface Launch {
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** How long it may take to come up, in ms. */
  readonly ms: number;
  readonly readyPath: string;
  readonly readyHeaders?: Record<string, string>;
}

/** The server's process on a free port (`startOnFreePort`), stopped by the teardown; its URL. */
async function serveOnFreePort(teardown: Teardown, launch: (port: number) => Launch): Promise<string> {
  const { port, server } = await startOnFreePort((port) => {
    const { command, args, readyPath, readyHeaders, ...options } = launch(port);
    const ready = async () => (await getText(`http://127.0.0.1:${port}${readyPath}`, readyHeaders)).status === 200;
    return startProcess(command, args, { ...options, ready });
  });
  teardown.add(() => server.stop());
  return `http://127.0.0.1:${port}`;
}

/** The server's OpenAPI document saved to a directory of its own, which its teardown removes. */
async function saveSpec(teardown: Teardown, name: string, url: string): Promise<string> {
  const { status, text } = await getText(url);
  if (status !== 200) throw new Error(`${name} did not serve its OpenAPI document at ${url} (${status}).`);
  const file = join(await temporaryDir(teardown, `payspec-${name}-spec-`), "openapi.json");
  await writeFile(file, text);
  return file;
}

export const UNLEASH_RELEASE = "unleash-server@8.2.0";
/** The tokens Unleash is started with: its admin, client and frontend APIs each take their own kind. */
export const UNLEASH_TOKENS = {
  admin: "*:*.payspec-admin-token-5f1c2e",
  client: "default:development.payspec-client-token-9b7d41",
  frontend: "default:development.payspec-frontend-token-3a6e08",
} as const;

/**
 * Unleash, the feature-flag server (OpenAPI 3.0.3, 162 paths): Node 24 and its own PostgreSQL
 * database, with one token of each kind. Its state is a dump of that database.
 */
export function startUnleash(): Promise<RealServer> {
  return startingWith(unleash);
}

async function unleash(teardown: Teardown): Promise<RealServer> {
  const [dir, nodeBin, postgres] = await Promise.all([
    installFromRegistry("unleash", [UNLEASH_RELEASE]),
    node24BinDir(),
    teardown.adopt(startPostgres(), (server) => server.stop()),
  ]);
  const database = await postgres.createDatabase("unleash");
  const url = await serveOnFreePort(teardown, (port) => ({
    name: "Unleash",
    command: join(nodeBin, "node"),
    args: [join(dir, "node_modules", "unleash-server", "dist", "server.js")],
    cwd: dir,
    ms: 180_000,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      TZ: "UTC",
      DATABASE_URL: database,
      DATABASE_SSL: "false",
      HTTP_HOST: "127.0.0.1",
      HTTP_PORT: String(port),
      INIT_ADMIN_API_TOKENS: UNLEASH_TOKENS.admin,
      INIT_CLIENT_API_TOKENS: UNLEASH_TOKENS.client,
      INIT_FRONTEND_API_TOKENS: UNLEASH_TOKENS.frontend,
      SEND_TELEMETRY: "false",
      CHECK_VERSION: "false",
      LOG_LEVEL: "error",
    },
    readyPath: "/health",
  }));
  const specFile = await saveSpec(teardown, "unleash", `${url}/docs/openapi.json`);
  const admin = { authorization: UNLEASH_TOKENS.admin };
  await seed("Unleash", url, admin, [
    ["/api/admin/user-admin", { email: "ayse.seeded@example.com", name: "Ayşe Seeded", rootRole: 3 }],
    ["/api/admin/projects/default/features", { name: "payspec-seeded-flag", description: "seeded before a run" }],
    ["/api/admin/context", { name: "payspecSeededField", description: "seeded", legalValues: [] }],
    ["/api/admin/tag-types", { name: "payspec-seeded-type", description: "seeded" }],
    ["/api/admin/segments", { name: "payspec-seeded-segment", constraints: [] }],
  ]);
  // Each of Unleash's scheduled jobs (project health and statistics among them) first runs 2 to 30 s
  // after its scheduler starts, at random: its state is the server's own only once they have.
  await new Promise((resolve) => setTimeout(resolve, 36_000));
  return {
    name: "Unleash",
    release: UNLEASH_RELEASE,
    url,
    specFile,
    verifyArgs: [
      ...["--auth", `apiKey@/api/client/*=${UNLEASH_TOKENS.client}`],
      ...["--auth", `apiKey@/api/frontend*=${UNLEASH_TOKENS.frontend}`],
      ...["--auth", `apiKey=${UNLEASH_TOKENS.admin}`],
    ],
    state: () => databaseDump(database),
    // Identities only: Unleash stamps use (a token's seenAt, a user's seenAt) on its records.
    records: () =>
      identities(url, admin, {
        "/api/admin/user-admin": ["users", ["id", "email"]],
        "/api/admin/projects/default/features": ["features", ["name"]],
        "/api/admin/context": ["", ["name"]],
        "/api/admin/tag-types": ["tagTypes", ["name"]],
        "/api/admin/segments": ["segments", ["id", "name"]],
        "/api/admin/api-tokens": ["tokens", ["tokenName", "type"]],
        "/api/admin/projects": ["projects", ["id"]],
        "/api/admin/environments": ["environments", ["name"]],
      }),
    stop: () => teardown.run(),
  };
}

export const WIREMOCK_RELEASE = "wiremock@3.13.2";

/**
 * WireMock's admin API (OpenAPI 3.0.0, served at /__admin/docs/swagger), from the registry package
 * that ships the standalone jar, on the machine's Java. Its state is its stubs, settings and
 * scenarios; the request journal is left out, as it logs every request by design.
 */
export function startWireMock(): Promise<RealServer> {
  return startingWith(wireMock);
}

async function wireMock(teardown: Teardown): Promise<RealServer> {
  const [dir, root] = await Promise.all([
    installFromRegistry("wiremock", [WIREMOCK_RELEASE]),
    temporaryDir(teardown, "payspec-wiremock-"),
  ]);
  const version = WIREMOCK_RELEASE.split("@")[1];
  const jar = join(dir, "node_modules", "wiremock", "build", `wiremock-standalone-${version}.jar`);
  const url = await serveOnFreePort(teardown, (port) => ({
    name: "WireMock",
    command: "java",
    args: ["-jar", jar, "--port", String(port), "--bind-address", "127.0.0.1", "--disable-banner", "--root-dir", root],
    cwd: root,
    ms: 60_000,
    env: process.env,
    readyPath: "/__admin/health",
  }));
  const specFile = await saveSpec(teardown, "wiremock", `${url}/__admin/docs/swagger`);
  await seed("WireMock", url, {}, [
    ["/__admin/mappings", { request: { method: "GET", url: "/seeded" }, response: { status: 200, body: "seeded" } }],
  ]);
  return {
    name: "WireMock",
    release: WIREMOCK_RELEASE,
    url,
    specFile,
    verifyArgs: [],
    async state() {
      const parts = await Promise.all(
        ["/__admin/mappings", "/__admin/settings", "/__admin/scenarios"].map((path) => getText(`${url}${path}`)),
      );
      return parts.map((p) => p.text).join("\n");
    },
    async records() {
      const mappings = JSON.parse((await getText(`${url}/__admin/mappings`)).text) as { mappings: unknown[] };
      const settings = (await getText(`${url}/__admin/settings`)).text;
      return [...mappings.mappings.map((m) => JSON.stringify(m)), `settings ${settings}`];
    },
    stop: () => teardown.run(),
  };
}

export const LOOPBACK_TODO_RELEASE = "@loopback/example-todo@6.0.0";

/**
 * LoopBack 4's todo application (OpenAPI 3.0.0 generated from its controllers, at /openapi.json),
 * with its in-memory store started from the package's own data file, copied so every start is alike.
 * Its state is the list of todos.
 */
export function startLoopBackTodo(): Promise<RealServer> {
  return startingWith(loopBackTodo);
}

async function loopBackTodo(teardown: Teardown): Promise<RealServer> {
  const [dir, cwd] = await Promise.all([
    installFromRegistry("loopback-todo", [LOOPBACK_TODO_RELEASE]),
    temporaryDir(teardown, "payspec-loopback-"),
  ]);
  const app = join(dir, "node_modules", "@loopback", "example-todo");
  await cp(join(app, "data"), join(cwd, "data"), { recursive: true });
  const url = await serveOnFreePort(teardown, (port) => ({
    name: "LoopBack todo",
    command: process.execPath,
    args: [app],
    cwd,
    ms: 60_000,
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1" },
    readyPath: "/openapi.json",
  }));
  const specFile = await saveSpec(teardown, "loopback-todo", `${url}/openapi.json`);
  return {
    name: "LoopBack todo",
    release: LOOPBACK_TODO_RELEASE,
    url,
    specFile,
    verifyArgs: [],
    state: async () => (await getText(`${url}/todos`)).text,
    records: async () => (JSON.parse((await getText(`${url}/todos`)).text) as unknown[]).map((t) => JSON.stringify(t)),
    stop: () => teardown.run(),
  };
}

export const PLATFORMATIC_DB_RELEASE = "@platformatic/db@3.67.0";
/** The admin secret Platformatic DB is started with: without it, every operation is forbidden. */
export const PLATFORMATIC_ADMIN_SECRET = "plt-admin-secret-7c1e5d";

/**
 * Platformatic's start, as its programmatic API documents it. Platformatic binds 0.0.0.0 whenever it
 * finds itself in a container (its isDocker check): a test server here listens on loopback only.
 */
const PLATFORMATIC_START = `import { create } from "@platformatic/db";
const [dir, connectionString, port, adminSecret] = process.argv.slice(2);
const server = { hostname: "127.0.0.1", port: Number(port), logger: { level: "error" } };
const app = await create(dir, {
  server,
  db: { connectionString, graphql: false, openapi: true },
  migrations: { dir: dir + "/migrations", autoApply: true },
  authorization: { adminSecret },
}, { isEntrypoint: true, serverConfig: server });
app.config.server.hostname = "127.0.0.1";
if (app.serverConfig) app.serverConfig.hostname = "127.0.0.1";
await app.start();
console.log("listening on " + app.url);
`;

/**
 * Platformatic DB (Fastify; the REST API and its OpenAPI 3.0.3 document generated by Platformatic from
 * the database's tables), on Node 24 and its own PostgreSQL database: two tables (movies, and quotes
 * that refer to them), seeded through its own API. Every operation needs the admin secret.
 */
export function startPlatformaticDb(): Promise<RealServer> {
  return startingWith(platformaticDb);
}

async function platformaticDb(teardown: Teardown): Promise<RealServer> {
  const [dir, nodeBin, postgres, app] = await Promise.all([
    installFromRegistry("platformatic-db", [PLATFORMATIC_DB_RELEASE]),
    node24BinDir(),
    teardown.adopt(startPostgres(), (server) => server.stop()),
    temporaryDir(teardown, "payspec-platformatic-"),
  ]);
  const database = await postgres.createDatabase("platformatic");
  await mkdir(join(app, "migrations"));
  await writeFile(
    join(app, "migrations", "001.do.sql"),
    [
      "CREATE TABLE movies (id SERIAL PRIMARY KEY, title VARCHAR(255) NOT NULL, year INTEGER);",
      "CREATE TABLE quotes (id SERIAL PRIMARY KEY, quote TEXT NOT NULL, movie_id INTEGER REFERENCES movies(id));",
    ].join("\n"),
  );
  await writeFile(join(dir, "start.mjs"), PLATFORMATIC_START);
  const admin = { "x-platformatic-admin-secret": PLATFORMATIC_ADMIN_SECRET };
  const url = await serveOnFreePort(teardown, (port) => ({
    name: "Platformatic DB",
    command: join(nodeBin, "node"),
    args: [join(dir, "start.mjs"), app, database, String(port), PLATFORMATIC_ADMIN_SECRET],
    cwd: dir,
    ms: 120_000,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, TZ: "UTC" },
    readyPath: "/documentation/json",
  }));
  const specFile = await saveSpec(teardown, "platformatic", `${url}/documentation/json`);
  await seed("Platformatic DB", url, admin, [
    ["/movies/", { title: "Kış Uykusu", year: 2014 }],
    ["/movies/", { title: "Ahlat Ağacı", year: 2018 }],
    ["/quotes/", { quote: "İnsan, kendi içindeki kışı taşır.", movieId: 1 }],
  ]);
  return {
    name: "Platformatic DB",
    release: PLATFORMATIC_DB_RELEASE,
    url,
    specFile,
    verifyArgs: ["--header", `X-Platformatic-Admin-Secret: ${PLATFORMATIC_ADMIN_SECRET}`],
    state: () => databaseDump(database),
    async records() {
      const lists = await Promise.all(["/movies/", "/quotes/"].map((path) => getText(`${url}${path}`, admin)));
      return lists.flatMap(({ text }, i) => (JSON.parse(text) as unknown[]).map((r) => `${i} ${JSON.stringify(r)}`));
    },
    stop: () => teardown.run(),
  };
}

/** ARA's server as Debian 12 packages it (`ara-server`), installed by scripts/install-system-deps.sh. */
export const ARA_RELEASE = "ara-server 1.5.8 (Debian 12)";
const ARA_MANAGE = "/usr/bin/ara-manage";
/** The Python Debian's ara-server runs on (its `ara-manage` starts with `#! /usr/bin/python3`). */
const PYTHON = "/usr/bin/python3";
const ARA_USER = { name: "payspec", password: "ara-staging-password-4d91" } as const;

/**
 * ARA's OpenAPI document, as drf-spectacular (Django REST framework's standard generator, Debian's
 * python3-djangorestframework-spectacular) makes it from ARA's own views: ARA serves none, and DRF's
 * built-in `generateschema` stops at ARA's index view. The generator is switched on the way its
 * documentation says (INSTALLED_APPS and DEFAULT_SCHEMA_CLASS), from outside ARA's code.
 */
const ARA_SPEC_SCRIPT = `import os, sys
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ara.server.settings")
from django.conf import settings
settings.INSTALLED_APPS = [*settings.INSTALLED_APPS, "drf_spectacular"]
settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema"}
import django
django.setup()
from django.core.management import call_command
call_command("spectacular", "--format", "openapi-json", "--file", sys.argv[1])
`;

/**
 * `ara-manage` with Django's fastest password hasher, as Django's documentation advises for a server
 * under test: every request of a run carries Basic credentials, and the default PBKDF2 (260,000
 * rounds, 60 ms of a core each) made hashing most of a run's time and a loaded machine's busiest
 * process. The superuser is created through it too, so no login re-hashes (and rewrites) the password.
 */
const ARA_MANAGE_SCRIPT = `import os, sys
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ara.server.settings")
from django.conf import settings
settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
from ara.server.__main__ import main
sys.argv = ["ara-manage", *sys.argv[1:]]
main()
`;

/**
 * ARA Records Ansible's server (Python 3.11, Django 3.2 and Django REST framework 3.14, from Debian's
 * packages; OpenAPI 3.0.3 from drf-spectacular, 58 operations), on its own SQLite database (Debian's
 * ara-server refuses Debian's psycopg2 2.9 for PostgreSQL, by a check left from Django 2.2), reads
 * and writes behind HTTP Basic: a label, a playbook and a host seeded through its API.
 */
export function startAra(): Promise<RealServer> {
  return startingWith(ara);
}

async function ara(teardown: Teardown): Promise<RealServer> {
  try {
    await exec(ARA_MANAGE, ["--version"], { timeout: 60_000 });
  } catch {
    throw new Error(
      `No ARA server at ${ARA_MANAGE}: run bash scripts/install-system-deps.sh (Debian's ara-server and python3-djangorestframework-spectacular).`,
    );
  }
  const base = await temporaryDir(teardown, "payspec-ara-");
  const database = join(base, "ara.sqlite");
  const env = {
    PATH: "/usr/bin:/bin",
    HOME: base,
    TZ: "UTC",
    ARA_BASE_DIR: base,
    ARA_DATABASE_NAME: database,
    ARA_READ_LOGIN_REQUIRED: "true",
    ARA_WRITE_LOGIN_REQUIRED: "true",
    ARA_TIME_ZONE: "UTC",
    DJANGO_SUPERUSER_PASSWORD: ARA_USER.password,
  };
  const basic = { authorization: `Basic ${Buffer.from(`${ARA_USER.name}:${ARA_USER.password}`).toString("base64")}` };
  const specFile = join(base, "openapi.json");
  const manageScript = join(base, "manage.py");
  await writeFile(manageScript, ARA_MANAGE_SCRIPT);
  const manage = (...args: string[]) => exec(PYTHON, [manageScript, ...args], { cwd: base, env, timeout: 180_000 });
  await manage("migrate", "--no-input");
  await manage("createsuperuser", "--no-input", "--username", ARA_USER.name, "--email", "ops@example.com");
  await writeFile(join(base, "spec.py"), ARA_SPEC_SCRIPT);
  await exec(PYTHON, [join(base, "spec.py"), specFile], { cwd: base, env, timeout: 180_000 });
  const url = await serveOnFreePort(teardown, (port) => ({
    name: "ARA",
    command: PYTHON,
    args: [manageScript, "runserver", `127.0.0.1:${port}`, "--noreload"],
    cwd: base,
    ms: 120_000,
    env,
    readyPath: "/api/v1/playbooks",
    readyHeaders: basic,
  }));
  await seed("ARA", url, basic, [
    ["/api/v1/labels", { name: "üretim" }],
    [
      "/api/v1/playbooks",
      {
        name: "Kış dağıtımı",
        ansible_version: "2.14.3",
        status: "completed",
        path: "/srv/deploy/site.yml",
        controller: "ci.example.com",
      },
    ],
    ["/api/v1/hosts", { name: "web-1.örnek", playbook: 1 }],
  ]);
  const lists = {
    "/api/v1/labels": ["results", ["id", "name"]],
    "/api/v1/playbooks": ["results", ["id", "name", "path", "status"]],
    "/api/v1/hosts": ["results", ["id", "name", "playbook"]],
  } as const;
  return {
    name: "ARA",
    release: ARA_RELEASE,
    url,
    specFile,
    verifyArgs: ["--auth", `basicAuth=${ARA_USER.name}:${ARA_USER.password}`],
    state: () => sqliteDump(database),
    records: () => identities(url, basic, lists),
    stop: () => teardown.run(),
  };
}
