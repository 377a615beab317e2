/**
 * The sandbox clock: each workspace's and the gateway's own notion of now, like Stripe's test clocks
 * (real time plus what the control API's advance and rewind added), kept in a store so that instances
 * sharing a database share their clocks; the store contract and its memory and PostgreSQL stores.
 */

export { GATEWAY_SCOPE, workspaceScope } from "../infrastructure/time/clock-scopes.js";
export { MAX_CLOCK_ADVANCE_SECONDS, SandboxClocks } from "./clock.js";
export { registerClockControls } from "./clock-controls.js";
export { moveClockBy } from "./clock-moves.js";
export type { ClockStore } from "./clock-store.js";
export { type ClockStores, openClockStores } from "./open-clock-stores.js";
