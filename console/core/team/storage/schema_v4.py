"""Schema version 4 of the team database: what was sent is bound to what was approved, only
the sender or a verified answer settles an order, and the audit trail is a hash chain.

* A request row that carries an approved submission must have the approved amount, currency,
  receiver and request hash (a keyed hash, :func:`console.core.team.hashing.content_hash`,
  whose key, ``gateway.team_key``, every maker and checker can read, so the checker can
  check it); a batch keeps those of every row (``gateway.submission_rows``). Approvals pending or
  approved when the database is upgraded used the older hash: they expire.
* ``set_final_status`` settles other people's rows only with evidence the database checks: a
  callback whose ``control`` code it verifies with the environment's merchant control secret
  (``gateway.callback_secrets``, readable by no member), or a status answer the caller
  journalled for the same order. The sender settles its own rows. Every final status change
  is audited, whichever way it came.
* Each audit entry carries the hash of the one before it (``seq``, ``prev_hash``, ``hash``);
  ``gateway.audit_head`` holds the newest. :mod:`console.core.team.audit.verify` recomputes it.
* A nullable ``gateway`` column on requests (the gateway's identity, for the double-payout
  guard), with its index; the table-wide INSERT grant lets makers and checkers write it.
"""

from __future__ import annotations

GENESIS = "0" * 64  # the "previous hash" of the first audit entry

V4 = r"""
ALTER TABLE gateway.requests ADD COLUMN gateway text COLLATE "C",
    ADD COLUMN content_hash text;
CREATE INDEX ix_requests_gateway ON gateway.requests(gateway, command, client_orderid);

-- The key of the request hash: the team's, so a checker can check what was sent.
CREATE TABLE gateway.team_key (only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
                               key text NOT NULL);
INSERT INTO gateway.team_key (key) VALUES (encode(sha256(convert_to(
    gen_random_uuid()::text || gen_random_uuid()::text || gen_random_uuid()::text, 'UTF8')),
    'hex'));

-- What a batch's checker approved, row by row.
CREATE TABLE gateway.submission_rows (
    submission_id bigint NOT NULL REFERENCES gateway.submissions(id),
    client_orderid text COLLATE "C" NOT NULL,
    amount text,
    currency text,
    receiver text,
    content_hash text NOT NULL,
    PRIMARY KEY (submission_id, client_orderid)
);
ALTER TABLE gateway.submission_rows ENABLE ROW LEVEL SECURITY;
CREATE POLICY submission_rows_read ON gateway.submission_rows FOR SELECT USING (true);

UPDATE gateway.submissions SET state = 'expired',
    reason = 'the team database was upgraded before it was sent: submit it again'
    WHERE state IN ('pending', 'approved');

DROP FUNCTION gateway.submit_batch(text, text, text, text, text[], boolean, text);
CREATE FUNCTION gateway.submit_batch(env text, cmd text, digest text, shown text,
                                     approved_rows jsonb, card boolean, source text)
RETURNS bigint LANGUAGE plpgsql SECURITY DEFINER SET search_path = gateway, pg_temp AS $$
DECLARE new_id bigint; lifetime interval; orderids text[];
BEGIN
    IF NOT pg_has_role(session_user, 'gateway_maker', 'MEMBER') THEN
        PERFORM gateway.log('refused', NULL, NULL, env, 'submit batch: not a maker');
        RETURN NULL;
    END IF;
    SELECT array_agg(x ->> 'client_orderid' ORDER BY n) INTO orderids
        FROM jsonb_array_elements(approved_rows) WITH ORDINALITY AS t(x, n);
    SELECT expiry INTO lifetime FROM gateway.policies WHERE environment = env;
    INSERT INTO gateway.submissions (environment, command, client_orderid, receiver,
        content_hash, request_json, card_data, maker, expires, order_ids, batch_rows)
    VALUES (env, cmd, source, format('batch of %s rows', cardinality(orderids)), digest,
        shown, card, session_user, now() + coalesce(lifetime, interval '24 hours'), orderids,
        cardinality(orderids))
    RETURNING id INTO new_id;
    INSERT INTO gateway.submission_rows (submission_id, client_orderid, amount, currency,
        receiver, content_hash)
    SELECT new_id, x ->> 'client_orderid', x ->> 'amount', x ->> 'currency',
        x ->> 'receiver', x ->> 'content_hash' FROM jsonb_array_elements(approved_rows) x;
    PERFORM gateway.log('submit', new_id, NULL, env,
        format('batch %s: %s rows', source, cardinality(orderids)));
    RETURN new_id;
END $$;

CREATE OR REPLACE FUNCTION gateway.before_request() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = gateway, pg_temp AS $$
DECLARE s gateway.submissions; want gateway.submission_rows; differs text[];
BEGIN
    NEW.made_by := session_user;
    NEW.writer_backend := pg_backend_pid();
    NEW.writer_started := gateway.backend_start();
    NEW.approved_by := NULL;
    IF NEW.submission_id IS NOT NULL THEN
        SELECT * INTO s FROM gateway.submissions WHERE id = NEW.submission_id FOR UPDATE;
        IF s.state <> 'sending' OR s.sender <> session_user
           OR s.environment <> NEW.environment OR s.command <> NEW.command
           OR (s.order_ids IS NULL AND s.client_orderid IS DISTINCT FROM NEW.client_orderid)
           OR (s.order_ids IS NOT NULL AND NOT (NEW.client_orderid = ANY (s.order_ids)))
           OR (s.order_ids IS NOT NULL AND EXISTS (SELECT 1 FROM gateway.requests r
                WHERE r.submission_id = s.id AND r.client_orderid = NEW.client_orderid)) THEN
            RAISE EXCEPTION 'submission % is not claimed for this request', NEW.submission_id
                USING ERRCODE = 'insufficient_privilege';
        END IF;
        IF s.order_ids IS NULL THEN
            want := ROW(s.id, s.client_orderid, s.amount, s.currency, s.receiver,
                        s.content_hash)::gateway.submission_rows;
        ELSE
            SELECT * INTO want FROM gateway.submission_rows
                WHERE submission_id = s.id AND client_orderid = NEW.client_orderid;
        END IF;
        differs := array_remove(ARRAY[
            CASE WHEN NEW.amount IS DISTINCT FROM want.amount THEN 'amount' END,
            CASE WHEN NEW.currency IS DISTINCT FROM want.currency THEN 'currency' END,
            CASE WHEN NEW.receiver IS DISTINCT FROM want.receiver THEN 'receiver' END,
            CASE WHEN want.content_hash IS NULL
                   OR NEW.content_hash IS DISTINCT FROM want.content_hash
                 THEN 'request hash' END], NULL);
        IF cardinality(differs) > 0 THEN
            RAISE EXCEPTION 'this request is not the one approved in submission %: its % differ',
                s.id, array_to_string(differs, ', ')
                USING ERRCODE = 'insufficient_privilege';
        END IF;
        NEW.approved_by := s.decided_by;
        IF s.order_ids IS NULL THEN
            UPDATE gateway.submissions SET state = 'sent', request_id = NEW.id,
                rows_sent = 1 WHERE id = s.id;
        ELSE  -- a batch stays "sending" until its sender ends it (or its console is gone)
            UPDATE gateway.submissions SET rows_sent = rows_sent + 1 WHERE id = s.id;
        END IF;
    ELSIF gateway.needs_approval(NEW.environment, NEW.command, NEW.amount, NEW.currency) THEN
        -- Not an error, which would roll back the audit entry: the row is not written.
        PERFORM gateway.log('refused', NULL, NULL, NEW.environment,
            'send without approval: ' || coalesce(NEW.client_orderid, ''));
        RAISE WARNING 'the approval policy of % holds this % back: submit it for approval',
            NEW.environment, NEW.command;
        RETURN NULL;
    END IF;
    RETURN NEW;
END $$;

-- sha1 of the gateway's callback control code, from pgcrypto wherever it is installed.
DO $$
DECLARE home text;
BEGIN
    SELECT n.nspname INTO home FROM pg_extension e
        JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pgcrypto';
    IF home IS NULL THEN
        CREATE EXTENSION pgcrypto WITH SCHEMA gateway;
        home := 'gateway';
    END IF;
    EXECUTE format('CREATE FUNCTION gateway.sha1_hex(t text) RETURNS text LANGUAGE sql '
        'IMMUTABLE AS $f$ SELECT encode(%I.digest(convert_to(t, ''UTF8''), ''sha1''), '
        '''hex'') $f$', home);
END $$;

CREATE TABLE gateway.callback_secrets (
    environment text PRIMARY KEY,
    secret text NOT NULL,
    set_by text NOT NULL DEFAULT session_user,
    set_at timestamptz NOT NULL DEFAULT now()
);  -- no grants: only the functions below read it

CREATE FUNCTION gateway.set_callback_secret(env text, secret_text text) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = gateway, pg_temp AS $$
BEGIN
    IF NOT pg_has_role(session_user, 'gateway_admin', 'MEMBER') THEN
        PERFORM gateway.log('refused', NULL, NULL, env, 'callback secret: not an admin');
        RETURN 'refused: only an admin may set the callback secret';
    ELSIF coalesce(btrim(secret_text), '') = '' THEN
        RETURN 'refused: the merchant control secret is empty';
    END IF;
    INSERT INTO gateway.callback_secrets (environment, secret) VALUES (env, secret_text)
    ON CONFLICT (environment) DO UPDATE SET secret = secret_text, set_by = session_user,
        set_at = now();
    PERFORM gateway.log('callback secret', NULL, NULL, env,
        'the merchant control secret the database checks callbacks with was set');
    RETURN 'ok';
END $$;

DROP FUNCTION gateway.set_final_status(text, text, text, text, text);
CREATE FUNCTION gateway.set_final_status(env text, orderid text, status text,
                                         gateway_id text, source text,
                                         control text DEFAULT NULL)
RETURNS SETOF bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = gateway, pg_temp AS $$
DECLARE r record; proof text; secret_text text; refused integer := 0;
BEGIN
    IF source = 'status' THEN  -- the caller's own status answer for this order
        SELECT 'status answer in row ' || q.id INTO proof FROM gateway.requests q
        WHERE q.made_by = session_user AND q.command = 'status' AND q.environment = env
          AND q.client_orderid = orderid AND q.outcome <> 'pending'
          AND q.final_status = status AND q.final_status_source = 'status'
        ORDER BY q.id DESC LIMIT 1;
    ELSIF source = 'callback' AND control IS NOT NULL THEN
        SELECT c.secret INTO secret_text FROM gateway.callback_secrets c
            WHERE c.environment = env;
        IF lower(btrim(control)) = gateway.sha1_hex(
                status || coalesce(gateway_id, '') || orderid || secret_text) THEN
            proof := 'callback verified by the database';
        END IF;
    END IF;
    PERFORM set_config('gateway.proof', coalesce(proof, ''), true);
    FOR r IN SELECT q.id, q.made_by FROM gateway.requests q
        WHERE q.client_orderid = orderid AND q.environment = env AND q.command <> 'status'
          AND (gateway_id IS NULL OR q.gateway_order_id IS NULL
               OR q.gateway_order_id = gateway_id)
          AND NOT (status IN ('processing', 'unknown') AND q.final_status IS NOT NULL
                   AND q.final_status NOT IN ('processing', 'unknown'))
        ORDER BY q.id FOR UPDATE
    LOOP
        IF r.made_by <> session_user AND proof IS NULL THEN
            refused := refused + 1;
            CONTINUE;
        END IF;
        UPDATE gateway.requests SET final_status = status, final_status_source = source,
            final_status_at = extract(epoch FROM clock_timestamp()),
            gateway_order_id = coalesce(gateway_order_id, gateway_id)
        WHERE id = r.id;  -- audited by after_request
        RETURN NEXT r.id;
    END LOOP;
    PERFORM set_config('gateway.proof', '', true);
    IF refused > 0 THEN
        PERFORM gateway.log('refused', NULL, NULL, env, format(
            'final status %s of %s (%s): %s of another person''s rows, with no callback or '
            'status answer the database could verify', status, orderid, source, refused));
    END IF;
END $$;

CREATE OR REPLACE FUNCTION gateway.after_request() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = gateway, pg_temp AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM gateway.log('send', NEW.submission_id, NEW.id, NEW.environment,
            format('%s %s', NEW.command, coalesce(NEW.client_orderid, '')));
    ELSIF OLD.outcome = 'pending' AND NEW.outcome <> 'pending' THEN
        PERFORM gateway.log('outcome', NEW.submission_id, NEW.id, NEW.environment,
            NEW.outcome || CASE WHEN NEW.interrupted THEN ' (console stopped)' ELSE '' END);
    ELSIF OLD.interrupted AND OLD.finished IS NULL AND NEW.finished IS NOT NULL THEN
        PERFORM gateway.log('outcome', NEW.submission_id, NEW.id, NEW.environment,
            NEW.outcome || ' (answered after it was taken for interrupted)');
    END IF;
    IF TG_OP = 'UPDATE' AND OLD.final_status IS DISTINCT FROM NEW.final_status THEN
        PERFORM gateway.log('final status', NEW.submission_id, NEW.id, NEW.environment,
            format('%s: %s -> %s (%s; %s)', coalesce(NEW.client_orderid, ''),
                coalesce(OLD.final_status, 'none'), coalesce(NEW.final_status, 'none'),
                coalesce(NEW.final_status_source, 'no source'), coalesce(nullif(
                    current_setting('gateway.proof', true), ''), 'set by its sender')));
    END IF;
    PERFORM pg_notify('gateway_team', json_build_object('kind', 'request', 'event',
        CASE WHEN TG_OP = 'INSERT' THEN 'added' ELSE 'changed' END, 'id', NEW.id)::text);
    RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION gateway.add_user(who text, team_role text) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = gateway, pg_temp AS $$
DECLARE before text := 'none';
BEGIN
    IF NOT pg_has_role(session_user, 'gateway_admin', 'MEMBER') THEN
        PERFORM gateway.log('refused', NULL, NULL, NULL, 'add user ' || who || ': not an admin');
        RETURN 'refused: only an admin may add users';
    ELSIF team_role NOT IN ('maker', 'checker', 'admin') THEN
        RETURN 'refused: the role must be maker, checker or admin, not ' || team_role;
    END IF;
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = who) THEN
        EXECUTE format('CREATE ROLE %I LOGIN', who);
    ELSE
        before := gateway.team_role(who);
    END IF;
    EXECUTE format('GRANT %I TO %I', 'gateway_' || team_role, who);
    PERFORM gateway.log('user', NULL, NULL, NULL,
        format('%s is now %s (was %s)', who, gateway.team_role(who), before));
    RETURN 'ok';
END $$;

-- The audit trail as a hash chain: each entry's hash covers its content and the hash of the
-- entry before it, so a changed, removed or inserted entry breaks the chain from there on.
ALTER TABLE gateway.audit ADD COLUMN seq bigint, ADD COLUMN prev_hash text,
    ADD COLUMN hash text;
CREATE TABLE gateway.audit_head (only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
                                 seq bigint NOT NULL, hash text NOT NULL);

CREATE FUNCTION gateway.audit_field(v text) RETURNS text LANGUAGE sql IMMUTABLE AS
$$ SELECT CASE WHEN v IS NULL THEN '~' ELSE length(v) || ':' || v END $$;

-- The same text and hash as console.core.team.audit.verify.entry_hash.
CREATE FUNCTION gateway.audit_hash(prev text, a gateway.audit) RETURNS text
LANGUAGE sql STABLE SET search_path = gateway, pg_temp AS $$
    SELECT encode(sha256(convert_to(prev || audit_field(a.id::text) || audit_field(a.seq::text)
        || audit_field(to_char(a.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US'))
        || audit_field(a.actor) || audit_field(a.role) || audit_field(a.action)
        || audit_field(a.submission_id::text) || audit_field(a.request_id::text)
        || audit_field(a.environment) || audit_field(a.detail), 'UTF8')), 'hex')
$$;

ALTER TABLE gateway.audit DISABLE TRIGGER audit_no_change;
DO $$
DECLARE a gateway.audit; prev text := repeat('0', 64); n bigint := 0;
BEGIN
    FOR a IN SELECT * FROM gateway.audit ORDER BY id LOOP
        n := n + 1;
        a.seq := n;
        UPDATE gateway.audit SET seq = n, prev_hash = prev, hash = gateway.audit_hash(prev, a)
            WHERE id = a.id RETURNING hash INTO prev;
    END LOOP;
    INSERT INTO gateway.audit_head (seq, hash) VALUES (n, prev);
END $$;
ALTER TABLE gateway.audit ENABLE TRIGGER audit_no_change;
ALTER TABLE gateway.audit ALTER COLUMN seq SET NOT NULL,
    ALTER COLUMN prev_hash SET NOT NULL, ALTER COLUMN hash SET NOT NULL;
CREATE UNIQUE INDEX ix_audit_seq ON gateway.audit(seq);

-- One writer at a time (the head's row lock, held to the commit), so the chain's order is
-- the order the entries were written in.
CREATE FUNCTION gateway.audit_chain() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = gateway, pg_temp AS $$
DECLARE h gateway.audit_head;
BEGIN
    SELECT * INTO h FROM gateway.audit_head FOR UPDATE;
    NEW.seq := h.seq + 1;
    NEW.at := clock_timestamp();
    NEW.prev_hash := h.hash;
    NEW.hash := gateway.audit_hash(h.hash, NEW);
    UPDATE gateway.audit_head SET seq = NEW.seq, hash = NEW.hash;
    RETURN NEW;
END $$;
CREATE TRIGGER audit_chain BEFORE INSERT ON gateway.audit
    FOR EACH ROW EXECUTE FUNCTION gateway.audit_chain();

REVOKE ALL ON gateway.team_key, gateway.submission_rows, gateway.callback_secrets,
    gateway.audit_head FROM PUBLIC;
GRANT SELECT ON gateway.team_key TO gateway_maker, gateway_checker, gateway_admin;
-- The sender stores its request's signature once the gateway has answered it (the journal
-- keeps none of a request still waiting or never answered: a copy must not be sendable).
GRANT UPDATE (request_json) ON gateway.request_details TO gateway_maker, gateway_checker;
GRANT SELECT ON gateway.submission_rows, gateway.audit_head
    TO gateway_maker, gateway_checker, gateway_admin;
REVOKE ALL ON FUNCTION gateway.submit_batch(text, text, text, text, jsonb, boolean, text),
    gateway.set_callback_secret(text, text),
    gateway.set_final_status(text, text, text, text, text, text), gateway.sha1_hex(text),
    gateway.audit_field(text), gateway.audit_hash(text, gateway.audit),
    gateway.audit_chain() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION gateway.submit_batch(text, text, text, text, jsonb, boolean, text),
    gateway.set_callback_secret(text, text),
    gateway.set_final_status(text, text, text, text, text, text)
    TO gateway_maker, gateway_checker, gateway_admin;

SELECT gateway.log('upgrade', NULL, NULL, NULL, 'schema 4: sends bound to their approval, '
    'final statuses need a verified callback or status answer, the audit trail is chained');
"""
