import type pg from "pg";

/**
 * Takes the workspace's lock for the rest of the caller's transaction: its row in `workspaces`,
 * which every write of the workspace (any feature, any instance) locks first, so they take turns.
 */
export async function lockWorkspace(client: pg.ClientBase, workspace: string): Promise<void> {
  await client.query("SELECT 1 FROM workspaces WHERE workspace = $1 FOR UPDATE", [workspace]);
}
