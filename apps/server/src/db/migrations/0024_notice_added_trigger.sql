-- Notices (modules/notices): every server process holds one connection listening on `notice_added` and,
-- at each notice, reads the rows after the last it has seen and pushes them to its open streams. One
-- notice per inserting statement, at its commit (a thousand offline devices announced at once make one).
CREATE FUNCTION notice_added_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('notice_added', txid_current()::text);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER notices_added AFTER INSERT ON notices FOR EACH STATEMENT EXECUTE FUNCTION notice_added_notify();
