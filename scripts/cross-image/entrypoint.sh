#!/bin/sh
# Runs the container's command (cross's `sh -c "... cargo ..."`) at the niceness named by
# MLDSA_CROSS_NICE (default 0): the processes of a container do not inherit the niceness of
# the `cross` that started it.
set -eu
nice_level=${MLDSA_CROSS_NICE:-0}
case "$nice_level" in
    '' | *[!0-9]*) echo "mldsa-cross-entrypoint: MLDSA_CROSS_NICE must be 0..19, not '$nice_level'" >&2; exit 2 ;;
esac
if [ "$nice_level" -gt 0 ]; then
    exec nice -n "$nice_level" "$@"
fi
exec "$@"
