<?php
// Requests signed the way PHP integrations sign them: an array of parameters, ksort,
// rawurlencode, openssl_sign. Correct ones, and ones with the mistakes PHP code makes.
// Argument: a JSON object {base, endpoint, group, login, now, key, other_key}.
// Output: one JSON object a line {name, expect, method, url, authorization, content_type,
// body (base64)}.

$cfg = json_decode($argv[1], true);
$key = openssl_pkey_get_private(file_get_contents($cfg['key']));
$url = $cfg['base'] . '/api/v4/payout-check/' . $cfg['endpoint'];

function fields($order, $extra = []) {
    return array_merge([
        'client_orderid' => $order,
        'amount' => '10.50',
        'currency' => 'EUR',
        'order_desc' => 'Refund (partial) for you ~ a/b',
        'credit_card_number' => '4444444444444448',
        'card_printed_name' => 'JOHN SMITH',
        'expire_month' => '12',
        'expire_year' => '2030',
        'cvv2' => '123',
    ], $extra);
}

function oauth($cfg) {
    return [
        'oauth_consumer_key' => $cfg['login'],
        'oauth_nonce' => bin2hex(random_bytes(12)),
        'oauth_signature_method' => 'RSA-SHA256',
        'oauth_timestamp' => (string) $cfg['now'],
        'oauth_version' => '1.0',
    ];
}

function pairs($params, $encode = 'rawurlencode') {
    $out = [];
    foreach ($params as $k => $v) {
        $out[] = $encode($k) . '=' . $encode($v);
    }
    return implode('&', $out);
}

function header_of($params, $signature, $realm = null) {
    $parts = $realm === null ? [] : ['realm="' . $realm . '"'];
    foreach ($params as $k => $v) {
        $parts[] = rawurlencode($k) . '="' . rawurlencode($v) . '"';
    }
    $parts[] = 'oauth_signature="' . $signature . '"';
    return 'OAuth ' . implode(', ', $parts);
}

function sign_base($base, $key, $algo = OPENSSL_ALGO_SHA256) {
    openssl_sign($base, $raw, $key, $algo);
    return base64_encode($raw);
}

function emit($name, $expect, $url, $auth, $body, $type = 'application/x-www-form-urlencoded') {
    echo json_encode([
        'name' => $name, 'expect' => $expect, 'method' => 'POST', 'url' => $url,
        'authorization' => $auth, 'content_type' => $type, 'body' => base64_encode($body),
    ], JSON_UNESCAPED_SLASHES), "\n";
}

// The usual code, with hooks for each mistake.
function make($cfg, $key, $url, $order, $opts = []) {
    $fields = $opts['fields'] ?? fields($order);
    $oauth = oauth($cfg);
    $params = array_merge($fields, $oauth);
    if (isset($opts['signed_extra'])) {
        $params = array_merge($params, $opts['signed_extra']);
    }
    $sort = $opts['sort'] ?? 'ksort';
    if ($sort === 'ksort') {
        ksort($params, SORT_STRING);
    } elseif ($sort === 'asort') {
        asort($params, SORT_STRING);
    }
    $encode = $opts['encode'] ?? 'rawurlencode';
    $uri = $opts['uri'] ?? $url;
    $paramstr = ($opts['query_build'] ?? false) ? http_build_query($params) : pairs($params, $encode);
    $outer = ($opts['query_build'] ?? false) ? 'rawurlencode' : $encode;
    $base = 'POST&' . $outer($uri) . '&' . $outer($paramstr);
    $signature = rawurlencode(sign_base($base, $key, $opts['algo'] ?? OPENSSL_ALGO_SHA256));
    if ($opts['sig_twice'] ?? false) {
        $signature = rawurlencode($signature);
    }
    $in_header = ($opts['all_in_header'] ?? false) ? array_merge($oauth, $fields) : $oauth;
    $auth = header_of($in_header, $signature, $opts['realm'] ?? null);
    $body = $opts['body'] ?? http_build_query($fields);
    return [$auth, $body];
}

function lower_hex($s) {
    return preg_replace_callback('/%[0-9A-F]{2}/', fn($m) => strtolower($m[0]), rawurlencode($s));
}

$cases = [
    ['ok', [], 'ph-ok', []],
    ['ok-realm', [], 'ph-realm', ['realm' => 'gateway']],
    ['urlencode', ['plus-for-space', 'tilde-encoded'], 'ph-urlenc', ['encode' => 'urlencode']],
    ['http-build-query', ['plus-for-space', 'tilde-encoded'], 'ph-hbq', ['query_build' => true]],
    ['openssl-sha1', ['sha1-instead-of-sha256'], 'ph-sha1', ['algo' => OPENSSL_ALGO_SHA1]],
    ['realm-signed', ['realm-signed'], 'ph-realm-s', ['realm' => 'gateway', 'signed_extra' => ['realm' => 'gateway']]],
    ['asort', ['sorted-by-value'], 'ph-asort', ['sort' => 'asort']],
    ['signature-twice', ['signature-not-url-decoded'], 'ph-sig2', ['sig_twice' => true]],
    ['no-ksort', ['not-sorted'], 'ph-nosort', ['sort' => 'none']],
    ['lower-hex', ['lowercase-hex'], 'ph-lower', ['encode' => 'lower_hex']],
    ['signature-signed', ['oauth-signature-signed'], 'ph-sigsig', ['signed_extra' => ['oauth_signature' => '']]],
    ['fields-in-header', ['body-fields-in-header'], 'ph-header', ['all_in_header' => true]],
    ['urlencode-no-ksort', ['plus-for-space', 'tilde-encoded', 'not-sorted'], 'ph-urlenc-nosort',
        ['encode' => 'urlencode', 'sort' => 'none']],
];
foreach ($cases as [$name, $expect, $order, $opts]) {
    [$auth, $body] = make($cfg, $key, $url, $order, $opts);
    emit($name, $expect, $url, $auth, $body);
}

// login sent and signed as a body field
$f = fields('ph-login', ['login' => $cfg['login']]);
[$auth, $body] = make($cfg, $key, $url, '', ['fields' => $f]);
emit('login-in-body', ['login-in-body'], $url, $auth, $body);

// the base string URI taken with its query string
$q = $url . '?lang=en';
$f = fields('ph-query', ['lang' => 'en']);
[$auth, $body] = make($cfg, $key, $url, '', ['fields' => $f, 'uri' => $q, 'body' => http_build_query(fields('ph-query'))]);
emit('query-in-uri', ['query-in-uri'], $q, $auth, $body);

// the body read from a file with its final line feed: parse_str keeps it in the last value,
// the body sent is trimmed
$file = http_build_query(fields('ph-lf')) . "\n";
parse_str($file, $f);
[$auth, $body] = make($cfg, $key, $url, '', ['fields' => $f, 'body' => rtrim($file)]);
emit('line-feed', ['line-feed-not-sent'], $url, $auth, $body);

// a field sent twice: parse_str keeps the last copy
$file = http_build_query(fields('ph-dup')) . '&merchant_data=first&merchant_data=second';
parse_str($file, $f);
[$auth, $body] = make($cfg, $key, $url, '', ['fields' => $f, 'body' => $file]);
emit('duplicate', ['duplicate-kept-once'], $url, $auth, $body);
