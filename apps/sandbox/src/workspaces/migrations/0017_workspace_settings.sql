-- payspec: additive, older instances keep working
-- Every feature's settings of a workspace, a row per setting that differs from its feature's default:
-- approval-workflow, mail, reconciliation and settlement keep theirs here through the workspaces
-- feature's setting store, instead of each adding a column to the workspaces table.
CREATE TABLE workspace_settings (
  workspace text NOT NULL REFERENCES workspaces ON DELETE CASCADE ON UPDATE CASCADE,
  name      text NOT NULL,
  value     jsonb NOT NULL,
  PRIMARY KEY (workspace, name)
);

INSERT INTO workspace_settings (workspace, name, value)
SELECT w.workspace, s.name, s.value
FROM workspaces w
CROSS JOIN LATERAL (VALUES
  ('approval_workflow', to_jsonb(w.approval_workflow), 'false'::jsonb),
  ('approval_four_eyes', to_jsonb(w.approval_four_eyes), 'false'::jsonb),
  ('auto_settlement', to_jsonb(w.auto_settlement), 'true'::jsonb),
  ('report_recipients', w.report_recipients, '[]'::jsonb),
  ('mail_language', w.mail_language, '"en"'::jsonb),
  ('statement_mappings', w.statement_mappings, '[]'::jsonb)
) AS s (name, value, fallback)
WHERE s.value <> s.fallback;

-- The columns stay while a rolling upgrade runs the last release beside this one: a setting an older
-- instance changes (in its column) reaches this table too. A later release drops columns and trigger.
CREATE FUNCTION payspec_workspace_settings_from_columns() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO workspace_settings AS kept (workspace, name, value)
  SELECT NEW.workspace, s.name, s.value
  FROM (VALUES
    ('approval_workflow', to_jsonb(NEW.approval_workflow), to_jsonb(OLD.approval_workflow)),
    ('approval_four_eyes', to_jsonb(NEW.approval_four_eyes), to_jsonb(OLD.approval_four_eyes)),
    ('auto_settlement', to_jsonb(NEW.auto_settlement), to_jsonb(OLD.auto_settlement)),
    ('report_recipients', NEW.report_recipients, OLD.report_recipients),
    ('mail_language', NEW.mail_language, OLD.mail_language),
    ('statement_mappings', NEW.statement_mappings, OLD.statement_mappings)
  ) AS s (name, value, was)
  WHERE s.value IS DISTINCT FROM s.was
  ON CONFLICT (workspace, name) DO UPDATE SET value = excluded.value;
  RETURN NULL;
END
$$;

-- Only an UPDATE that names a setting's column: payments' counter updates on the same row fire nothing.
CREATE TRIGGER workspace_settings_from_columns
  AFTER UPDATE OF approval_workflow, approval_four_eyes, auto_settlement, report_recipients, mail_language,
    statement_mappings ON workspaces
  FOR EACH ROW EXECUTE FUNCTION payspec_workspace_settings_from_columns();
