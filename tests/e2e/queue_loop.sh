# queue on a loop device: forked clients each open the block device again (O_DIRECT,
# read-only), every client runs, counts add up; the device is not changed.  The I/O
# scheduler is none during the probe, recorded in the header, and put back afterwards
# (with nr_requests), also after Ctrl-C and I/O errors.
. "$(dirname "$0")/common.bash"

loop_image $((128 << 20))

run 0 "$HDDSCOPE" queue --procs 1,2,4,8 --requests 500 -o "$T/q.tsv" "$dev"
cat "$T/err"
[ "$(hdr "$T/q.tsv" device_kind)" = "block device" ] || fail "device_kind"
[ "$(hdr "$T/q.tsv" direct_io)" = yes ] || fail "direct_io"
awk -F'\t' '!/^#/ { if ($2 != $1 * 500 || !($3 > 0)) bad++; n++ } END { exit bad > 0 || n != 4 }' "$T/q.tsv" ||
	fail "summary rows"
awk -F'\t' '!/^#/ { k = $1 SUBSEP $2; if (!(k in p)) { p[k] = $3; pids[$1]++ } if (p[k] != $3) bad++; cnt[k]++ }
	END { for (k in cnt) if (cnt[k] != 500) bad++; exit bad > 0 || pids[1] != 1 || pids[2] != 2 || pids[4] != 4 || pids[8] != 8 }' \
	"$T/q-requests.tsv" || fail "request rows"
[ "$(sha256sum <"$dev")" = "$sum0" ] || fail "queue changed the loop device"
pass "queue on a loop device"

# The I/O scheduler: queue sets it to none for the run (the drive's own reordering is what
# is measured), records what was in effect, and puts back the scheduler and nr_requests
# that were there, after a normal end, a refusal and Ctrl-C.
q=/sys/block/$(basename "$dev")/queue
[ -w "$q/scheduler" ] || skip "no writable $q/scheduler"
other=$(tr -d '[]' <"$q/scheduler" | tr ' ' '\n' | grep -vx none | grep -v '^$' | head -n 1)
[ -n "$other" ] || skip "the kernel offers no scheduler but none for $dev"
active() { sed -n 's/.*\[\(.*\)\].*/\1/p' "$q/scheduler"; }
echo "$other" >"$q/scheduler" || fail "cannot set $other on $dev"
echo 37 >"$q/nr_requests" || fail "cannot set nr_requests on $dev"
[ "$(active)" = "$other" ] && [ "$(cat "$q/nr_requests")" = 37 ] || fail "setup: $(cat "$q/scheduler") $(cat "$q/nr_requests")"

run 0 "$HDDSCOPE" queue -q --procs 1,4 --requests 100 -o "$T/s.tsv" "$dev"
[ "$(hdr "$T/s.tsv" scheduler)" = none ] || fail "header scheduler '$(hdr "$T/s.tsv" scheduler)', want none"
[ "$(hdr "$T/s.tsv" scheduler_setting)" = "none for the run (it was $other, put back at the end with its nr_requests)" ] ||
	fail "scheduler_setting '$(hdr "$T/s.tsv" scheduler_setting)'"
# nr_requests and queue_depth are recorded as the kernel showed them during the run: not
# invented (a loop device has no device/queue_depth).
[ "$(hdr "$T/s.tsv" nr_requests)" -gt 0 ] 2>/dev/null || fail "header nr_requests '$(hdr "$T/s.tsv" nr_requests)'"
[ "$(hdr "$T/s.tsv" nr_requests)" != 37 ] || fail "header nr_requests 37 is the value before the switch"
want_qd=unknown
[ -r "$q/../device/queue_depth" ] && want_qd=$(cat "$q/../device/queue_depth")
[ "$(hdr "$T/s.tsv" queue_depth)" = "$want_qd" ] || fail "header queue_depth '$(hdr "$T/s.tsv" queue_depth)', want $want_qd"
[ "$(hdr "$T/s.tsv" zoned)" = "$(cat "$q/zoned")" ] || fail "header zoned '$(hdr "$T/s.tsv" zoned)'"
[ "$(active)" = "$other" ] || fail "scheduler not restored after a run: $(cat "$q/scheduler")"
[ "$(cat "$q/nr_requests")" = 37 ] || fail "nr_requests not restored after a run: $(cat "$q/nr_requests")"
pass "scheduler none for the run, recorded, restored with nr_requests"

run 0 "$HDDSCOPE" queue -q --procs 1 --requests 50 --scheduler keep -o "$T/k.tsv" "$dev"
[ "$(hdr "$T/k.tsv" scheduler)" = "$other" ] || fail "keep: header scheduler '$(hdr "$T/k.tsv" scheduler)'"
[ "$(hdr "$T/k.tsv" nr_requests)" = 37 ] || fail "keep: header nr_requests '$(hdr "$T/k.tsv" nr_requests)'"
run 2 "$HDDSCOPE" queue -q --procs 1 --requests 50 --scheduler no-such-elevator -o "$T/n.tsv" "$dev"
expect_err "'no-such-elevator' is not an I/O scheduler $dev offers \(.*\); nothing measured$"
[ ! -e "$T/n.tsv" ] || fail "refused run left a data file"
run 1 "$HDDSCOPE" queue -q --scheduler ../x "$dev"
expect_err "^hddscope: --scheduler '../x': must be none, keep or the name of an I/O scheduler$"
[ "$(active)" = "$other" ] && [ "$(cat "$q/nr_requests")" = 37 ] || fail "keep or a refusal changed the queue"
pass "keep changes nothing; an unknown scheduler is refused before any I/O"

# Ctrl-C: none while the clients read, everything put back afterwards.
background "$HDDSCOPE" queue -q --procs 2 --time 120s -o "$T/c.tsv" "$dev" >"$T/out" 2>"$T/err"
wait_for_children "$pid" 2
wait_io "$(pgrep -P "$pid" | head -n 1)" 300
[ "$(active)" = none ] || fail "scheduler during the run: $(cat "$q/scheduler")"
kill -INT "$pid"
ended "$pid" 130 "queue interrupted"
[ "$(active)" = "$other" ] || fail "scheduler not restored after Ctrl-C: $(cat "$q/scheduler")"
[ "$(cat "$q/nr_requests")" = 37 ] || fail "nr_requests not restored after Ctrl-C: $(cat "$q/nr_requests")"
[ "$(hdr "$T/c.tsv" complete)" = no ] && [ "$(hdr "$T/c.tsv" scheduler)" = none ] || fail "interrupted run's header"
pass "scheduler restored after Ctrl-C"
[ "$(sha256sum <"$dev")" = "$sum0" ] || fail "the scheduler tests changed the loop device"

# I/O errors: the device shrinks to nothing under the run, which stops (exit 3) and puts the
# scheduler back all the same.
background "$HDDSCOPE" queue -q --procs 2 --time 120s -o "$T/e.tsv" "$dev" >"$T/out" 2>"$T/err"
wait_for_children "$pid" 2
wait_io "$(pgrep -P "$pid" | head -n 1)" 300
[ "$(active)" = none ] || fail "scheduler during the failing run: $(cat "$q/scheduler")"
truncate -s 0 "$img"
losetup -c "$dev"
ended "$pid" 3 "queue on a vanishing device"
expect_err "stopped after 10 consecutive failed accesses"
[ "$(active)" = "$other" ] || fail "scheduler not restored after I/O errors: $(cat "$q/scheduler")"
[ "$(cat "$q/nr_requests")" = 37 ] || fail "nr_requests not restored after I/O errors: $(cat "$q/nr_requests")"
pass "scheduler restored after I/O errors"
