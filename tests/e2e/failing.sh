# Failing drives: a simulated drive with bad sectors (error samples, the run
# completes, summary.json lists the failing offsets, verdict fails naming them);
# one that fails everything (exit 3 after 10 consecutive errors, naming the last
# offset and error); and a real block device that stalls for seconds (recorded,
# reported by verdict, Ctrl-C still works during a stalled access).
. "$(dirname "$0")/common.bash"
command -v python3 >/dev/null || fail "python3 missing"

"$HDDSCOPE" sim show atlas3 >"$T/bad.drive" || fail "sim show"
cp "$T/bad.drive" "$T/dead.drive"
# 101 sectors where every probe's reference lies (the middle of the drive),
# and 8 MiB every 64 MiB on either side of it, where the seek probe's targets
# land (its reference reads spread over a window of half a GiB there).
bad=" 8898972-8899072"
for j in -4 -3 -2 -1 1 2 3 4; do
	bad="$bad $((8898972 + j * 131072))-$((8898972 + j * 131072 + 16383))"
done
echo "bad_sectors =$bad" >>"$T/bad.drive"
cap=$("$HDDSCOPE" sim info "$T/bad.drive" | sed -n 's/^capacity_bytes: //p')
echo "bad_sectors = 0-$((cap / 512 - 1))" >>"$T/dead.drive"

run 0 "$HDDSCOPE" profile -q --no-charts -o "$T/bad" "sim:$T/bad.drive"
python3 - "$T/bad/summary.json" $bad <<'PY' || fail "failing offsets in summary.json"
import json, sys
s = json.load(open(sys.argv[1]))
ranges = [(int(r.split("-")[0]) * 512, (int(r.split("-")[1]) + 1) * 512) for r in sys.argv[2:]]
seen = 0
for name, p in s["probes"].items():
    assert p["exit_code"] == 0, (name, p)
    for off in p.get("failing_offsets", []):
        # The failed access (at most 4 MiB long, a repositioning read) touches bad sectors.
        assert any(off < hi and off + (4 << 20) > lo for lo, hi in ranges), (name, off)
        seen += 1
assert seen >= 10, seen
assert s["probes"]["seek-read"]["errors"] > 0 and s["probes"]["seek-read"]["complete"] is True
PY
[ "$(grep -c $'\terror\t' "$T/bad/seek-read.tsv")" = "$(hdr "$T/bad/seek-read.tsv" samples_error)" ] || fail "error rows"
run 5 "$HDDSCOPE" verdict "$T/bad"
grep -q '^FAIL  I/O errors: [0-9]* failed accesses (seek-read@' "$T/out" || { cat "$T/out"; fail "verdict: errors"; }
pass "bad sectors: error samples, offsets in summary.json, verdict FAIL"

run 3 "$HDDSCOPE" seek -q -o "$T/dead.tsv" "sim:$T/dead.drive"
expect_err "^hddscope: read sim:$T/dead.drive @ [0-9]+: Input/output error$"
expect_err "stopped after 10 consecutive failed accesses; 0 samples kept in $T/dead.tsv"
[ "$(hdr "$T/dead.tsv" complete)" = no ] || fail "dead drive: complete"
run 3 "$HDDSCOPE" response -q --write -o "$T/dead-r.tsv" "sim:$T/dead.drive"
expect_err "stopped after 10 consecutive failed accesses"
pass "a drive that fails everything stops with exit 3"

# A real stall: a loop device throttled by the blkio cgroup to 2 KiB/s of reads,
# so that every 4 KiB read takes two seconds once the throttle is on.
[ "$(id -u)" = 0 ] && command -v losetup >/dev/null || skip "stall part needs root and losetup"
cg=/sys/fs/cgroup/blkio
[ -w "$cg" ] && [ -e "$cg/blkio.throttle.read_bps_device" ] || skip "no blkio throttling here"
head -c $((64 << 20)) /dev/urandom >"$T/disk.img"
dev=$(losetup -f --show "$T/disk.img" 2>/dev/null) || skip "losetup unusable"
LOOPS+=("$dev")
majmin=$(printf '%d:%d' "0x$(stat -c %t "$dev")" "0x$(stat -c %T "$dev")")
grp=$cg/hddscope-e2e-$$
mkdir "$grp" || skip "cannot make a blkio cgroup"
trap 'echo "$majmin 0" >"$grp/blkio.throttle.read_bps_device" 2>/dev/null; rmdir "$grp" 2>/dev/null; cleanup' EXIT
mkdir "$T/stall"
(echo $BASHPID >"$grp/cgroup.procs" && exec "$HDDSCOPE" seek -q --samples 1000000 -o "$T/stall/seek-read.tsv" "$dev") 2>"$T/err" &
pid=$!
# Throttle once the run samples: a calibration stalled read by read would outlast the test.
wait_io $pid 300
echo "$majmin 2048" >"$grp/blkio.throttle.read_bps_device"
sleep 5
t0=$(date +%s%N)
kill -INT $pid
wait $pid
rc=$?
took=$(( ($(date +%s%N) - t0) / 1000000 ))
[ "$rc" = 130 ] || { cat "$T/err" >&2; fail "stalled run: exit $rc, want 130"; }
# The access in flight takes up to 2 s; the run had a million more to go.  10 s
# leaves a busy machine room to schedule the exit without hiding a run that went on.
[ "$took" -lt 10000 ] || fail "Ctrl-C took $took ms to stop a stalled run"
awk -F'\t' '!/^#/ && $3 >= 1000 { n++ } END { exit !(n >= 1) }' "$T/stall/seek-read.tsv" || fail "no stalled access recorded"
run 5 "$HDDSCOPE" verdict "$T/stall"
grep -Eq '^FAIL  stalls: slowest access [0-9]{4}\.[0-9] ms \(seek-read at offset [0-9]+\)' "$T/out" || { cat "$T/out"; fail "verdict: stalls"; }
pass "a stalling device: recorded, reported, Ctrl-C stops it within $took ms"
