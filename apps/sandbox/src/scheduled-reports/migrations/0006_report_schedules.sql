-- Scheduled report delivery. A schedule's next_due_at moves on in the same transaction that records
-- a due time's delivery and queues its e-mail, guarded by its old value: instances racing for one
-- due time deliver it once.
CREATE TABLE report_schedules (
  id            text PRIMARY KEY,
  workspace_tag text NOT NULL,
  position      bigserial,
  name          text NOT NULL,
  format        text NOT NULL,
  filters       jsonb NOT NULL,
  cadence       jsonb NOT NULL,
  recipients    jsonb NOT NULL,
  paused        boolean NOT NULL DEFAULT false,
  created_at    bigint NOT NULL,
  next_due_at   bigint NOT NULL
);
CREATE INDEX report_schedules_due ON report_schedules (workspace_tag, next_due_at) WHERE NOT paused;

CREATE TABLE schedule_deliveries (
  schedule_id   text NOT NULL REFERENCES report_schedules ON DELETE CASCADE,
  due_at        bigint NOT NULL,
  at            bigint NOT NULL,
  period_from   bigint NOT NULL,
  period_to     bigint NOT NULL,
  rows_in       integer NOT NULL,
  outcome       text NOT NULL,
  message_id    text,
  export_job_id text,
  detail        text,
  PRIMARY KEY (schedule_id, due_at)
);
