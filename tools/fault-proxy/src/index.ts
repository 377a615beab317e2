export { type ClientView, type ClientViewRequest, clientView } from "./client-view.js";
export { type Fault, type FaultProxy, type FaultRule, type ProxiedRequest, startFaultProxy } from "./fault-proxy.js";
export { repeatingCursor } from "./listing-faults.js";
export { type ProxiedSuite, proxiedDuringSuite, type ResettableTarget, type SuiteHooks } from "./proxied-suite.js";
