-- The stats roll-ups (tables of 0012_stats_rollups) are kept by STATEMENT-level AFTER triggers with
-- transition tables: a statement's rows are aggregated once (a bulk INSERT ... SELECT of a million
-- inspections is one GROUP BY and one upsert per key), in the writing transaction, so the roll-ups commit
-- or roll back with the rows. Every upsert adds to what is there (`n = t.n + excluded.n`; a latest time by
-- comparison), so concurrent writers never lose each other's rows, and takes its keys in key order, table
-- after table in one order (devices; inspections: days, pairs, pair days, pair counts), so two writing
-- statements wait for each other instead of deadlocking. A statement's rows count as signed differences
-- (+ the rows as they are, - the rows as they were) per key, and keys whose count does not change are
-- not written: an UPDATE of other columns (a device's remaining uses, an inspection's analysis) writes
-- nothing. INSERT, UPDATE, DELETE and TRUNCATE are all followed, though the application only inserts and
-- updates devices, inserts inspections, inserts payments and refunds them (UPDATE 'paid' -> 'refunded'),
-- and inserts ledger rows (the ledger refuses UPDATE, DELETE and TRUNCATE itself, 0009). A trigger with
-- transition tables serves one event only, hence one trigger per event. What the service reads from
-- them: docs/decisions.md, "Stats".

-- Everything again from the rows (the backfill at the end of this file; a repair tool). The SHARE locks
-- hold writers of the source tables back until the caller's transaction ends, so nothing is counted twice
-- or missed. The pairs' own triggers fill their day histogram and per-device counts.
CREATE FUNCTION stats_rollups_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  LOCK TABLE devices, inspections, device_payments, ledger_entries IN SHARE MODE;
  TRUNCATE stats_devices, stats_activations_daily, stats_inspections_daily, stats_payments_daily, stats_ledger_daily;
  TRUNCATE stats_inspection_pairs; -- its trigger empties its day histogram and per-device counts
  INSERT INTO stats_devices (institution_id, status, n) SELECT institution_id, status, count(*) FROM devices GROUP BY 1, 2;
  INSERT INTO stats_activations_daily (day, institution_id, n)
    SELECT (activated_at AT TIME ZONE 'UTC')::date, institution_id, count(*) FROM devices WHERE activated_at IS NOT NULL GROUP BY 1, 2;
  INSERT INTO stats_inspections_daily (day, institution_id, n)
    SELECT (measured_at AT TIME ZONE 'UTC')::date, institution_id, count(*) FROM inspections GROUP BY 1, 2;
  INSERT INTO stats_inspection_pairs (device_id, institution_id, last_at)
    SELECT device_id, institution_id, max(measured_at) FROM inspections GROUP BY 1, 2;
  INSERT INTO stats_payments_daily (day, institution_id, package_id, l1_institution_id, l2_institution_id, n, amount_cents, l1_cents, l2_cents, platform_cents)
    SELECT (paid_at AT TIME ZONE 'UTC')::date, institution_id, package_id, l1_institution_id, l2_institution_id,
           count(*), sum(amount_cents), sum(l1_cents), sum(l2_cents), sum(platform_cents)
    FROM device_payments WHERE status = 'paid' GROUP BY 1, 2, 3, 4, 5;
  INSERT INTO stats_ledger_daily (institution_id, day, amount_cents, n)
    SELECT institution_id, (created_at AT TIME ZONE 'UTC')::date, sum(amount_cents), count(*) FROM ledger_entries GROUP BY 1, 2;
END;
$$;
--> statement-breakpoint
-- Devices: per owner and status, and per UTC day of activation and owner.
CREATE FUNCTION stats_devices_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO stats_devices AS t (institution_id, status, n)
    SELECT k0, k1, sum(d) FROM (
      SELECT institution_id, status, 1 AS d FROM new_rows) c (k0, k1, d)
    GROUP BY 1, 2 HAVING sum(d) <> 0 ORDER BY 1, 2
  ON CONFLICT (institution_id, status) DO UPDATE SET n = t.n + excluded.n;
  INSERT INTO stats_activations_daily AS t (day, institution_id, n)
    SELECT k0, k1, sum(d) FROM (
      SELECT (activated_at AT TIME ZONE 'UTC')::date, institution_id, 1 AS d FROM new_rows WHERE activated_at IS NOT NULL) c (k0, k1, d)
    GROUP BY 1, 2 HAVING sum(d) <> 0 ORDER BY 1, 2
  ON CONFLICT (day, institution_id) DO UPDATE SET n = t.n + excluded.n;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE FUNCTION stats_devices_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO stats_devices AS t (institution_id, status, n)
    SELECT k0, k1, sum(d) FROM (
      SELECT institution_id, status, 1 AS d FROM new_rows
      UNION ALL
      SELECT institution_id, status, -1 AS d FROM old_rows) c (k0, k1, d)
    GROUP BY 1, 2 HAVING sum(d) <> 0 ORDER BY 1, 2
  ON CONFLICT (institution_id, status) DO UPDATE SET n = t.n + excluded.n;
  INSERT INTO stats_activations_daily AS t (day, institution_id, n)
    SELECT k0, k1, sum(d) FROM (
      SELECT (activated_at AT TIME ZONE 'UTC')::date, institution_id, 1 AS d FROM new_rows WHERE activated_at IS NOT NULL
      UNION ALL
      SELECT (activated_at AT TIME ZONE 'UTC')::date, institution_id, -1 AS d FROM old_rows WHERE activated_at IS NOT NULL) c (k0, k1, d)
    GROUP BY 1, 2 HAVING sum(d) <> 0 ORDER BY 1, 2
  ON CONFLICT (day, institution_id) DO UPDATE SET n = t.n + excluded.n;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE FUNCTION stats_devices_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO stats_devices AS t (institution_id, status, n)
    SELECT k0, k1, sum(d) FROM (
      SELECT institution_id, status, -1 AS d FROM old_rows) c (k0, k1, d)
    GROUP BY 1, 2 HAVING sum(d) <> 0 ORDER BY 1, 2
  ON CONFLICT (institution_id, status) DO UPDATE SET n = t.n + excluded.n;
  INSERT INTO stats_activations_daily AS t (day, institution_id, n)
    SELECT k0, k1, sum(d) FROM (
      SELECT (activated_at AT TIME ZONE 'UTC')::date, institution_id, -1 AS d FROM old_rows WHERE activated_at IS NOT NULL) c (k0, k1, d)
    GROUP BY 1, 2 HAVING sum(d) <> 0 ORDER BY 1, 2
  ON CONFLICT (day, institution_id) DO UPDATE SET n = t.n + excluded.n;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE FUNCTION stats_devices_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE stats_devices, stats_activations_daily;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER stats_devices_insert AFTER INSERT ON devices REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION stats_devices_inserted();
--> statement-breakpoint
CREATE TRIGGER stats_devices_update AFTER UPDATE ON devices REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION stats_devices_updated();
--> statement-breakpoint
CREATE TRIGGER stats_devices_delete AFTER DELETE ON devices REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION stats_devices_deleted();
--> statement-breakpoint
CREATE TRIGGER stats_devices_truncate AFTER TRUNCATE ON devices FOR EACH STATEMENT EXECUTE FUNCTION stats_devices_truncated();
--> statement-breakpoint
-- Inspections: per UTC day of measured_at and institution, and per (device, institution) pair its latest
-- measured_at. A pair whose rows went away or moved gets its latest time again from the rows (below).
CREATE FUNCTION stats_inspection_pairs_recount(devs integer[], insts integer[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  -- The pairs' rows are locked first (in key order): a writer adding to the same pair waits or is waited
  -- for, and the recount (a new snapshot in READ COMMITTED) sees every row committed before the lock was
  -- had; rows added after it apply their later time on top.
  PERFORM 1 FROM stats_inspection_pairs p JOIN unnest(devs, insts) AS x(device_id, institution_id)
    ON p.device_id = x.device_id AND p.institution_id = x.institution_id
    ORDER BY p.device_id, p.institution_id FOR UPDATE OF p;
  DELETE FROM stats_inspection_pairs p
  WHERE (p.device_id, p.institution_id) IN (SELECT * FROM unnest(devs, insts))
    AND NOT EXISTS (SELECT 1 FROM inspections i WHERE i.device_id = p.device_id AND i.institution_id = p.institution_id);
  UPDATE stats_inspection_pairs p SET last_at = x.last_at FROM (
      SELECT DISTINCT u.device_id, u.institution_id,
             (SELECT max(i.measured_at) FROM inspections i WHERE i.device_id = u.device_id AND i.institution_id = u.institution_id) AS last_at
      FROM unnest(devs, insts) AS u(device_id, institution_id)) x
  WHERE p.device_id = x.device_id AND p.institution_id = x.institution_id AND x.last_at IS NOT NULL AND p.last_at <> x.last_at;
END;
$$;
--> statement-breakpoint
CREATE FUNCTION stats_inspections_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO stats_inspections_daily AS t (day, institution_id, n)
    SELECT k0, k1, sum(d) FROM (
      SELECT (measured_at AT TIME ZONE 'UTC')::date, institution_id, 1 AS d FROM new_rows) c (k0, k1, d)
    GROUP BY 1, 2 HAVING sum(d) <> 0 ORDER BY 1, 2
  ON CONFLICT (day, institution_id) DO UPDATE SET n = t.n + excluded.n;
  INSERT INTO stats_inspection_pairs AS t (device_id, institution_id, last_at)
    SELECT device_id, institution_id, max(measured_at) FROM new_rows GROUP BY 1, 2 ORDER BY 1, 2
  ON CONFLICT (device_id, institution_id) DO UPDATE SET last_at = excluded.last_at WHERE excluded.last_at > t.last_at;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- An UPDATE: pairs are touched only for rows whose id, measured_at, institution or device changed.
CREATE FUNCTION stats_inspections_updated() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  devs integer[];
  insts integer[];
BEGIN
  INSERT INTO stats_inspections_daily AS t (day, institution_id, n)
    SELECT k0, k1, sum(d) FROM (
      SELECT (measured_at AT TIME ZONE 'UTC')::date, institution_id, 1 AS d FROM new_rows
      UNION ALL
      SELECT (measured_at AT TIME ZONE 'UTC')::date, institution_id, -1 AS d FROM old_rows) c (k0, k1, d)
    GROUP BY 1, 2 HAVING sum(d) <> 0 ORDER BY 1, 2
  ON CONFLICT (day, institution_id) DO UPDATE SET n = t.n + excluded.n;
  INSERT INTO stats_inspection_pairs AS t (device_id, institution_id, last_at)
    SELECT device_id, institution_id, max(measured_at) FROM (
      SELECT id, measured_at, institution_id, device_id FROM new_rows
      EXCEPT ALL
      SELECT id, measured_at, institution_id, device_id FROM old_rows) c GROUP BY 1, 2 ORDER BY 1, 2
  ON CONFLICT (device_id, institution_id) DO UPDATE SET last_at = excluded.last_at WHERE excluded.last_at > t.last_at;
  SELECT array_agg(device_id), array_agg(institution_id) INTO devs, insts FROM (SELECT DISTINCT device_id, institution_id FROM (
      SELECT id, measured_at, institution_id, device_id FROM old_rows
      EXCEPT ALL
      SELECT id, measured_at, institution_id, device_id FROM new_rows) c) p;
  IF devs IS NOT NULL THEN
    PERFORM stats_inspection_pairs_recount(devs, insts);
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE FUNCTION stats_inspections_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  devs integer[];
  insts integer[];
BEGIN
  INSERT INTO stats_inspections_daily AS t (day, institution_id, n)
    SELECT k0, k1, sum(d) FROM (
      SELECT (measured_at AT TIME ZONE 'UTC')::date, institution_id, -1 AS d FROM old_rows) c (k0, k1, d)
    GROUP BY 1, 2 HAVING sum(d) <> 0 ORDER BY 1, 2
  ON CONFLICT (day, institution_id) DO UPDATE SET n = t.n + excluded.n;
  SELECT array_agg(device_id), array_agg(institution_id) INTO devs, insts FROM (SELECT DISTINCT device_id, institution_id FROM old_rows) p;
  IF devs IS NOT NULL THEN
    PERFORM stats_inspection_pairs_recount(devs, insts);
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE FUNCTION stats_inspections_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE stats_inspections_daily, stats_inspection_pairs;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER stats_inspections_insert AFTER INSERT ON inspections REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION stats_inspections_inserted();
--> statement-breakpoint
CREATE TRIGGER stats_inspections_update AFTER UPDATE ON inspections REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION stats_inspections_updated();
--> statement-breakpoint
CREATE TRIGGER stats_inspections_delete AFTER DELETE ON inspections REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION stats_inspections_deleted();
--> statement-breakpoint
CREATE TRIGGER stats_inspections_truncate AFTER TRUNCATE ON inspections FOR EACH STATEMENT EXECUTE FUNCTION stats_inspections_truncated();
--> statement-breakpoint
-- The pairs in turn (their own triggers, fed by the ones above): how many pairs have their latest
-- inspection on each UTC day, per institution, and how many pairs each device has. A newer inspection of
-- a pair moves it from one day to another (-1, +1); one on the same day writes nothing.
CREATE FUNCTION stats_pairs_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO stats_inspection_pair_days AS t (day, institution_id, n)
    SELECT k0, k1, sum(d) FROM (
      SELECT (last_at AT TIME ZONE 'UTC')::date, institution_id, 1 AS d FROM new_rows) c (k0, k1, d)
    GROUP BY 1, 2 HAVING sum(d) <> 0 ORDER BY 1, 2
  ON CONFLICT (day, institution_id) DO UPDATE SET n = t.n + excluded.n;
  INSERT INTO stats_inspection_devices AS t (device_id, pairs)
    SELECT k0, sum(d) FROM (
      SELECT device_id, 1 AS d FROM new_rows) c (k0, d)
    GROUP BY 1 HAVING sum(d) <> 0 ORDER BY 1
  ON CONFLICT (device_id) DO UPDATE SET pairs = t.pairs + excluded.pairs;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE FUNCTION stats_pairs_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO stats_inspection_pair_days AS t (day, institution_id, n)
    SELECT k0, k1, sum(d) FROM (
      SELECT (last_at AT TIME ZONE 'UTC')::date, institution_id, 1 AS d FROM new_rows
      UNION ALL
      SELECT (last_at AT TIME ZONE 'UTC')::date, institution_id, -1 AS d FROM old_rows) c (k0, k1, d)
    GROUP BY 1, 2 HAVING sum(d) <> 0 ORDER BY 1, 2
  ON CONFLICT (day, institution_id) DO UPDATE SET n = t.n + excluded.n;
  INSERT INTO stats_inspection_devices AS t (device_id, pairs)
    SELECT k0, sum(d) FROM (
      SELECT device_id, 1 AS d FROM new_rows
      UNION ALL
      SELECT device_id, -1 AS d FROM old_rows) c (k0, d)
    GROUP BY 1 HAVING sum(d) <> 0 ORDER BY 1
  ON CONFLICT (device_id) DO UPDATE SET pairs = t.pairs + excluded.pairs;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE FUNCTION stats_pairs_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO stats_inspection_pair_days AS t (day, institution_id, n)
    SELECT k0, k1, sum(d) FROM (
      SELECT (last_at AT TIME ZONE 'UTC')::date, institution_id, -1 AS d FROM old_rows) c (k0, k1, d)
    GROUP BY 1, 2 HAVING sum(d) <> 0 ORDER BY 1, 2
  ON CONFLICT (day, institution_id) DO UPDATE SET n = t.n + excluded.n;
  INSERT INTO stats_inspection_devices AS t (device_id, pairs)
    SELECT k0, sum(d) FROM (
      SELECT device_id, -1 AS d FROM old_rows) c (k0, d)
    GROUP BY 1 HAVING sum(d) <> 0 ORDER BY 1
  ON CONFLICT (device_id) DO UPDATE SET pairs = t.pairs + excluded.pairs;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE FUNCTION stats_pairs_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE stats_inspection_pair_days, stats_inspection_devices;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER stats_pairs_insert AFTER INSERT ON stats_inspection_pairs REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION stats_pairs_inserted();
--> statement-breakpoint
CREATE TRIGGER stats_pairs_update AFTER UPDATE ON stats_inspection_pairs REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION stats_pairs_updated();
--> statement-breakpoint
CREATE TRIGGER stats_pairs_delete AFTER DELETE ON stats_inspection_pairs REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION stats_pairs_deleted();
--> statement-breakpoint
CREATE TRIGGER stats_pairs_truncate AFTER TRUNCATE ON stats_inspection_pairs FOR EACH STATEMENT EXECUTE FUNCTION stats_pairs_truncated();
--> statement-breakpoint
-- Device payments: only rows with status 'paid' count (what the finance stats sum). A statement's rows
-- become signed differences per key (+ the rows as they are, - the rows as they were, each when paid), so
-- a refund ('paid' -> 'refunded') takes the payment out, and keys whose sums do not change are not written.
CREATE FUNCTION stats_payments_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO stats_payments_daily AS t (day, institution_id, package_id, l1_institution_id, l2_institution_id, n, amount_cents, l1_cents, l2_cents, platform_cents)
    SELECT day, institution_id, package_id, l1_institution_id, l2_institution_id, sum(n), sum(amount_cents), sum(l1_cents), sum(l2_cents), sum(platform_cents)
    FROM (
      SELECT (paid_at AT TIME ZONE 'UTC')::date AS day, institution_id, package_id, l1_institution_id, l2_institution_id, 1 AS n, amount_cents, l1_cents, l2_cents, platform_cents FROM new_rows WHERE status = 'paid') c
    GROUP BY 1, 2, 3, 4, 5
    HAVING sum(n) <> 0 OR sum(amount_cents) <> 0 OR sum(l1_cents) <> 0 OR sum(l2_cents) <> 0 OR sum(platform_cents) <> 0
    ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT (day, institution_id, package_id, l1_institution_id, l2_institution_id) DO UPDATE SET
    n = t.n + excluded.n, amount_cents = t.amount_cents + excluded.amount_cents, l1_cents = t.l1_cents + excluded.l1_cents,
    l2_cents = t.l2_cents + excluded.l2_cents, platform_cents = t.platform_cents + excluded.platform_cents;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE FUNCTION stats_payments_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO stats_payments_daily AS t (day, institution_id, package_id, l1_institution_id, l2_institution_id, n, amount_cents, l1_cents, l2_cents, platform_cents)
    SELECT day, institution_id, package_id, l1_institution_id, l2_institution_id, sum(n), sum(amount_cents), sum(l1_cents), sum(l2_cents), sum(platform_cents)
    FROM (
      SELECT (paid_at AT TIME ZONE 'UTC')::date AS day, institution_id, package_id, l1_institution_id, l2_institution_id, 1 AS n, amount_cents, l1_cents, l2_cents, platform_cents FROM new_rows WHERE status = 'paid'
      UNION ALL
      SELECT (paid_at AT TIME ZONE 'UTC')::date, institution_id, package_id, l1_institution_id, l2_institution_id, -1, -amount_cents, -l1_cents, -l2_cents, -platform_cents FROM old_rows WHERE status = 'paid') c
    GROUP BY 1, 2, 3, 4, 5
    HAVING sum(n) <> 0 OR sum(amount_cents) <> 0 OR sum(l1_cents) <> 0 OR sum(l2_cents) <> 0 OR sum(platform_cents) <> 0
    ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT (day, institution_id, package_id, l1_institution_id, l2_institution_id) DO UPDATE SET
    n = t.n + excluded.n, amount_cents = t.amount_cents + excluded.amount_cents, l1_cents = t.l1_cents + excluded.l1_cents,
    l2_cents = t.l2_cents + excluded.l2_cents, platform_cents = t.platform_cents + excluded.platform_cents;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE FUNCTION stats_payments_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO stats_payments_daily AS t (day, institution_id, package_id, l1_institution_id, l2_institution_id, n, amount_cents, l1_cents, l2_cents, platform_cents)
    SELECT day, institution_id, package_id, l1_institution_id, l2_institution_id, sum(n), sum(amount_cents), sum(l1_cents), sum(l2_cents), sum(platform_cents)
    FROM (
      SELECT (paid_at AT TIME ZONE 'UTC')::date AS day, institution_id, package_id, l1_institution_id, l2_institution_id, -1 AS n, -amount_cents AS amount_cents, -l1_cents AS l1_cents, -l2_cents AS l2_cents, -platform_cents AS platform_cents FROM old_rows WHERE status = 'paid') c
    GROUP BY 1, 2, 3, 4, 5
    HAVING sum(n) <> 0 OR sum(amount_cents) <> 0 OR sum(l1_cents) <> 0 OR sum(l2_cents) <> 0 OR sum(platform_cents) <> 0
    ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT (day, institution_id, package_id, l1_institution_id, l2_institution_id) DO UPDATE SET
    n = t.n + excluded.n, amount_cents = t.amount_cents + excluded.amount_cents, l1_cents = t.l1_cents + excluded.l1_cents,
    l2_cents = t.l2_cents + excluded.l2_cents, platform_cents = t.platform_cents + excluded.platform_cents;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE FUNCTION stats_payments_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE stats_payments_daily;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER stats_payments_insert AFTER INSERT ON device_payments REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION stats_payments_inserted();
--> statement-breakpoint
CREATE TRIGGER stats_payments_update AFTER UPDATE ON device_payments REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION stats_payments_updated();
--> statement-breakpoint
CREATE TRIGGER stats_payments_delete AFTER DELETE ON device_payments REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION stats_payments_deleted();
--> statement-breakpoint
CREATE TRIGGER stats_payments_truncate AFTER TRUNCATE ON device_payments FOR EACH STATEMENT EXECUTE FUNCTION stats_payments_truncated();
--> statement-breakpoint
-- The ledger is append-only (0009 refuses UPDATE, DELETE and TRUNCATE before they happen): inserts only.
CREATE FUNCTION stats_ledger_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO stats_ledger_daily AS t (institution_id, day, amount_cents, n)
    SELECT institution_id, (created_at AT TIME ZONE 'UTC')::date, sum(amount_cents), count(*) FROM new_rows GROUP BY 1, 2 ORDER BY 1, 2
  ON CONFLICT (institution_id, day) DO UPDATE SET amount_cents = t.amount_cents + excluded.amount_cents, n = t.n + excluded.n;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER stats_ledger_insert AFTER INSERT ON ledger_entries REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION stats_ledger_inserted();
--> statement-breakpoint
-- The backfill: the triggers exist already and the rebuild locks the source tables, so nothing written
-- meanwhile is lost or counted twice (drizzle's migrator runs the pending migrations in one transaction).
SELECT stats_rollups_rebuild();
