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

# NCQ only from evidence at the drive: a model that reorders 32 commands gains from the
# queue and is fitted with a queue; the same data taken through a host scheduler that
# reorders, or with one command at the drive, or not saying, is no evidence of NCQ.
sed 's/^queue_depth = .*/queue_depth = 32/' "$HDDSCOPE_SRC/data/drives/cheetah9lp.drive" >"$T/q32.drive"
grep -qx 'queue_depth = 32' "$T/q32.drive" || fail "no queue_depth line to change in cheetah9lp.drive"
run 0 "$HDDSCOPE" profile -q --no-charts --seed 3 -o "$T/q" "sim:$T/q32.drive"
[ "$(hdr "$T/q/queue.tsv" scheduler)" = n/a ] || fail "simulated queue.tsv: scheduler '$(hdr "$T/q/queue.tsv" scheduler)'"
ncq() { # DIR WANT_AT_DRIVE WANT_DEPTH
	run 0 "$HDDSCOPE" fit --json --drive-out "$1.drive" "$1"
	python3 -c 'import json,sys; f=json.load(open(sys.argv[1])); assert f["queue_gain"] > 1.3, f["queue_gain"]; assert f["queue_gain_at_drive"] is (sys.argv[2]=="yes"), f["queue_gain_method"]' "$T/out" "$2" ||
		fail "$1: queue_gain_at_drive, want $2"
	grep -qx "queue_depth = $3" "$1.drive" || fail "$1: fitted $(grep queue_depth "$1.drive"), want $3"
}
ncq "$T/q" yes 32
for v in "scheduler: mq-deadline" "queue_depth: 1" "device_kind: regular file" ""; do
	rm -rf "$T/q2" "$T/q2.drive"
	cp -r "$T/q" "$T/q2"
	if [ -n "$v" ]; then
		sed -i "s|^# ${v%%:*}: .*|# $v|" "$T/q2/queue.tsv"
		[ "$(hdr "$T/q2/queue.tsv" "${v%%:*}")" = "${v#*: }" ] || fail "could not set $v"
	else
		sed -i '/^# scheduler: /d' "$T/q2/queue.tsv"
	fi
	ncq "$T/q2" no 1
done
pass "NCQ credited only from evidence at the drive"

mkdir "$T/empty"
run 2 "$HDDSCOPE" fit "$T/empty"
expect_err "no seek or response data"
run 1 "$HDDSCOPE" fit
run 1 "$HDDSCOPE" fit --bogus "$T/p"
printf '# hddscope-data 1\n# test: seek\nbroken\n' >"$T/empty/bad.tsv"
run 2 "$HDDSCOPE" fit "$T/empty"
expect_err "bad.tsv:3"
pass "errors"
