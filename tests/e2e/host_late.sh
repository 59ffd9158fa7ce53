# Probes tell samples the host kept waiting for a CPU: on an emulated drive
# (hddscope emulate, reads of milliseconds), a real-time hog on the probe's CPU,
# spinning 9 ms of every 10, holds most reads' completions back from the probe.
# The interval probe takes such samples again, and labels those still late
# after four tries unknown; seek labels them unknown (fit and verdict leave
# unknown samples out).  The header counts both, the rows agree with it.  On the simulated drive (a
# virtual clock no host delay reaches) the header says nothing of it.
. "$(dirname "$0")/common.bash"
[ -r /proc/thread-self/schedstat ] || skip "no /proc/thread-self/schedstat (the kernel keeps no run-queue times)"
command -v taskset >/dev/null || skip "no taskset (util-linux)"
command -v python3 >/dev/null || skip "no python3"
python3 -c 'import os; os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(1))' 2>/dev/null ||
	skip "cannot take a real-time priority (needs root or CAP_SYS_NICE)"

[ "$(id -u)" = 0 ] || skip "needs root (loop devices)"
[ -c /dev/fuse ] || skip "no /dev/fuse"
[ -c /dev/loop-control ] || skip "no loop devices"
command -v fusermount3 >/dev/null || skip "no fusermount3 (Debian: fuse3)"
[ "$(nproc)" -ge 2 ] || skip "one CPU: the hog would hold the emulator back as well"
DEV=$("$HDDSCOPE" emulate --daemon atlas3 2>"$T/err") || fail "emulate --daemon atlas3: $(cat "$T/err")"

# The hog: SCHED_FIFO on CPU 0, 9 ms on and 1 ms off, for at most 60 s.
taskset -c 0 python3 - <<'PY' &
import os, time
os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(1))
end = time.monotonic() + 60
while time.monotonic() < end:
    t = time.monotonic() + 0.009
    while time.monotonic() < t:
        pass
    time.sleep(0.001)
PY
hog=$!
trap 'kill $hog 2>/dev/null; "$HDDSCOPE" emulate --stop "$DEV" 2>/dev/null; cleanup' EXIT
sleep 0.3
run 0 taskset -c 0 "$HDDSCOPE" interval -q --op read --intervals 0:4:0.5 --reps 4 -o "$T/i.tsv" "$DEV"
run 0 taskset -c 0 "$HDDSCOPE" seek -q --samples 40 -o "$T/k.tsv" "$DEV"
kill $hog 2>/dev/null
wait $hog 2>/dev/null
"$HDDSCOPE" emulate --stop "$DEV" || fail "emulate --stop $DEV"

# host_late FILE CLASS_COLUMN: "taken-again late" from the header, checked against the rows.
host_late() {
	local f=$1 col=$2 late again still unknown
	late=$(hdr "$f" host_late)
	[ -n "$late" ] || fail "$f: no host_late header on a block device"
	read -r again still <<<"$(echo "$late" | sed -n 's/^\([0-9]*\) samples taken again, \([0-9]*\) labelled unknown: .*/\1 \2/p')"
	[ -n "$again" ] || fail "$f: host_late: $late"
	unknown=$(awk -F'\t' -v c="$col" '!/^#/ && $c == "unknown"' "$f" | grep -c '')
	[ "$unknown" = "$still" ] || fail "$f: $unknown rows labelled unknown, the header says $still"
	[ "$(hdr "$f" samples_unknown)" = "$still" ] || fail "$f: samples_unknown $(hdr "$f" samples_unknown), late $still"
	echo "$again $still"
}
read -r again still <<<"$(host_late "$T/i.tsv" 4)"
[ "$again" -ge 4 ] || fail "interval: only $again of 36 samples taken again beside the hog"
[ "$still" -ge 1 ] || fail "interval: no sample still late beside a hog that leaves 1 ms in 10"
[ "$(hdr "$T/i.tsv" samples)" = 36 ] || fail "interval: samples $(hdr "$T/i.tsv" samples)"
pass "interval beside a real-time hog: $again of 36 samples taken again, $still labelled unknown"
read -r again still <<<"$(host_late "$T/k.tsv" 5)"
[ "$again" = 0 ] || fail "seek took $again samples again: it labels, it does not retake"
[ "$still" -ge 4 ] || fail "seek: only $still of 40 samples labelled late beside the hog"
pass "seek beside a real-time hog: $still of 40 samples labelled unknown"

run 0 "$HDDSCOPE" interval -q --op read --intervals 0:4:0.5 --reps 2 -o "$T/s.tsv" sim:atlas3
[ -z "$(hdr "$T/s.tsv" host_late)" ] || fail "host_late on a simulated drive: $(hdr "$T/s.tsv" host_late)"
awk -F'\t' '!/^#/ && $4 == "unknown" { bad++ } END { exit bad > 0 }' "$T/s.tsv" || fail "unknown rows on a simulated drive"
pass "no host delay on the simulated drive's virtual clock"
