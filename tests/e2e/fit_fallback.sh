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
