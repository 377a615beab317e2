/** How many dashboard downloads of `format` ended with `outcome`, as the sandbox's `/metrics` counts them. */
export async function downloadsEnded(
  sandboxUrl: string,
  format: "csv" | "pdf",
  outcome: "completed" | "abandoned" | "failed",
): Promise<number> {
  const text = await (await fetch(`${sandboxUrl}/metrics`)).text();
  const line = new RegExp(
    `^payspec_sandbox_dashboard_downloads_total\\{format="${format}",outcome="${outcome}"\\} (\\d+)$`,
    "m",
  );
  return Number(line.exec(text)?.[1] ?? 0);
}
