# Sourced by the end-to-end tests: paths, failure reporting, data file checks.
set -u
: "${HDDSCOPE:?set HDDSCOPE to the hddscope binary}"
: "${HDDSCOPE_SRC:=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
export HDDSCOPE_PLOTS="${HDDSCOPE_PLOTS:-$HDDSCOPE_SRC/plots}"
export LC_ALL=C

# What a test leaves to be undone at exit: processes started with background
# (killed), swap files, mounts and loop devices, and the scratch directory $T.
T=$(mktemp -d /tmp/hddscope-e2e.XXXXXX)
PIDS=()
SWAPS=()
LOOPS=()
MOUNTS=()
cleanup() {
	for p in "${PIDS[@]}"; do kill -KILL "$p" 2>/dev/null; done
	for s in "${SWAPS[@]}"; do swapoff "$s" 2>/dev/null; done
	for m in "${MOUNTS[@]}"; do umount "$m" 2>/dev/null; done
	for l in "${LOOPS[@]}"; do losetup -d "$l" 2>/dev/null; done
	rm -rf "$T"
}
trap cleanup EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*" >&2; exit 77; }
pass() { echo "ok: $*"; }

# background CMD...: starts CMD in the background (with the caller's
# redirections), its process id in $pid and at the end of PIDS; killed at exit.
background() {
	"$@" &
	pid=$!
	PIDS+=("$pid")
}

# started PID GLOB: wait (up to 60 s) until the run PID has created GLOB;
# fails (returns 1) when PID ends first.
started() {
	for _ in $(seq 1200); do
		compgen -G "$2" >/dev/null && return 0
		kill -0 "$1" 2>/dev/null || return 1
		sleep 0.05
	done
	return 1
}

# ended PID WANT WHAT: waits (up to 120 s: the machine may be busy) until the
# run PID started with background ends; fails, with its stderr ($T/err), unless
# it exited WANT.  The exit code in $rc.
ended() {
	timeout 120 tail --pid="$1" -f /dev/null || fail "$3: did not end"
	wait "$1"
	rc=$?
	[ "$rc" = "$2" ] || { cat "$T/err" >&2; fail "$3: exit $rc, want $2"; }
}

# random_file FILE SIZE: FILE holds SIZE random bytes.
random_file() { head -c "$2" /dev/urandom >"$1" || fail "cannot create $1"; }

# scratch_image SIZE: a scratch directory $S holding $img, SIZE random bytes,
# and $sum0, its SHA-256.
scratch_image() {
	S=$T/scratch
	mkdir "$S" || fail "cannot create $S"
	img=$S/disk.img
	random_file "$img" "$1"
	sum0=$(sha256sum <"$img")
}

# need_losetup: skips unless this is root with losetup.
need_losetup() {
	[ "$(id -u)" = 0 ] || skip "needs root for losetup"
	command -v losetup >/dev/null || skip "no losetup"
}

# attach_loop VAR FILE [OPTION...]: attaches FILE (with losetup's OPTIONs) to a
# free loop device, detached at exit, and names it in VAR; returns nonzero
# with losetup's message in $T/err where it cannot.
attach_loop() {
	local var=$1 file=$2 d
	shift 2
	d=$(losetup "$@" -f --show "$file" 2>"$T/err") || return 1
	LOOPS+=("$d")
	printf -v "$var" %s "$d"
}

# loop_image SIZE: $img ($T/disk.img), SIZE random bytes, on the loop device
# $dev, whose SHA-256 is $sum0; skips where loop devices cannot be had.
loop_image() {
	need_losetup
	img=$T/disk.img
	random_file "$img" "$1"
	attach_loop dev "$img" || skip "losetup unusable: $(cat "$T/err")"
	sum0=$(sha256sum <"$dev")
}

# run EXPECTED_EXIT CMD...: runs CMD, output in $T/out and $T/err, checks the exit code.
run() {
	local want=$1; shift
	"$@" >"$T/out" 2>"$T/err"
	local rc=$?
	[ "$rc" -eq "$want" ] || { cat "$T/err" >&2; fail "'$*' exited $rc, want $want"; }
}

# expect_err REGEX: the last command's stderr matches.
expect_err() {
	grep -Eq -- "$1" "$T/err" || { cat "$T/err" >&2; fail "stderr does not match '$1'"; }
}

# wait_io PID N: until process PID has made N read and write system calls.  A probe
# makes one per access and fewer than 150 before its sampling loop, so a signal sent
# after wait_io PID 300 lands among the samples however slow or busy the machine;
# a fixed sleep instead fails on a loaded machine (a sanitizer build under load can
# take over a second to reach its first sample).  Fails after 300 s, or when PID ends.
# (the main thread's: where no cpuidle driver reads PM QoS, the process's
# idle-priority spinners read /proc/loadavg each millisecond)
wait_io() {
	local pid=$1 want=$2 n=0 i
	for i in $(seq 6000); do
		n=$(awk '/^sysc[rw]:/ { s += $2 } END { print s + 0 }' "/proc/$pid/task/$pid/io" 2>/dev/null)
		[ "${n:-0}" -ge "$want" ] && return 0
		kill -0 "$pid" 2>/dev/null || fail "process $pid ended after ${n:-0} of $want system calls"
		sleep 0.05
	done
	fail "process $pid made ${n:-0} of $want read and write system calls in 300 s"
}

# wait_for_children PID N: until PID has N child processes (300 s at most).
wait_for_children() {
	local i
	for i in $(seq 6000); do
		[ "$(pgrep -P "$1" | wc -l)" -ge "$2" ] && return 0
		sleep 0.05
	done
	fail "process $1 never had $2 children"
}

# hdr FILE KEY: a header value.
hdr() { sed -n "s/^# $2: //p" "$1" | head -n 1; }

# halts: the summed usage counts of the CPUs' idle states that take time to
# leave (exit latency above 0 us); have_cpuidle: the kernel shows them.
halts() {
	local s n=0
	for s in /sys/devices/system/cpu/cpu[0-9]*/cpuidle/state[0-9]*; do
		[ "$(cat "$s/latency")" -gt 0 ] && n=$((n + $(cat "$s/usage")))
	done
	echo "$n"
}
have_cpuidle() { ls /sys/devices/system/cpu/cpu0/cpuidle/state1/latency >/dev/null 2>&1; }
# idle_driver: the kernel's cpuidle driver ("none" where it has none: then
# no PM QoS request keeps a CPU from halting, and a probe holds the CPUs with
# an idle-priority thread spinning on each instead).
idle_driver() { cat /sys/devices/system/cpu/cpuidle/current_driver 2>/dev/null || echo none; }
# held_note: what a header's cpu_idle says while the CPUs are held; where no
# driver reads the request, one of two: this process spins, or another
# hddscope process (one set of spinners a machine) does.
held_note() {
	if [ "$(idle_driver)" = none ]; then
		echo "polled (an idle-priority thread spinning on each of $(nproc) CPUs: the kernel has no cpuidle driver to read PM QoS)"
		echo "polled (another hddscope process's idle-priority threads spin on each CPU: the kernel has no cpuidle driver to read PM QoS)"
	else
		echo "polled (PM QoS 0 us on /dev/cpu_dma_latency)"
	fi
}
# is_held_note TEXT: TEXT is one of held_note's.
is_held_note() { held_note | grep -qxF -- "$1"; }
# idle_ticks: the CPUs' summed idle and iowait time from /proc/stat, in ticks.
idle_ticks() { awk '$1 == "cpu" { print $5 + $6 }' /proc/stat; }
# spinners PID: how many of PID's threads run at SCHED_IDLE; all_spinners:
# how many threads of hddscope processes do, on the whole machine.
spinners() { ps -L -o cls= -p "$1" | grep -c IDL; }
all_spinners() { ps -eL -o cls=,comm= | awk '$1 == "IDL" && $2 == "hddscope"' | grep -c ''; }
# spin_ticks: the CPU time, in ticks, that hddscope's SCHED_IDLE threads have
# taken so far (user and system, summed over the machine).
spin_ticks() {
	local p t n=0 v
	while read -r p t; do
		v=$(awk '{ sub(/^.*\) /, ""); print $12 + $13 }' "/proc/$p/task/$t/stat" 2>/dev/null) && n=$((n + v))
	done < <(ps -eL -o cls=,comm=,pid=,lwp= | awk '$1 == "IDL" && $2 == "hddscope" { print $3, $4 }')
	echo "$n"
}
# qos_now: the CPUs' PM QoS latency target in force, in us (2000000000: no request).
qos_now() { od -An -td4 /dev/cpu_dma_latency | tr -d ' '; }

# check_seek FILE SAMPLES BLOCK: the assertions every seek data file must pass.
check_seek() {
	local f=$1 n=$2 block=$3
	local cap range min al
	head -n 1 "$f" | grep -qx '# hddscope-data 1' || fail "$f: no format line"
	for k in test device capacity_bytes sector_bytes reference_bytes range_bytes min_bytes params \
		cache_threshold_ms started complete samples; do
		[ -n "$(hdr "$f" $k)" ] || fail "$f: header lacks $k"
	done
	[ "$(hdr "$f" test)" = seek ] || fail "$f: test is not seek"
	[ "$(hdr "$f" complete)" = yes ] || fail "$f: not complete"
	grep -qx '# columns: distance_bytes offset_bytes latency_ms op class delay_ms' "$f" || fail "$f: columns line"
	cap=$(hdr "$f" capacity_bytes); range=$(hdr "$f" range_bytes); min=$(hdr "$f" min_bytes)
	al=$(hdr "$f" sector_bytes)
	awk -F'\t' -v n="$n" -v cap="$cap" -v range="$range" -v min="$min" -v al="$al" -v block="$block" '
		/^#/ { next }
		{
			rows++
			if (NF != 6) { print "line " NR ": " NF " fields"; bad++ }
			if ($6 + 0 < 0) { print "line " NR ": delay " $6; bad++ }
			d = $1 + 0; off = $2 + 0; a = d < 0 ? -d : d
			if (a < min || a > range) { print "line " NR ": |d|=" a " outside [" min "," range "]"; bad++ }
			if (off % al != 0 || d % al != 0) { print "line " NR ": unaligned " off; bad++ }
			if (off < 0 || off + block > cap) { print "line " NR ": outside the device " off; bad++ }
			if ($3 + 0 <= 0) { print "line " NR ": latency " $3; bad++ }
			# unknown: a write the cache may or may not have taken, or a sample whose
			# reference read kept looking like a cache hit (the timing of a busy machine
			# does that to a file on the disk of the host).
			if ($5 != "media" && $5 != "cache" && $5 != "unknown") { print "line " NR ": class " $5; bad++ }
			neg += d < 0; pos += d > 0
		}
		END {
			if (rows != n) { print "rows " rows ", want " n; bad++ }
			if (neg < n / 4 || pos < n / 4) { print "signs: " neg " negative, " pos " positive"; bad++ }
			exit bad > 0
		}' "$f" || fail "$f: sample checks"
}

# disksim_import NAME...: DiskSim 4.0's validated models NAME.parv (valid/ of ../shared/disksim's
# tarball), each imported with sim import into $T/NAME.drive; skips (77) without the tarball.
disksim_import() {
	local tarball=${HDDSCOPE_SHARED:-$HDDSCOPE_SRC/../shared}/disksim/disksim-4.0-src.tar.xz m
	[ -f "$tarball" ] || skip "no $tarball"
	tar -xJf "$tarball" -C "$T" --wildcards './valid/*' 2>/dev/null || tar -xJf "$tarball" -C "$T" --wildcards 'valid/*' ||
		fail "extract valid/ from $tarball"
	for m in "$@"; do
		[ -f "$T/valid/$m.parv" ] || fail "no valid/$m.parv in $tarball"
		run 0 "$HDDSCOPE" sim import "$T/valid/$m.parv" -o "$T/$m.drive"
	done
}
