"""Schema version 5 of the team database: the number of requests, kept as rows are written.

Counting a million rows takes PostgreSQL about 150 ms each time (a full scan), and the history
pane counts every time it opens. ``gateway.request_count`` holds the number instead: a
statement trigger adds what each INSERT wrote (and takes off what a DELETE removed) in the same
transaction, so the number is exact for every reader. Writers queue on its one row until their
commit, like the audit trail's head. The triggers fire ``ALWAYS``, also while rows are loaded
with ``session_replication_role = replica``.
"""

from __future__ import annotations

V5 = r"""
CREATE TABLE gateway.request_count (only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
                                    n bigint NOT NULL);

CREATE FUNCTION gateway.count_requests() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = gateway, pg_temp AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        UPDATE gateway.request_count SET n = n + (SELECT count(*) FROM written);
    ELSIF TG_OP = 'DELETE' THEN
        UPDATE gateway.request_count SET n = n - (SELECT count(*) FROM removed);
    ELSE
        UPDATE gateway.request_count SET n = 0;
    END IF;
    RETURN NULL;
END $$;
-- The triggers lock the table against writers: no row is written between the count below
-- and the first trigger.
CREATE TRIGGER requests_counted_in AFTER INSERT ON gateway.requests
    REFERENCING NEW TABLE AS written FOR EACH STATEMENT
    EXECUTE FUNCTION gateway.count_requests();
CREATE TRIGGER requests_counted_out AFTER DELETE ON gateway.requests
    REFERENCING OLD TABLE AS removed FOR EACH STATEMENT
    EXECUTE FUNCTION gateway.count_requests();
CREATE TRIGGER requests_counted_truncate AFTER TRUNCATE ON gateway.requests
    FOR EACH STATEMENT EXECUTE FUNCTION gateway.count_requests();
ALTER TABLE gateway.requests ENABLE ALWAYS TRIGGER requests_counted_in,
    ENABLE ALWAYS TRIGGER requests_counted_out, ENABLE ALWAYS TRIGGER requests_counted_truncate;
INSERT INTO gateway.request_count (n) SELECT count(*) FROM gateway.requests;

REVOKE ALL ON gateway.request_count FROM PUBLIC;
REVOKE ALL ON FUNCTION gateway.count_requests() FROM PUBLIC;
GRANT SELECT ON gateway.request_count TO gateway_maker, gateway_checker, gateway_admin;

"""
