/**
 * The sandbox clock: each workspace's and the gateway's own notion of now, like Stripe's test clocks
 * (real time plus what the control API's advance and rewind added), kept in a store so that instances
 * sharing a database share their clocks; the store contract and its memory and PostgreSQL stores.
 */

import type { FeatureDeclaration } from "../infrastructure/features/feature-declaration.js";
import { SandboxClocks } from "./clock.js";
import { registerClockControls } from "./clock-controls.js";
import type { ClockStores } from "./open-clock-stores.js";

/** The clocks every other feature reads time from; a reset puts each back to real time first. */
export const clockDeclaration: FeatureDeclaration<SandboxClocks, ClockStores> = {
  name: "clock",
  needs: [],
  build: ({ stores }) => {
    const clocks = new SandboxClocks(stores.clocks);
    return {
      provides: clocks,
      feature: {
        name: "clock",
        controlRoutes: (control, ctx) => registerClockControls(control, clocks, ctx),
        reset: () => clocks.reset(),
      },
    };
  },
};

export { GATEWAY_SCOPE, workspaceScope } from "../infrastructure/time/clock-scopes.js";
export { MAX_CLOCK_ADVANCE_SECONDS, SandboxClocks } from "./clock.js";
export { moveClockBy } from "./clock-moves.js";
export type { ClockStore } from "./clock-store.js";
export { type ClockStores, openClockStores } from "./open-clock-stores.js";
export { registerClockControls };
