#!/usr/bin/env bash
# kdc-up.sh — throwaway MIT Kerberos KDC on loopback for SPNEGO/Negotiate tests of svc-api
# (test/support/kdc.ts runs it; adapted from the feasibility spike's recipe).
#
# Usage:  scripts/kdc/kdc-up.sh DIR
#   DIR   working directory; every generated file lives here (created if missing).
# Env overrides (all optional):
#   REALM (SVC.TEST)  KDC_PORT (60088)  SPN_HOST (localhost)
#   TEST_USER (alice) TEST_PASS (alice-Passw0rd)  MASTER_PASS (master-Passw0rd)
#   EXTRA_USERS ("")  more user principals, "name:password" separated by spaces or
#                     commas, e.g. EXTRA_USERS="bob:bob-Passw0rd carol:carol-Passw0rd"
#
# Needs (Debian/Ubuntu), e.g. DEBIAN_FRONTEND=noninteractive apt-get install -y \
#   krb5-kdc (krb5kdc, kdb5_util)  krb5-admin-server (kadmin.local; kadmind itself is
#   never started)  krb5-user (kinit/klist). Run by a user that can write DIR; root is
#   not required because the port is > 1024.
#
# Produces in DIR:
#   krb5.conf  kdc.conf  kadm5.acl  principal* (db)  stash
#   http.keytab   keytab with HTTP/$SPN_HOST@$REALM (for the acceptor/server)
#   ccache        ticket cache of $TEST_USER (for the client, e.g. curl --negotiate)
#   ccache.NAME   ticket cache of each EXTRA_USERS user (KRB5CCNAME=FILE:DIR/ccache.NAME)
#   rcache/       replay-cache dir for the acceptor (keeps /var/tmp clean)
#   krb5kdc.pid   PID of the background krb5kdc (kdc-down.sh kills only this PID)
#   krb5kdc.log   KDC log
#   env.sh        `source DIR/env.sh` exports KRB5_CONFIG, KRB5_KDC_PROFILE,
#                 KRB5_KTNAME, KRB5CCNAME, KRB5RCACHEDIR for servers/clients/tests
#
# Idempotent: re-running keeps the existing database and running KDC, re-creates
# missing principals/keytab and refreshes the user's ticket.
set -euo pipefail

[ $# -ge 1 ] || { echo "usage: $0 DIR" >&2; exit 64; }
mkdir -p "$1"
DIR=$(cd "$1" && pwd)                 # absolute path, no trailing slash

REALM=${REALM:-SVC.TEST}
KDC_PORT=${KDC_PORT:-60088}
SPN_HOST=${SPN_HOST:-localhost}
TEST_USER=${TEST_USER:-alice}
TEST_PASS=${TEST_PASS:-alice-Passw0rd}
MASTER_PASS=${MASTER_PASS:-master-Passw0rd}
EXTRA_USERS=${EXTRA_USERS:-}
KRB5KDC=${KRB5KDC:-/usr/sbin/krb5kdc}
KADMIN_LOCAL=${KADMIN_LOCAL:-/usr/sbin/kadmin.local}
KDB5_UTIL=${KDB5_UTIL:-/usr/sbin/kdb5_util}

for b in "$KRB5KDC" "$KADMIN_LOCAL" "$KDB5_UTIL"; do
  [ -x "$b" ] || { echo "missing $b (apt-get install -y krb5-kdc krb5-admin-server krb5-user)" >&2; exit 69; }
done
command -v kinit >/dev/null || { echo "missing kinit (apt-get install -y krb5-user)" >&2; exit 69; }

# "name:password" pairs of EXTRA_USERS, checked before anything is created.
EXTRA=()
for pair in ${EXTRA_USERS//,/ }; do
  name=${pair%%:*}
  [[ "$pair" == *:?* && "$name" =~ ^[A-Za-z][A-Za-z0-9._-]*$ && "$name" != "$TEST_USER" ]] || {
    echo "EXTRA_USERS: \"$pair\" is not name:password (name: letters, digits, . _ -; not $TEST_USER)" >&2; exit 64; }
  EXTRA+=("$pair")
done

# All Kerberos tools read these instead of /etc/krb5.conf and /etc/krb5kdc/kdc.conf.
export KRB5_CONFIG="$DIR/krb5.conf"
export KRB5_KDC_PROFILE="$DIR/kdc.conf"
export KRB5CCNAME="FILE:$DIR/ccache"
export KRB5_KTNAME="FILE:$DIR/http.keytab"
export KRB5RCACHEDIR="$DIR/rcache"
mkdir -p "$KRB5RCACHEDIR"

# --- 1. config files (rewritten every run; cheap and keeps them in sync with env) ---
cat > "$DIR/krb5.conf" <<CONF
[libdefaults]
    default_realm = $REALM
    dns_lookup_realm = false
    dns_lookup_kdc = false
    rdns = false
    dns_canonicalize_hostname = false
    ticket_lifetime = 10h
    forwardable = true
    udp_preference_limit = 1
[realms]
    $REALM = {
        kdc = 127.0.0.1:$KDC_PORT
    }
[domain_realm]
    $SPN_HOST = $REALM
    .$SPN_HOST = $REALM
CONF

cat > "$DIR/kdc.conf" <<CONF
[kdcdefaults]
    kdc_listen = 127.0.0.1:$KDC_PORT
    kdc_tcp_listen = 127.0.0.1:$KDC_PORT
[realms]
    $REALM = {
        database_name = $DIR/principal
        key_stash_file = $DIR/stash
        acl_file = $DIR/kadm5.acl
        max_life = 10h 0m 0s
        max_renewable_life = 7d 0h 0m 0s
        supported_enctypes = aes256-cts-hmac-sha1-96:normal aes128-cts-hmac-sha1-96:normal
    }
[logging]
    kdc = FILE:$DIR/krb5kdc.log
    default = FILE:$DIR/krb5kdc.log
CONF
: > "$DIR/kadm5.acl"      # referenced by kdc.conf; kadmind is not used

# --- 2. database (only if absent) ---
if [ ! -f "$DIR/principal" ]; then
  "$KDB5_UTIL" -r "$REALM" -P "$MASTER_PASS" create -s >/dev/null
fi

# --- 3. principals (create if missing; never re-randomise existing keys) ---
has_princ() { "$KADMIN_LOCAL" -r "$REALM" -q "getprinc $1" 2>/dev/null | grep -q "^Principal: $1@"; }
# kadmin.local -q exits 0 even when the query fails, so verify with has_princ afterwards.
kadmin_q() { "$KADMIN_LOCAL" -r "$REALM" -q "$1" 2>&1 | grep -vE '^(Authenticating as|No policy specified)' >/dev/null || true; }
if ! has_princ "HTTP/$SPN_HOST"; then
  kadmin_q "addprinc -randkey HTTP/$SPN_HOST"
  has_princ "HTTP/$SPN_HOST" || { echo "could not create HTTP/$SPN_HOST" >&2; exit 70; }
  rm -f "$DIR/http.keytab"          # a new key makes any old keytab stale
fi
add_user() {
  if ! has_princ "$1"; then
    kadmin_q "addprinc -pw $2 $1"
    has_princ "$1" || { echo "could not create $1" >&2; exit 70; }
  fi
}
add_user "$TEST_USER" "$TEST_PASS"
for pair in ${EXTRA[@]+"${EXTRA[@]}"}; do add_user "${pair%%:*}" "${pair#*:}"; done

# --- 4. keytab for the acceptor. -norandkey keeps the kvno stable, so re-exporting
#        does not invalidate tickets a client already holds. ---
if [ ! -s "$DIR/http.keytab" ]; then
  kadmin_q "ktadd -k $DIR/http.keytab -norandkey HTTP/$SPN_HOST"
  [ -s "$DIR/http.keytab" ] || { echo "keytab export failed" >&2; exit 70; }
fi
chmod 600 "$DIR/http.keytab"

# --- 5. start the KDC unless our recorded PID is already a live krb5kdc ---
PIDFILE="$DIR/krb5kdc.pid"
running() {
  [ -s "$PIDFILE" ] || return 1
  local pid; pid=$(cat "$PIDFILE")
  [ -r "/proc/$pid/cmdline" ] && tr '\0' ' ' < "/proc/$pid/cmdline" | grep -q krb5kdc
}
if ! running; then
  rm -f "$PIDFILE"
  # Without -n, krb5kdc daemonises itself (detached from this shell/session) and
  # writes its own PID to -P. KRB5_KDC_PROFILE/KRB5_CONFIG are inherited.
  "$KRB5KDC" -r "$REALM" -P "$PIDFILE"
  for _ in $(seq 1 50); do running && break; sleep 0.1; done
  running || { echo "krb5kdc did not start; see $DIR/krb5kdc.log" >&2; exit 70; }
fi

# --- 6. user tickets (retry briefly: the KDC may still be binding its sockets) ---
get_ticket() {  # user password ccache
  local ok=
  for _ in $(seq 1 30); do
    if printf '%s\n' "$2" | KRB5CCNAME="FILE:$3" kinit "$1@$REALM" >/dev/null 2>&1; then ok=1; break; fi
    sleep 0.2
  done
  [ -n "$ok" ] || { echo "kinit $1@$REALM failed; see $DIR/krb5kdc.log" >&2; exit 70; }
}
get_ticket "$TEST_USER" "$TEST_PASS" "$DIR/ccache"
for pair in ${EXTRA[@]+"${EXTRA[@]}"}; do get_ticket "${pair%%:*}" "${pair#*:}" "$DIR/ccache.${pair%%:*}"; done

# --- 7. env file for servers, curl and tests ---
cat > "$DIR/env.sh" <<ENV
# source me
export KRB5_CONFIG="$DIR/krb5.conf"
export KRB5_KDC_PROFILE="$DIR/kdc.conf"
export KRB5_KTNAME="FILE:$DIR/http.keytab"
export KRB5CCNAME="FILE:$DIR/ccache"
export KRB5RCACHEDIR="$DIR/rcache"
export KRB5_REALM="$REALM"
export KRB5_SPN="HTTP@$SPN_HOST"
export KRB5_TEST_USER="$TEST_USER@$REALM"
ENV

echo "KDC up: realm=$REALM kdc=127.0.0.1:$KDC_PORT pid=$(cat "$PIDFILE") dir=$DIR"
echo "  source $DIR/env.sh"
