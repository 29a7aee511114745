-- Each process caches role grants and system parameters in memory; this counter tells it when to
-- reload. Any write to the tables behind a cache bumps that cache's version in the write's own
-- transaction (statement triggers, so seeds, services and hand-written SQL alike), and the access
-- check reads both versions in its one joined query.
INSERT INTO cache_versions (name, version) VALUES ('grants', 1), ('params', 1) ON CONFLICT (name) DO NOTHING;
--> statement-breakpoint
CREATE FUNCTION cache_version_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE cache_versions SET version = version + 1 WHERE name = TG_ARGV[0];
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER roles_cache_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON roles FOR EACH STATEMENT EXECUTE FUNCTION cache_version_bump('grants');
--> statement-breakpoint
CREATE TRIGGER role_menus_cache_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON role_menus FOR EACH STATEMENT EXECUTE FUNCTION cache_version_bump('grants');
--> statement-breakpoint
CREATE TRIGGER menus_cache_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON menus FOR EACH STATEMENT EXECUTE FUNCTION cache_version_bump('grants');
--> statement-breakpoint
CREATE TRIGGER system_params_cache_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON system_params FOR EACH STATEMENT EXECUTE FUNCTION cache_version_bump('params');
