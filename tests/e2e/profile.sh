# profile: on a simulated drive every data file, every chart and a valid
# summary.json; on a loop device with random content, profile --write leaves
# the device's SHA-256 unchanged; Ctrl-C leaves a usable directory.
. "$(dirname "$0")/common.bash"
command -v python3 >/dev/null || fail "python3 missing (the suite checks JSON with it)"

check_profile() {
	local dir=$1; shift
	for name in "$@"; do
		[ -s "$dir/$name.tsv" ] || fail "$dir: no $name.tsv"
		[ "$(hdr "$dir/$name.tsv" complete)" = yes ] || fail "$dir/$name.tsv not complete"
		[ -s "$dir/charts/$name.png" ] || fail "$dir: no chart of $name"
		head -c 4 "$dir/charts/$name.png" | od -An -tx1 | grep -q '89 50 4e 47' || fail "$name chart is not a PNG"
	done
	python3 - "$dir/summary.json" "$@" <<'PY' || fail "$dir/summary.json"
import json, sys
s = json.load(open(sys.argv[1]))
names = sys.argv[2:]
assert s["complete"] is True, "complete"
assert set(s["probes"]) == set(names), sorted(s["probes"])
for n in names:
    p = s["probes"][n]
    assert p["exit_code"] == 0 and p["complete"] is True and p["errors"] == 0, (n, p)
    assert p["rows"] > 0, n
d = s["device"]
for k in ("device", "kind", "size_bytes", "identity", "cache", "smart"):
    assert k in d, k
for k in ("model", "serial", "firmware", "rpm_nominal", "capacity_bytes"):
    assert k in d["identity"], k
assert d["identity"]["model"] and d["cache"]["write_cache"] in ("on", "off", "unknown"), d
assert s["bench"]["seq_read"]["mb_s"] > 0 and s["bench"]["rand_read"]["iops"] > 0, s["bench"]
t = s["time"]
assert t["drive_s"] > 0 and t["estimate_s"] > 0 and t["cpu_s"] >= 0, t
PY
}

read_probes=(seek-read response media queue bench zone interval-read cache layout)
write_probes=(seek-read seek-write response media queue interval bench zone interval-read cache layout)

# A full default profile of a simulated drive: quick in CPU, minutes of drive time.
run 0 "$HDDSCOPE" profile --quiet -o "$T/sim" sim:atlas3
check_profile "$T/sim" "${read_probes[@]}"
python3 - "$T/sim/summary.json" <<'PY' || fail "simulated drive time"
import json, sys
t = json.load(open(sys.argv[1]))["time"]
assert t["simulated"] is True
# Under 10 minutes of drive time, and the estimate within a factor of 1.5 of it.
assert 60 < t["drive_s"] < 600, t
assert 1 / 1.5 < t["estimate_s"] / t["drive_s"] < 1.5, t
PY
pass "default profile of sim:atlas3"

# The budget (issue 14, item 8): on every 7200 rpm preset the default
# profile within 5 minutes of drive time and --quick within 1 (the Atlas
# III's 4.8 MB/s bus the slowest), at two seeds.
for m in $("$HDDSCOPE" sim list | awk '$2 == 7200 { print $1 }'); do
	for seed in 1 2; do
		run 0 "$HDDSCOPE" profile --quiet --no-charts --seed $seed -o "$T/b-$m-$seed" "sim:$m"
		run 0 "$HDDSCOPE" profile --quiet --no-charts --quick --seed $seed -o "$T/q-$m-$seed" "sim:$m"
		python3 - "$T/b-$m-$seed/summary.json" "$T/q-$m-$seed/summary.json" <<'PY' || fail "drive time of sim:$m, seed $seed"
import json, sys
full, quick = (json.load(open(f))["time"]["drive_s"] for f in sys.argv[1:])
assert 120 < full <= 300, full
assert 30 < quick <= 60, quick
PY
	done
done
[ -d "$T/q-atlas3-1" ] || fail "no 7200 rpm preset in 'hddscope sim list'"
pass "budget: the 7200 rpm presets' profiles within 5 minutes of drive time, --quick within 1"

run 0 "$HDDSCOPE" profile --quiet --quick --write -o "$T/simw" sim:cheetah9lp
check_profile "$T/simw" "${write_probes[@]}"
pass "quick write profile of sim:cheetah9lp"

# Ctrl-C in the middle (inside the queue probe's 10 s per count): the probe in
# flight keeps its samples with complete: no, summary.json says incomplete,
# the later probes do not run, and every file left is readable.
head -c $((64 << 20)) /dev/urandom >"$T/file.img"
"$HDDSCOPE" profile --quiet --no-charts -o "$T/int" "$T/file.img" 2>"$T/err" &
pid=$!
# The queue step has begun (its data file is open; it runs 10 s per count): interrupt it.
for _ in $(seq 6000); do ls "$T"/int/queue.tsv.tmp.* >/dev/null 2>&1 && break; sleep 0.05; done
sleep 0.5
kill -INT $pid
wait $pid
rc=$?
[ "$rc" = 130 ] || { cat "$T/err" >&2; fail "interrupted profile exited $rc, want 130"; }
python3 - "$T/int/summary.json" <<'PY' || fail "interrupted summary.json"
import json, sys
s = json.load(open(sys.argv[1]))
assert s["complete"] is False
assert s["probes"]["queue"]["exit_code"] == 130 and s["probes"]["queue"]["complete"] is False, s["probes"]["queue"]
assert "zone" not in s["probes"] and "bench" not in s["probes"] and "interval-read" not in s["probes"], sorted(s["probes"])
PY
[ "$(hdr "$T/int/queue.tsv" complete)" = no ] || fail "queue.tsv after Ctrl-C"
for f in "$T"/int/*.tsv; do run 0 "$HDDSCOPE" plot -o "$T/int/charts" "$f"; done
# A fitted curve whose every time came out below zero (a device that does not
# rotate, where the fit's overhead exceeds each bin's positioning) still draws.
printf '# hddscope-data 1\n# test: seekcurve\n# bins: 2\n# columns: distance_bytes seek_ms samples\n1000000\t-0.2\t3\n-1000000\t-0.1\t2\n' >"$T/neg.tsv"
run 0 "$HDDSCOPE" plot -o "$T/negc" "$T/neg.tsv"
[ -s "$T/negc/neg.png" ] || fail "no chart of a curve below zero"
pass "Ctrl-C leaves a usable profile directory"

if [ "$(id -u)" = 0 ] && command -v losetup >/dev/null; then
	img=$T/disk.img
	head -c $((128 << 20)) /dev/urandom >"$img"
	dev=$(losetup -f --show "$img" 2>/dev/null) || skip "losetup unusable"
	LOOPS+=("$dev")
	sum0=$(sha256sum <"$dev")
	run 0 "$HDDSCOPE" profile --quiet --quick --write -o "$T/loop" "$dev"
	check_profile "$T/loop" "${write_probes[@]}"
	[ "$(sha256sum <"$dev")" = "$sum0" ] || fail "profile --write changed the loop device"
	# A device without rotation: fit says so and fits no seek curve; the profile still succeeds.
	grep -q "warning: fit $T/loop: no rotation found" "$T/err" || { cat "$T/err" >&2; fail "fit on a loop device"; }
	[ ! -e "$T/loop/seekcurve.tsv" ] || fail "a seek curve fitted to a device without rotation"
	pass "profile --write on a loop device preserves every byte"
else
	echo "loop device part skipped: needs root and losetup" >&2
fi
