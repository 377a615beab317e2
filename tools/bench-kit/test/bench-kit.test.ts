import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, it } from "vitest";
import { compareHttp, median, table } from "../src/index.js";

it("computes medians", () => {
  expect(median([5, 1, 3])).toBe(3);
  expect(median([4, 1, 3, 2])).toBe(2.5);
});

it("formats a table with aligned columns", () => {
  expect(
    table(
      ["target", "req/s"],
      [
        ["a", 1234.4],
        ["bb", 0.5],
      ],
    ),
  ).toBe("target  req/s\na       1,234\nbb       0.50");
});

it("loads a loopback server for a bounded time and refuses other addresses", async () => {
  const server = createServer((_req, res) => res.end("ok"));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const [result] = await compareHttp([{ name: "tiny", url }], { seconds: 1, rounds: 1, connections: 2 });
  expect(result?.requestsPerSecond).toBeGreaterThan(0);
  expect(result?.non2xx).toBe(0);
  await new Promise((resolve) => server.close(resolve));
  await expect(compareHttp([{ name: "remote", url: "http://192.168.1.1/" }])).rejects.toThrow(/loopback/);
});
