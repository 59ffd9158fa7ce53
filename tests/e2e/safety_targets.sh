# Write targets that must be refused, and numbers that must not pass: every
# case exits with its code before any I/O, says so in one line, leaves the
# target byte-identical and writes nothing into the scratch directory.
# Refused: a regular file that backs a loop device (under its name, a stale
# name, a removed name), is active swap, is open for writing (a descriptor, a
# writable mapping) or open at all, or locked by another process; a read-only
# loop device; a file on a read-only mount; the target named as the data
# file (by another link too).  Numbers out of range: --step,
# --intervals, --time, --span.  Then the hold for the run: a writer that opens
# the file mid-run stops it (exit 3, data kept, target intact), a reader is
# let through and the run completes.
. "$(dirname "$0")/common.bash"

need_losetup
command -v python3 >/dev/null || fail "python3 missing"

scratch_image $((32 << 20))

# refuse EXIT REGEX TARGET CMD...: CMD (with -o into the scratch directory
# added) exits EXIT with exactly one "hddscope:" line matching REGEX, TARGET
# is unchanged and the scratch directory holds what it held before.
N=0
refuse() {
	local want=$1 re=$2 target=$3 before after sum
	shift 3
	sum=$(sha256sum <"$target")
	before=$(ls -A "$S" | sort)
	"$@" >"$T/out" 2>"$T/err"
	local rc=$?
	[ "$rc" = "$want" ] || { cat "$T/err" >&2; fail "'$*' exited $rc, want $want"; }
	[ "$(grep -c '^hddscope:' "$T/err")" = 1 ] || { cat "$T/err" >&2; fail "'$*': not one message line"; }
	grep -Eq -- "$re" "$T/err" || { cat "$T/err" >&2; fail "'$*': stderr does not match '$re'"; }
	[ "$(grep -vc "^Try 'hddscope" "$T/err")" = 1 ] || { cat "$T/err" >&2; fail "'$*': more on stderr"; }
	[ "$(sha256sum <"$target")" = "$sum" ] || fail "'$*' changed $target"
	after=$(ls -A "$S" | sort)
	[ "$before" = "$after" ] || fail "'$*' left files: $(comm -13 <(echo "$before") <(echo "$after"))"
	N=$((N + 1))
}

# hold CMD: runs CMD in the background and waits until it says "held".
hold() {
	rm -f "$T/held"
	background "$@"
	for _ in $(seq 600); do [ -s "$T/held" ] && return 0; sleep 0.05; done
	fail "holder '$*' did not start"
}
unhold() {
	local p=${PIDS[-1]}
	kill "$p" 2>/dev/null
	wait "$p" 2>/dev/null
	unset 'PIDS[-1]'
}

# detach DEV: a loop device of ours let go at once, and forgotten: its number
# may be another test's by the time this one ends.
# The kernel detaches only at the last close (udev may still be probing).
detach() {
	losetup -d "$1" || fail "losetup -d $1"
	for i in "${!LOOPS[@]}"; do [ "${LOOPS[$i]}" = "$1" ] && unset "LOOPS[$i]"; done
	for _ in $(seq 200); do [ -e "/sys/block/${1#/dev/}/loop/backing_file" ] || return 0; sleep 0.05; done
	fail "$1 still bound after losetup -d"
}

seekw() { echo "$HDDSCOPE" seek -q --op write --write --samples 50 -o "$S/out.tsv"; }

# A file backing a loop device: under its own name, after a rename (the
# kernel's name follows it), and with the name it was attached by removed
# (the kernel shows "(deleted)"; the device still names the inode).
attach_loop dev "$img" || skip "losetup unusable: $(cat "$T/err")"
refuse 2 "^hddscope: $img: backs $dev; refusing to write$" "$img" $(seekw) "$img"
refuse 2 "backs $dev; refusing to write" "$img" "$HDDSCOPE" bench -q --write --time 1s -o "$S/out.tsv" "$img"
refuse 2 "backs $dev; refusing to write" "$img" "$HDDSCOPE" interval -q --write -o "$S/out.tsv" "$img"
mv "$img" "$S/renamed.img"
refuse 2 "^hddscope: $S/renamed.img: backs $dev; refusing to write$" "$S/renamed.img" $(seekw) "$S/renamed.img"
mv "$S/renamed.img" "$img"
detach "$dev"
ln "$img" "$S/link.img"
attach_loop dev "$S/link.img" || fail "losetup on a link: $(cat "$T/err")"
rm "$S/link.img"
grep -q '(deleted)' "/sys/block/${dev#/dev/}/loop/backing_file" || fail "the kernel kept the removed name"
refuse 2 "^hddscope: $img: backs $dev; refusing to write$" "$img" $(seekw) "$img"
detach "$dev"

# A read-only loop device, and a file on a read-only mount.
attach_loop dev "$img" -r || fail "losetup -r: $(cat "$T/err")"
refuse 2 "^hddscope: $dev: read-only device; refusing to write$" "$img" $(seekw) "$dev"
refuse 2 "^hddscope: $dev: read-only device; refusing to write$" "$img" \
	"$HDDSCOPE" response -q --write --points 40 --reps 1 -o "$S/out.tsv" "$dev"
detach "$dev"
mkdir "$T/ro"
if mount --bind "$S" "$T/ro" 2>/dev/null; then
	MOUNTS+=("$T/ro")
	mount -o remount,ro,bind "$T/ro" || fail "remount read-only"
	refuse 2 "^hddscope: $T/ro/disk.img: on a read-only file system; refusing to write$" "$img" \
		$(seekw) "$T/ro/disk.img"
	umount "$T/ro"
else
	echo "note: bind mounts unavailable: read-only file system case skipped" >&2
fi
pass "loop devices and read-only targets refused"

# Writers: a descriptor open for writing, a writable shared mapping whose
# descriptor is closed, a shell's append redirection; any other open; locks.
hold python3 -c 'import os,sys,time; fd=os.open(sys.argv[1], os.O_WRONLY); open(sys.argv[2],"w").write("held"); time.sleep(300)' "$img" "$T/held"
refuse 2 "^hddscope: $img: open for writing by another process; refusing to write$" "$img" $(seekw) "$img"
refuse 2 "open for writing by another process; refusing to write" "$img" \
	"$HDDSCOPE" bench -q --write --time 1s -o "$S/out.tsv" "$img"
unhold
hold python3 -c 'import mmap,os,sys,time
fd=os.open(sys.argv[1], os.O_RDWR); m=mmap.mmap(fd, 4096); os.close(fd)
open(sys.argv[2],"w").write("held"); time.sleep(300)' "$img" "$T/held"
refuse 2 "^hddscope: $img: open for writing by another process; refusing to write$" "$img" $(seekw) "$img"
unhold
hold bash -c 'exec 3>>"$1"; echo held >"$2"; exec sleep 300' sh "$img" "$T/held"
refuse 2 "open for writing by another process; refusing to write" "$img" \
	"$HDDSCOPE" interval -q --write -o "$S/out.tsv" "$img"
unhold
hold bash -c 'exec 3<"$1"; echo held >"$2"; exec sleep 300' sh "$img" "$T/held"
refuse 2 "^hddscope: $img: open by another process; refusing to write$" "$img" $(seekw) "$img"
unhold
# One process holds each lock: a flock(1) wrapper would leave its child holding it.
locker='import fcntl,os,sys,time; fd=os.open(sys.argv[1], os.O_RDONLY)
fcntl.flock(fd, fcntl.LOCK_EX if sys.argv[3] == "x" else fcntl.LOCK_SH)
open(sys.argv[2],"w").write("held"); time.sleep(300)'
hold python3 -c "$locker" "$img" "$T/held" x
refuse 2 "^hddscope: $img: locked by another process; refusing to write$" "$img" $(seekw) "$img"
unhold
hold python3 -c "$locker" "$img" "$T/held" s
refuse 2 "locked by another process; refusing to write" "$img" \
	"$HDDSCOPE" response -q --write --points 40 --reps 1 -o "$S/out.tsv" "$img"
unhold
pass "files in use refused"

# Active swap, where this machine lets a file in the scratch directory be one.
sw=$S/swap.img
head -c $((16 << 20)) /dev/zero >"$sw"
chmod 600 "$sw"
if mkswap "$sw" >/dev/null 2>&1 && swapon "$sw" 2>/dev/null; then
	SWAPS+=("$sw")
	refuse 2 "^hddscope: $sw: in use as swap; refusing to write$" "$sw" $(seekw) "$sw"
	refuse 2 "in use as swap; refusing to write" "$sw" "$HDDSCOPE" bench -q --write --time 1s -o "$S/out.tsv" "$sw"
	swapoff "$sw"
	pass "active swap refused"
else
	echo "note: swapon refuses a file here: swap cases skipped" >&2
fi
rm -f "$sw"

# The data file named as the target, by its name or another link: renaming
# the data file into place would replace the target's bytes.
refuse 2 "^hddscope: $img: is the target; refusing to write the data file over it$" "$img" \
	"$HDDSCOPE" seek -q --op write --write --samples 50 -o "$img" "$img"
ln "$img" "$S/alias.img"
refuse 2 "^hddscope: $S/alias.img: is the target; refusing to write the data file over it$" "$img" \
	"$HDDSCOPE" seek -q -o "$S/alias.img" "$img"
rm "$S/alias.img"
pass "the target as the data file refused"

# Numbers out of range: refused before any conversion, exit 1, one line.
for a in 1e-300 1e300 0.0001 25 0; do
	refuse 1 "^hddscope: --step '$a': must be between 0.001 and 20 milliseconds$" "$img" \
		"$HDDSCOPE" interval -q --write --step "$a" -o "$S/out.tsv" "$img"
done
for a in 0:20:1e-300 0:1e300:1 1e300:1e300:1 0:20:1e300; do
	refuse 1 "^hddscope: --intervals '$a': FROM and TO must be between 0 and 60000 ms" "$img" \
		"$HDDSCOPE" interval -q --write --intervals "$a" -o "$S/out.tsv" "$img"
done
refuse 1 "^hddscope: --intervals: 1e\+300 ms: must be between 0 and 60000$" "$img" \
	"$HDDSCOPE" interval -q --write --intervals 5,1e300 -o "$S/out.tsv" "$img"
for a in 1e300 1e-300 2000000s 1e-3ns; do
	refuse 1 "^hddscope: --time '$a': must be between 1ns and 1000000s$" "$img" \
		"$HDDSCOPE" bench -q --write --time "$a" -o "$S/out.tsv" "$img"
	refuse 1 "^hddscope: --time '$a': must be between 1ns and 1000000s$" "$img" \
		"$HDDSCOPE" queue -q --time "$a" -o "$S/out.tsv" "$img"
done
refuse 1 "^hddscope: --span 1: must be at least two blocks \(8192 bytes with --block 4096\)$" "$img" \
	"$HDDSCOPE" bench -q --write --span 1 -o "$S/out.tsv" "$img"
refuse 1 "^hddscope: --span 8192: must be at least two blocks \(16384 bytes with --block 8192\)$" "$img" \
	"$HDDSCOPE" bench -q --span 8k --block 8k -o "$S/out.tsv" sim:atlas3
pass "numbers out of range refused"
[ "$(sha256sum <"$img")" = "$sum0" ] || fail "the target changed"
pass "$N bad-input cases"

# The hold for the run.  A writer that opens the file mid-run waits; the run
# stops after the access in flight (exit 3, complete: no) and the writer's
# open completes once the file is closed.  A reader is let in at once.
background "$HDDSCOPE" seek -q --op write --write --samples 50000000 -o "$S/w.tsv" "$img" 2>"$T/err"
started $pid "$S/w.tsv.tmp.*" || fail "the run did not start"
sleep 0.5
timeout 120 bash -c 'exec 3>>"$1"' sh "$img" || fail "the writer's open did not complete"
ended $pid 3 "a writer mid-run"
grep -Eq "^hddscope: $img: opened for writing by another process; stopped: [0-9]+ of 50000000 samples kept in $S/w.tsv \(complete: no\)$" "$T/err" ||
	{ cat "$T/err" >&2; fail "a writer mid-run: message"; }
[ "$(hdr "$S/w.tsv" complete)" = no ] || fail "a writer mid-run: complete"
[ "$(grep -vc '^#' "$S/w.tsv")" = "$(hdr "$S/w.tsv" samples)" ] || fail "a writer mid-run: rows"
[ "$(sha256sum <"$img")" = "$sum0" ] || fail "a writer mid-run: the target changed"
compgen -G "$S/*.tmp.*" >/dev/null && fail "a writer mid-run: temporary file left"
pass "a writer opening the file mid-run stops it, nothing lost"

background "$HDDSCOPE" bench -q --write --time 2s --span 8m -o "$S/r.tsv" "$img" >/dev/null 2>"$T/err"
started $pid "$S/r.tsv.tmp.*" || fail "the run did not start"
sleep 0.5
timeout 30 cat "$img" >/dev/null || fail "a reader mid-run was kept waiting"
kill -0 $pid 2>/dev/null || fail "the run ended when a reader opened the file"
ended $pid 0 "a reader mid-run"
[ "$(hdr "$S/r.tsv" complete)" = yes ] || fail "a reader mid-run: complete"
[ "$(sha256sum <"$img")" = "$sum0" ] || fail "a reader mid-run: the target changed"
pass "a reader is let through, the run completes"
