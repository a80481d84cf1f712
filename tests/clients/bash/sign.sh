#!/usr/bin/env bash
# Requests signed the way shell scripts sign them: printf, sort, openssl dgst -sign, base64,
# then a curl line. Correct ones, and ones with the mistakes shell code makes.
# Argument: a JSON object {base, endpoint, group, login, now, key, other_key}.
# Output: one JSON object a line {name, expect, method, url, authorization, content_type,
# body (base64)}.
set -euo pipefail
export LC_ALL=C

cfg=$1
base=$(jq -r .base <<<"$cfg")
endpoint=$(jq -r .endpoint <<<"$cfg")
login=$(jq -r .login <<<"$cfg")
now=$(jq -r .now <<<"$cfg")
key=$(jq -r .key <<<"$cfg")
url="$base/api/v4/payout-check/$endpoint"

# RFC 3986 percent-encoding, byte by byte ($1: the text; $2: printf format of an escape)
enc() {
    local text=$1 format=${2:-%%%02X} out="" c i
    for ((i = 0; i < ${#text}; i++)); do
        c=${text:i:1}
        case $c in
            [A-Za-z0-9._~-]) out+=$c ;;
            *) out+=$(printf "$format" "'$c") ;;
        esac
    done
    printf '%s' "$out"
}
enc_lower() { enc "$1" '%%%02x'; }

fields() {  # $1: the order id; one name=value a line, values decoded
    printf '%s\n' "client_orderid=$1" "amount=10.50" "currency=EUR" \
        "order_desc=Refund (partial) for you ~ a/b" "credit_card_number=4444444444444448" \
        "card_printed_name=JOHN SMITH" "expire_month=12" "expire_year=2030" "cvv2=123"
}

oauth() {
    printf '%s\n' "oauth_consumer_key=$login" "oauth_nonce=$(openssl rand -hex 12)" \
        "oauth_signature_method=RSA-SHA256" "oauth_timestamp=$now" "oauth_version=1.0"
}

# The encoded pairs of name=value lines on stdin ($1: the encoder)
encode_lines() {
    local encoder=${1:-enc} name value
    while IFS= read -r line; do
        name=${line%%=*}
        value=${line#*=}
        printf '%s=%s\n' "$($encoder "$name")" "$($encoder "$value")"
    done
}

join() { paste -sd '&' -; }

sign() {  # $1: base string; $2: openssl digest; prints base64
    printf '%s' "$1" | openssl dgst "-${2:-sha256}" -sign "$key" | base64 -w0
}

emit() {  # name, expect (JSON array), url, authorization, body
    jq -cn --arg name "$1" --argjson expect "$2" --arg url "$3" --arg auth "$4" \
        --arg body "$(printf '%s' "$5" | base64 -w0)" \
        '{name: $name, expect: $expect, method: "POST", url: $url, authorization: $auth,
          content_type: "application/x-www-form-urlencoded", body: $body}'
}

header() {  # oauth lines file, signature text
    local parts=() name value
    while IFS= read -r line; do
        name=${line%%=*}
        value=${line#*=}
        parts+=("$name=\"$(enc "$value")\"")
    done <"$1"
    parts+=("oauth_signature=\"$2\"")
    local IFS=,
    printf 'OAuth %s' "${parts[*]}" | sed 's/,/, /g'
}

# One request. Variables that make a mistake: SORT (a sort command), ENCODER, SIGN_URL,
# SEND_URL, SIGNED_FIELDS (lines), BODY, ECHO=1 (echo the base string), HEX=1, RAW_SIG=1.
request() {
    local name=$1 expect=$2 order=$3 work
    work=$(mktemp -d)
    fields "$order" >"$work/fields"
    oauth >"$work/oauth"
    local signed=${SIGNED_FIELDS:-$(cat "$work/fields")}
    local sort=${SORT:-sort -t= -k1,1 -k2,2}
    local params
    params=$({ printf '%s\n' "$signed"; cat "$work/oauth"; } | encode_lines "${ENCODER:-enc}" | $sort | join)
    local outer=${ENCODER:-enc}
    local base_string
    base_string="POST&$($outer "${SIGN_URL:-$url}")&$($outer "$params")"
    local signature
    if [[ ${ECHO:-} == 1 ]]; then
        signature=$(echo "$base_string" | openssl dgst -sha256 -sign "$key" | base64 -w0)
    elif [[ ${HEX:-} == 1 ]]; then
        signature=$(printf '%s' "$base_string" | openssl dgst -sha256 -sign "$key" | od -An -tx1 | tr -d ' \n')
    else
        signature=$(sign "$base_string")
    fi
    [[ ${RAW_SIG:-} == 1 ]] || signature=$(enc "$signature")
    local body=${BODY-$(encode_lines enc <"$work/fields" | join)}
    emit "$name" "$expect" "${SEND_URL:-${SIGN_URL:-$url}}" "$(header "$work/oauth" "$signature")" "$body"
    rm -rf "$work"
}

request ok '[]' sh-ok
RAW_SIG=1 request ok-raw-signature '[]' sh-raw

# echo adds a line feed to what is signed
ECHO=1 request echo '["base-string-newline"]' sh-echo

# an encoder made of od: lower-case hex
ENCODER=enc_lower request lower-hex '["lowercase-hex"]' sh-lower

# plain sort on the joined lines: amount-from= comes before amount=
SIGNED_FIELDS=$(fields sh-joined; echo "amount-from=5.00") \
    BODY="$( (fields sh-joined; echo "amount-from=5.00") | encode_lines | join)" \
    SORT=sort request sorted-joined '["sorted-as-joined"]' sh-joined

# a stable sort on the name only: a repeated name's values stay in body order
rep=$(fields sh-rep; echo "merchant_data=zeta"; echo "merchant_data=alpha")
SIGNED_FIELDS=$rep BODY="$(encode_lines <<<"$rep" | join)" SORT="sort -t= -k1,1 -s" \
    request repeated-order '["repeated-name-order", "parameter-repeated"]' sh-rep

# the host in capitals, from a variable
upper_url=$(sed -E 's#^([a-z]+://)([^/:]+)#\1\U\2#' <<<"$url")
[[ $upper_url != "$url" ]] || upper_url=$(sed -E 's#^([a-z]+://)[^/:]+#\1LocalHost#' <<<"$url")
SIGN_URL=$upper_url request host-case '["host-case"]' sh-host

# the scheme in capitals
SIGN_URL=$(sed -E 's#^([a-z]+)://#\U\1://#' <<<"$url") request scheme-case '["scheme-case"]' sh-scheme

# the port left out of the signed URL
SIGN_URL=$(sed -E 's#^([a-z]+://[^/:]+):[0-9]+#\1#' <<<"$url") SEND_URL=$url \
    request port-left-out '["port-left-out"]' sh-port

# sent with a query the script does not sign
SEND_URL="$url?lang=en" request query-not-signed '["query-not-signed"]' sh-query

# the body written with echo (a final line feed) and sent with --data-binary @file
BODY="$(fields sh-lf | encode_lines | join)"$'\n' request line-feed '["line-feed-not-signed"]' sh-lf

# the signature as hex (od)
HEX=1 request hex '["hex-signature"]' sh-hex

# unquoted $value: word splitting trims the spaces that are sent
padded=$(fields sh-trim | sed 's/^card_printed_name=.*/card_printed_name=  JOHN SMITH  /')
SIGNED_FIELDS=$(fields sh-trim) BODY="$(encode_lines <<<"$padded" | join)" \
    request trimmed '["value-trimmed"]' sh-trim

# the encoded body's values signed (encoded once more)
SIGNED_FIELDS=$(fields sh-double | encode_lines) request double '["body-double-encoded"]' sh-double
