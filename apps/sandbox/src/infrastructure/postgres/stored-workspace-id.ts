/** How a workspace's API key is kept in the database: a keyed hash, never the key. */
export type StoredWorkspaceId = (apiKey: string) => string;
