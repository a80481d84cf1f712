"""Schema version 6 of the team database: the team's gateways, their approval policies, and
rejections that are not undone by asking again.

* ``gateway.gateways``: each gateway the team sends to, registered by an admin (a name, its
  base URL, the merchant login, its endpoint or group id) with its approval policy. Its
  identity is the base URL normalised by the database (``gateway.url_identity``: the same
  spelling as :func:`console.core.gateway_identity.normalised_url` for an ASCII address) and
  the login. A request goes to a registered gateway when its URL, normalised, lies under the
  base URL and it is signed for the login; any endpoint there is the same gateway.
* Every journal row is checked against its URL, whatever its environment is called: its
  ``gateway`` column must be the identity of its ``url`` (normalised here, not taken from the
  console) and a login; a row for a gateway that is not registered and not on this computer
  (loopback) is refused; a payout the policy of the gateway holds back is refused unless a
  submission claimed for it covers it. Where several registered gateways match (one base URL
  and login, several endpoints), the strictest policy applies. A URL the database cannot read
  (a host not in ASCII: the console writes the ``xn--`` form) is refused.
* Policies were kept per environment name before: that table (``gateway.policies``) is
  kept as it was, a record that nothing decides by any more but ``gateway_add``: a gateway
  registered under the name of such an environment takes its policy. The old question
  ``gateway.needs_approval(env, ...)`` stays, for code written against it, but refuses to
  answer (a name says nothing of the gateway): ``gateway.needs_approval_at`` answers. Every
  other gateway starts with ``all`` (every payout held) until an admin sets its policy. Until
  a gateway is registered, nothing goes to it: nothing held before is let through unheld.
* Every submission names the identity of the address it goes to, and a row it covers must
  go there; submissions pending or approved at the upgrade name none: they expire.
* A submission with the request hash or a client_orderid of a rejected one is refused unless
  the maker says ``after_rejection`` (audited, and shown to the checkers with who rejected
  the earlier one, when and why).
"""

from __future__ import annotations

V6 = r"""
DROP FUNCTION gateway.set_policy(text, text, jsonb, interval);

-- The spelling of an http(s) address the guard compares (console.core.gateway_identity):
-- NULL for anything it cannot read (then no row is written for it).
CREATE FUNCTION gateway.url_unquote(t text) RETURNS text
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE raw bytea := ''::bytea; i integer := 1; c text;
BEGIN
    IF position('%' IN t) = 0 THEN RETURN t; END IF;
    WHILE i <= length(t) LOOP
        c := substr(t, i, 1);
        IF c = '%' AND substr(t, i + 1, 2) ~ '^[0-9A-Fa-f]{2}$' THEN
            raw := raw || decode(substr(t, i + 1, 2), 'hex');
            i := i + 3;
        ELSE
            raw := raw || convert_to(c, 'UTF8');
            i := i + 1;
        END IF;
    END LOOP;
    RETURN convert_from(raw, 'UTF8');
EXCEPTION WHEN others THEN
    RETURN NULL;  -- not UTF-8
END $$;

CREATE FUNCTION gateway.is_loopback_host(host text) RETURNS boolean
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE m text[];
BEGIN
    IF host = 'localhost' THEN RETURN true; END IF;
    m := regexp_match(host, '^127\.([0-9]{1,3})\.([0-9]{1,3})\.([0-9]{1,3})$');
    IF m IS NOT NULL THEN
        RETURN m[1]::int <= 255 AND m[2]::int <= 255 AND m[3]::int <= 255;
    END IF;
    IF position(':' IN host) > 0 THEN
        RETURN host::inet = '::1'::inet;
    END IF;
    RETURN false;
EXCEPTION WHEN others THEN
    RETURN false;
END $$;

CREATE FUNCTION gateway.url_identity(url text) RETURNS text
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE m text[]; scheme text; authority text; path text; host text; port integer;
        seg text; kept text[] := '{}';
BEGIN
    m := regexp_match(btrim(url), '^([A-Za-z][A-Za-z0-9+.-]*)://([^/?#]*)([^?#]*)');
    IF m IS NULL THEN RETURN NULL; END IF;
    scheme := lower(m[1]);
    IF scheme NOT IN ('http', 'https') THEN RETURN NULL; END IF;
    authority := regexp_replace(m[2], '^.*@', '');
    path := gateway.url_unquote(m[3]);
    IF path IS NULL THEN RETURN NULL; END IF;
    IF left(authority, 1) = '[' THEN
        m := regexp_match(authority, '^\[([0-9A-Fa-f:.]+)\](?::([0-9]{0,5}))?$');
    ELSE
        m := regexp_match(authority, '^([A-Za-z0-9._-]+)(?::([0-9]{0,5}))?$');
    END IF;
    IF m IS NULL THEN RETURN NULL; END IF;  -- not ASCII, or not a host name
    host := rtrim(lower(m[1]), '.');
    IF host = '' THEN RETURN NULL; END IF;
    port := coalesce(nullif(m[2], '')::integer,
                     CASE scheme WHEN 'https' THEN 443 ELSE 80 END);
    IF port > 65535 THEN RETURN NULL; END IF;
    FOREACH seg IN ARRAY string_to_array(path, '/') LOOP
        IF seg = '' OR seg = '.' THEN
            CONTINUE;
        ELSIF seg = '..' THEN
            kept := kept[1:cardinality(kept) - 1];
        ELSE
            kept := kept || seg;
        END IF;
    END LOOP;
    path := '/' || array_to_string(kept, '/');
    IF gateway.is_loopback_host(host) THEN
        RETURN scheme || '://localhost' || path;
    END IF;
    IF position(':' IN host) > 0 THEN
        host := '[' || host || ']';
    END IF;
    RETURN scheme || '://' || host || ':' || port || path;
END $$;

CREATE TABLE gateway.gateways (
    name text COLLATE "C" PRIMARY KEY CHECK (btrim(name) <> '' AND name = btrim(name)),
    base_url text NOT NULL,
    login text COLLATE "C" NOT NULL CHECK (btrim(login) <> '' AND login = btrim(login)),
    endpoint_id text,
    group_id text,
    prefix text COLLATE "C" NOT NULL,   -- gateway.url_identity(base_url)
    mode text NOT NULL DEFAULT 'all' CHECK (mode IN ('none', 'all', 'above')),
    thresholds jsonb NOT NULL DEFAULT '{}',
    expiry interval NOT NULL DEFAULT interval '24 hours',
    registered_by text NOT NULL DEFAULT session_user,
    registered_at timestamptz NOT NULL DEFAULT now(),
    updated_by text NOT NULL DEFAULT session_user,
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT endpoint_or_group CHECK ((endpoint_id IS NULL) <> (group_id IS NULL))
);
CREATE UNIQUE INDEX ix_gateways_identity ON gateway.gateways(prefix, login,
    coalesce(endpoint_id, ''), coalesce(group_id, ''));

-- Whether a request to the normalised URL ``ident`` signed for ``who`` goes to ``g``.
CREATE FUNCTION gateway.reaches(g gateway.gateways, ident text, who text) RETURNS boolean
LANGUAGE sql IMMUTABLE AS $$
    SELECT ident IS NOT NULL AND g.login = btrim(who)
       AND (ident = g.prefix OR starts_with(ident, rtrim(g.prefix, '/') || '/'))
$$;

-- The registered gateway a request to ``url`` signed for ``who`` goes to (all columns NULL:
-- none); of several, the one whose endpoint or group the URL names.
CREATE FUNCTION gateway.gateway_at(url text, who text) RETURNS gateway.gateways
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = gateway, pg_temp AS $$
    SELECT g.* FROM gateway.gateways g, gateway.url_identity(url) AS ident
    WHERE gateway.reaches(g, ident, who)
    ORDER BY right(ident, length(coalesce(g.endpoint_id, 'group/' || g.group_id)) + 1)
             = '/' || coalesce(g.endpoint_id, 'group/' || g.group_id) DESC,
             length(g.prefix) DESC, g.name
    LIMIT 1
$$;

CREATE FUNCTION gateway.policy_holds(how text, limits jsonb, cmd text, amt text, cur text)
RETURNS boolean LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE limit_text text;
BEGIN
    IF cmd NOT IN ('payout-check', 'create-recurring-payment') OR how = 'none' THEN
        RETURN false;
    ELSIF how = 'all' THEN
        RETURN true;
    END IF;
    limit_text := limits ->> upper(coalesce(cur, ''));
    IF limit_text IS NULL OR amt IS NULL OR amt !~ '^\s*[0-9]+(\.[0-9]+)?\s*$' THEN
        RETURN true;  -- a currency without a threshold, or an amount not a number: ask
    END IF;
    RETURN amt::numeric > limit_text::numeric;
END $$;

-- Whether the policy of the gateway a request goes to holds it back (the strictest, where
-- several registered gateways match).
CREATE FUNCTION gateway.needs_approval_at(url text, who text, cmd text, amt text, cur text)
RETURNS boolean LANGUAGE sql STABLE SECURITY DEFINER SET search_path = gateway, pg_temp AS $$
    SELECT EXISTS (SELECT 1 FROM gateway.gateways g
                   WHERE gateway.reaches(g, gateway.url_identity(url), who)
                     AND gateway.policy_holds(g.mode, g.thresholds, cmd, amt, cur))
$$;

-- A policy by environment name would let the same gateway out under another name: asked,
-- the old function says so instead of answering (an error, so nothing goes on from it).
CREATE OR REPLACE FUNCTION gateway.needs_approval(env text, cmd text, amt text, cur text)
RETURNS boolean LANGUAGE plpgsql STABLE AS $$
BEGIN
    RAISE EXCEPTION 'approval policies belong to registered gateways since schema 6, not to '
        'environment names (%): ask gateway.needs_approval_at(url, login, ...)', env
        USING ERRCODE = 'feature_not_supported';
END $$;

-- Admin steps answer "ok" or "refused: ..." (an error would roll back the audit entry).
CREATE FUNCTION gateway.gateway_add(gname text, base text, who text, endpoint text,
                                    grp text) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = gateway, pg_temp AS $$
DECLARE ident text := gateway.url_identity(base); old gateway.policies;
        taken text;
BEGIN
    IF NOT pg_has_role(session_user, 'gateway_admin', 'MEMBER') THEN
        PERFORM gateway.log('refused', NULL, NULL, gname, 'gateway add: not an admin');
        RETURN 'refused: only an admin may register a gateway';
    ELSIF ident IS NULL THEN
        RETURN format('refused: %s is not an http(s) address the database can read (write '
                      'an internationalised host in its xn-- form)', base);
    ELSIF EXISTS (SELECT 1 FROM gateway.gateways WHERE name = gname) THEN
        RETURN format('refused: a gateway named %s is registered already', gname);
    END IF;
    SELECT name INTO taken FROM gateway.gateways g WHERE g.prefix = ident AND g.login = who
        AND g.endpoint_id IS NOT DISTINCT FROM endpoint AND g.group_id IS NOT DISTINCT FROM grp;
    IF taken IS NOT NULL THEN
        RETURN format('refused: this gateway is registered already, as %s', taken);
    END IF;
    SELECT * INTO old FROM gateway.policies WHERE environment = gname;
    INSERT INTO gateway.gateways (name, base_url, login, endpoint_id, group_id, prefix, mode,
        thresholds, expiry)
    VALUES (gname, base, who, endpoint, grp, ident, coalesce(old.mode, 'all'),
        coalesce(old.thresholds, '{}'), coalesce(old.expiry, interval '24 hours'));
    PERFORM gateway.log('gateway', NULL, NULL, gname, format(
        'registered %s as %s for %s (%s); policy %s %s%s', base, ident, who,
        coalesce('endpoint ' || endpoint, 'group ' || grp), coalesce(old.mode, 'all'),
        coalesce(old.thresholds, '{}'),
        CASE WHEN old.mode IS NULL THEN '' ELSE ', taken from the environment''s policy' END));
    RETURN 'ok';
END $$;

CREATE FUNCTION gateway.set_policy(gname text, how text, limits jsonb, lifetime interval)
RETURNS text LANGUAGE plpgsql SECURITY DEFINER SET search_path = gateway, pg_temp AS $$
BEGIN
    IF NOT pg_has_role(session_user, 'gateway_admin', 'MEMBER') THEN
        PERFORM gateway.log('refused', NULL, NULL, gname, 'policy: not an admin');
        RETURN 'refused: only an admin may change the approval policy';
    END IF;
    UPDATE gateway.gateways SET mode = how, thresholds = limits, expiry = lifetime,
        updated_by = session_user, updated_at = now() WHERE name = gname;
    IF NOT FOUND THEN
        RETURN format('refused: no gateway is registered as %s (team gateway add)', gname);
    END IF;
    PERFORM gateway.log('policy', NULL, NULL, gname,
        format('%s %s, pending submissions expire after %s', how, limits, lifetime));
    RETURN 'ok';
END $$;

-- Submissions name their gateway, and the rejection they come after.
ALTER TABLE gateway.submissions ADD COLUMN gateway text COLLATE "C",
    ADD COLUMN gateway_name text, ADD COLUMN after_rejection_of bigint
        REFERENCES gateway.submissions(id);
-- Submissions from before name no gateway, so no row could carry them: they expire, and
-- are submitted again (then to a registered gateway).
UPDATE gateway.submissions SET state = 'expired',
    reason = 'the team database was upgraded (schema 6) before it was sent: submit it again'
    WHERE state IN ('pending', 'approved');
CREATE INDEX ix_submissions_rejected ON gateway.submissions(content_hash)
    WHERE state = 'rejected';
CREATE INDEX ix_submissions_rejected_order ON gateway.submissions(client_orderid)
    WHERE state = 'rejected';

-- The newest rejected submission of the same request: its hash, or one of its order ids
-- (a batch's rows included); NULL when there is none.
CREATE FUNCTION gateway.rejected_before(digest text, cmd text, orderids text[])
RETURNS bigint LANGUAGE sql STABLE SECURITY DEFINER SET search_path = gateway, pg_temp AS $$
    SELECT s.id FROM gateway.submissions s
    WHERE s.state = 'rejected' AND (s.content_hash = digest OR (s.command = cmd AND (
        (s.order_ids IS NULL AND s.client_orderid = ANY (orderids))
        OR s.order_ids && orderids)))
    ORDER BY s.decided_at DESC, s.id DESC LIMIT 1
$$;

-- Where a submission goes: the identity of its URL and login, and the registered gateway
-- (refused: a URL it cannot read, or a gateway not registered and not on this computer).
CREATE FUNCTION gateway.submission_target(url text, who text, OUT ident text,
                                          OUT gname text)
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = gateway, pg_temp AS $$
DECLARE normal text := gateway.url_identity(url);
BEGIN
    IF normal IS NULL THEN
        RAISE EXCEPTION 'the address % is not one the team database can read (a submission '
            'names the address it goes to)', coalesce(url, '(none)')
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    ident := normal || ' ' || btrim(who);
    gname := (gateway.gateway_at(url, who)).name;
    IF gname IS NULL AND NOT starts_with(normal, split_part(normal, '://', 1)
                                         || '://localhost/') THEN
        RAISE EXCEPTION 'the team has not registered the gateway % for %', normal, who
            USING ERRCODE = 'insufficient_privilege';
    END IF;
END $$;

-- A request rejected before (its hash, or one of its order ids): refused unless the maker
-- said to submit it again (acknowledged); then the earlier submission and the words the
-- audit entry adds. One rule for every way a request is submitted.
CREATE FUNCTION gateway.after_rejection(digest text, cmd text, orderids text[],
                                        acknowledged boolean, OUT earlier bigint,
                                        OUT again text)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = gateway, pg_temp AS $$
DECLARE r gateway.submissions;
BEGIN
    again := '';
    earlier := gateway.rejected_before(digest, cmd, orderids);
    IF earlier IS NULL THEN
        RETURN;
    END IF;
    SELECT * INTO r FROM gateway.submissions WHERE id = earlier;
    IF NOT acknowledged THEN
        RAISE EXCEPTION 'the same request was rejected before: #% by % at %: %; submit it '
            'again only after that rejection (after_rejection)', r.id, r.decided_by,
            r.decided_at, coalesce(r.reason, 'no reason') USING ERRCODE = 'insufficient_privilege';
    END IF;
    again := format(' after the rejection of #%s by %s: %s', r.id, r.decided_by,
                    coalesce(r.reason, 'no reason'));
END $$;

DROP FUNCTION gateway.submit(text, text, text, text, text, text, text, text, jsonb, boolean);
CREATE FUNCTION gateway.submit(env text, cmd text, orderid text, amt text, cur text,
                               rcv text, digest text, shown text, fields jsonb, card boolean,
                               url text, who text, after_rejection boolean DEFAULT false)
RETURNS bigint LANGUAGE plpgsql SECURITY DEFINER SET search_path = gateway, pg_temp AS $$
DECLARE new_id bigint; lifetime interval; target record; earlier bigint;
        again text := '';
BEGIN
    IF NOT pg_has_role(session_user, 'gateway_maker', 'MEMBER') THEN
        PERFORM gateway.log('refused', NULL, NULL, env, 'submit: not a maker');
        RETURN NULL;
    END IF;
    target := gateway.submission_target(url, who);
    SELECT * INTO earlier, again
        FROM gateway.after_rejection(digest, cmd, ARRAY[orderid], after_rejection);
    SELECT expiry INTO lifetime FROM gateway.gateways WHERE name = target.gname;
    INSERT INTO gateway.submissions (environment, command, client_orderid, amount, currency,
        receiver, content_hash, request_json, params, card_data, maker, expires, gateway,
        gateway_name, after_rejection_of)
    VALUES (env, cmd, orderid, amt, cur, rcv, digest, shown, fields, card, session_user,
        now() + coalesce(lifetime, interval '24 hours'), target.ident, target.gname, earlier)
    RETURNING id INTO new_id;
    PERFORM gateway.log('submit', new_id, NULL, env,
        format('%s %s %s %s%s', cmd, orderid, coalesce(amt, ''), coalesce(cur, ''), again));
    RETURN new_id;
END $$;

DROP FUNCTION gateway.submit_batch(text, text, text, text, jsonb, boolean, text);
CREATE FUNCTION gateway.submit_batch(env text, cmd text, digest text, shown text,
                                     approved_rows jsonb, card boolean, source text,
                                     url text, who text,
                                     after_rejection boolean DEFAULT false)
RETURNS bigint LANGUAGE plpgsql SECURITY DEFINER SET search_path = gateway, pg_temp AS $$
DECLARE new_id bigint; lifetime interval; orderids text[]; target record; earlier bigint;
        again text := '';
BEGIN
    IF NOT pg_has_role(session_user, 'gateway_maker', 'MEMBER') THEN
        PERFORM gateway.log('refused', NULL, NULL, env, 'submit batch: not a maker');
        RETURN NULL;
    END IF;
    target := gateway.submission_target(url, who);
    SELECT array_agg(x ->> 'client_orderid' ORDER BY n) INTO orderids
        FROM jsonb_array_elements(approved_rows) WITH ORDINALITY AS t(x, n);
    SELECT * INTO earlier, again
        FROM gateway.after_rejection(digest, cmd, orderids, after_rejection);
    SELECT expiry INTO lifetime FROM gateway.gateways WHERE name = target.gname;
    INSERT INTO gateway.submissions (environment, command, client_orderid, receiver,
        content_hash, request_json, card_data, maker, expires, order_ids, batch_rows,
        gateway, gateway_name, after_rejection_of)
    VALUES (env, cmd, source, format('batch of %s rows', cardinality(orderids)), digest,
        shown, card, session_user, now() + coalesce(lifetime, interval '24 hours'), orderids,
        cardinality(orderids), target.ident, target.gname, earlier)
    RETURNING id INTO new_id;
    INSERT INTO gateway.submission_rows (submission_id, client_orderid, amount, currency,
        receiver, content_hash)
    SELECT new_id, x ->> 'client_orderid', x ->> 'amount', x ->> 'currency',
        x ->> 'receiver', x ->> 'content_hash' FROM jsonb_array_elements(approved_rows) x;
    PERFORM gateway.log('submit', new_id, NULL, env,
        format('batch %s: %s rows%s', source, cardinality(orderids), again));
    RETURN new_id;
END $$;

CREATE OR REPLACE FUNCTION gateway.before_request() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = gateway, pg_temp AS $$
DECLARE s gateway.submissions; want gateway.submission_rows; differs text[];
        ident text := gateway.url_identity(NEW.url); who text; g gateway.gateways;
BEGIN
    NEW.made_by := session_user;
    NEW.writer_backend := pg_backend_pid();
    NEW.writer_started := gateway.backend_start();
    NEW.approved_by := NULL;
    -- The gateway is the one its URL reaches, whatever the row's environment is called.
    IF ident IS NULL THEN
        RAISE EXCEPTION 'the address % is not one the team database can read (an '
            'internationalised host is written in its xn-- form)', NEW.url
            USING ERRCODE = 'insufficient_privilege';
    ELSIF NEW.gateway IS NULL OR NOT starts_with(NEW.gateway, ident || ' ')
          OR btrim(substr(NEW.gateway, length(ident) + 2)) = '' THEN
        RAISE EXCEPTION 'the row''s gateway % is not the one its address % reaches',
            coalesce(NEW.gateway, '(none)'), NEW.url USING ERRCODE = 'insufficient_privilege';
    END IF;
    who := substr(NEW.gateway, length(ident) + 2);
    g := gateway.gateway_at(NEW.url, who);
    IF g.name IS NULL AND NOT starts_with(ident, split_part(ident, '://', 1)
                                          || '://localhost/') THEN
        -- Not an error, which would roll back the audit entry: the row is not written.
        PERFORM gateway.log('refused', NULL, NULL, NEW.environment, format(
            'send to a gateway the team has not registered: %s %s (%s)', NEW.command,
            coalesce(NEW.client_orderid, ''), NEW.gateway));
        RAISE WARNING 'the team has not registered the gateway %', NEW.gateway;
        RETURN NULL;
    END IF;
    IF NEW.submission_id IS NOT NULL THEN
        SELECT * INTO s FROM gateway.submissions WHERE id = NEW.submission_id FOR UPDATE;
        IF s.state <> 'sending' OR s.sender <> session_user
           OR s.environment <> NEW.environment OR s.command <> NEW.command
           OR s.gateway IS DISTINCT FROM NEW.gateway
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
    ELSIF gateway.needs_approval_at(NEW.url, who, NEW.command, NEW.amount, NEW.currency) THEN
        PERFORM gateway.log('refused', NULL, NULL, NEW.environment, format(
            'send without approval: %s (the policy of %s)', coalesce(NEW.client_orderid, ''),
            g.name));
        RAISE WARNING 'the approval policy of % holds this % back: submit it for approval',
            g.name, NEW.command;
        RETURN NULL;
    END IF;
    RETURN NEW;
END $$;

REVOKE ALL ON gateway.gateways FROM PUBLIC;
GRANT SELECT ON gateway.gateways TO gateway_maker, gateway_checker, gateway_admin;
REVOKE ALL ON FUNCTION gateway.url_unquote(text), gateway.is_loopback_host(text),
    gateway.url_identity(text), gateway.reaches(gateway.gateways, text, text),
    gateway.gateway_at(text, text), gateway.policy_holds(text, jsonb, text, text, text),
    gateway.needs_approval_at(text, text, text, text, text),
    gateway.gateway_add(text, text, text, text, text),
    gateway.set_policy(text, text, jsonb, interval),
    gateway.rejected_before(text, text, text[]), gateway.submission_target(text, text),
    gateway.after_rejection(text, text, text[], boolean),
    gateway.submit(text, text, text, text, text, text, text, text, jsonb, boolean, text, text,
        boolean),
    gateway.submit_batch(text, text, text, text, jsonb, boolean, text, text, text, boolean)
    FROM PUBLIC;
GRANT EXECUTE ON FUNCTION gateway.url_unquote(text), gateway.is_loopback_host(text),
    gateway.url_identity(text), gateway.reaches(gateway.gateways, text, text),
    gateway.gateway_at(text, text), gateway.policy_holds(text, jsonb, text, text, text),
    gateway.needs_approval_at(text, text, text, text, text),
    gateway.rejected_before(text, text, text[]),
    gateway.gateway_add(text, text, text, text, text),
    gateway.set_policy(text, text, jsonb, interval),
    gateway.submit(text, text, text, text, text, text, text, text, jsonb, boolean, text, text,
        boolean),
    gateway.submit_batch(text, text, text, text, jsonb, boolean, text, text, text, boolean)
    TO gateway_maker, gateway_checker, gateway_admin;

SELECT gateway.log('upgrade', NULL, NULL, NULL, 'schema 6: the team''s gateways are '
    'registered with their approval policies; rows to a gateway not registered (and not on '
    'this computer) are refused; a rejected request is submitted again only after saying so');
"""
