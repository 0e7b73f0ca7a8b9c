#!/usr/bin/env bash
# Downloads the NIST ACVP ML-DSA vectors the known-answer tests read, from the upstream
# ACVP-Server repository at tag v1.1.0.43, checks each file against its pinned SHA-256, and
# stores it gzip-compressed in the layout the tests expect:
#     DEST/acvp/<dir>/<file>.json.gz
# Usage: scripts/fetch-vectors.sh [DEST]   (default: ../shared/vectors beside the project)
# Then run the tests with MLDSA_VECTORS=DEST (not needed for the default location).
# The NIST KAT check needs no files: its published digests are in kat/src/nist.rs.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
dest=${1:-"$root/../shared/vectors"}
commit=975de31eb83d87039ec88934fdc47d8c312b892d   # tag v1.1.0.43
base="https://raw.githubusercontent.com/usnistgov/ACVP-Server/$commit/gen-val/json-files"

# SHA-256 of each decompressed upstream file.
pins=$(cat <<'PINS'
361f47ca19d592adcc66ff2cb591686ad785fea157b295648738bed6921a68df  ML-DSA-keyGen-FIPS204/expectedResults.json
e67ee6540d40e11506c3c4e3b1f79fc1cefcd49820db99fc61f87cc8ba463baf  ML-DSA-keyGen-FIPS204/internalProjection.json
43e81ad820e495dbcad086fe27c1008393a8c32100bbbff77c558c3f06dcefef  ML-DSA-keyGen-FIPS204/prompt.json
8d86d120d128d2f2d29afb7843b7351677ac0f1bf649295d85b7bf3dd533949c  ML-DSA-sigGen-FIPS204-tr1/expectedResults.json
0a81a213fb4825f0a9d8893a20445a3fed88a6f1832703548120b9588c74a08e  ML-DSA-sigGen-FIPS204-tr1/prompt.json
228d011bbe274aeb93e22eea1e0d57b78f43795cf6a64fb5ef1e626485a0bedb  ML-DSA-sigGen-FIPS204/expectedResults.json
447749d72817b211160d243311ce32302f3023e59c355b0f70be2bd3e9e7830d  ML-DSA-sigGen-FIPS204/prompt.json
e1d84ef1b2f35196278ab0b0ed6a46ec62cc03d2dfa92c564199e1999bfb8ea6  ML-DSA-sigVer-FIPS204/expectedResults.json
47cdd6314c7f746d02421ffcba89d4dbc7bb875ac49e07a029fdfc26fba55437  ML-DSA-sigVer-FIPS204/internalProjection.json
e2cba4589389756fa0bea1a7e6837138bf0a81f9d14234c9ee8f6d33caa1654e  ML-DSA-sigVer-FIPS204/prompt.json
PINS
)

fetch() { if command -v curl >/dev/null; then curl -fsSL "$1" -o "$2"; else wget -qO "$2" "$1"; fi; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
while read -r sum path; do
    [ -n "$path" ] || continue
    out="$dest/acvp/$path.gz"
    if [ -f "$out" ] && [ "$(gzip -dc "$out" | sha256sum | cut -d' ' -f1)" = "$sum" ]; then
        echo "ok (present)  $path"
        continue
    fi
    fetch "$base/$path" "$tmp/file.json"
    got=$(sha256sum "$tmp/file.json" | cut -d' ' -f1)
    if [ "$got" != "$sum" ]; then
        echo "error: $path has SHA-256 $got, expected $sum" >&2
        exit 1
    fi
    mkdir -p "$(dirname "$out")"
    gzip -9 -c "$tmp/file.json" > "$out"
    echo "ok (fetched)  $path"
done <<< "$pins"
echo "vectors in $dest; run the tests with MLDSA_VECTORS=$dest"
