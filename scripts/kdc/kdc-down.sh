#!/usr/bin/env bash
# kdc-down.sh — stop the KDC started by scripts/kdc/kdc-up.sh.
#
# Usage:  scripts/kdc/kdc-down.sh DIR [--purge]
#   Kills only the PID recorded in DIR/krb5kdc.pid, and only if that PID is still
#   a krb5kdc process (guards against PID reuse). --purge also deletes the files
#   kdc-up.sh generated in DIR (not DIR itself, nothing else).
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: $0 DIR [--purge]" >&2; exit 64; }
DIR=$1
PIDFILE="$DIR/krb5kdc.pid"

if [ -s "$PIDFILE" ]; then
  pid=$(cat "$PIDFILE")
  if [ -r "/proc/$pid/cmdline" ] && tr '\0' ' ' < "/proc/$pid/cmdline" | grep -q krb5kdc; then
    kill "$pid"
    for _ in $(seq 1 50); do [ -e "/proc/$pid" ] || break; sleep 0.1; done
    if [ -e "/proc/$pid" ]; then kill -9 "$pid" 2>/dev/null || true; fi
    echo "krb5kdc (pid $pid) stopped"
  else
    echo "pid $pid is not a running krb5kdc; nothing to kill"
  fi
  rm -f "$PIDFILE"
else
  echo "no $PIDFILE; nothing to stop"
fi

if [ "${2:-}" = "--purge" ] && [ -d "$DIR" ]; then
  ( cd "$DIR" && rm -rf krb5.conf kdc.conf kadm5.acl principal principal.ok principal.kadm5 \
      principal.kadm5.lock stash http.keytab ccache ccache.* rcache krb5kdc.log env.sh )
  echo "purged generated files in $DIR"
fi
