-- The list count cache (db/count-cache.ts) keeps a list's capped total per filter set in memory, so paging
-- through a list or changing its order does not count it again. Any write that could change such a total
-- notifies the channel `list_counts_changed` at commit, and every server process empties its cache (as the
-- session cache does on `auth_changed`, migration 0014). For the device list, a total depends on which
-- devices exist and on the columns its filters read (serial, name, model, status, owner, expiry), and on
-- the institution tree that an institution caller's subtree is taken from. The columns the device API
-- writes at every call (last seen, remaining uses, inspections, the rate window) do not notify.
CREATE FUNCTION list_counts_changed_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('list_counts_changed', txid_current()::text);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER devices_list_counts_changed AFTER INSERT OR DELETE OR TRUNCATE OR UPDATE OF id, serial, name, model, status, institution_id, expires_at ON devices FOR EACH STATEMENT EXECUTE FUNCTION list_counts_changed_notify();
--> statement-breakpoint
CREATE TRIGGER institutions_list_counts_changed AFTER INSERT OR DELETE OR TRUNCATE OR UPDATE OF id, parent_id, path ON institutions FOR EACH STATEMENT EXECUTE FUNCTION list_counts_changed_notify();
