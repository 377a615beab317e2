import { describe, expect, it } from "vitest";
import { parseServerArgs, portNumber } from "../src/index.js";

describe("parseServerArgs", () => {
  it("reads --port, --host and switches, dropping a leading --", () => {
    const args = parseServerArgs(["--", "--port", "0", "--host", "127.0.0.1", "--dynamic"], "usage", ["dynamic"]);
    expect(args).toEqual({ ok: true, port: 0, host: "127.0.0.1", on: new Set(["dynamic"]) });
  });

  it("answers --help with exit 0 and the usage, and a bad port or option with exit 2 naming it", () => {
    expect(parseServerArgs(["--help"], "usage")).toEqual({ ok: false, exitCode: 0, message: "usage\n" });
    const port = parseServerArgs(["--port", "70000"], "usage");
    expect(port).toMatchObject({ ok: false, exitCode: 2 });
    expect(port.ok || port.message).toContain('--port must be a whole number from 0 to 65535, got "70000"');
    const unknown = parseServerArgs(["--bogus"], "usage");
    expect(unknown).toMatchObject({ ok: false, exitCode: 2 });
    expect(unknown.ok || unknown.message).toContain("--bogus");
  });

  it("accepts only whole port numbers", () => {
    expect([portNumber("4010"), portNumber("0"), portNumber("-1"), portNumber("1.5"), portNumber("")]).toEqual([
      4010,
      0,
      undefined,
      undefined,
      undefined,
    ]);
  });
});
