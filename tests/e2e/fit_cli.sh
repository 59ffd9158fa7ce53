# fit from the command line: a profile of a simulated drive is fitted at the
# end of profile and again by "hddscope fit", the numbers agree with the
# preset's rpm, --drive-out writes a model that runs as sim:FILE, and bad
# input fails with the documented exit codes.
source "$(dirname "$0")/common.bash"

run 0 "$HDDSCOPE" profile -q --no-charts --seed 3 -o "$T/p" sim:cheetah9lp
[ -s "$T/p/seekcurve.tsv" ] || fail "profile wrote no seekcurve.tsv"
grep -q '^# test: seekcurve$' "$T/p/seekcurve.tsv" || fail "seekcurve.tsv: no test header"
grep -q '^# columns: distance_bytes seek_ms samples$' "$T/p/seekcurve.tsv" || fail "seekcurve.tsv: columns"
grep -q '"fit"' "$T/p/summary.json" || fail "summary.json has no fit section"
pass "profile fits at the end"

run 0 "$HDDSCOPE" fit --drive-out "$T/fitted.drive" "$T/p"
rpm=$(awk '$1 == "rpm" { print $2 }' "$T/out")
awk -v r="$rpm" 'BEGIN { exit !(r > 10045 * 0.995 && r < 10045 * 1.005) }' || fail "rpm $rpm, preset 10045"
grep -q '^name = fitted from ' "$T/fitted.drive" || fail "drive name does not say it was fitted"
pass "fit: rpm $rpm"

run 0 "$HDDSCOPE" fit --json -q "$T/p"
[ ! -s "$T/out" ] || fail "-q printed something"
run 0 "$HDDSCOPE" fit --json "$T/p"
grep -q '"avg_seek_ms"' "$T/out" || fail "--json without avg_seek_ms"
pass "fit --json"

run 0 "$HDDSCOPE" seek -q --samples 300 -o "$T/again.tsv" "sim:$T/fitted.drive"
[ "$(grep -c -v '^#' "$T/again.tsv")" -eq 300 ] || fail "the fitted drive did not run"
pass "the fitted drive runs as sim:FILE"

mkdir "$T/empty"
run 2 "$HDDSCOPE" fit "$T/empty"
expect_err "no seek or response data"
run 1 "$HDDSCOPE" fit
run 1 "$HDDSCOPE" fit --bogus "$T/p"
printf '# hddscope-data 1\n# test: seek\nbroken\n' >"$T/empty/bad.tsv"
run 2 "$HDDSCOPE" fit "$T/empty"
expect_err "bad.tsv:3"
pass "errors"
