"""The team database's schema, as SQL migrations (one string per schema version).

Everything lives in the ``gateway`` schema. People are PostgreSQL login roles, members of
the group roles ``gateway_maker`` (prepares, submits, sends), ``gateway_checker``
(approves or rejects other people's submissions, sends approved ones) and ``gateway_admin``
(approval policy, users); the team sender's login is a ``gateway_sender``
(:mod:`console.core.team.storage.schema_v8`). The rules are the database's own, so psql gets no
further than the console: row-level security and column grants on the journal, decisions
only through ``SECURITY DEFINER`` functions that check the caller, a ``CHECK`` that no
submission is decided by its maker, a trigger that refuses a payout the policy holds back
unless it comes from the submission claimed for it, and an audit table that no role may
change or delete.
"""

from __future__ import annotations

from console.core.team.storage.schema_v4 import V4
from console.core.team.storage.schema_v5 import V5
from console.core.team.storage.schema_v6 import V6
from console.core.team.storage.schema_v7 import V7
from console.core.team.storage.schema_v8 import V8
from console.core.team.storage.schema_v9 import V9
from console.core.team.storage.schema_v10 import V10

CHANNEL = "gateway_team"

# Group roles are cluster-wide: made once, whichever database is initialised first.
ROLES = """
DO $$
DECLARE r text;
BEGIN
    FOREACH r IN ARRAY ARRAY['gateway_maker', 'gateway_checker', 'gateway_admin'] LOOP
        IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = r) THEN
            EXECUTE format('CREATE ROLE %I NOLOGIN', r);
        END IF;
    END LOOP;
END $$;
"""

_V1 = r"""
CREATE TABLE gateway.meta (key text PRIMARY KEY, value text NOT NULL);

CREATE TABLE gateway.policies (
    environment text PRIMARY KEY,
    mode text NOT NULL CHECK (mode IN ('none', 'all', 'above')),
    thresholds jsonb NOT NULL DEFAULT '{}',   -- {"EUR": "1000.00"}: above this needs approval
    expiry interval NOT NULL DEFAULT interval '24 hours',
    updated_by text NOT NULL DEFAULT session_user,
    updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE gateway.submissions (
    id bigserial PRIMARY KEY,
    environment text NOT NULL,
    command text NOT NULL,
    client_orderid text,
    amount text,
    currency text,
    receiver text,                 -- masked: first six + last four
    content_hash text NOT NULL,    -- sha256 of the exact request content
    request_json text NOT NULL,    -- masked fields, for the checker to read
    params jsonb,                  -- the fields, only when they carry no card data
    card_data boolean NOT NULL,
    maker text NOT NULL DEFAULT session_user,
    created timestamptz NOT NULL DEFAULT now(),
    expires timestamptz NOT NULL,
    state text NOT NULL DEFAULT 'pending' CHECK (state IN
        ('pending', 'approved', 'rejected', 'expired', 'void', 'sending', 'sent')),
    decided_by text,
    decided_at timestamptz,
    reason text,
    sender text,
    request_id bigint,
    CONSTRAINT no_self_approval CHECK (decided_by IS NULL OR decided_by <> maker)
);
CREATE INDEX ix_submissions_state ON gateway.submissions(state, created);

CREATE FUNCTION gateway.backend_start() RETURNS timestamptz LANGUAGE sql STABLE AS
$$ SELECT backend_start FROM pg_stat_activity WHERE pid = pg_backend_pid() $$;

CREATE TABLE gateway.requests (
    id bigserial PRIMARY KEY,
    created double precision NOT NULL,
    finished double precision,
    environment text NOT NULL,
    command text NOT NULL,
    url text NOT NULL,
    client_orderid text,
    amount text,
    currency text,
    receiver text,
    last4 text,
    outcome text NOT NULL,
    interrupted boolean NOT NULL DEFAULT false,
    http_status integer,
    elapsed double precision,
    response_type text,
    response_status text,
    gateway_order_id text,
    serial_number text,
    card_ref_id text,
    recurring_payment_id text,
    summary text,
    final_status text,
    final_status_source text,
    final_status_at double precision,
    deadline double precision,
    made_by text NOT NULL DEFAULT session_user,
    approved_by text,
    submission_id bigint REFERENCES gateway.submissions(id),
    writer_backend integer NOT NULL DEFAULT pg_backend_pid(),
    writer_started timestamptz DEFAULT gateway.backend_start()
);
CREATE INDEX ix_requests_created ON gateway.requests(created, id);
CREATE INDEX ix_requests_environment ON gateway.requests(environment, created);
CREATE INDEX ix_requests_command ON gateway.requests(command, created);
CREATE INDEX ix_requests_outcome ON gateway.requests(outcome, created);
CREATE INDEX ix_requests_last4 ON gateway.requests(last4, created) WHERE last4 IS NOT NULL;
CREATE INDEX ix_requests_client_orderid ON gateway.requests(client_orderid)
    WHERE client_orderid IS NOT NULL;
CREATE INDEX ix_requests_gateway_order_id ON gateway.requests(gateway_order_id)
    WHERE gateway_order_id IS NOT NULL;
CREATE INDEX ix_requests_serial_number ON gateway.requests(serial_number)
    WHERE serial_number IS NOT NULL;
CREATE INDEX ix_requests_card_ref_id ON gateway.requests(card_ref_id)
    WHERE card_ref_id IS NOT NULL;
CREATE INDEX ix_requests_recurring_payment_id ON gateway.requests(recurring_payment_id)
    WHERE recurring_payment_id IS NOT NULL;
CREATE INDEX ix_requests_pending ON gateway.requests(id) WHERE outcome = 'pending';

CREATE TABLE gateway.request_details (
    request_id bigint PRIMARY KEY REFERENCES gateway.requests(id),
    request_json text NOT NULL,
    response_json text
);

CREATE TABLE gateway.audit (
    id bigserial PRIMARY KEY,
    at timestamptz NOT NULL DEFAULT clock_timestamp(),
    actor text NOT NULL DEFAULT session_user,
    role text NOT NULL,
    action text NOT NULL,
    submission_id bigint,
    request_id bigint,
    environment text,
    detail text NOT NULL DEFAULT ''
);
CREATE INDEX ix_audit_at ON gateway.audit(at);

-- The audit trail is append-only for every role, its owner included.
CREATE FUNCTION gateway.audit_is_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'the audit trail is append-only: % is not allowed', TG_OP
        USING ERRCODE = 'insufficient_privilege';
END $$;
CREATE TRIGGER audit_no_change BEFORE UPDATE OR DELETE ON gateway.audit
    FOR EACH ROW EXECUTE FUNCTION gateway.audit_is_append_only();
CREATE TRIGGER audit_no_truncate BEFORE TRUNCATE ON gateway.audit
    FOR EACH STATEMENT EXECUTE FUNCTION gateway.audit_is_append_only();

CREATE FUNCTION gateway.team_role(who text) RETURNS text LANGUAGE sql STABLE AS $$
    SELECT coalesce(string_agg(r, ',' ORDER BY r), 'none') FROM unnest(
        ARRAY['admin', 'checker', 'maker']) AS r
    WHERE pg_has_role(who, 'gateway_' || r, 'MEMBER')
$$;

CREATE FUNCTION gateway.log(action text, submission bigint, request bigint, env text,
                            detail text) RETURNS void
LANGUAGE sql SECURITY DEFINER SET search_path = gateway, pg_temp AS $$
    INSERT INTO gateway.audit (role, action, submission_id, request_id, environment, detail)
    VALUES (gateway.team_role(session_user), action, submission, request, env, detail);
    SELECT pg_notify('gateway_team', json_build_object(
        'kind', 'audit', 'event', action, 'id', coalesce(submission, request))::text);
$$;

CREATE FUNCTION gateway.needs_approval(env text, cmd text, amt text, cur text)
RETURNS boolean LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = gateway, pg_temp
AS $$
DECLARE p gateway.policies; limit_text text;
BEGIN
    IF cmd NOT IN ('payout-check', 'create-recurring-payment') THEN RETURN false; END IF;
    SELECT * INTO p FROM gateway.policies WHERE environment = env;
    IF NOT FOUND OR p.mode = 'none' THEN RETURN false; END IF;
    IF p.mode = 'all' THEN RETURN true; END IF;
    limit_text := p.thresholds ->> upper(coalesce(cur, ''));
    IF limit_text IS NULL OR amt IS NULL OR amt !~ '^\s*[0-9]+(\.[0-9]+)?\s*$' THEN
        RETURN true;  -- a currency without a threshold, or an amount not a number: ask
    END IF;
    RETURN amt::numeric > limit_text::numeric;
END $$;

CREATE FUNCTION gateway.submit(env text, cmd text, orderid text, amt text, cur text,
                               rcv text, digest text, shown text, fields jsonb, card boolean)
RETURNS bigint LANGUAGE plpgsql SECURITY DEFINER SET search_path = gateway, pg_temp AS $$
DECLARE new_id bigint; lifetime interval;
BEGIN
    IF NOT pg_has_role(session_user, 'gateway_maker', 'MEMBER') THEN
        PERFORM gateway.log('refused', NULL, NULL, env, 'submit: not a maker');
        RETURN NULL;
    END IF;
    SELECT expiry INTO lifetime FROM gateway.policies WHERE environment = env;
    INSERT INTO gateway.submissions (environment, command, client_orderid, amount, currency,
        receiver, content_hash, request_json, params, card_data, maker, expires)
    VALUES (env, cmd, orderid, amt, cur, rcv, digest, shown, fields, card, session_user,
        now() + coalesce(lifetime, interval '24 hours'))
    RETURNING id INTO new_id;
    PERFORM gateway.log('submit', new_id, NULL, env,
        format('%s %s %s %s', cmd, orderid, coalesce(amt, ''), coalesce(cur, '')));
    RETURN new_id;
END $$;

-- Approve or reject. Refusals are not errors (an error would roll back their audit entry):
-- the answer starts with "refused:" and nothing else changes.
CREATE FUNCTION gateway.decide(submission bigint, approve boolean, why text) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = gateway, pg_temp AS $$
DECLARE s gateway.submissions; verb text := CASE WHEN approve THEN 'approve' ELSE 'reject' END;
BEGIN
    SELECT * INTO s FROM gateway.submissions WHERE id = submission FOR UPDATE;
    IF NOT FOUND THEN
        RETURN 'refused: there is no submission ' || submission;
    ELSIF s.maker = session_user THEN
        PERFORM gateway.log('refused', s.id, NULL, s.environment, verb || ': self-approval');
        RETURN 'refused: a submission is decided by someone other than its maker';
    ELSIF NOT pg_has_role(session_user, 'gateway_checker', 'MEMBER') THEN
        PERFORM gateway.log('refused', s.id, NULL, s.environment, verb || ': not a checker');
        RETURN 'refused: only a checker may ' || verb;
    ELSIF s.state = 'pending' AND s.expires <= now() THEN
        UPDATE gateway.submissions SET state = 'expired' WHERE id = s.id;
        PERFORM gateway.log('refused', s.id, NULL, s.environment, verb || ': expired');
        RETURN 'refused: the submission expired at ' || s.expires;
    ELSIF s.state <> 'pending' THEN
        PERFORM gateway.log('refused', s.id, NULL, s.environment,
            verb || ': already ' || s.state);
        RETURN format('refused: the submission is already %s (by %s)', s.state,
            coalesce(s.decided_by, s.maker));
    ELSIF NOT approve AND coalesce(btrim(why), '') = '' THEN
        RETURN 'refused: a rejection needs a reason';
    END IF;
    UPDATE gateway.submissions SET state = CASE WHEN approve THEN 'approved' ELSE 'rejected' END,
        decided_by = session_user, decided_at = now(), reason = nullif(btrim(why), '')
        WHERE id = s.id;
    PERFORM gateway.log(verb, s.id, NULL, s.environment, coalesce(why, ''));
    RETURN CASE WHEN approve THEN 'approved' ELSE 'rejected' END;
END $$;

-- Take an approved submission for sending: once, and only with the content approved.
CREATE FUNCTION gateway.claim(submission bigint, digest text) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = gateway, pg_temp AS $$
DECLARE s gateway.submissions;
BEGIN
    SELECT * INTO s FROM gateway.submissions WHERE id = submission FOR UPDATE;
    IF NOT FOUND THEN
        RETURN 'refused: there is no submission ' || submission;
    ELSIF NOT (pg_has_role(session_user, 'gateway_maker', 'MEMBER')
               OR pg_has_role(session_user, 'gateway_checker', 'MEMBER')) THEN
        PERFORM gateway.log('refused', s.id, NULL, s.environment, 'send: not a maker or checker');
        RETURN 'refused: only a maker or a checker may send';
    ELSIF s.state <> 'approved' THEN
        PERFORM gateway.log('refused', s.id, NULL, s.environment, 'send: ' || s.state);
        RETURN format('refused: the submission is %s, not approved and waiting', s.state);
    ELSIF s.expires <= now() THEN
        UPDATE gateway.submissions SET state = 'expired' WHERE id = s.id;
        PERFORM gateway.log('refused', s.id, NULL, s.environment, 'send: expired');
        RETURN 'refused: the approval expired at ' || s.expires;
    ELSIF s.content_hash <> digest THEN
        UPDATE gateway.submissions SET state = 'void' WHERE id = s.id;
        PERFORM gateway.log('refused', s.id, NULL, s.environment,
            'send: the request changed after approval; the approval is void');
        RETURN 'refused: the request is not the one approved, so the approval is void';
    END IF;
    UPDATE gateway.submissions SET state = 'sending', sender = session_user WHERE id = s.id;
    PERFORM gateway.log('claim', s.id, NULL, s.environment, '');
    RETURN 'ok';
END $$;

CREATE FUNCTION gateway.before_request() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = gateway, pg_temp AS $$
DECLARE s gateway.submissions;
BEGIN
    NEW.made_by := session_user;
    NEW.writer_backend := pg_backend_pid();
    NEW.writer_started := gateway.backend_start();
    NEW.approved_by := NULL;
    IF NEW.submission_id IS NOT NULL THEN
        SELECT * INTO s FROM gateway.submissions WHERE id = NEW.submission_id FOR UPDATE;
        IF s.state <> 'sending' OR s.sender <> session_user
           OR s.environment <> NEW.environment OR s.command <> NEW.command
           OR s.client_orderid IS DISTINCT FROM NEW.client_orderid THEN
            RAISE EXCEPTION 'submission % is not claimed for this request', NEW.submission_id
                USING ERRCODE = 'insufficient_privilege';
        END IF;
        NEW.approved_by := s.decided_by;
        UPDATE gateway.submissions SET state = 'sent', request_id = NEW.id WHERE id = s.id;
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
CREATE TRIGGER requests_before_insert BEFORE INSERT ON gateway.requests
    FOR EACH ROW EXECUTE FUNCTION gateway.before_request();

CREATE FUNCTION gateway.after_request() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = gateway, pg_temp AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM gateway.log('send', NEW.submission_id, NEW.id, NEW.environment,
            format('%s %s', NEW.command, coalesce(NEW.client_orderid, '')));
    ELSIF OLD.outcome = 'pending' AND NEW.outcome <> 'pending' THEN
        PERFORM gateway.log('outcome', NEW.submission_id, NEW.id, NEW.environment,
            NEW.outcome || CASE WHEN NEW.interrupted THEN ' (console stopped)' ELSE '' END);
    END IF;
    PERFORM pg_notify('gateway_team', json_build_object('kind', 'request', 'event',
        CASE WHEN TG_OP = 'INSERT' THEN 'added' ELSE 'changed' END, 'id', NEW.id)::text);
    RETURN NULL;
END $$;
CREATE TRIGGER requests_after AFTER INSERT OR UPDATE ON gateway.requests
    FOR EACH ROW EXECUTE FUNCTION gateway.after_request();

-- Pending rows whose console is gone (its connection closed) or past their deadline.
CREATE FUNCTION gateway.recover_interrupted(summary_text text) RETURNS SETOF bigint
LANGUAGE sql SECURITY DEFINER SET search_path = gateway, pg_temp AS $$
    UPDATE gateway.requests r SET outcome = 'unknown', interrupted = true,
        summary = summary_text
    WHERE r.outcome = 'pending' AND (
        r.deadline < extract(epoch FROM now())
        OR NOT EXISTS (SELECT 1 FROM pg_stat_activity a
                       WHERE a.pid = r.writer_backend
                         -- NULL when the owner may not read other sessions' details: the
                         -- pid alone then (a live send is never taken for a lost one)
                         AND (a.backend_start IS NULL OR r.writer_started IS NULL
                              OR a.backend_start = r.writer_started)))
    RETURNING r.id
$$;

CREATE FUNCTION gateway.set_final_status(env text, orderid text, status text,
                                         gateway_id text, source text)
RETURNS SETOF bigint
LANGUAGE sql SECURITY DEFINER SET search_path = gateway, pg_temp AS $$
    UPDATE gateway.requests SET final_status = status, final_status_source = source,
        final_status_at = extract(epoch FROM clock_timestamp()),
        gateway_order_id = coalesce(gateway_order_id, gateway_id)
    WHERE client_orderid = orderid AND environment = env AND command <> 'status'
      AND (gateway_id IS NULL OR gateway_order_id IS NULL OR gateway_order_id = gateway_id)
    RETURNING id
$$;

-- Admin steps answer "ok" or "refused: ..." (an error would roll back the audit entry).
CREATE FUNCTION gateway.set_policy(env text, how text, limits jsonb, lifetime interval)
RETURNS text LANGUAGE plpgsql SECURITY DEFINER SET search_path = gateway, pg_temp AS $$
BEGIN
    IF NOT pg_has_role(session_user, 'gateway_admin', 'MEMBER') THEN
        PERFORM gateway.log('refused', NULL, NULL, env, 'policy: not an admin');
        RETURN 'refused: only an admin may change the approval policy';
    END IF;
    INSERT INTO gateway.policies (environment, mode, thresholds, expiry)
    VALUES (env, how, limits, lifetime)
    ON CONFLICT (environment) DO UPDATE SET mode = how, thresholds = limits,
        expiry = lifetime, updated_by = session_user, updated_at = now();
    PERFORM gateway.log('policy', NULL, NULL, env,
        format('%s %s, pending submissions expire after %s', how, limits, lifetime));
    RETURN 'ok';
END $$;

CREATE FUNCTION gateway.add_user(who text, team_role text) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = gateway, pg_temp AS $$
BEGIN
    IF NOT pg_has_role(session_user, 'gateway_admin', 'MEMBER') THEN
        PERFORM gateway.log('refused', NULL, NULL, NULL, 'add user ' || who || ': not an admin');
        RETURN 'refused: only an admin may add users';
    ELSIF team_role NOT IN ('maker', 'checker', 'admin') THEN
        RETURN 'refused: the role must be maker, checker or admin, not ' || team_role;
    END IF;
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = who) THEN
        EXECUTE format('CREATE ROLE %I LOGIN', who);
    END IF;
    EXECUTE format('GRANT %I TO %I', 'gateway_' || team_role, who);
    PERFORM gateway.log('user', NULL, NULL, NULL, format('%s is now %s', who, team_role));
    RETURN 'ok';
END $$;

-- Grants: nobody but the functions above writes submissions, policies or the audit.
REVOKE ALL ON ALL TABLES IN SCHEMA gateway FROM PUBLIC;
REVOKE ALL ON ALL FUNCTIONS IN SCHEMA gateway FROM PUBLIC;
GRANT USAGE ON SCHEMA gateway TO gateway_maker, gateway_checker, gateway_admin;
GRANT SELECT ON gateway.meta, gateway.policies, gateway.submissions, gateway.audit,
    gateway.requests, gateway.request_details TO gateway_maker, gateway_checker, gateway_admin;
GRANT INSERT ON gateway.requests, gateway.request_details TO gateway_maker, gateway_checker;
GRANT UPDATE (finished, outcome, http_status, elapsed, response_type, response_status,
    gateway_order_id, serial_number, card_ref_id, recurring_payment_id, summary,
    final_status, final_status_source, final_status_at) ON gateway.requests
    TO gateway_maker, gateway_checker;
GRANT UPDATE (response_json) ON gateway.request_details TO gateway_maker, gateway_checker;
GRANT USAGE ON SEQUENCE gateway.requests_id_seq TO gateway_maker, gateway_checker;
GRANT EXECUTE ON FUNCTION gateway.submit(text, text, text, text, text, text, text, text, jsonb,
    boolean), gateway.needs_approval(text, text, text, text), gateway.backend_start(),
    gateway.team_role(text) TO gateway_maker, gateway_checker, gateway_admin;
GRANT EXECUTE ON FUNCTION gateway.decide(bigint, boolean, text), gateway.claim(bigint, text),
    gateway.recover_interrupted(text),
    gateway.set_final_status(text, text, text, text, text)
    TO gateway_maker, gateway_checker, gateway_admin;
GRANT EXECUTE ON FUNCTION gateway.set_policy(text, text, jsonb, interval),
    gateway.add_user(text, text) TO gateway_maker, gateway_checker, gateway_admin;

-- Row-level security: everyone reads every send (the double-payout guard sees the whole
-- team's); a row is written and finished only by the person who sent it.
ALTER TABLE gateway.requests ENABLE ROW LEVEL SECURITY;
CREATE POLICY requests_read ON gateway.requests FOR SELECT USING (true);
CREATE POLICY requests_insert ON gateway.requests FOR INSERT
    WITH CHECK (made_by = session_user);
CREATE POLICY requests_finish ON gateway.requests FOR UPDATE
    USING (made_by = session_user AND outcome = 'pending') WITH CHECK (made_by = session_user);
ALTER TABLE gateway.request_details ENABLE ROW LEVEL SECURITY;
CREATE POLICY details_read ON gateway.request_details FOR SELECT USING (true);
CREATE POLICY details_write ON gateway.request_details FOR INSERT WITH CHECK (EXISTS (
    SELECT 1 FROM gateway.requests r WHERE r.id = request_id AND r.made_by = session_user));
CREATE POLICY details_finish ON gateway.request_details FOR UPDATE USING (EXISTS (
    SELECT 1 FROM gateway.requests r WHERE r.id = request_id AND r.made_by = session_user));
ALTER TABLE gateway.submissions ENABLE ROW LEVEL SECURITY;
CREATE POLICY submissions_read ON gateway.submissions FOR SELECT USING (true);
ALTER TABLE gateway.audit ENABLE ROW LEVEL SECURITY;
CREATE POLICY audit_read ON gateway.audit FOR SELECT USING (true);
"""

# Version 2: a claimed send that is then refused ends "refused" (never "sending" for ever),
# as does a claim whose console stopped before anything was written; a batch file is
# approved as a whole (one submission for every row's request) and its rows go out once each.
_V2 = r"""
ALTER TABLE gateway.submissions DROP CONSTRAINT submissions_state_check;
ALTER TABLE gateway.submissions ADD CONSTRAINT submissions_state_check CHECK (state IN
    ('pending', 'approved', 'rejected', 'expired', 'void', 'sending', 'sent', 'refused'));
ALTER TABLE gateway.submissions
    ADD COLUMN sender_backend integer,
    ADD COLUMN sender_started timestamptz,
    ADD COLUMN order_ids text[],        -- a batch: the client_orderids of its rows
    ADD COLUMN batch_rows integer,      -- a batch: how many rows
    ADD COLUMN rows_sent integer NOT NULL DEFAULT 0;
CREATE INDEX ix_requests_submission ON gateway.requests(submission_id, client_orderid)
    WHERE submission_id IS NOT NULL;

-- Take an approved submission for sending: once, and only with the content approved.
CREATE OR REPLACE FUNCTION gateway.claim(submission bigint, digest text) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = gateway, pg_temp AS $$
DECLARE s gateway.submissions;
BEGIN
    SELECT * INTO s FROM gateway.submissions WHERE id = submission FOR UPDATE;
    IF NOT FOUND THEN
        RETURN 'refused: there is no submission ' || submission;
    ELSIF NOT (pg_has_role(session_user, 'gateway_maker', 'MEMBER')
               OR pg_has_role(session_user, 'gateway_checker', 'MEMBER')) THEN
        PERFORM gateway.log('refused', s.id, NULL, s.environment, 'send: not a maker or checker');
        RETURN 'refused: only a maker or a checker may send';
    ELSIF s.state <> 'approved' THEN
        PERFORM gateway.log('refused', s.id, NULL, s.environment, 'send: ' || s.state);
        RETURN format('refused: the submission is %s, not approved and waiting', s.state);
    ELSIF s.expires <= now() THEN
        UPDATE gateway.submissions SET state = 'expired' WHERE id = s.id;
        PERFORM gateway.log('refused', s.id, NULL, s.environment, 'send: expired');
        RETURN 'refused: the approval expired at ' || s.expires;
    ELSIF s.content_hash <> digest THEN
        UPDATE gateway.submissions SET state = 'void' WHERE id = s.id;
        PERFORM gateway.log('refused', s.id, NULL, s.environment,
            'send: the request changed after approval; the approval is void');
        RETURN 'refused: the request is not the one approved, so the approval is void';
    END IF;
    UPDATE gateway.submissions SET state = 'sending', sender = session_user,
        sender_backend = pg_backend_pid(), sender_started = gateway.backend_start()
        WHERE id = s.id;
    PERFORM gateway.log('claim', s.id, NULL, s.environment, '');
    RETURN 'ok';
END $$;

-- The end of a claimed send, by its sender: a single request whose row was never written
-- (the send was refused before anything left) ends "refused" with the reason; a batch ends
-- "sent" once a row went out (the reason says where it stopped), else "refused".
CREATE FUNCTION gateway.end_claim(submission bigint, why text) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = gateway, pg_temp AS $$
DECLARE s gateway.submissions; final text;
BEGIN
    SELECT * INTO s FROM gateway.submissions WHERE id = submission FOR UPDATE;
    IF NOT FOUND OR s.state <> 'sending' OR s.sender <> session_user THEN
        RETURN coalesce(s.state, 'none');  -- sent (its row was written), or not ours
    END IF;
    final := CASE WHEN s.rows_sent > 0 THEN 'sent' ELSE 'refused' END;
    UPDATE gateway.submissions SET state = final, reason = nullif(btrim(why), '')
        WHERE id = s.id;
    IF final = 'refused' THEN
        PERFORM gateway.log('refused', s.id, NULL, s.environment,
            'send: ' || coalesce(nullif(btrim(why), ''), 'not sent') || '; nothing was sent');
    ELSE
        PERFORM gateway.log('batch', s.id, NULL, s.environment,
            format('%s of %s rows sent%s', s.rows_sent, s.batch_rows,
                   coalesce('; ' || nullif(btrim(why), ''), '')));
    END IF;
    RETURN final;
END $$;

-- Claims whose console is gone (its session closed) before it wrote the send's row.
CREATE FUNCTION gateway.recover_claims() RETURNS SETOF bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = gateway, pg_temp AS $$
DECLARE s gateway.submissions; final text;
BEGIN
    FOR s IN SELECT * FROM gateway.submissions WHERE state = 'sending' AND NOT EXISTS (
            SELECT 1 FROM pg_stat_activity a WHERE a.pid = sender_backend
              AND (a.backend_start IS NULL OR sender_started IS NULL
                   OR a.backend_start = sender_started))
        FOR UPDATE SKIP LOCKED
    LOOP
        final := CASE WHEN s.rows_sent > 0 THEN 'sent' ELSE 'refused' END;
        UPDATE gateway.submissions SET state = final,
            reason = CASE WHEN final = 'sent'
                THEN format('the console sending it stopped after %s of %s rows',
                            s.rows_sent, s.batch_rows)
                ELSE 'the console that claimed it stopped before sending' END
            WHERE id = s.id;
        PERFORM gateway.log(CASE WHEN final = 'sent' THEN 'batch' ELSE 'refused' END, s.id,
            NULL, s.environment, CASE WHEN final = 'sent'
                THEN format('%s of %s rows sent; the console sending it stopped',
                            s.rows_sent, s.batch_rows)
                ELSE 'send: the console that claimed it stopped; nothing was sent' END);
        RETURN NEXT s.id;
    END LOOP;
END $$;

CREATE FUNCTION gateway.submit_batch(env text, cmd text, digest text, shown text,
                                     orderids text[], card boolean, source text)
RETURNS bigint LANGUAGE plpgsql SECURITY DEFINER SET search_path = gateway, pg_temp AS $$
DECLARE new_id bigint; lifetime interval;
BEGIN
    IF NOT pg_has_role(session_user, 'gateway_maker', 'MEMBER') THEN
        PERFORM gateway.log('refused', NULL, NULL, env, 'submit batch: not a maker');
        RETURN NULL;
    END IF;
    SELECT expiry INTO lifetime FROM gateway.policies WHERE environment = env;
    INSERT INTO gateway.submissions (environment, command, client_orderid, receiver,
        content_hash, request_json, card_data, maker, expires, order_ids, batch_rows)
    VALUES (env, cmd, source, format('batch of %s rows', cardinality(orderids)), digest,
        shown, card, session_user, now() + coalesce(lifetime, interval '24 hours'), orderids,
        cardinality(orderids))
    RETURNING id INTO new_id;
    PERFORM gateway.log('submit', new_id, NULL, env,
        format('batch %s: %s rows', source, cardinality(orderids)));
    RETURN new_id;
END $$;

CREATE OR REPLACE FUNCTION gateway.before_request() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = gateway, pg_temp AS $$
DECLARE s gateway.submissions;
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

REVOKE ALL ON FUNCTION gateway.end_claim(bigint, text), gateway.recover_claims(),
    gateway.submit_batch(text, text, text, text, text[], boolean, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION gateway.end_claim(bigint, text), gateway.recover_claims(),
    gateway.submit_batch(text, text, text, text, text[], boolean, text)
    TO gateway_maker, gateway_checker, gateway_admin;
"""

# Version 3: the journal answers as the SQLite one does, whatever the database's locale.
# * Ids, filters and card digits compare byte by byte (collation "C"): a "po-1*" search
#   finds what it finds on SQLite (a linguistic collation would let "PO-1x" in), and the
#   filter menus list values in the same order.
# * An answer that arrives after its pending row was taken for a stopped console's ("outcome
#   unknown", past its deadline) is still stored by its sender, and audited.
# * A status of an order not decided yet (processing, unknown: console.core.spec.status)
#   never replaces a settled one, final or a later update such as a chargeback (a status
#   answer overtaken by the callback).
_V3 = r"""
DROP POLICY requests_finish ON gateway.requests;
ALTER TABLE gateway.requests
    ALTER COLUMN environment TYPE text COLLATE "C",
    ALTER COLUMN command TYPE text COLLATE "C",
    ALTER COLUMN outcome TYPE text COLLATE "C",
    ALTER COLUMN client_orderid TYPE text COLLATE "C",
    ALTER COLUMN last4 TYPE text COLLATE "C",
    ALTER COLUMN gateway_order_id TYPE text COLLATE "C",
    ALTER COLUMN serial_number TYPE text COLLATE "C",
    ALTER COLUMN card_ref_id TYPE text COLLATE "C",
    ALTER COLUMN recurring_payment_id TYPE text COLLATE "C";
CREATE POLICY requests_finish ON gateway.requests FOR UPDATE
    USING (made_by = session_user
           AND (outcome = 'pending' OR (interrupted AND finished IS NULL)))
    WITH CHECK (made_by = session_user);

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
    PERFORM pg_notify('gateway_team', json_build_object('kind', 'request', 'event',
        CASE WHEN TG_OP = 'INSERT' THEN 'added' ELSE 'changed' END, 'id', NEW.id)::text);
    RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION gateway.set_final_status(env text, orderid text, status text,
                                                    gateway_id text, source text)
RETURNS SETOF bigint
LANGUAGE sql SECURITY DEFINER SET search_path = gateway, pg_temp AS $$
    UPDATE gateway.requests SET final_status = status, final_status_source = source,
        final_status_at = extract(epoch FROM clock_timestamp()),
        gateway_order_id = coalesce(gateway_order_id, gateway_id)
    WHERE client_orderid = orderid AND environment = env AND command <> 'status'
      AND (gateway_id IS NULL OR gateway_order_id IS NULL OR gateway_order_id = gateway_id)
      AND NOT (status IN ('processing', 'unknown') AND final_status IS NOT NULL
               AND final_status NOT IN ('processing', 'unknown'))
    RETURNING id
$$;
"""

MIGRATIONS: tuple[str, ...] = (_V1, _V2, _V3, V4, V5, V6, V7, V8, V9, V10)
GATEWAYS_SCHEMA = 6  # the team's gateways are registered; policies are theirs
SCHEMA_VERSION = len(MIGRATIONS)
