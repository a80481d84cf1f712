"""Schema version 9 of the team database: a callback settles the team sender's sends only
when the database verified it.

The team sender sends every payout that goes through it, so every such row is its own; until
now the database settled a caller's own rows without evidence, whatever the source. The
sender receives the gateway's callbacks itself (``team sender``'s listener), so a callback
that reaches it would have settled any of the team's payouts on the sender's word alone.
From schema 9, a final status the sender sets from a callback needs the evidence the
database checks for everyone else's rows: the callback's ``control`` code, verified with the
environment's merchant control secret an admin stored (``team callback-secret ENV``). That
secret is the authoritative one: a callback the sender checked with another secret (its
keyring's, or its variable's) settles nothing, and the refusal is audited. Other members'
consoles keep settling their own sends from their own callbacks, as before.

It replaces schema 8's ``gateway.set_final_status`` whole, carrying what it changed (only
the sender's status answers are evidence).
"""

from __future__ import annotations

V9 = r"""
CREATE OR REPLACE FUNCTION gateway.set_final_status(env text, orderid text, status text,
                                                    gateway_id text, source text,
                                                    control text DEFAULT NULL)
RETURNS SETOF bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = gateway, pg_temp AS $$
DECLARE r record; proof text; secret_text text; refused integer := 0;
    sender boolean := pg_has_role(session_user, 'gateway_sender', 'MEMBER');
BEGIN
    IF source = 'status' AND sender THEN
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
        -- the sender's own rows are every payout it sent: a callback needs the evidence
        IF proof IS NULL AND (r.made_by <> session_user OR (sender AND source = 'callback'))
        THEN
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
    IF refused > 0 AND sender AND source = 'callback' THEN
        PERFORM gateway.log('refused', NULL, NULL, env, format(
            'final status %s of %s (callback to the team sender): %s rows, with a control '
            'code the database could not verify with the secret of team callback-secret',
            status, orderid, refused));
    ELSIF refused > 0 THEN
        PERFORM gateway.log('refused', NULL, NULL, env, format(
            'final status %s of %s (%s): %s of another person''s rows, with no callback or '
            'status answer the database could verify (only the team sender''s status answers '
            'count)', status, orderid, source, refused));
    END IF;
END $$;
"""
