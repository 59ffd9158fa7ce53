#!/usr/bin/env bash
# Regenerates the example charts shown in the README from simulated drives.
#   bash plots/examples/generate.sh [path/to/hddscope]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=${1:-$here/../../build/hddscope}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HDDSCOPE_PLOTS=$here/..

# The default target, with writes: seek, response, media, bench.
"$bin" profile --quiet --write --no-charts -o "$tmp/atlas3" sim:atlas3 >/dev/null
# A drive with a 32-deep command queue and 24 zones: queue and zone.
"$bin" queue --quiet -o "$tmp/queue.tsv" sim:st2000dm001
"$bin" zone --quiet -o "$tmp/zone.tsv" sim:st2000dm001
# The write-interval sawtooth needs the write cache off.
"$bin" sim show atlas3 | sed 's/^write_cache = on/write_cache = off/' >"$tmp/atlas3-nowc.drive"
"$bin" interval --quiet --write -o "$tmp/interval.tsv" "sim:$tmp/atlas3-nowc.drive"

for f in seek-read seek-write response media bench; do
	cp "$tmp/atlas3/$f.tsv" "$tmp/$f.tsv"
done
for f in seek-read seek-write response media bench queue zone interval; do
	"$bin" plot -o "$here" "$tmp/$f.tsv" >/dev/null
done
