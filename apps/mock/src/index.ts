export { buildMock, DEFAULT_MOCK_PORT, type MockOptions, type RunningMock, startMock } from "./server.js";
