-- Append-only tables: UPDATE and DELETE are refused by the database itself.
-- approval_event rows older than the 365-day retention may be deleted (the retention sweep); nothing else.
CREATE TRIGGER approval_event_no_update BEFORE UPDATE ON approval_event
BEGIN SELECT RAISE(ABORT, 'approval_event is append-only'); END;
--> statement-breakpoint
CREATE TRIGGER approval_event_no_delete BEFORE DELETE ON approval_event
WHEN OLD.created_at > (CAST(strftime('%s', 'now') AS INTEGER) - 365 * 86400) * 1000
BEGIN SELECT RAISE(ABORT, 'approval_event is append-only inside its 365-day retention'); END;
--> statement-breakpoint
CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;
--> statement-breakpoint
CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;
--> statement-breakpoint
CREATE TRIGGER policy_memory_ledger_no_update BEFORE UPDATE ON policy_memory_ledger
BEGIN SELECT RAISE(ABORT, 'policy_memory_ledger is append-only'); END;
--> statement-breakpoint
CREATE TRIGGER policy_memory_ledger_no_delete BEFORE DELETE ON policy_memory_ledger
BEGIN SELECT RAISE(ABORT, 'policy_memory_ledger is append-only'); END;
