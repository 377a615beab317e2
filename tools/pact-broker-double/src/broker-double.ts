import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One request the double received, as a broker's log would show it (credentials reduced to their scheme). */
export interface BrokerCall {
  readonly method: string;
  readonly path: string;
  readonly authorization?: string;
  readonly body?: unknown;
}

export interface PublishedPact {
  readonly consumer: string;
  readonly consumerVersion: string;
  readonly branch?: string;
  readonly provider: string;
  readonly sha: string;
  readonly content: Record<string, unknown>;
}

export interface VerificationResult {
  readonly consumer: string;
  readonly provider: string;
  readonly sha: string;
  readonly success: boolean;
  readonly providerApplicationVersion: string;
  readonly providerBranch?: string;
  readonly body: Record<string, unknown>;
}

export interface BrokerDouble {
  readonly url: string;
  readonly calls: readonly BrokerCall[];
  readonly pacts: readonly PublishedPact[];
  readonly verifications: readonly VerificationResult[];
  /** Requests it has no answer for: a test asserts there were none. */
  readonly unanswered: readonly BrokerCall[];
  close(): Promise<void>;
}

export interface BrokerDoubleOptions {
  /** When set, every request must carry `Authorization: Bearer <token>`, else 401. */
  readonly token?: string;
  /** When set, every request must carry Basic credentials for this `user:password`, else 401. */
  readonly basic?: string;
}

const HAL = "application/hal+json";

interface Selector {
  readonly branch?: string;
  readonly mainBranch?: boolean;
  readonly consumer?: string;
  readonly deployedOrReleased?: boolean;
  readonly deployed?: boolean;
  readonly released?: boolean;
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "content-type": HAL });
  response.end(JSON.stringify(body));
}

/**
 * A Pact Broker test double on 127.0.0.1: enough of the broker's HAL API for the official pact CLI
 * to publish pacts (`/contracts/publish`), fetch pacts for verification with consumer version
 * selectors, publish verification results (with the provider version's branch), and ask the matrix
 * for `can-i-deploy`. It records every call. Never shipped: tests only.
 */
export async function startBrokerDouble(options: BrokerDoubleOptions = {}): Promise<BrokerDouble> {
  const calls: BrokerCall[] = [];
  const unanswered: BrokerCall[] = [];
  const pacts: PublishedPact[] = [];
  const verifications: VerificationResult[] = [];
  /** provider version -> branch, as `PUT /pacticipants/:p/branches/:b/versions/:v` or the results' own field say. */
  const branches = new Map<string, string>();
  let base = "";
  const link = (path: string, extra: Record<string, unknown> = {}) => ({ href: `${base}${path}`, ...extra });
  const pactPath = (p: PublishedPact) =>
    `/pacts/provider/${encodeURIComponent(p.provider)}/consumer/${encodeURIComponent(p.consumer)}/pact-version/${p.sha}`;

  function authorised(request: IncomingMessage): boolean {
    const header = request.headers.authorization ?? "";
    if (options.token) return header === `Bearer ${options.token}`;
    if (options.basic) return header === `Basic ${Buffer.from(options.basic).toString("base64")}`;
    return true;
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? "/", base);
    const path = decodeURIComponent(url.pathname);
    const body = await readJson(request);
    const call: BrokerCall = {
      method: request.method ?? "GET",
      path: `${path}${url.search}`,
      ...(request.headers.authorization ? { authorization: request.headers.authorization.split(" ")[0] } : {}),
      ...(body === undefined ? {} : { body }),
    };
    calls.push(call);
    if (!authorised(request)) return send(response, 401, { error: "Authentication required" });

    if (call.method === "GET" && path === "/") {
      return send(response, 200, {
        _links: {
          self: link("/"),
          "pb:publish-contracts": link("/contracts/publish", { title: "Publish contracts" }),
          "pb:provider-pacts-for-verification": link("/pacts/provider/{provider}/for-verification", {
            templated: true,
          }),
          "pb:latest-provider-pacts": link("/pacts/provider/{provider}/latest", { templated: true }),
          "pb:pacticipant": link("/pacticipants/{pacticipant}", { templated: true }),
          "pb:pacticipant-branch-version": link("/pacticipants/{pacticipant}/branches/{branch}/versions/{version}", {
            templated: true,
          }),
          "pb:pacticipant-version": link("/pacticipants/{pacticipant}/versions/{version}", { templated: true }),
          "pb:matrix": link("/matrix"),
        },
      });
    }

    if (call.method === "POST" && path === "/contracts/publish") {
      const publish = body as {
        pacticipantName: string;
        pacticipantVersionNumber: string;
        branch?: string;
        contracts: { content: string; specification: string; providerName: string }[];
      };
      for (const contract of publish.contracts ?? []) {
        const content = JSON.parse(Buffer.from(contract.content, "base64").toString("utf8"));
        pacts.push({
          consumer: publish.pacticipantName,
          consumerVersion: publish.pacticipantVersionNumber,
          ...(publish.branch ? { branch: publish.branch } : {}),
          provider: contract.providerName,
          sha: `sha${pacts.length + 1}`,
          content,
        });
      }
      // The shape the pact CLI reads back (it prints the notices): every field it expects, none it does not.
      const pacticipantPath = `/pacticipants/${encodeURIComponent(publish.pacticipantName)}`;
      const versionPath = `${pacticipantPath}/versions/${encodeURIComponent(publish.pacticipantVersionNumber)}`;
      const named = (path: string, name: string) => link(path, { name, title: name });
      return send(response, 200, {
        logs: [],
        notices: [{ type: "success", text: `Published ${publish.contracts?.length ?? 0} contracts` }],
        _embedded: {
          pacticipant: { name: publish.pacticipantName, _links: { self: link(pacticipantPath) } },
          version: {
            number: publish.pacticipantVersionNumber,
            _links: { self: named(versionPath, publish.pacticipantVersionNumber) },
          },
        },
        _links: {
          "pb:contracts": pacts
            .slice(-(publish.contracts?.length ?? 0))
            .map((p) => named(pactPath(p), `Pact between ${p.consumer} and ${p.provider}`)),
          "pb:pacticipant": named(pacticipantPath, publish.pacticipantName),
          "pb:pacticipant-version": named(versionPath, publish.pacticipantVersionNumber),
          "pb:pacticipant-version-tags": [],
        },
      });
    }

    const forVerification = /^\/pacts\/provider\/([^/]+)\/for-verification$/.exec(path);
    // The CLI navigates to the relation (GET), then posts its selectors to the same URL.
    if (call.method === "GET" && forVerification) return send(response, 200, { _links: { self: link(path) } });
    if (call.method === "POST" && forVerification) {
      const provider = forVerification[1] as string;
      const selectors = ((body as { consumerVersionSelectors?: Selector[] })?.consumerVersionSelectors ?? [
        {},
      ]) as Selector[];
      // As a broker does: for each selector, the latest pact of each consumer it matches, once.
      const chosen = new Set<PublishedPact>();
      for (const s of selectors) {
        const latest = new Map<string, PublishedPact>();
        // Nothing is ever recorded as deployed or released here: those selectors choose no pact.
        if (s.deployedOrReleased || s.deployed || s.released) continue;
        for (const p of pacts) {
          if (p.provider !== provider) continue;
          if (s.branch !== undefined && s.branch !== p.branch) continue;
          if (s.mainBranch && p.branch !== "main") continue;
          if (s.consumer !== undefined && s.consumer !== p.consumer) continue;
          latest.set(p.consumer, p);
        }
        for (const p of latest.values()) chosen.add(p);
      }
      return send(response, 200, {
        _embedded: {
          pacts: [...chosen].map((p) => ({
            shortDescription: `latest from branch ${p.branch ?? "none"}`,
            verificationProperties: {
              pending: false,
              notices: [{ when: "before_verification", text: `The pact of ${p.consumer} ${p.consumerVersion}` }],
            },
            _links: {
              self: link(pactPath(p), { name: `Pact between ${p.consumer} (${p.consumerVersion}) and ${p.provider}` }),
            },
          })),
        },
        _links: { self: link(path) },
      });
    }

    const pactMatch =
      /^\/pacts\/provider\/([^/]+)\/consumer\/([^/]+)\/pact-version\/([^/]+)(\/verification-results)?$/.exec(path);
    if (pactMatch) {
      const [, provider, consumer, sha, results] = pactMatch;
      const pact = pacts.find((p) => p.provider === provider && p.consumer === consumer && p.sha === sha);
      if (!pact) return send(response, 404, { error: "No such pact" });
      if (call.method === "GET" && !results) {
        return send(response, 200, {
          ...pact.content,
          _links: {
            self: link(pactPath(pact)),
            "pb:publish-verification-results": link(`${pactPath(pact)}/verification-results`, {
              title: "Publish verification results",
            }),
            // The CLI goes through the provider to record the provider version's branch before it publishes.
            "pb:provider": link(`/pacticipants/${encodeURIComponent(pact.provider)}`, {
              title: "Provider",
              name: pact.provider,
            }),
          },
        });
      }
      if (call.method === "POST" && results) {
        const result = body as Record<string, unknown>;
        const version = String(result.providerApplicationVersion ?? "");
        const branch =
          branches.get(`${provider}/${version}`) ?? (typeof result.branch === "string" ? result.branch : undefined);
        verifications.push({
          consumer: consumer as string,
          provider: provider as string,
          sha: sha as string,
          success: result.success === true,
          providerApplicationVersion: version,
          ...(branch ? { providerBranch: branch } : {}),
          body: result,
        });
        return send(response, 201, {
          success: result.success,
          _links: { self: link(`${pactPath(pact)}/verification-results/${verifications.length}`) },
        });
      }
    }

    const branchVersion = /^\/pacticipants\/([^/]+)\/branches\/([^/]+)\/versions\/([^/]+)$/.exec(path);
    if (call.method === "PUT" && branchVersion) {
      const [, pacticipant, branch, version] = branchVersion;
      branches.set(`${pacticipant}/${version}`, branch as string);
      return send(response, 200, { _links: { self: link(path) } });
    }
    const version = /^\/pacticipants\/([^/]+)\/versions\/([^/]+)$/.exec(path);
    if ((call.method === "PUT" || call.method === "PATCH") && version) {
      const [, pacticipant, number] = version;
      const branch = (body as { branch?: string } | undefined)?.branch;
      if (branch) branches.set(`${pacticipant}/${number}`, branch);
      return send(response, 200, { number, _links: { self: link(path) } });
    }
    const pacticipant = /^\/pacticipants\/([^/]+)$/.exec(path);
    if (call.method === "GET" && pacticipant) {
      return send(response, 200, {
        name: pacticipant[1],
        _links: {
          self: link(path),
          "pb:version": link(`${path}/versions/{version}`, { templated: true }),
          "pb:branch-version": link(`${path}/branches/{branch}/versions/{version}`, { templated: true }),
        },
      });
    }

    if (call.method === "GET" && path === "/matrix") {
      return send(response, 200, matrixAnswer(url.searchParams));
    }

    unanswered.push(call);
    return send(response, 404, { error: `The broker double has no answer for ${call.method} ${path}` });
  }

  /** can-i-deploy: deployable when every pact of the asked consumer version was verified successfully; unknown when one was never verified. */
  function matrixAnswer(query: URLSearchParams) {
    const names = query.getAll("q[][pacticipant]");
    const versions = query.getAll("q[][version]");
    const asked = names.map((name, i) => ({ name, version: versions[i] }));
    const rows = asked.flatMap(({ name, version }) =>
      pacts
        .filter((p) => p.consumer === name && (version === undefined || p.consumerVersion === version))
        .map((p) => ({ pact: p, verification: verifications.filter((v) => v.sha === p.sha).at(-1) })),
    );
    const verified = rows.filter((r) => r.verification);
    const failed = verified.filter((r) => !r.verification?.success);
    const deployable = rows.length === 0 || verified.length < rows.length ? null : failed.length === 0;
    const reason =
      deployable === null
        ? "There is no verified pact between the versions asked about"
        : deployable
          ? "All required verification results are published and successful"
          : "One or more verification results failed";
    return {
      summary: {
        deployable,
        reason,
        success: verified.length - failed.length,
        failed: failed.length,
        unknown: rows.length - verified.length,
      },
      notices: [{ type: deployable ? "success" : "danger", text: reason }],
      matrix: rows.map(({ pact, verification }) => ({
        consumer: { name: pact.consumer, version: { number: pact.consumerVersion, branch: pact.branch } },
        provider: {
          name: pact.provider,
          version: verification ? { number: verification.providerApplicationVersion } : null,
        },
        pact: { createdAt: "2026-11-24T00:00:00Z" },
        verificationResult: verification ? { success: verification.success, verifiedAt: "2026-11-24T00:00:00Z" } : null,
      })),
    };
  }

  const server: Server = createServer((request, response) => {
    handle(request, response).catch((error: Error) => send(response, 500, { error: error.message }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    calls,
    pacts,
    verifications,
    unanswered,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
