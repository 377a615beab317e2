-- The gateway's card payments: the answer given (card number masked, no CVC) and a keyed fingerprint
-- of the request that recognises a retry. referenceId is unique: one charge per reference, whichever
-- instance takes it.
CREATE TABLE card_payments (
  position     bigserial PRIMARY KEY,
  reference_id text NOT NULL UNIQUE,
  -- json, not jsonb: the answer is replayed with its fields in the order first given.
  payment      json NOT NULL,
  fingerprint  text NOT NULL,
  commission   double precision NOT NULL,
  local_date   text NOT NULL
);
CREATE INDEX card_payments_by_local_date ON card_payments (local_date, position);

CREATE SEQUENCE gateway_order_numbers;

-- Access tokens are kept as their SHA-256: a database dump does not hand out live tokens.
CREATE TABLE gateway_tokens (
  token_sha256 text PRIMARY KEY,
  expires_at   bigint NOT NULL
);
