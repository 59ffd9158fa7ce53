# Bad input on the command line: each case gives its exit code and one clear line,
# and no case leaves a data file behind.
. "$(dirname "$0")/common.bash"

img=$T/disk.img
head -c $((256 << 20)) /dev/urandom >"$img"
: >"$T/empty.img"
head -c 1000 /dev/urandom >"$T/tiny.img"
mkfifo "$T/fifo"
mkdir "$T/dir"
out=$T/o.tsv

# Malformed data files, each in a directory of its own (for plot, fit and verdict).
H='# hddscope-data 1\n# test: seek\n'
C='# columns: distance_bytes offset_bytes latency_ms op class\n'
mk() { mkdir -p "$T/$1"; printf "$2" >"$T/$1/seek-read.tsv"; }
mk trunc "$H# device: x\n"
mk version "# hddscope-data 7\n# test: seek\n$C"
mk missing "$H${C}1\t2\t3.5\tread\n"
mk extra "$H${C}1\t2\t3.5\tread\tmedia\t9\n"
mk nonnum "$H${C}1\t2\tfast\tread\tmedia\n"
mk empty ""
mk nul "$H${C}1\t2\t3\0\tread\tmedia\n"
mkdir -p "$T/long"
{ printf "$H$C"; head -c $((1 << 20)) /dev/zero | tr '\0' 7; printf '\t2\t3\tread\tmedia\n'; } >"$T/long/seek-read.tsv"
# Malformed models and traces.
printf 'format = 1\nrpm = 7200\nfoo = 3\n' >"$T/key.drive"
printf 'format = 1\nrpm = 7200\nsector_bytes = 512\nsurfaces = 2\nzone = 10 5 100\nseek = 1 1\n' >"$T/zones.drive"
printf 'format = 2\n' >"$T/fmt.drive"
: >"$T/empty.trace"
printf 'R 0 8\nX 1 1\n' >"$T/op.trace"
printf 'R 0 x\n' >"$T/count.trace"

# exit code | stderr regex | arguments (split on spaces; @IMG@ etc. replaced)
cases=$(cat <<'TABLE'
1|--range '1.5q': not a valid number|seek --range 1.5q @IMG@
1|--range '99999999999t': number too large|seek --range 99999999999t @IMG@
1|--range '-1': must not be negative|seek --range -1 @IMG@
1|--range 0: must be greater than zero|seek --range 0 @IMG@
1|--min 'abc': not a valid number|seek --min abc @IMG@
1|--block '1.3k': not a whole number|seek --block 1.3k @IMG@
1|--block 1000: not a multiple of the 4096-byte access unit of|seek --block 1000 @IMG@
1|--block 0: must be between|seek --block 0 @IMG@
1|--samples 0: must be between 1 and|seek --samples 0 @IMG@
1|--samples '-5': must not be negative|seek --samples -5 @IMG@
1|--samples '12x': not a valid number|seek --samples 12x @IMG@
1|--seed 'x': not a valid number|seek --seed x @IMG@
1|--op 'erase': must be read or write|seek --op erase @IMG@
1|--dist 'cubic': must be log or linear|seek --dist cubic @IMG@
1|unknown option '--bogus'|seek --bogus @IMG@
1|unknown option '-x'|seek -x @IMG@
1|option '--samples' needs a value|seek @IMG@ --samples
1|too many arguments: 'extra'|seek @IMG@ extra
1|--ref 1073741824: beyond the end of|seek --ref 1g @IMG@
1|no room for distances of at least 209715200 bytes|seek --min 200m @IMG@
1|unknown command 'frob'|frob
1|no data file given|plot
1|unknown option '--nope'|info --nope
2|open /nonexistent/disk: No such file or directory|seek /nonexistent/disk
2|open @DIR@: Is a directory|seek @DIR@
2|/dev/null: not a block device or regular file|seek /dev/null
2|@FIFO@: not a block device or regular file|seek @FIFO@
2|device too small \(0 bytes|seek @EMPTY@
2|device too small \(1000 bytes|seek @TINY@
2|add --write|seek --op write @IMG@
2|/nonexistent-dir/x.tsv: No such file or directory|seek -o /nonexistent-dir/x.tsv @IMG@
2|open /nonexistent.tsv: No such file or directory|plot /nonexistent.tsv
2|open /nonexistent/disk: No such file or directory|info /nonexistent/disk
2|seek-read.tsv:3: truncated header|plot @D@/trunc/seek-read.tsv
2|seek-read.tsv:1: unsupported format version 7|plot @D@/version/seek-read.tsv
2|seek-read.tsv:4: 4 fields, expected 5|plot @D@/missing/seek-read.tsv
2|seek-read.tsv:4: 6 fields, expected 5|plot @D@/extra/seek-read.tsv
2|seek-read.tsv:4: column latency_ms: not a number: 'fast'|plot @D@/nonnum/seek-read.tsv
2|seek-read.tsv: empty file|plot @D@/empty/seek-read.tsv
2|seek-read.tsv:4: NUL byte|plot @D@/nul/seek-read.tsv
2|seek-read.tsv:4: line longer than|plot @D@/long/seek-read.tsv
2|seek-read.tsv:4: 4 fields, expected 5|verdict @D@/missing
2|seek-read.tsv:1: unsupported format version 7|verdict @D@/version
2|seek-read.tsv:4: column latency_ms: not a number|fit @D@/nonnum
2|key.drive:3: unknown key 'foo'|seek @D@/SIM:key.drive
2|zones.drive:5: |seek @D@/SIM:zones.drive
2|fmt.drive:1: |info @D@/SIM:fmt.drive
2|unknown preset 'nosuch' \(see 'hddscope sim list'\)|seek sim:nosuch
2|open /nonexistent.drive: No such file or directory|seek sim:/nonexistent.drive
2|empty.trace: no requests in trace|replay --drive atlas3 @D@/empty.trace
2|op.trace:2: the operation must be R or W|replay --drive atlas3 @D@/op.trace
2|count.trace:1: bad block count|replay --drive atlas3 @D@/count.trace
2|unknown preset 'nosuch'|replay --drive nosuch @D@/op.trace
1|missing --drive|replay @D@/op.trace
2|mkdir /proc/hddscope-nope: |profile -q --quick -o /proc/hddscope-nope sim:atlas3
2|create /proc/hddscope.tsv: |seek -o /proc/hddscope.tsv @IMG@
2|interval writes to .*add --write|interval -o @D@/i.tsv @IMG@
1|--procs '0': must be a comma-separated list|queue --procs 0 @IMG@
1|--time and --requests exclude each other|queue --time 1s --requests 5 @IMG@
1|--time '0': must be a positive duration|bench --time 0 @IMG@
1|--size 1m: must be at least 8m|zone --size 1m @IMG@
1|--points 39: must be between 40 and|response --points 39 @IMG@
1|--reps 0: must be between 1 and|media --reps 0 @IMG@
1|--seed '-1': must not be negative|seek --seed -1 @IMG@
1|-o DIR is required|profile sim:atlas3
1|unknown rule 'nope'|verdict --rule nope=1 @D@/missing
1|no profile directory given|verdict
1|--points 5: must be between 40 and 1000|burnin --write --points 5 sim:atlas3
1|--hours and --minutes exclude each other|burnin --write --hours 1 --minutes 5 sim:atlas3
1|no device given|burnin --write
1|goes on with the plan saved there|burnin --write --resume @DIR@ sim:atlas3
2|add --write to allow it|burnin sim:atlas3
2|open @DIR@/burnin.json: No such file or directory|burnin --write --resume @DIR@
TABLE
)

n=0
while IFS='|' read -r want re args; do
	args=${args//@IMG@/$img}; args=${args//@DIR@/$T/dir}; args=${args//@FIFO@/$T/fifo}
	args=${args//@EMPTY@/$T/empty.img}; args=${args//@TINY@/$T/tiny.img}
	args=${args//@D@\/SIM:/sim:$T/}; args=${args//@D@/$T}
	re=${re//@DIR@/$T/dir}; re=${re//@FIFO@/$T/fifo}
	rm -f "$out"
	# shellcheck disable=SC2086
	set -- $args
	# Every seek case names an output, so that a stray data file would be seen.
	case "$args" in seek*"-o "*) ;; seek*) set -- seek -o "$out" "${@:2}" ;; esac
	timeout 20 "$HDDSCOPE" "$@" >"$T/out" 2>"$T/err"
	rc=$?
	[ "$rc" = "$want" ] || { cat "$T/err" >&2; fail "hddscope $args: exit $rc, want $want"; }
	grep -Eq -- "$re" "$T/err" || { cat "$T/err" >&2; fail "hddscope $args: stderr lacks '$re'"; }
	head -n 1 "$T/err" | grep -q '^hddscope: ' || fail "hddscope $args: message not prefixed"
	[ "$(grep -c '^hddscope:' "$T/err")" = 1 ] || fail "hddscope $args: more than one message line"
	[ ! -e "$out" ] || fail "hddscope $args: left $out behind"
	ls "$T" | grep -q '\.tmp\.' && fail "hddscope $args: left a temporary file"
	n=$((n + 1))
done <<<"$cases"
pass "$n bad-input cases"

# Help: stdout, exit 0, and the truth about exit codes and defaults.
run 0 "$HDDSCOPE" --help
grep -q 'Exit codes: 0 ok, 1 usage error, 2 setup failure' "$T/out" || fail "--help exit codes"
run 0 "$HDDSCOPE" seek --help
for s in '--samples N *number of timed accesses \(2000\)' '--range SIZE .*\(1g\)' '--min SIZE .*\(256k\)' \
	'--block SIZE .*\(4k\)' '--op read\|write .*\(read\)' '128 \+ signal when interrupted'; do
	grep -Eq -- "$s" "$T/out" || fail "seek --help lacks '$s'"
done
run 0 "$HDDSCOPE" info --help
run 0 "$HDDSCOPE" plot --help
run 1 "$HDDSCOPE"
pass "help"

# No gnuplot: say how to install it.
run 0 "$HDDSCOPE" seek --quiet --samples 20 -o "$T/s.tsv" "$img"
run 2 env PATH=/nonexistent "$HDDSCOPE" plot "$T/s.tsv"
expect_err 'gnuplot not found in PATH; install it \(Debian: apt-get install gnuplot-nox\)'
pass "plot without gnuplot"
