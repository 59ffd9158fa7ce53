# fit on a drive whose read-ahead and 4 KiB physical sectors serve every read near
# the previous one, so that the tiny-distance response reads show no rotation: the
# revolution then comes from the width of the seek samples' band, within 2% of the
# model's, and the full-stroke seek within 5%.  (The profile's read-interval
# sawtooth would give the revolution first: it is taken away to reach the band.)
. "$(dirname "$0")/common.bash"
command -v python3 >/dev/null || fail "python3 missing"

run 0 "$HDDSCOPE" profile -q --no-charts -o "$T/p" sim:st2000dm001
[ -f "$T/p/interval-read.tsv" ] || fail "profile wrote no interval-read.tsv"
rm "$T/p/interval-read.tsv"
run 0 "$HDDSCOPE" fit -q "$T/p"
rev=$("$HDDSCOPE" sim info st2000dm001 | sed -n 's/^revolution_ms: //p')
full=$("$HDDSCOPE" sim info st2000dm001 | sed -n 's/^seek_full_ms: //p')
[ -n "$rev" ] && [ -n "$full" ] || fail "sim info lacks revolution_ms or seek_full_ms"
python3 - "$T/p/summary.json" "$rev" "$full" <<'PY' || fail "fit of st2000dm001"
import json, sys
f = json.load(open(sys.argv[1]))["fit"]
rev, full = float(sys.argv[2]), float(sys.argv[3])
assert "band" in f["rpm_method"], f["rpm_method"]
assert abs(f["revolution_ms"] - rev) <= 0.02 * rev, (f["revolution_ms"], rev)
assert f["rpm_uncertainty"] > 0
assert abs(f["full_stroke_ms"] - full) <= 0.05 * full, (f["full_stroke_ms"], full)
PY
pass "revolution from the seek band where tiny distances show no rotation"

# The overhead from the reads that joined the read-ahead (fit_cache_join):
# st2000dm001's cache probe has a dozen non-hit reads at once past a read at
# the least time.  Leave two of them there and move the rest 0.1 ms up (two
# media reads alike by chance, as on a path whose completions jitter): no
# join, the overhead comes from the response reads instead; with four left,
# a join again.
join_left() {
	awk -F'\t' -v OFS='\t' -v keep="$1" '
		FNR == NR { if ($1 == "mtbrc" && $7 != "cache" && (m == "" || $5 < m)) m = $5; next }
		!/^#/ && $1 == "mtbrc" && $7 != "cache" && $5 <= m + 0.015 { if (++seen > keep) $5 = sprintf("%.6f", $5 + 0.1) }
		{ print }' "$T/p/cache.tsv" "$T/p/cache.tsv" >"$T/j$1/cache.tsv"
}
for keep in 2 4; do
	mkdir -p "$T/j$keep"
	cp "$T/p"/*.tsv "$T/j$keep/"
	join_left $keep
	run 0 "$HDDSCOPE" fit -q "$T/j$keep"
done
run 0 "$HDDSCOPE" fit -q "$T/p"
python3 - "$T/p/summary.json" "$T/j2/summary.json" "$T/j4/summary.json" <<'PY' || fail "join of st2000dm001"
import json, sys
full, two, four = (json.load(open(f))["fit"]["overhead_method"] for f in sys.argv[1:])
assert "joined" in full, full
assert "joined" not in two, two
assert "joined" in four, four
PY
pass "a join of four reads or more at the least time, not of two"

# The overhead's band takes the read-interval probe's reads too (each the
# block before the one just read, on its track, its wait set by the idle
# time): a quick profile has some 60 response reads at the band's bottom,
# and on an unlucky draw none comes near it.  Take out every response read
# from 2 to 16 blocks away that lies within 0.4 ms of the model's floor (its
# read overhead and the block's transfer on its bus): from the response
# reads alone the overhead then comes out 0.25 ms high or more; with the
# interval reads within 0.1 ms of the floor.
run 0 "$HDDSCOPE" profile -q --quick --no-charts -o "$T/q" sim:atlas3
floor=$("$HDDSCOPE" sim info atlas3 | awk '$1 == "read_overhead_ms:" { o = $2 } $1 == "interface_mb_s:" { b = $2 }
	END { if (b > 0) printf "%.6f\n", o + 4096 / (b * 1000) }')
[ -n "$floor" ] || fail "sim info atlas3 lacks read_overhead_ms or interface_mb_s"
for v in resp both; do
	mkdir -p "$T/o$v"
	cp "$T/q"/*.tsv "$T/o$v/"
	awk -F'\t' -v OFS='\t' -v f="$floor" '!/^#/ && ($1 > 8192 || $1 < -8192) && $1 <= 65536 && $1 >= -65536 &&
		$3 < f + 0.4 { next } { print }' "$T/q/response.tsv" >"$T/o$v/response.tsv"
	[ $v = both ] || rm "$T/o$v/interval-read.tsv"
	run 0 "$HDDSCOPE" fit -q "$T/o$v"
done
python3 - "$T/oresp/summary.json" "$T/oboth/summary.json" "$floor" <<'PY' || fail "overhead of atlas3 from the interval reads"
import json, sys
resp, both = (json.load(open(f))["fit"]["overhead_ms"] for f in sys.argv[1:3])
floor = float(sys.argv[3])
assert resp >= floor + 0.25, (resp, floor)
assert abs(both - floor) <= 0.1, (both, floor)
PY
pass "the overhead from the interval reads where the response reads miss the band's bottom"
