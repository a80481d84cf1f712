"""Schema of the team sender: one process of the team holds the key that moves money.

* ``gateway_sender``: the database role of the team sender (``team add-user NAME --role
  sender``). Its login never also submits or approves (the database refuses the mix), and it
  alone sends what is submitted to it: a submission marked ``via_sender`` is claimed by no
  other role.
* Makers submit to the sender (``gateway.submit_to_sender``): a request the policy lets go is
  queued at once ("approved" with nobody's decision), one it holds back waits for a checker
  as before. The policy is the one of the registered gateway the request goes to (schema 6:
  ``gateway.needs_approval_at``), the submission's gateway (``submissions.gateway``, schema
  6's column) is the database's own identity of the request's URL and login
  (``gateway.submission_target``: refused for a gateway not registered and not on this
  computer), so the sender refuses a submission for a gateway it does not serve; a request
  rejected before is refused unless the maker says ``after_rejection`` (audited), as
  ``gateway.submit`` does.
* Card data reaches the sender sealed to its public key (``gateway.sender_key``; the
  ciphertext in ``gateway.sealed``, readable by the sender alone). The ciphertext is erased
  in the transaction that ends its submission's wait: sent (the journal's pending row, before
  the request leaves), refused, rejected, expired or void.
* A claim of the sender's that stopped before its journal row was written (the sender was
  killed) goes back to the queue: nothing was sent, so it is sent later, once.
* Final statuses from a status answer settle other people's rows only for the sender: a
  maker's "status" row is whatever the maker wrote, so it is no evidence.

It builds on schema 6 (the registered gateways) and 7 (the signed audit trail); the
functions it replaces are replaced whole, carrying what the earlier versions changed.
"""

from __future__ import annotations

V8 = r"""
DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'gateway_sender') THEN
        CREATE ROLE gateway_sender NOLOGIN;
    END IF;
END $$;

CREATE OR REPLACE FUNCTION gateway.team_role(who text) RETURNS text LANGUAGE sql STABLE AS $$
    SELECT coalesce(string_agg(r, ',' ORDER BY r), 'none') FROM unnest(
        ARRAY['admin', 'checker', 'maker', 'sender']) AS r
    WHERE pg_has_role(who, 'gateway_' || r, 'MEMBER')
$$;

CREATE TABLE gateway.sender_key (
    only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
    public_pem text NOT NULL,
    fingerprint text NOT NULL,
    set_by text NOT NULL DEFAULT session_user,
    set_at timestamptz NOT NULL DEFAULT now()
);
-- Which environments a running sender serves (each request is still checked against the
-- registered gateway its URL reaches).
CREATE TABLE gateway.senders (
    environment text PRIMARY KEY,
    sender text NOT NULL DEFAULT session_user,
    since timestamptz NOT NULL DEFAULT now()
);
-- (the gateway a submission goes to is schema 6's column ``gateway``)
ALTER TABLE gateway.submissions ADD COLUMN via_sender boolean NOT NULL DEFAULT false,
    ADD COLUMN part_of bigint REFERENCES gateway.submissions(id);  -- a row of this batch
CREATE INDEX ix_submissions_queue ON gateway.submissions(id)
    WHERE via_sender AND state = 'approved';
CREATE TABLE gateway.sealed (
    submission_id bigint PRIMARY KEY REFERENCES gateway.submissions(id),
    sealed_to text NOT NULL,     -- the fingerprint of the sender key it is sealed to
    ciphertext bytea NOT NULL
);
ALTER TABLE gateway.sealed ENABLE ROW LEVEL SECURITY;
CREATE POLICY sealed_read ON gateway.sealed FOR SELECT USING (true);

-- A submission that no longer waits to be sent keeps no card data, sealed or not.
CREATE FUNCTION gateway.erase_sealed() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = gateway, pg_temp AS $$
BEGIN
    IF NEW.state NOT IN ('pending', 'approved', 'sending') THEN
        DELETE FROM gateway.sealed WHERE submission_id = NEW.id;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER submissions_erase_sealed AFTER UPDATE OF state ON gateway.submissions
    FOR EACH ROW EXECUTE FUNCTION gateway.erase_sealed();
ALTER TABLE gateway.submissions ENABLE ALWAYS TRIGGER submissions_erase_sealed;

CREATE OR REPLACE FUNCTION gateway.add_user(who text, team_role text) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = gateway, pg_temp AS $$
DECLARE before text := 'none'; exists_ boolean;
BEGIN
    IF NOT pg_has_role(session_user, 'gateway_admin', 'MEMBER') THEN
        PERFORM gateway.log('refused', NULL, NULL, NULL, 'add user ' || who || ': not an admin');
        RETURN 'refused: only an admin may add users';
    ELSIF team_role NOT IN ('maker', 'checker', 'admin', 'sender') THEN
        RETURN 'refused: the role must be maker, checker, admin or sender, not ' || team_role;
    END IF;
    exists_ := EXISTS (SELECT 1 FROM pg_roles WHERE rolname = who);
    IF exists_ AND team_role = 'sender' AND (pg_has_role(who, 'gateway_maker', 'MEMBER')
            OR pg_has_role(who, 'gateway_checker', 'MEMBER')) THEN
        PERFORM gateway.log('refused', NULL, NULL, NULL,
            'add user ' || who || ': a sender never also submits or approves');
        RETURN 'refused: ' || who || ' submits or approves, so it cannot be the team sender';
    ELSIF exists_ AND team_role IN ('maker', 'checker')
            AND pg_has_role(who, 'gateway_sender', 'MEMBER') THEN
        PERFORM gateway.log('refused', NULL, NULL, NULL,
            'add user ' || who || ': the team sender never also submits or approves');
        RETURN 'refused: ' || who || ' is the team sender, which never submits or approves';
    END IF;
    IF NOT exists_ THEN
        EXECUTE format('CREATE ROLE %I LOGIN', who);
    ELSE
        before := gateway.team_role(who);
    END IF;
    EXECUTE format('GRANT %I TO %I', 'gateway_' || team_role, who);
    PERFORM gateway.log('user', NULL, NULL, NULL,
        format('%s is now %s (was %s)', who, gateway.team_role(who), before));
    RETURN 'ok';
END $$;

-- The sender at its start: its public sealing key, and the environments it serves.
CREATE FUNCTION gateway.sender_start(pem text, fp text, served text[]) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = gateway, pg_temp AS $$
DECLARE old gateway.sender_key;
BEGIN
    IF NOT pg_has_role(session_user, 'gateway_sender', 'MEMBER') THEN
        PERFORM gateway.log('refused', NULL, NULL, NULL, 'sender start: not the team sender');
        RETURN 'refused: only the team sender (role gateway_sender) may start as the sender';
    END IF;
    SELECT * INTO old FROM gateway.sender_key;
    IF pem IS NOT NULL AND (old IS NULL OR old.fingerprint IS DISTINCT FROM fp) THEN
        INSERT INTO gateway.sender_key (public_pem, fingerprint) VALUES (pem, fp)
        ON CONFLICT (only_row) DO UPDATE SET public_pem = pem, fingerprint = fp,
            set_by = session_user, set_at = now();
        PERFORM gateway.log('sender key', NULL, NULL, NULL,
            format('card data is sealed to %s (was %s)', fp, coalesce(old.fingerprint, 'none')));
    END IF;
    DELETE FROM gateway.senders WHERE NOT (environment = ANY (served));
    INSERT INTO gateway.senders (environment) SELECT unnest(served)
    ON CONFLICT (environment) DO UPDATE SET sender = session_user, since = now();
    PERFORM gateway.log('sender', NULL, NULL, NULL,
        'the team sender serves ' || array_to_string(served, ', '));
    RETURN 'ok';
END $$;

-- A row of a batch approved as a whole (``batch``: claimed by the caller, the row one of
-- those approved, to the batch's gateway, and not submitted before) needs no decision of
-- its own. The gateway is the one ``url`` signed for ``who`` reaches (schema 6).
CREATE FUNCTION gateway.submit_to_sender(env text, cmd text, orderid text, amt text, cur text,
        rcv text, digest text, shown text, fields jsonb, url text, who text, sealed_to text,
        sealed bytea, batch bigint, after_rejection boolean DEFAULT false)
RETURNS bigint LANGUAGE plpgsql SECURITY DEFINER SET search_path = gateway, pg_temp AS $$
DECLARE new_id bigint; lifetime interval; held boolean; b gateway.submissions;
        target record; earlier bigint; again text := '';
BEGIN
    IF NOT pg_has_role(session_user, 'gateway_maker', 'MEMBER') THEN
        PERFORM gateway.log('refused', NULL, NULL, env, 'submit: not a maker');
        RETURN NULL;
    ELSIF (fields IS NULL) = (sealed IS NULL) THEN
        RAISE EXCEPTION 'a submission to the sender carries its fields or its sealed card data'
            USING ERRCODE = 'check_violation';
    END IF;
    target := gateway.submission_target(url, who);  -- refused: not registered, not local
    IF batch IS NOT NULL THEN
        SELECT * INTO b FROM gateway.submissions WHERE id = batch FOR UPDATE;
        IF NOT FOUND OR b.state <> 'sending' OR b.sender <> session_user
           OR b.environment <> env OR b.command <> cmd
           OR b.gateway IS DISTINCT FROM target.ident
           OR NOT EXISTS (SELECT 1 FROM gateway.submission_rows r WHERE r.submission_id = b.id
                AND r.client_orderid = orderid AND r.content_hash = digest
                AND r.amount IS NOT DISTINCT FROM amt AND r.currency IS NOT DISTINCT FROM cur
                AND r.receiver IS NOT DISTINCT FROM rcv)
           OR EXISTS (SELECT 1 FROM gateway.submissions p WHERE p.part_of = b.id
                AND p.client_orderid = orderid) THEN
            RAISE EXCEPTION 'this request is not a row of batch % claimed by you, or it was '
                'submitted before', batch USING ERRCODE = 'insufficient_privilege';
        END IF;
        UPDATE gateway.submissions SET rows_sent = rows_sent + 1 WHERE id = b.id;
        held := false;  -- the batch's submission was checked for rejections before
    ELSE
        held := gateway.needs_approval_at(url, who, cmd, amt, cur);
        SELECT * INTO earlier, again
            FROM gateway.after_rejection(digest, cmd, ARRAY[orderid], after_rejection);
    END IF;
    SELECT expiry INTO lifetime FROM gateway.gateways WHERE name = target.gname;
    INSERT INTO gateway.submissions (environment, command, client_orderid, amount, currency,
        receiver, content_hash, request_json, params, card_data, maker, expires, state,
        via_sender, gateway, gateway_name, after_rejection_of, part_of, decided_by, decided_at)
    VALUES (env, cmd, orderid, amt, cur, rcv, digest, shown, fields, sealed IS NOT NULL,
        session_user, now() + coalesce(lifetime, interval '24 hours'),
        CASE WHEN held THEN 'pending' ELSE 'approved' END, true, target.ident, target.gname,
        earlier, b.id, b.decided_by, CASE WHEN b.id IS NOT NULL THEN now() END)
    RETURNING id INTO new_id;
    IF sealed IS NOT NULL THEN
        INSERT INTO gateway.sealed (submission_id, sealed_to, ciphertext)
        VALUES (new_id, sealed_to, sealed);
    END IF;
    PERFORM gateway.log('submit', new_id, NULL, env,
        format('%s %s %s %s%s; %s', cmd, orderid, coalesce(amt, ''), coalesce(cur, ''), again,
            CASE WHEN held THEN 'for a checker, then the team sender'
                 WHEN b.id IS NOT NULL THEN 'a row of batch #' || b.id || ', approved by '
                     || b.decided_by || ': queued for the team sender'
                 ELSE 'no approval needed: queued for the team sender' END));
    RETURN new_id;
END $$;

-- Take an approved submission for sending: once, only with the content approved, and a
-- submission to the sender only by the sender.
CREATE OR REPLACE FUNCTION gateway.claim(submission bigint, digest text) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = gateway, pg_temp AS $$
DECLARE s gateway.submissions;
BEGIN
    SELECT * INTO s FROM gateway.submissions WHERE id = submission FOR UPDATE;
    IF NOT FOUND THEN
        RETURN 'refused: there is no submission ' || submission;
    ELSIF s.via_sender AND NOT pg_has_role(session_user, 'gateway_sender', 'MEMBER') THEN
        PERFORM gateway.log('refused', s.id, NULL, s.environment,
            'send: submitted to the team sender, which alone sends it');
        RETURN 'refused: it was submitted to the team sender, which alone sends it';
    ELSIF NOT s.via_sender AND NOT (pg_has_role(session_user, 'gateway_maker', 'MEMBER')
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

-- The sender refuses a queued submission it cannot send (another gateway, fields that do
-- not pass its checks, the double-payout guard): nothing was sent.
CREATE FUNCTION gateway.refuse_queued(submission bigint, why text) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = gateway, pg_temp AS $$
DECLARE s gateway.submissions;
BEGIN
    SELECT * INTO s FROM gateway.submissions WHERE id = submission FOR UPDATE;
    IF NOT FOUND OR NOT s.via_sender OR s.state <> 'approved'
       OR NOT pg_has_role(session_user, 'gateway_sender', 'MEMBER') THEN
        RETURN 'refused: not a submission waiting for the team sender';
    END IF;
    UPDATE gateway.submissions SET state = 'refused', reason = why, sender = session_user
        WHERE id = s.id;
    PERFORM gateway.log('refused', s.id, NULL, s.environment,
        'send: ' || why || '; nothing was sent');
    RETURN 'ok';
END $$;

-- Submissions past their time end "expired" (their sealed card data with them).
CREATE FUNCTION gateway.expire_submissions() RETURNS SETOF bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = gateway, pg_temp AS $$
DECLARE s gateway.submissions;
BEGIN
    FOR s IN SELECT * FROM gateway.submissions WHERE state IN ('pending', 'approved')
            AND expires <= now() FOR UPDATE SKIP LOCKED LOOP
        UPDATE gateway.submissions SET state = 'expired' WHERE id = s.id;
        PERFORM gateway.log('expired', s.id, NULL, s.environment, 'not sent before ' || s.expires);
        RETURN NEXT s.id;
    END LOOP;
END $$;

-- Claims whose console is gone before it wrote the send's row. A submission to the sender
-- goes back to the queue (nothing was sent: the row is written before the request leaves).
CREATE OR REPLACE FUNCTION gateway.recover_claims() RETURNS SETOF bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = gateway, pg_temp AS $$
DECLARE s gateway.submissions; final text;
BEGIN
    FOR s IN SELECT * FROM gateway.submissions WHERE state = 'sending' AND NOT EXISTS (
            SELECT 1 FROM pg_stat_activity a WHERE a.pid = sender_backend
              AND (a.backend_start IS NULL OR sender_started IS NULL
                   OR a.backend_start = sender_started))
        FOR UPDATE SKIP LOCKED
    LOOP
        IF s.via_sender AND s.order_ids IS NULL AND s.rows_sent = 0 THEN
            UPDATE gateway.submissions SET state = 'approved', sender = NULL,
                sender_backend = NULL, sender_started = NULL WHERE id = s.id;
            PERFORM gateway.log('queued', s.id, NULL, s.environment,
                'the team sender stopped before sending it; queued again');
            RETURN NEXT s.id;
            CONTINUE;
        END IF;
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

-- A status answer is evidence only from the sender: a maker's "status" row is whatever the
-- maker wrote into it. Callbacks the database verifies and a sender's own rows stay.
CREATE OR REPLACE FUNCTION gateway.set_final_status(env text, orderid text, status text,
                                                    gateway_id text, source text,
                                                    control text DEFAULT NULL)
RETURNS SETOF bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = gateway, pg_temp AS $$
DECLARE r record; proof text; secret_text text; refused integer := 0;
BEGIN
    IF source = 'status' AND pg_has_role(session_user, 'gateway_sender', 'MEMBER') THEN
        SELECT 'the team sender''s status answer in row ' || q.id INTO proof
        FROM gateway.requests q
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
            'status answer the database could verify (only the team sender''s status answers '
            'count)', status, orderid, source, refused));
    END IF;
END $$;

REVOKE ALL ON gateway.sender_key, gateway.senders, gateway.sealed FROM PUBLIC;
REVOKE ALL ON FUNCTION gateway.erase_sealed(), gateway.sender_start(text, text, text[]),
    gateway.submit_to_sender(text, text, text, text, text, text, text, text, jsonb, text, text,
        text, bytea, bigint, boolean),
    gateway.refuse_queued(bigint, text), gateway.expire_submissions() FROM PUBLIC;
GRANT USAGE ON SCHEMA gateway TO gateway_sender;
GRANT SELECT ON gateway.meta, gateway.policies, gateway.gateways, gateway.submissions,
    gateway.audit, gateway.requests, gateway.request_details, gateway.team_key,
    gateway.submission_rows, gateway.audit_head, gateway.request_count, gateway.sender_key,
    gateway.senders
    TO gateway_sender;
GRANT SELECT ON gateway.sender_key, gateway.senders
    TO gateway_maker, gateway_checker, gateway_admin;
GRANT SELECT ON gateway.sealed TO gateway_sender;  -- ciphertext: the sender alone reads it
-- the audit key's public half and the signed heads (team init pins the key), and signing
-- what is new in the trail with the audit key the sender's account holds
GRANT SELECT ON gateway.audit_key, gateway.audit_checkpoints TO gateway_sender;
GRANT EXECUTE ON FUNCTION gateway.sign_audit(bigint, text, text) TO gateway_sender;
GRANT INSERT ON gateway.requests, gateway.request_details TO gateway_sender;
GRANT UPDATE (finished, outcome, http_status, elapsed, response_type, response_status,
    gateway_order_id, serial_number, card_ref_id, recurring_payment_id, summary,
    final_status, final_status_source, final_status_at) ON gateway.requests TO gateway_sender;
GRANT UPDATE (response_json, request_json) ON gateway.request_details TO gateway_sender;
GRANT USAGE ON SEQUENCE gateway.requests_id_seq TO gateway_sender;
-- the registered gateways (schema 6): which one a request reaches, and its policy
GRANT EXECUTE ON FUNCTION gateway.url_unquote(text), gateway.is_loopback_host(text),
    gateway.url_identity(text), gateway.reaches(gateway.gateways, text, text),
    gateway.gateway_at(text, text), gateway.policy_holds(text, jsonb, text, text, text),
    gateway.needs_approval_at(text, text, text, text, text),
    gateway.rejected_before(text, text, text[]), gateway.backend_start(),
    gateway.team_role(text), gateway.claim(bigint, text),
    gateway.end_claim(bigint, text), gateway.recover_claims(), gateway.recover_interrupted(text),
    gateway.set_final_status(text, text, text, text, text, text),
    gateway.sender_start(text, text, text[]), gateway.refuse_queued(bigint, text),
    gateway.expire_submissions() TO gateway_sender;
GRANT EXECUTE ON FUNCTION gateway.submit_to_sender(text, text, text, text, text, text, text,
        text, jsonb, text, text, text, bytea, bigint, boolean), gateway.expire_submissions(),
    gateway.sender_start(text, text, text[]), gateway.refuse_queued(bigint, text)
    TO gateway_maker, gateway_checker, gateway_admin;
"""
