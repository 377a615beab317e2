-- The sandbox clocks' offsets from real time, per scope (a workspace, or the gateway).
CREATE TABLE clock_offsets (
  scope     text PRIMARY KEY,
  offset_ms bigint NOT NULL
);
