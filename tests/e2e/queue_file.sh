# queue on a regular file: both data files with their headers and consistent counts;
# one process per client, none left behind after a normal run, Ctrl-C, or the parent
# being killed outright; the chart of both files.
. "$(dirname "$0")/common.bash"

img=$T/disk.img
head -c $((64 << 20)) /dev/urandom >"$img" || fail "cannot create $img"
sum0=$(sha256sum <"$img")

run 0 "$HDDSCOPE" queue --quiet --procs 1,2,5 --requests 120 -o "$T/q.tsv" "$img"
f=$T/q.tsv r=$T/q-requests.tsv
[ -s "$r" ] || fail "no per-request file $r"
for x in "$f" "$r"; do
	head -n 1 "$x" | grep -qx '# hddscope-data 1' || fail "$x: no format line"
	[ "$(hdr "$x" test)" = queue ] || fail "$x: test is not queue"
	[ "$(hdr "$x" complete)" = yes ] || fail "$x: not complete"
	[ "$(hdr "$x" device_kind)" = "regular file" ] || fail "$x: device_kind"
done
grep -qx '# columns: procs requests iops mb_s lat_mean_ms lat_p50_ms lat_p90_ms lat_p99_ms lat_max_ms' "$f" ||
	fail "summary columns"
grep -qx '# columns: procs client pid offset_bytes start_ms latency_ms class' "$r" || fail "request columns"
[ "$(hdr "$f" requests_file)" = "$r" ] || fail "requests_file header"
[ "$(hdr "$r" table)" = requests ] || fail "table header"
[ "$(hdr "$f" samples)" = $(((1 + 2 + 5) * 120)) ] || fail "samples $(hdr "$f" samples)"
[ "$(hdr "$r" samples)" = $(((1 + 2 + 5) * 120)) ] || fail "requests samples"
# Summary rows: exactly N x 120 requests for N = 1, 2, 5; positive IOPS; ordered percentiles.
awk -F'\t' '!/^#/ {
		n++; want = $1 * 120
		if ($2 != want) { print "procs " $1 ": " $2 " requests, want " want; bad++ }
		if (!($3 > 0) || !($4 > 0)) { print "procs " $1 ": iops " $3 " mb_s " $4; bad++ }
		if (!($6 <= $7 && $7 <= $8 && $8 <= $9 && $6 > 0)) { print "procs " $1 ": percentiles " $6 " " $7 " " $8 " " $9; bad++ }
		if ($4 - $3 * 4096 / 1e6 > 0.001 || $3 * 4096 / 1e6 - $4 > 0.001) { print "mb_s " $4 " vs iops " $3; bad++ }
	}
	END { if (n != 3) { print n " rows"; bad++ } exit bad > 0 }' "$f" || fail "summary rows"
# Request rows: per N, N distinct pids, 120 rows each, aligned offsets inside the file.
awk -F'\t' -v size=$((64 << 20)) '!/^#/ {
		k = $1 SUBSEP $2
		if (!(k in pid)) { pid[k] = $3; pids[$1]++; if ($3 in seenpid) { print "pid " $3 " reused"; bad++ } seenpid[$3] = 1 }
		if (pid[k] != $3) { print "client " $2 " of " $1 ": two pids"; bad++ }
		cnt[k]++
		if ($4 % 4096 || $4 + 4096 > size) { print "offset " $4; bad++ }
		if (!($6 > 0)) { print "latency " $6; bad++ }
	}
	END {
		if (pids[1] != 1 || pids[2] != 2 || pids[5] != 5) { print "pids per N: " pids[1] " " pids[2] " " pids[5]; bad++ }
		for (k in cnt) if (cnt[k] != 120) { print "client count " cnt[k]; bad++ }
		exit bad > 0
	}' "$r" || fail "request rows"
[ "$(sha256sum <"$img")" = "$sum0" ] || fail "queue changed the file"
pass "files, counts and one process per client"

# The clients are gone: every pid of the run is dead (reaped, no zombies).
for p in $(grep -v '^#' "$r" | cut -f3 | sort -u); do
	if grep -q hddscope /proc/$p/cmdline 2>/dev/null; then fail "client $p survived"; fi
done
pass "clients reaped"

# --time: the default mode, on a fraction of a second.
run 0 "$HDDSCOPE" queue --quiet --procs 3 --time 300ms -o "$T/t.tsv" "$img"
awk -F'\t' '!/^#/ { if ($5 < 0 || $5 >= 300) bad++; seen[$2] = 1 } END { exit bad > 0 || length(seen) != 3 }' \
	"$T/t-requests.tsv" || fail "--time: starts outside [0, 300 ms) or a client missing"
pass "time-bounded run"

# Ctrl-C: the parent stops the clients, keeps what they measured, exit 130, no client survives.
"$HDDSCOPE" queue --quiet --procs 4,8 --time 60s -o "$T/int.tsv" "$img" 2>"$T/err" &
pid=$!
wait_for_children $pid 4
kids=$(pgrep -P $pid | tr '\n' ' ')
# A client past the start barrier, reading: there are requests to keep.
wait_io ${kids%% *} 300
kill -INT $pid
wait $pid
rc=$?
[ "$rc" = 130 ] || { cat "$T/err" >&2; fail "interrupted queue exited $rc, want 130"; }
[ "$(hdr "$T/int.tsv" complete)" = no ] || fail "interrupted summary does not say complete: no"
[ "$(hdr "$T/int-requests.tsv" complete)" = no ] || fail "interrupted requests file does not say complete: no"
[ "$(grep -vc '^#' "$T/int.tsv")" = 1 ] || fail "interrupted summary: want the one row for 4 clients"
[ "$(grep -vc '^#' "$T/int-requests.tsv")" -gt 0 ] || fail "interrupted: no request rows"
for k in $kids; do [ -e /proc/$k ] && fail "client $k survived Ctrl-C"; done
ls "$T" | grep -q '\.tmp\.' && fail "temporary file left behind"
pass "Ctrl-C stops every client"

# SIGKILL of the parent: the clients die with it.
"$HDDSCOPE" queue --quiet --procs 6 --time 60s -o "$T/k.tsv" "$img" 2>/dev/null &
pid=$!
wait_for_children $pid 6
kids=$(pgrep -P $pid | tr '\n' ' ')
[ "$(echo $kids | wc -w)" = 6 ] || fail "want 6 clients under $pid, have: $kids"
kill -KILL $pid
wait $pid 2>/dev/null
# Each client is told of its parent's death by the kernel; give a busy machine 30 s.
alive() { [ -e /proc/$1 ] && [ "$(awk '{print $3}' /proc/$1/stat 2>/dev/null)" != Z ]; }
for k in $kids; do
	for _ in $(seq 600); do alive $k || break; sleep 0.05; done
	alive $k && fail "client $k outlived its parent by 30 s"
done
pass "clients die with a killed parent"

run 0 "$HDDSCOPE" plot -o "$T/charts" "$f" "$r"
for c in q q-requests; do
	head -c 8 "$T/charts/$c.png" | od -An -tx1 | grep -q '89 50 4e 47' || fail "chart $c is not a PNG"
done
run 0 "$HDDSCOPE" plot --svg -o "$T/charts" "$T/int.tsv"
grep -q '<svg' "$T/charts/int.svg" || fail "svg chart of an interrupted run"
pass "charts"

run 1 "$HDDSCOPE" queue --procs 1,x "$img"
expect_err "--procs '1,x'"
run 1 "$HDDSCOPE" queue --block 1000 "$img"
expect_err "--block 1000: not a multiple"
run 1 "$HDDSCOPE" queue --span 1g "$img"
expect_err "--span [0-9]+: larger than"
pass "usage errors"

# A file has no I/O scheduler of its own: by default it runs as it is and its header says
# n/a; a scheduler asked for by name is refused (its disk's is not the target's to change).
# A simulated drive takes none (its clients reach the drive's queue directly) and no other.
[ "$(hdr "$f" scheduler)" = n/a ] && [ "$(hdr "$f" queue_depth)" = n/a ] && [ "$(hdr "$f" nr_requests)" = n/a ] ||
	fail "file: queue header not n/a"
[ "$(hdr "$f" scheduler_setting)" = "n/a (the target has no I/O scheduler of its own)" ] ||
	fail "file: scheduler_setting '$(hdr "$f" scheduler_setting)'"
run 2 "$HDDSCOPE" queue -q --procs 1 --requests 5 --scheduler none -o "$T/x.tsv" "$img"
expect_err "^hddscope: $img: a regular file has no I/O scheduler of its own .*; nothing measured$"
[ ! -e "$T/x.tsv" ] || fail "refused run left a data file"
run 0 "$HDDSCOPE" queue -q --procs 1 --requests 5 --scheduler keep -o "$T/x.tsv" "$img"
[ "$(hdr "$T/x.tsv" scheduler_setting)" = "kept as found (--scheduler keep)" ] || fail "file: keep"
run 0 "$HDDSCOPE" queue -q --procs 1,4 --requests 20 --scheduler none -o "$T/sim.tsv" sim:atlas3
[ "$(hdr "$T/sim.tsv" scheduler)" = n/a ] || fail "sim: scheduler header"
grep -q '^# scheduler_setting: none (no host scheduler' "$T/sim.tsv" || fail "sim: scheduler_setting"
run 2 "$HDDSCOPE" queue -q --procs 1 --requests 5 --scheduler mq-deadline -o "$T/x2.tsv" sim:atlas3
expect_err "^hddscope: sim:atlas3: a simulated drive has no I/O scheduler"
pass "scheduler on a file and a simulated drive"
