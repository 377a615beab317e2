-- Payments: why completion failed. A history entry of a payment that failed at completion keeps what
-- its debit account held then and what the payment needed, so the dashboard can say why in words.
ALTER TABLE payment_history ADD COLUMN shortfall jsonb;
