"""Schema version 7 of the team database: the audit trail signed with a key the database
does not hold, in the Certificate Transparency model.

* ``gateway.audit_key``: the public half of the team's audit key (Ed25519, the 32 raw bytes
  in base64) and its fingerprint, set once by an admin (``gateway.set_audit_key``). Its
  private half stays with the team sender (its account's keyring, or a key file only it can
  read). Every console pins the public half on first use
  (:mod:`console.core.team.audit.state`).
* ``gateway.audit_checkpoints``: signed heads of the hash chain (schema 4), like a signed
  tree head: the signature covers an entry's position and hash, and that hash covers every
  entry before it. ``gateway.sign_audit`` stores one only when it names an entry of the chain
  as it stands and is newer than the last; the database cannot check the signature (it has
  no Ed25519), every console does (:mod:`console.core.team.audit.verify`).
* Both tables are append-only for every role, the owner included (the audit trail's
  trigger function); ``gateway.audit(request_id)`` is indexed so that a check can match each
  journal row with its ``send`` entry.

Self-contained: it needs only schema 4's chain. Signing is granted to admins here; a role of
its own for the team sender is granted EXECUTE on ``gateway.sign_audit`` where it is made.
"""

from __future__ import annotations

V7 = r"""
CREATE TABLE gateway.audit_key (only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
    public_key text NOT NULL,
    fingerprint text NOT NULL,
    set_by text NOT NULL DEFAULT session_user,
    set_at timestamptz NOT NULL DEFAULT now());

CREATE TABLE gateway.audit_checkpoints (
    seq bigint PRIMARY KEY,
    hash text NOT NULL,
    signature text NOT NULL,
    signed_by text NOT NULL DEFAULT session_user,
    signed_at timestamptz NOT NULL DEFAULT now());

CREATE TRIGGER audit_key_no_change BEFORE UPDATE OR DELETE ON gateway.audit_key
    FOR EACH ROW EXECUTE FUNCTION gateway.audit_is_append_only();
CREATE TRIGGER audit_key_no_truncate BEFORE TRUNCATE ON gateway.audit_key
    FOR EACH STATEMENT EXECUTE FUNCTION gateway.audit_is_append_only();
CREATE TRIGGER checkpoints_no_change BEFORE UPDATE OR DELETE ON gateway.audit_checkpoints
    FOR EACH ROW EXECUTE FUNCTION gateway.audit_is_append_only();
CREATE TRIGGER checkpoints_no_truncate BEFORE TRUNCATE ON gateway.audit_checkpoints
    FOR EACH STATEMENT EXECUTE FUNCTION gateway.audit_is_append_only();

CREATE INDEX ix_audit_request ON gateway.audit(request_id) WHERE request_id IS NOT NULL;

-- Set once: a console that pinned the key refuses any other, so replacing it would only
-- make every console's check fail.
CREATE FUNCTION gateway.set_audit_key(pub text, fp text) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = gateway, pg_temp AS $$
BEGIN
    IF NOT pg_has_role(session_user, 'gateway_admin', 'MEMBER') THEN
        PERFORM gateway.log('refused', NULL, NULL, NULL, 'audit key: not an admin');
        RETURN 'refused: only an admin may set the audit key';
    ELSIF EXISTS (SELECT 1 FROM gateway.audit_key) THEN
        RETURN 'refused: the team has an audit key already (' ||
            (SELECT fingerprint FROM gateway.audit_key) || '); it is set once';
    ELSIF coalesce(pub, '') !~ '^[A-Za-z0-9+/]{43}=$' THEN
        RETURN 'refused: the public key is not 32 bytes in base64';
    END IF;
    INSERT INTO gateway.audit_key (public_key, fingerprint) VALUES (pub, fp);
    PERFORM gateway.log('audit key', NULL, NULL, NULL,
        'the audit trail is signed with the key ' || fp);
    RETURN 'ok';
END $$;

-- A signed head: only one the chain has at this moment, and only forward. Not an audit
-- entry itself (that entry would be the newest, never signed).
CREATE FUNCTION gateway.sign_audit(at_seq bigint, head_hash text, sig text) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = gateway, pg_temp AS $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM gateway.audit_key) THEN
        RETURN 'refused: the team has no audit key (team audit-key create)';
    ELSIF NOT EXISTS (SELECT 1 FROM gateway.audit WHERE seq = at_seq AND hash = head_hash) THEN
        RETURN format('refused: entry %s of the audit trail does not have that hash', at_seq);
    ELSIF at_seq <= coalesce((SELECT max(seq) FROM gateway.audit_checkpoints), 0) THEN
        RETURN format('refused: entry %s is signed already', at_seq);
    END IF;
    INSERT INTO gateway.audit_checkpoints (seq, hash, signature) VALUES (at_seq, head_hash, sig);
    RETURN 'ok';
END $$;

REVOKE ALL ON gateway.audit_key, gateway.audit_checkpoints FROM PUBLIC;
REVOKE ALL ON FUNCTION gateway.set_audit_key(text, text),
    gateway.sign_audit(bigint, text, text) FROM PUBLIC;
GRANT SELECT ON gateway.audit_key, gateway.audit_checkpoints
    TO gateway_maker, gateway_checker, gateway_admin;
GRANT EXECUTE ON FUNCTION gateway.set_audit_key(text, text)
    TO gateway_maker, gateway_checker, gateway_admin;
GRANT EXECUTE ON FUNCTION gateway.sign_audit(bigint, text, text) TO gateway_admin;

SELECT gateway.log('upgrade', NULL, NULL, NULL, 'schema 7: the audit trail is signed with '
    'a key the database does not hold (team audit-key create)');
"""
