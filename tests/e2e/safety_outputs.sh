# The output rule: an existing path that is not a regular file (or not a
# directory, where a directory is asked for) is refused before anything is
# measured, with exit 2 and one line naming it; a symbolic link is never
# replaced; nothing is written anywhere.  A full file system is a failure
# naming the file, never an empty chart reported as drawn.
. "$(dirname "$0")/common.bash"

W=$T/w
mkdir -p "$W/dir" "$W/charts" "$W/pdir" "$W/pdir2/charts" "$W/pdir3" "$W/cmpdir"
echo keep >"$W/real"
echo keep >"$W/file"
ln -s "$W/real" "$W/link"
ln -s "$W/nowhere" "$W/dangling"
mkfifo "$W/fifo" "$W/pdir/seek-read.tsv"
ln -s "$W/real" "$W/charts/s.png"
ln -s "$W/real" "$W/pdir2/charts/seek-read.png"
: >"$W/pdir3/charts"
ln -s "$W/real" "$W/cmpdir/findings.txt"
# A character device as the output: the issue's own case.  Made here, never the system's.
if mknod "$W/node" c 1 3 2>/dev/null; then
	have_node=1
else
	have_node=0
	mkfifo "$W/node"
fi
mkfifo "$W/q-requests.tsv"

# Inputs the cases need, outside $W.
P=$T/prof
run 0 "$HDDSCOPE" profile --quick -q --no-charts -o "$P" sim:atlas3
S=$T/s.tsv
run 0 "$HDDSCOPE" seek -q --samples 50 -o "$S" sim:atlas3
TR=$T/t.trace
printf 'R 0 8\nR 800 8\n' >"$TR"
mkdir "$T/notprof"

# What $W holds: every path with its type, size and target; nothing may change it.
snapshot() { find "$W" -printf '%p %y %s %l\n' | sort; }

# exit code | stderr regex | arguments (@W@ @P@ @S@ @TR@ @T@ replaced)
cases=$(cat <<'TABLE'
2|@W@/node: exists and is not a regular file|seek -q --samples 20 -o @W@/node sim:atlas3
2|@W@/fifo: exists and is not a regular file|seek -q --samples 20 -o @W@/fifo sim:atlas3
2|@W@/link: is a symbolic link|seek -q --samples 20 -o @W@/link sim:atlas3
2|@W@/dangling: is a symbolic link|seek -q --samples 20 -o @W@/dangling sim:atlas3
2|@W@/dir: Is a directory|seek -q --samples 20 -o @W@/dir sim:atlas3
2|@W@/nodir/x.tsv: No such file or directory|seek -q --samples 20 -o @W@/nodir/x.tsv sim:atlas3
2|@W@/link: is a symbolic link|seek --write --op write -q --samples 20 -o @W@/link sim:atlas3
2|@W@/node: exists and is not a regular file|response -q -o @W@/node sim:atlas3
2|@W@/fifo: exists and is not a regular file|media -q -o @W@/fifo sim:atlas3
2|@W@/link: is a symbolic link|queue -q -o @W@/link sim:atlas3
2|@W@/q-requests.tsv: exists and is not a regular file|queue -q --procs 1 --requests 10 -o @W@/q.tsv sim:atlas3
2|@W@/node: exists and is not a regular file|bench -q -o @W@/node sim:atlas3
2|@W@/dir: Is a directory|zone -q -o @W@/dir sim:atlas3
2|@W@/node: exists and is not a regular file|interval --write -q -o @W@/node sim:atlas3
2|@W@/node: exists and is not a regular file|replay --drive atlas3 -o @W@/node @TR@
2|@W@/dangling: is a symbolic link|replay --drive atlas3 -o @W@/dangling @TR@
2|@W@/node: exists and is not a regular file|fit -q --drive-out @W@/node @P@
2|@W@/link: is a symbolic link|fit -q --drive-out @W@/link @P@
2|@W@/node: exists and is not a regular file|smart-save sim:atlas3 @W@/node
2|@W@/fifo: exists and is not a regular file|smart-save /dev/hddscope-none @W@/fifo
2|@W@/link: is a symbolic link|smart-save sim:atlas3 @W@/link
2|sim:atlas3: a simulated drive has no SMART data to save|smart-save sim:atlas3 @W@/new.bin
2|@W@/node: exists and is not a directory|plot -o @W@/node @S@
2|@W@/file: exists and is not a directory|plot -o @W@/file @S@
2|chart @W@/charts/s.png: is a symbolic link|plot -o @W@/charts @S@
2|@W@/node: exists and is not a directory|profile -q --quick -o @W@/node sim:atlas3
2|@W@/file: exists and is not a directory|profile -q --quick -o @W@/file sim:atlas3
2|@W@/nodir/p: No such file or directory|profile -q --quick -o @W@/nodir/p sim:atlas3
2|@W@/pdir/seek-read.tsv: exists and is not a regular file|profile -q --quick -o @W@/pdir sim:atlas3
2|@W@/pdir2/charts/seek-read.png: is a symbolic link|profile -q --quick -o @W@/pdir2 sim:atlas3
2|@W@/pdir3/charts: exists and is not a directory|profile -q --quick -o @W@/pdir3 sim:atlas3
2|open @T@/notprof: Is a directory|profile -q --quick --write -o @W@/newprof @T@/notprof
2|open /dev/hddscope-none: No such file or directory|profile -q --quick --write -o @W@/newprof /dev/hddscope-none
2|@W@/node: exists and is not a directory|compare -q -o @W@/node @P@ @P@
2|@W@/file: exists and is not a directory|compare -q -o @W@/file @P@ @P@
2|create @W@/cmpdir/findings.txt: is a symbolic link|compare -q --no-charts -o @W@/cmpdir @P@ @P@
2|compare @T@/notprof|compare -q -o @W@/newcmp @T@/notprof @P@
TABLE
)

before=$(snapshot)
n=0
while IFS='|' read -r want re args; do
	args=${args//@W@/$W}; args=${args//@P@/$P}; args=${args//@S@/$S}; args=${args//@TR@/$TR}
	args=${args//@T@/$T}
	re=${re//@W@/$W}; re=${re//@T@/$T}
	# shellcheck disable=SC2086
	set -- $args
	timeout 60 "$HDDSCOPE" "$@" >"$T/out" 2>"$T/err"
	rc=$?
	[ "$rc" = "$want" ] || { cat "$T/err" >&2; fail "hddscope $args: exit $rc, want $want"; }
	grep -Eq -- "$re" "$T/err" || { cat "$T/err" >&2; fail "hddscope $args: stderr lacks '$re'"; }
	[ "$(wc -l <"$T/err")" = 1 ] || { cat "$T/err" >&2; fail "hddscope $args: not one line on stderr"; }
	[ "$(snapshot)" = "$before" ] || { diff <(echo "$before") <(snapshot) >&2; fail "hddscope $args: changed $W"; }
	[ "$have_node" = 0 ] || [ -c "$W/node" ] || fail "hddscope $args: $W/node is no longer a character device"
	find "$T" -name '*.tmp.*' | grep -q . && fail "hddscope $args: left a temporary file"
	n=$((n + 1))
done <<<"$cases"
[ "$(cat "$W/real")" = keep ] || fail "the link's target was changed"
pass "$n refused outputs"

# A full file system: a failure naming the file, nothing left behind.
F=$T/full
mkdir "$F"
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=64k hddscope-full "$F" 2>/dev/null; then
	MOUNTS+=("$F")
	head -c $((64 << 10)) /dev/zero >"$F/fill" 2>/dev/null
	run 3 timeout 60 "$HDDSCOPE" plot -o "$F" "$S"
	# A seek chart writes its numbers (median, p99) for gnuplot first.
	expect_err "chart $F/s.png: (came out empty or incomplete|write its numbers: No space left on device)"
	[ "$(wc -l <"$T/err")" = 1 ] || fail "plot to a full file system: not one line"
	[ ! -e "$F/s.png" ] && ! ls "$F" | grep -q '\.tmp\.' || fail "plot to a full file system left files"
	run 3 timeout 60 "$HDDSCOPE" seek -q --samples 2000 -o "$F/x.tsv" sim:atlas3
	expect_err "write $F/x.tsv: No space left on device"
	[ ! -e "$F/x.tsv" ] && ! ls "$F" | grep -q '\.tmp\.' || fail "seek to a full file system left files"
	# Room for part of a chart only: a partial PNG is no chart either.
	rm "$F/fill"
	head -c $((56 << 10)) /dev/zero >"$F/fill"
	run 3 timeout 60 "$HDDSCOPE" plot -o "$F" "$S"
	expect_err "chart $F/s.png: came out empty or incomplete"
	[ ! -e "$F/s.png" ] || fail "a partial chart was kept"
	# The queue's summary fits, its requests file does not: the summary must not name it.
	run 3 timeout 60 "$HDDSCOPE" queue -q --procs 1,4 --requests 500 -o "$F/q.tsv" sim:atlas3
	expect_err "write $F/q-requests.tsv: No space left on device"
	[ ! -e "$F/q-requests.tsv" ] || fail "a partial requests file was kept"
	grep -q '^# requests_file: none (write ' "$F/q.tsv" || fail "queue.tsv names a requests file that was not written"
	pass "full file system"
else
	echo "note: no tmpfs mount (not root?): full file system cases skipped"
fi

# The same commands with ordinary outputs succeed, so the refusals above are the rule, not breakage.
run 0 "$HDDSCOPE" seek -q --samples 20 -o "$W/ok.tsv" sim:atlas3
run 0 "$HDDSCOPE" plot -o "$W/okcharts" "$W/ok.tsv"
[ -s "$W/okcharts/ok.png" ] || fail "no chart drawn"
run 0 "$HDDSCOPE" plot --svg -o "$W/okcharts" "$W/ok.tsv"
grep -q '<svg' "$W/okcharts/ok.svg" || fail "the SVG chart is not an SVG"
run 0 "$HDDSCOPE" seek -q --samples 20 -o "$W/ok.tsv" sim:atlas3
pass "ordinary outputs"
