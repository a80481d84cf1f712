// Requests signed by Node's oauth-1.0a (RSA-SHA256 through a hash_function that calls
// crypto.sign), correct ones and ones with the mistakes integrators make with it.
// Argument: a JSON object {base, endpoint, group, login, now, key, other_key}.
// Output: one JSON object a line {name, expect, method, url, authorization, content_type,
// body (base64)}.
'use strict';

const crypto = require('crypto');
const fs = require('fs');
const querystring = require('querystring');
const OAuth = require('oauth-1.0a');

const cfg = JSON.parse(process.argv[2]);
const key = fs.readFileSync(cfg.key, 'utf8');
const url = `${cfg.base}/api/v4/payout-check/${cfg.endpoint}`;
const FORM = 'application/x-www-form-urlencoded';

function fields(order, extra = {}) {
  return {
    client_orderid: order,
    amount: '10.50',
    currency: 'EUR',
    order_desc: 'Refund (partial) for you ~ a/b',
    credit_card_number: '4444444444444448',
    card_printed_name: 'JOHN SMITH',
    expire_month: '12',
    expire_year: '2030',
    cvv2: '123',
    ...extra,
  };
}

function rsa(hash = 'sha256', encoding = 'base64', options = {}) {
  return (base) => crypto.sign(hash, Buffer.from(base), { key, ...options }).toString(encoding);
}

function client(options = {}) {
  const oauth = OAuth({
    consumer: { key: cfg.login, secret: 'secret' },
    signature_method: 'RSA-SHA256',
    hash_function: rsa(),
    ...options,
  });
  oauth.getTimeStamp = () => cfg.now;
  return oauth;
}

function emit(name, expect, method, sentUrl, authorization, body, contentType = FORM) {
  const line = {
    name,
    expect,
    method,
    url: sentUrl,
    authorization,
    content_type: contentType,
    body: Buffer.from(body).toString('base64'),
  };
  process.stdout.write(JSON.stringify(line) + '\n');
}

// Sign {url, data} with oauth and send the form body (querystring, as most code does).
function post(name, expect, oauth, { signUrl = url, sendUrl = url, data, body, token } = {}) {
  const request = { url: signUrl, method: 'POST' };
  if (data !== undefined) request.data = data;
  const header = oauth.toHeader(oauth.authorize(request, token)).Authorization;
  emit(name, expect, 'POST', sendUrl, header, body);
}

const u = new URL(url);
const otherScheme = u.protocol === 'https:' ? 'http:' : 'https:';
const noPort = `${u.protocol}//${u.hostname}${u.pathname}`;
const defaultPort = `${u.protocol}//${u.hostname}:${u.protocol === 'https:' ? 443 : 80}${u.pathname}`;
const upper = /[a-z]/.test(u.hostname) ? u.hostname.toUpperCase() : 'LocalHost';
const upperUrl = `${u.protocol}//${upper}${u.port ? ':' + u.port : ''}${u.pathname}`;

let f = fields('nd-ok');
post('ok', [], client(), { data: f, body: querystring.stringify(f) });
f = fields('nd-query');
post('ok-query', [], client(), {
  signUrl: url + '?lang=en', sendUrl: url + '?lang=en', data: f, body: querystring.stringify(f),
});
f = fields('nd-realm');
post('ok-realm', [], client({ realm: 'gateway' }), {
  data: f, body: new URLSearchParams(f).toString(),
});

// the README's example: HMAC-SHA1 with a consumer secret
f = fields('nd-hmac');
post('hmac', ['hmac-sha1'], client({
  signature_method: 'HMAC-SHA1',
  hash_function: (base, k) => crypto.createHmac('sha1', k).update(base).digest('base64'),
}), { data: f, body: querystring.stringify(f) });

// no signature_method: oauth-1.0a's default PLAINTEXT
f = fields('nd-plain');
post('plaintext', ['signature-method'], client({ signature_method: undefined, hash_function: undefined }),
  { data: f, body: querystring.stringify(f) });

// the fields sent but not given as data
f = fields('nd-nodata');
post('no-data', ['body-not-signed'], client(), { body: querystring.stringify(f) });

// includeBodyHash: oauth_body_hash signed instead of the fields
f = fields('nd-bodyhash');
{
  const oauth = client({
    body_hash_function: (data) => crypto.createHash('sha1').update(data).digest('base64'),
  });
  const request = { url, method: 'POST', data: f, includeBodyHash: true };
  const header = oauth.toHeader(oauth.authorize(request)).Authorization;
  emit('body-hash', ['oauth-body-hash', 'body-not-signed'], 'POST', url, header, querystring.stringify(f));
}

// a field sent twice; the data object keeps one
f = fields('nd-dup', { merchant_data: 'second' });
post('duplicate', ['duplicate-kept-once'], client(), {
  data: f, body: querystring.stringify(f).replace('merchant_data=second', 'merchant_data=first&merchant_data=second'),
});

// a + in the URL's query: oauth-1.0a decodes it with decodeURIComponent (a plus stays a plus)
f = fields('nd-plus');
post('plus-query', ['plus-literal'], client(), {
  signUrl: url + '?note=1+1', sendUrl: url + '?note=1+1', data: f, body: querystring.stringify(f),
});

// an empty token given: oauth_token="" signed and sent
f = fields('nd-token');
post('token', ['oauth-token-empty'], client(), { data: f, body: querystring.stringify(f), token: { key: '' } });

// signed for the other scheme
f = fields('nd-scheme');
post('scheme', ['scheme-differs'], client(), {
  signUrl: url.replace(u.protocol, otherScheme), data: f, body: querystring.stringify(f),
});

// the default port written in the signed URL, not in the one sent
f = fields('nd-port');
post('default-port', ['default-port-kept'], client(), {
  signUrl: defaultPort, sendUrl: noPort, data: f, body: querystring.stringify(f),
});

// the host in capitals, signed as written
f = fields('nd-host');
post('host-case', ['host-case'], client(), {
  signUrl: upperUrl, sendUrl: upperUrl, data: f, body: querystring.stringify(f),
});

// base64url, without padding
f = fields('nd-b64url');
post('base64url', ['signature-base64url'], client({ hash_function: rsa('sha256', 'base64url') }),
  { data: f, body: querystring.stringify(f) });

// SHA-1 under an RSA-SHA256 header
f = fields('nd-sha1');
post('sha1', ['sha1-instead-of-sha256'], client({ hash_function: rsa('sha1') }),
  { data: f, body: querystring.stringify(f) });

// PSS padding
f = fields('nd-pss');
post('pss', ['pss-padding'], client({
  hash_function: rsa('sha256', 'base64', { padding: crypto.constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 }),
}), { data: f, body: querystring.stringify(f) });

// Date.now() as the timestamp: milliseconds
f = fields('nd-millis');
{
  const oauth = client();
  oauth.getTimeStamp = () => cfg.now * 1000;
  post('millis', ['timestamp-millis'], oauth, { data: f, body: querystring.stringify(f) });
}

// the fields signed as data, the body sent as JSON (axios' default for an object)
f = fields('nd-json');
{
  const oauth = client();
  const header = oauth.toHeader(oauth.authorize({ url, method: 'POST', data: f })).Authorization;
  emit('json', ['json-body-form-signed'], 'POST', url, header, JSON.stringify(f), 'application/json');
}

// percentEncode "fixed" with encodeURIComponent: ! ' ( ) * stay as they are
f = fields('nd-encode');
{
  const oauth = client();
  oauth.percentEncode = encodeURIComponent;
  post('encodeuricomponent', ['js-encodeuricomponent'], oauth, { data: f, body: querystring.stringify(f) });
}

// percentEncode by URLSearchParams: a space as +, ~ as %7E, * kept
f = fields('nd-usp', { order_desc: 'Refund *partial* for you ~ a/b' });
{
  const oauth = client();
  oauth.percentEncode = (s) => new URLSearchParams([['', String(s)]]).toString().slice(1);
  post('urlsearchparams', ['plus-for-space', 'tilde-encoded', 'star-not-encoded'], oauth,
    { data: f, body: querystring.stringify(f) });
}
