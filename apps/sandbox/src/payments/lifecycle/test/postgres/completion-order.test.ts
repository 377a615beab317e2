import { expect, it } from "vitest";
import { settlementOff } from "../../../../../test/support/clock-moves.js";
import { eventually } from "../../../../../test/support/eventually.js";
import { KEY } from "../../../../../test/support/harness.js";
import { twoInstancesOnOneDatabase } from "../../../../../test/support/test-stores.js";

const instances = twoInstancesOnOneDatabase();

const headers = { authorization: `Bearer ${KEY}`, "content-type": "application/json" };

/** Resolves once no payment is pending, the due-work loops done; fails after 20 s. */
function dueWorkDone(url: string): Promise<true> {
  return eventually(async () => {
    const page = (await (await fetch(`${url}/v1/payments?status=pending&limit=1`, { headers })).json()) as {
      pagination: { total: number };
    };
    return page.pagination.total === 0 || undefined;
  }, "Every due payment completing");
}

it("completes due payments in the order the listing shows them, whichever instance took each", async () => {
  const [a, b] = instances();
  // The clock moves past the payments' delay: completed, not settled, whatever the time of day.
  await settlementOff(a.url, KEY);
  const accounts = (await (await fetch(`${a.url}/v1/accounts`, { headers })).json()) as {
    id: string;
    currency: string;
    balance: number;
  }[];
  const [from, to] = accounts.filter((x) => x.currency === "TRY") as [
    (typeof accounts)[number],
    (typeof accounts)[number],
  ];
  // 400 creates of one amount, the debit account covering exactly 250 of them; sent in waves to both
  // instances at once, so their creation times and their numbers interleave.
  const total = 400;
  const covered = 250;
  const amount = Math.floor((from.balance * 100) / covered);
  for (let wave = 0; wave < total / 50; wave++) {
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        fetch(`${(i % 2 ? a : b).url}/v1/payments`, {
          method: "POST",
          headers,
          body: JSON.stringify({ amount, currency: "TRY", method: "eft", from_account: from.id, to_account: to.id }),
        }),
      ),
    );
    expect(answers.every((r) => r.status === 201)).toBe(true);
  }
  await fetch(`${a.url}/_sandbox/clock/advance`, { method: "POST", headers, body: JSON.stringify({ seconds: 60 }) });
  // A request completes one chunk of what fell due; the instances' due-work loops do the rest.
  await dueWorkDone(b.url);
  const statuses: string[] = [];
  const createdAt: string[] = [];
  for (let cursor: string | null = null, first = true; first || cursor; first = false) {
    const page = (await (
      await fetch(`${b.url}/v1/payments?${cursor ? `cursor=${encodeURIComponent(cursor)}` : "limit=100"}`, { headers })
    ).json()) as { data: { status: string; created_at: string }[]; pagination: { next_cursor: string | null } };
    statuses.push(...page.data.map((p) => p.status));
    createdAt.push(...page.data.map((p) => p.created_at));
    cursor = page.pagination.next_cursor;
  }
  expect(statuses).toHaveLength(total);
  expect(statuses).toEqual([...Array(covered).fill("completed"), ...Array(total - covered).fill("failed")]);
  // Creation times never go backwards along the listing.
  expect([...createdAt].sort()).toEqual(createdAt);
});
