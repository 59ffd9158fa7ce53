# HUP, INT, QUIT and TERM end a run alike: the access in flight finishes,
# the data file is kept and says complete: no, no NAME.tmp.PID remains, the
# target is byte-identical and the exit code is 128 + the signal.  Each
# signal is sent to a write run on a regular file (bench and seek) and on a
# simulated drive, to a queue run on a file (its client processes stop too)
# and to a profile.  Runs are long and the signal is sent once the run has
# started, so that a busy machine changes nothing but the number of samples.
. "$(dirname "$0")/common.bash"
command -v python3 >/dev/null || fail "python3 missing"

scratch_image $((32 << 20))

# sampling PID CMD...: until the run PID is among its samples, however busy the
# machine: on a simulated drive, once it has had 0.2 s of CPU (thousands of
# samples on the virtual clock); on a file, once it (for queue, its first
# client) has made 300 reads and writes (wait_io).
sampling() {
	local pid=$1 i t
	shift
	case "$*" in
	*sim:*)
		for i in $(seq 6000); do
			t=$(awk '{ print $14 + $15 }' "/proc/$pid/stat" 2>/dev/null)
			[ "${t:-0}" -ge $(($(getconf CLK_TCK) / 5)) ] && return 0
			kill -0 "$pid" 2>/dev/null || return 0
			sleep 0.05
		done
		fail "process $pid had no 0.2 s of CPU in 300 s" ;;
	*" queue "*)
		wait_for_children "$pid" 1
		wait_io "$(pgrep -P "$pid" | head -n 1)" 300 ;;
	*) wait_io "$pid" 300 ;;
	esac
}

# interrupt SIG OUT CMD...: start CMD (which writes OUT) in the background,
# send SIG once OUT's temporary exists and the run is sampling, and check the
# ending; $rc holds the exit code.
interrupt() {
	local sig=$1 out=$2 num
	shift 2
	num=$(kill -l "$sig")
	background "$@" >"$T/out" 2>"$T/err"
	started $pid "$out.tmp.*" || { cat "$T/err" >&2; fail "$sig: '$*' did not start"; }
	sampling $pid "$@"
	kill -"$sig" $pid
	# The run stops after one access, but the machine may be busy.
	ended $pid $((128 + num)) "$sig: '$*'"
	[ -f "$out" ] || fail "$sig: '$*' left no data file"
	compgen -G "$S/*.tmp.*" >/dev/null && fail "$sig: '$*' left $(ls "$S" | grep '\.tmp\.')"
	[ "$(sha256sum <"$img")" = "$sum0" ] || fail "$sig: '$*' changed the target"
	[ "$(grep -c '^hddscope: interrupted' "$T/err")" = 1 ] || { cat "$T/err" >&2; fail "$sig: '$*': not one interruption line"; }
	grep -v '^hddscope: warning: fit ' "$T/err" | grep -vq '^hddscope: interrupted' && { cat "$T/err" >&2; fail "$sig: '$*': more on stderr"; }
	return 0
}

# the samples kept: the header agrees with the rows, and the message says so.
kept() {
	local out=$1 sig=$2 of=$3 n
	n=$(hdr "$out" samples)
	[ "$(hdr "$out" complete)" = no ] || fail "$sig: $out does not say complete: no"
	[ "$n" -gt 0 ] || fail "$sig: $out: no samples"
	grep -Eq "^hddscope: interrupted by SIG$sig: $n$of samples kept in $out \(complete: no\)$" "$T/err" ||
		{ cat "$T/err" >&2; fail "$sig: message"; }
}

for sig in HUP INT QUIT TERM; do
	# bench counts accesses, not the milliseconds of its progress line.
	interrupt $sig "$S/bench-$sig.tsv" "$HDDSCOPE" bench -q --write --time 60s --span 8m -o "$S/bench-$sig.tsv" "$img"
	kept "$S/bench-$sig.tsv" $sig ""
	[ "$(grep -vc '^#' "$S/bench-$sig.tsv")" -ge 1 ] || fail "$sig: bench kept no row"
	grep -Eq "^$img \| [0-9.]+ \| (not run|[0-9.]+) \| not run \| not run$" "$T/out" ||
		{ cat "$T/out" >&2; fail "$sig: bench's row does not say which tests did not run"; }

	interrupt $sig "$S/seek-$sig.tsv" "$HDDSCOPE" seek -q --op write --write --samples 50000000 -o "$S/seek-$sig.tsv" "$img"
	kept "$S/seek-$sig.tsv" $sig " of 50000000"
	[ "$(grep -vc '^#' "$S/seek-$sig.tsv")" = "$(hdr "$S/seek-$sig.tsv" samples)" ] || fail "$sig: seek rows"

	interrupt $sig "$S/sim-$sig.tsv" "$HDDSCOPE" seek -q --op write --write --samples 50000000 -o "$S/sim-$sig.tsv" sim:atlas3
	kept "$S/sim-$sig.tsv" $sig " of 50000000"
	pass "SIG$sig: file and simulated drive, exit $rc, data kept, nothing left behind"
done

# queue: the parent stops its client processes; none survives.  Its progress
# counts thousandths of each client count, so the message gives no total.
interrupt HUP "$S/queue.tsv" "$HDDSCOPE" queue -q --procs 2,4 --time 60s -o "$S/queue.tsv" "$img"
kept "$S/queue.tsv" HUP ""
[ "$(hdr "$S/queue-requests.tsv" complete)" = no ] || fail "queue: requests file complete"
[ "$(grep -vc '^#' "$S/queue-requests.tsv")" = "$(hdr "$S/queue.tsv" samples)" ] || fail "queue: request rows"
pgrep -f "queue -q --procs 2,4 --time 60s -o $S/queue.tsv" >/dev/null && fail "queue: a client survived"
pass "SIGHUP stops queue and its clients"

# With --requests the number of samples is known: N of M.
interrupt TERM "$S/queue-n.tsv" "$HDDSCOPE" queue -q --procs 2,4 --requests 500000 -o "$S/queue-n.tsv" "$img"
kept "$S/queue-n.tsv" TERM " of 3000000"
pass "SIGTERM stops queue --requests"

# profile: the probe running stops (whichever it is by then; a fit of what
# was kept may warn), the rest are skipped, the summary says so.
interrupt QUIT "$S/p/seek-read.tsv" "$HDDSCOPE" profile -q --write --no-charts -o "$S/p" "$img"
python3 - "$S/p/summary.json" <<'PY' || fail "profile: summary.json"
import json, sys
s = json.load(open(sys.argv[1]))
assert s["complete"] is False, s["complete"]
codes = {n: (p["exit_code"], p["complete"]) for n, p in s["probes"].items()}
stopped = [n for n, c in codes.items() if c == (131, False)]
assert len(stopped) == 1 and all(c == (0, True) for n, c in codes.items() if n not in stopped), codes
PY
pass "SIGQUIT stops a profile with 131"

# nohup: a HUP ignored from the start stays ignored, the run completes.
background nohup "$HDDSCOPE" bench -q --write --time 1s --span 8m -o "$S/nohup.tsv" "$img" >"$T/out" 2>"$T/err"
started $pid "$S/nohup.tsv.tmp.*" || fail "nohup: the run did not start"
kill -HUP $pid
ended $pid 0 nohup
[ "$(hdr "$S/nohup.tsv" complete)" = yes ] || fail "nohup: not complete"
[ "$(sha256sum <"$img")" = "$sum0" ] || fail "nohup: the target changed"
pass "a run under nohup outlives a HUP"
