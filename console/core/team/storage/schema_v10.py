"""Schema version 10 of the team database: a claim names the content it sends.

Until now ``gateway.claim(submission, NULL)`` took an approved submission for sending: the
check ``content_hash <> digest`` is never true for NULL, so any maker or checker could move
someone's approved submission to "sending" from psql without knowing what was approved. No
money moved (the journal's row is still checked against the approved hash), but the rightful
send was refused while that session lived. From schema 10 a claim without a content hash is
refused and audited, and the submission stays approved; a claim with another content hash
voids the approval, as before.

It replaces schema 8's ``gateway.claim`` whole (the sender's session recorded with the claim).
"""

from __future__ import annotations

V10 = r"""
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
    ELSIF digest IS NULL OR s.content_hash IS NULL THEN
        PERFORM gateway.log('refused', s.id, NULL, s.environment,
            'send: no request hash given; the submission stays approved');
        RETURN 'refused: a claim names the request hash it sends';
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
"""
