-- The sandbox's state, shared by every instance that points at this database.
-- Times are milliseconds since the epoch (bigint), money is minor units (bigint): both exactly as the
-- in-memory store keeps them.

-- Each row hangs off its workspace (the workspaces feature's table, created first in this version).
CREATE TABLE accounts (
  workspace     text NOT NULL REFERENCES workspaces ON DELETE CASCADE,
  id            text NOT NULL,
  position      integer NOT NULL,
  name          text NOT NULL,
  currency      text NOT NULL,
  balance_minor bigint NOT NULL CHECK (balance_minor >= 0),
  PRIMARY KEY (workspace, id)
);

CREATE TABLE payments (
  workspace    text NOT NULL REFERENCES workspaces ON DELETE CASCADE,
  seq          bigint NOT NULL,
  id           text NOT NULL,
  amount       bigint NOT NULL,
  currency     text NOT NULL,
  method       text NOT NULL,
  from_account text NOT NULL,
  to_account   text NOT NULL,
  description  text,
  reference    text,
  status       text NOT NULL,
  created_at   bigint NOT NULL,
  completed_at bigint,
  settled_at   bigint,
  -- When the completion delay started counting (creation, or approval); NULL while awaiting an approver.
  countdown_from bigint,
  -- The workspace version of its latest change: a listing as of an older version reads the history.
  version      bigint NOT NULL,
  PRIMARY KEY (workspace, seq),
  UNIQUE (workspace, id)
);
CREATE INDEX payments_by_created_at ON payments (workspace, created_at);
-- Completion looks for due payments on every request: this index keeps that one probe cheap.
CREATE INDEX payments_awaiting_completion ON payments (workspace, countdown_from)
  WHERE status IN ('pending', 'approved', 'processing');

CREATE TABLE payment_history (
  workspace    text NOT NULL,
  seq          bigint NOT NULL,
  version      bigint NOT NULL,
  status       text NOT NULL,
  at           bigint NOT NULL,
  cause        text NOT NULL,
  completed_at bigint,
  settled_at   bigint,
  PRIMARY KEY (workspace, seq, version),
  FOREIGN KEY (workspace, seq) REFERENCES payments ON DELETE CASCADE
);
