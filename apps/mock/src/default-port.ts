/** The mock's port when neither --port nor $PORT says: Prism's own default (4010) plus one. */
export const DEFAULT_MOCK_PORT = 4011;
