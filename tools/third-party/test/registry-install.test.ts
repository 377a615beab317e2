import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { installFromRegistry } from "../src/index.js";

describe("installFromRegistry", () => {
  it("installs exact packages from the registry once, and a second call with the same list reuses them", async () => {
    const dir = await installFromRegistry("registry-install-test", ["is-number@7.0.0"]);
    const manifest = join(dir, "node_modules", "is-number", "package.json");
    expect(existsSync(manifest)).toBe(true);
    const installedAt = statSync(manifest).mtimeMs;
    expect(await installFromRegistry("registry-install-test", ["is-number@7.0.0"])).toBe(dir);
    expect(statSync(manifest).mtimeMs).toBe(installedAt);
  });

  it("names the packages it could not install", async () => {
    await expect(installFromRegistry("registry-install-missing", ["payspec-no-such-package-x9@1.0.0"])).rejects.toThrow(
      /could not install payspec-no-such-package-x9@1.0.0/,
    );
  });
});
