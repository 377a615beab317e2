import type { SandboxConfig } from "../config/config.js";
import type { SandboxMetrics } from "../metrics/sandbox-metrics.js";
import type { SandboxSecret } from "../secret/sandbox-secret.js";
import type { SandboxFeature } from "./sandbox-feature.js";

/**
 * What a feature is built from: the settings, the stores (each feature reads its own part), the secret,
 * the metrics, and what the features it declared in `needs` provide.
 */
export interface BuildContext<Stores = unknown> {
  readonly config: SandboxConfig;
  readonly stores: Stores;
  readonly secret: SandboxSecret;
  readonly metrics: SandboxMetrics;
  /** The address links in e-mail start with: the public URL, or where the sandbox listens (once it does). */
  readonly linkBase: () => string;
  /** What `feature` provides; only a feature this one declared in its `needs`. */
  use<P>(feature: FeatureDeclaration<P, never>): P;
  /** Every feature built so far and later, in order: for what reads them all (health, resets). */
  readonly features: () => readonly SandboxFeature[];
}

/** A built feature: what the server registers (none for a feature that is off), and what it offers the features that need it. */
export interface Built<P> {
  readonly feature?: SandboxFeature;
  readonly provides: P;
}

/**
 * One feature as it declares itself (fastify's plugins, with their name and dependencies): the
 * features it needs, and how it is built. The app lists the declarations; `composeFeatures` builds
 * them, each after those it needs.
 */
export interface FeatureDeclaration<P = unknown, Stores = never> {
  readonly name: string;
  // biome-ignore lint/suspicious/noExplicitAny: a feature may need features of any kind; `use` gives each its type back
  readonly needs: readonly FeatureDeclaration<any, any>[];
  build(context: BuildContext<Stores>): Built<P> | Promise<Built<P>>;
}

/** A list of features that cannot be built as declared: one sentence, naming them and what to do. */
export class FeatureCompositionError extends Error {
  override readonly name = "FeatureCompositionError";
}

/**
 * The declarations in an order that builds each after the features it needs, keeping the list's own
 * order wherever the needs allow (the dashboard's navigation follows it). A need the list does not
 * hold, two features of one name, or features that need each other fail at once.
 */
// biome-ignore lint/suspicious/noExplicitAny: see FeatureDeclaration.needs
export function inBuildOrder(declarations: readonly FeatureDeclaration<any, any>[]): FeatureDeclaration<any, any>[] {
  const names = new Set<string>();
  for (const declaration of declarations) {
    if (names.has(declaration.name))
      throw new FeatureCompositionError(`Two features are named "${declaration.name}": give each its own name.`);
    names.add(declaration.name);
  }
  for (const declaration of declarations)
    for (const need of declaration.needs)
      if (!declarations.includes(need))
        throw new FeatureCompositionError(
          `The feature "${declaration.name}" needs "${need.name}", which the sandbox does not include: add it to the app's features.`,
        );
  const placed: FeatureDeclaration[] = [];
  const waiting = [...declarations];
  while (waiting.length > 0) {
    const ready = waiting.findIndex((d) => d.needs.every((need) => placed.includes(need)));
    if (ready < 0)
      throw new FeatureCompositionError(`${describeCycle(waiting)}: one of them must do without the other.`);
    placed.push(...waiting.splice(ready, 1));
  }
  return placed;
}

/** The first cycle among the features not yet placed, as "The features "a" → "b" → "a" need each other". */
function describeCycle(waiting: readonly FeatureDeclaration[]): string {
  const path: FeatureDeclaration[] = [];
  let at = waiting[0] as FeatureDeclaration;
  while (!path.includes(at)) {
    path.push(at);
    at = at.needs.find((need) => waiting.includes(need)) as FeatureDeclaration;
  }
  const cycle = [...path.slice(path.indexOf(at)), at];
  return `The features ${cycle.map((d) => `"${d.name}"`).join(" → ")} need each other`;
}

export interface ComposedFeatures {
  /** Every built feature, in build order. */
  readonly features: readonly SandboxFeature[];
  /** What a feature of the list provides. */
  use<P>(feature: FeatureDeclaration<P, never>): P;
}

/** Builds every declared feature after the ones it needs; each sees only what it declared. */
export async function composeFeatures<Stores>(
  // biome-ignore lint/suspicious/noExplicitAny: see FeatureDeclaration.needs
  declarations: readonly FeatureDeclaration<any, any>[],
  base: Omit<BuildContext<Stores>, "use" | "features">,
): Promise<ComposedFeatures> {
  const provided = new Map<FeatureDeclaration, unknown>();
  const features: SandboxFeature[] = [];
  for (const declaration of inBuildOrder(declarations)) {
    const built = await declaration.build({
      ...base,
      features: () => features,
      use: <P>(feature: FeatureDeclaration<P, never>) => {
        if (!declaration.needs.includes(feature))
          throw new FeatureCompositionError(
            `The feature "${declaration.name}" uses "${feature.name}" without declaring it: add it to its needs.`,
          );
        return provided.get(feature) as P;
      },
    });
    provided.set(declaration, built.provides);
    if (built.feature) features.push(built.feature);
  }
  return {
    features,
    use: <P>(feature: FeatureDeclaration<P, never>) => {
      if (!provided.has(feature)) throw new FeatureCompositionError(`The sandbox has no feature "${feature.name}".`);
      return provided.get(feature) as P;
    },
  };
}
