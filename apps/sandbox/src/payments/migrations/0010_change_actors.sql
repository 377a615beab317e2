-- The four-eyes rule: who made each change a person made (a keyed fingerprint of the API key and the
-- key masked, never the key), on the payment's first history entry and on every later one.
ALTER TABLE payments ADD COLUMN created_actor text;
ALTER TABLE payment_history ADD COLUMN actor text;
