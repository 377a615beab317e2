import type { FastifyInstance } from "fastify";

declare module "fastify" {
  interface FastifyContextConfig {
    /**
     * A POST-only address's page when it is opened with a GET (`:name` as in the route), when that
     * is not the nearest page above it: `/payments` belongs to `/payments/new`.
     */
    formPage?: string;
  }
}

interface Pattern {
  readonly matcher: RegExp;
  readonly names: readonly string[];
  readonly formPage?: string;
}

function patternOf(url: string, formPage?: string): Pattern {
  const names: string[] = [];
  const source = url
    .split("/")
    .map((segment) => {
      if (segment.startsWith(":")) {
        names.push(segment.slice(1));
        return "([^/]+)";
      }
      return segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    })
    .join("/");
  return { matcher: new RegExp(`^${source}$`), names, ...(formPage ? { formPage } : {}) };
}

const methodsOf = (method: string | readonly string[]) => (typeof method === "string" ? [method] : method);

/**
 * The dashboard's addresses only a form posts to. The browser shows one after the form answered there
 * (with its errors, say); a reload in a new tab, a bookmark or a pasted link then asks for it with a
 * GET, and that person wants the page the form lives on, not "no such page".
 *
 * Call before any page registers: the routes are learnt as they are added.
 */
export function postOnlyAddresses(dashboard: FastifyInstance): { pageFor(path: string): string | undefined } {
  const posts: Pattern[] = [];
  const pages: Pattern[] = [];
  dashboard.addHook("onRoute", (route) => {
    const methods = methodsOf(route.method);
    // The catch-all "no such page" route is neither a page nor a form's address.
    if (route.url.endsWith("*")) return;
    if (methods.includes("GET")) pages.push(patternOf(route.url));
    if (methods.includes("POST")) posts.push(patternOf(route.url, route.config?.formPage));
  });
  const isPage = (path: string) => pages.some((p) => p.matcher.test(path));
  return {
    pageFor(path) {
      if (isPage(path)) return undefined;
      for (const post of posts) {
        const match = post.matcher.exec(path);
        if (!match) continue;
        if (post.formPage) {
          const values = match.slice(1);
          // The values stay as the address wrote them (still percent-encoded): nothing is decoded here.
          return post.names.reduce((page, name, i) => page.replace(`:${name}`, values[i] ?? ""), post.formPage);
        }
        for (let above = path.slice(0, path.lastIndexOf("/")); above; above = above.slice(0, above.lastIndexOf("/")))
          if (isPage(above)) return above;
        return undefined;
      }
      return undefined;
    },
  };
}
