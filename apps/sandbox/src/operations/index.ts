/**
 * Operations: what a team running the sandbox as a service reads — `/healthz`, `/readyz` and
 * `/metrics` (the metrics themselves are counted where things happen: infrastructure/metrics).
 */
export { type HealthSources, registerHealthRoutes } from "./health-routes.js";
