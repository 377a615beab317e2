/**
 * The boundaries `pnpm lint` holds the repository to (dependency-cruiser; tools/boundaries runs it).
 * Short on purpose: each rule is one that, broken, made code harder to move or to understand here.
 */
module.exports = {
  forbidden: [
    {
      // A cycle means neither module can be read, tested or moved without the other (the sandbox's
      // clock ↔ store index ↔ PostgreSQL store was one). Type-only imports count: they couple too.
      name: "no-circular",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      // Published packages run in users' projects, where our apps are not installed.
      name: "packages-not-apps",
      severity: "error",
      from: { path: "^(packages|specs)/" },
      to: { path: "^apps/" },
    },
    {
      // An app's code (not its tests) never reaches into another app: what two apps share belongs in
      // a package (the verifier may not import the sandbox, nor the sandbox the mock).
      name: "apps-not-other-apps",
      severity: "error",
      from: { path: "^apps/([^/]+)/src/" },
      to: { path: "^apps/([^/]+)/", pathNot: "^apps/$1/" },
    },
    {
      // The sandbox's features (payments, gateway, mail, exports, …) each keep their store, routes and
      // pages inside their folder; another feature sees only what the folder's index.ts exports, so
      // a feature can be reorganised without touching its neighbours.
      name: "sandbox-feature-through-index",
      severity: "error",
      from: { path: "^apps/sandbox/src/(?!app/|infrastructure/)([^/]+)/" },
      to: {
        path: "^apps/sandbox/src/(?!app/|infrastructure/)([^/]+)/(?!index\\.ts$)",
        pathNot: "^apps/sandbox/src/$1/",
      },
    },
    {
      // A feature's tables are its own: its SQL (the PostgreSQL stores) reaches another feature only
      // through that feature's store contract, a type handed in by the app, never by a function or a
      // column list it exports. Reconciliation reconciles through PaymentsStore, schedules keep their
      // e-mail and export through OutboxStore and ExportJobStore, in one shared transaction.
      name: "sandbox-sql-stays-in-its-feature",
      severity: "error",
      from: { path: "^apps/sandbox/src/(?!app/|infrastructure/)([^/]+)/(?:postgres-|.*/postgres-)" },
      to: {
        path: "^apps/sandbox/src/(?!app/|infrastructure/)([^/]+)/",
        pathNot: "^apps/sandbox/src/$1/",
        dependencyTypesNot: ["type-only"],
      },
    },
    {
      // A feature opens its own stores (its open-*-stores.ts, handed the backend): what its index.ts
      // offers the others is that opener and the store contract's types, never a store class, a row
      // mapper or a column list, so no other feature can build SQL on its tables.
      name: "sandbox-index-exports-no-store-internals",
      severity: "error",
      from: { path: "^apps/sandbox/src/(?!app/|infrastructure/)([^/]+)/index\\.ts$" },
      to: {
        path: "^apps/sandbox/src/$1/(?:|.*/)(memory|postgres|hashed)-",
        dependencyTypesNot: ["type-only"],
      },
    },
    {
      // The server, the PostgreSQL pool, the clock and the dashboard's shell serve every feature and
      // know none: a feature is plugged in by the app (app/server.ts), never reached from below.
      name: "sandbox-infrastructure-knows-no-feature",
      severity: "error",
      from: { path: "^apps/sandbox/src/infrastructure/" },
      to: { path: "^apps/sandbox/src/", pathNot: "^apps/sandbox/src/infrastructure/" },
    },
    {
      // The app composes the features; nothing a feature or the infrastructure holds depends on it.
      name: "sandbox-nothing-imports-the-app",
      severity: "error",
      from: { path: "^apps/sandbox/src/(?!app/)[^/]+/" },
      to: { path: "^apps/sandbox/src/app/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(node_modules|dist|\\.turbo|fixtures)/" },
    tsPreCompilationDeps: true,
    // The shared base's module resolution: ESM imports name the .js a .ts file compiles to.
    tsConfig: { fileName: "tsconfig.base.json" },
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default"] },
  },
};
