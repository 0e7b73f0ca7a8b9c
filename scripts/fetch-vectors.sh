#!/usr/bin/env bash
# Downloads the ML-DSA vectors the known-answer tests read, checks each file against its
# pinned SHA-256 (of the decompressed upstream file), and stores it gzip-compressed in the
# layout the tests expect:
#     DEST/acvp/<dir>/<file>.json.gz      NIST ACVP-Server, tag v1.1.0.43
#     DEST/wycheproof/<file>.json.gz      C2SP Wycheproof ML-DSA, commit dac1dd47
# Usage: scripts/fetch-vectors.sh [--from SRC] [DEST]   (default DEST: ../shared/vectors
#        beside the project)
#   --from SRC  copy from SRC, a directory in the layout above (another machine's vectors,
#               a local mirror), instead of downloading; every file is decompressed and
#               checked against its pin exactly as a download is.
# A file already in DEST whose digest matches is kept; any other is replaced. A digest that
# does not match its pin is an error: nothing is stored for that file and the script exits 1.
# Then run the tests with MLDSA_VECTORS=DEST (not needed for the default location).
# The NIST KAT check needs no files: its published digests are in kat/src/nist.rs.
set -euo pipefail

usage() {
    cat >&2 <<'USAGE'
Usage: scripts/fetch-vectors.sh [--from SRC] [DEST]
  DEST        where to store the vectors (default: ../shared/vectors beside the project)
  --from SRC  copy from SRC, a vectors directory in the same layout, instead of downloading;
              each file is still decompressed and checked against its pinned SHA-256
USAGE
    exit "${1:-2}"
}

from=
while [ $# -gt 0 ]; do
    case $1 in
        --from)
            if [ $# -lt 2 ] || [ -z "$2" ]; then
                echo "error: option --from needs a value (a directory)" >&2
                usage
            fi
            from=$2; shift 2 ;;
        --from=*) from=${1#--from=}; shift ;;
        -h | --help) usage 0 ;;
        --) shift; break ;;
        -*) echo "error: unknown option $1" >&2; usage ;;
        *) break ;;
    esac
done
[ $# -le 1 ] || usage
if [ -n "$from" ] && [ ! -d "$from" ]; then
    echo "error: --from $from is not a directory" >&2
    exit 2
fi

root=$(cd "$(dirname "$0")/.." && pwd)
dest=${1:-"$root/../shared/vectors"}

acvp_commit=975de31eb83d87039ec88934fdc47d8c312b892d   # tag v1.1.0.43
acvp_base="https://raw.githubusercontent.com/usnistgov/ACVP-Server/$acvp_commit/gen-val/json-files"
wycheproof_commit=dac1dd4729fd1f8dd9e1e9f3dce51d783da6c166
wycheproof_base="https://raw.githubusercontent.com/C2SP/wycheproof/$wycheproof_commit/testvectors_v1"

# SHA-256 of each decompressed upstream file.
acvp_pins=$(cat <<'PINS'
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
wycheproof_pins=$(cat <<'PINS'
ee55e18b1944db496b2539d3884dfacc04a96db21bcec239063df5e4cd1ee6cb  mldsa_44_sign_noseed_test.json
b29b0dcca2e52c988e1b9c06f8b521889ffbaadfc6a9dbf52f0f0f8f4c5b6b92  mldsa_44_sign_seed_test.json
0ca1b5df4575263e29b31fae7569a3da41df9a3b6fee56720a992d0cd1153b68  mldsa_44_verify_test.json
8587a53e7e3ca20b006b661316b89c762acdecf3fa902746b01cbc09fe14130d  mldsa_65_sign_noseed_test.json
d72e9c2f514c9f7490c33785ae0027d942ba2c45a9b8ebfc8fb1802b4913bf38  mldsa_65_sign_seed_test.json
49ac366d76115eab56b7116f10d06e288e6f23fe6cfb90b26bfb2d731a8d1e02  mldsa_65_verify_test.json
bd4c997f1fb90d985dbcca9a5ab52cef1f5c22d2cc0ba332d8dbe68703a5b40d  mldsa_87_sign_noseed_test.json
e83c292318134faa6af777e86c619c4643e2705dba91dfa5adcd1fddfd4f40ce  mldsa_87_sign_seed_test.json
e9e04216d4217265a5affba2568476d35742dbd8ffc9d4c23b3441334a08a224  mldsa_87_verify_test.json
PINS
)

fetch() { if command -v curl >/dev/null; then curl -fsSL "$1" -o "$2"; else wget -qO "$2" "$1"; fi; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# get SUB BASE SUM PATH: stores DEST/SUB/PATH.gz, downloaded from BASE/PATH (or copied from
# SRC/SUB/PATH.gz with --from), if the decompressed file's SHA-256 is SUM.
get() {
    local sub=$1 base=$2 sum=$3 path=$4
    local out="$dest/$sub/$path.gz" got how
    if [ -f "$out" ]; then
        if [ "$(gzip -dc "$out" 2>/dev/null | sha256sum | cut -d' ' -f1)" = "$sum" ]; then
            echo "ok (present)  $sub/$path"
            return
        fi
        echo "note: $out does not match its pin; replacing it" >&2
    fi
    if [ -n "$from" ]; then
        if ! gzip -dc "$from/$sub/$path.gz" > "$tmp/file.json"; then
            echo "error: cannot read $from/$sub/$path.gz (missing or not gzip)" >&2
            exit 1
        fi
        how=copied
    else
        if ! fetch "$base/$path" "$tmp/file.json"; then
            echo "error: cannot download $base/$path" >&2
            exit 1
        fi
        how=fetched
    fi
    got=$(sha256sum "$tmp/file.json" | cut -d' ' -f1)
    if [ "$got" != "$sum" ]; then
        echo "error: $sub/$path has SHA-256 $got, expected $sum (pinned); not stored" >&2
        exit 1
    fi
    mkdir -p "$(dirname "$out")"
    gzip -9 -n -c "$tmp/file.json" > "$out.part"
    mv "$out.part" "$out"
    echo "ok ($how)  $sub/$path"
}

while read -r sum path; do
    [ -n "$path" ] || continue
    get acvp "$acvp_base" "$sum" "$path"
done <<< "$acvp_pins"
while read -r sum path; do
    [ -n "$path" ] || continue
    get wycheproof "$wycheproof_base" "$sum" "$path"
done <<< "$wycheproof_pins"
echo "vectors in $dest; run the tests with MLDSA_VECTORS=$dest"
