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
