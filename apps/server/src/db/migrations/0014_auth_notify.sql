-- The session cache (lib/session-cache.ts) keeps a session's access-check row (the session, its account,
-- the cache counters) in memory. Any write that could change such a row notifies the channel
-- `auth_changed` at commit; every server process listens on it (a connection of its own, and each pooled
-- connection, which receives its own commits' notices before the commit returns) and empties its cache.
-- Columns that no access check reads (a session's last_seen_at, an admin's last_login_at, a balance) do
-- not notify: statement triggers on UPDATE OF the columns read. The payload is the transaction's id:
-- PostgreSQL folds a transaction's equal notices into one, and a process that hears one commit on several
-- of its connections flushes once.
CREATE FUNCTION auth_changed_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('auth_changed', txid_current()::text);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER sessions_auth_changed AFTER UPDATE OF key_hash, subject_kind, subject_id, view_role_id, restricted, expires_at OR DELETE OR TRUNCATE ON sessions FOR EACH STATEMENT EXECUTE FUNCTION auth_changed_notify();
--> statement-breakpoint
CREATE TRIGGER admin_users_auth_changed AFTER UPDATE OF id, username, role_id, status OR DELETE OR TRUNCATE ON admin_users FOR EACH STATEMENT EXECUTE FUNCTION auth_changed_notify();
--> statement-breakpoint
CREATE TRIGGER institutions_auth_changed AFTER UPDATE OF id, username, name, grade, path, contact_name, status, term_expires_at, avatar OR DELETE OR TRUNCATE ON institutions FOR EACH STATEMENT EXECUTE FUNCTION auth_changed_notify();
--> statement-breakpoint
CREATE TRIGGER cache_versions_auth_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON cache_versions FOR EACH STATEMENT EXECUTE FUNCTION auth_changed_notify();
