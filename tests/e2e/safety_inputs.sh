# Inputs that are not what they claim: every reader of a file the user names
# (plot's data file, replay's trace and model, verdict's rules, --smart-blob,
# sim show, sim:FILE.drive) or of a profile directory (its data files and
# summary.json, for fit, compare, verdict and plot) refuses a FIFO, a device,
# a link to one, a directory, a line longer than it reads, NUL bytes, CRLF
# (data files only: gnuplot reads them as they are) and binary garbage, with
# exit 2, one line naming the file (file text quoted, never raw), nothing
# written anywhere, and without hanging or growing (each case has 20 s).
# Device nodes are made with mknod in the scratch directory, never taken
# from /dev; without root those cases are skipped with a note.
. "$(dirname "$0")/common.bash"

mkdir "$T/cwd" "$T/in"
I=$T/in
cd "$T/cwd" || fail "cd $T/cwd"

# ---- the inputs ----
mkfifo "$I/fifo" "$I/fifo.drive"
mkdir "$I/dir"
ln -s "$I/fifo" "$I/link-fifo"
root=0
if mknod "$I/zero" c 1 5 2>/dev/null; then
	root=1
	ln -s "$I/zero" "$I/link-zero"
	ln -s "$I/zero" "$I/zero.drive"
else
	echo "note: mknod refused (not root): the device node cases are skipped"
fi
# After a first line each reader takes, a line of a GiB without a newline: a
# sparse file, larger than the memory limit the cases run under, so that a
# reader that held a line whole before checking its length is caught.
long() { printf '%b' "$1" >"$2" && truncate -s 1G "$2"; }
long '# hddscope-data 1\n' "$I/long.tsv"
long '# a comment\n' "$I/long.trace"
long '# a comment\n' "$I/long.rules"
long '# a comment\n' "$I/long.drive"
printf '# hddscope-data 1\n# test: seek\n# co\0lumns: a\n' >"$I/nul.tsv"
printf 'R 0 8\nR 8\0 8\n' >"$I/nul.trace"
printf 'stall_warn_ms = 1\0\n' >"$I/nul.rules"
printf 'format = 1\nrpm\0 = 7200\n' >"$I/nul.drive"
# Bytes that would move the cursor, change colours or ring the bell.
garbage=$'\x01\x02\x1b[2J\xff\xfe=\x07junk\x80 \x9b31m'
printf 'R 0 8\n' >"$I/ok.trace"
for f in garbage.tsv garbage.trace garbage.rules garbage.drive garbage.blob; do
	printf '%s\n%s\n' "$garbage" "$garbage" >"$I/$f"
done

# A valid profile, and copies of it with one file replaced.
run 0 "$HDDSCOPE" profile --quick -q --no-charts -o "$T/good" sim:atlas3
[ -s "$T/good/seek-read.tsv" ] && [ -s "$T/good/summary.json" ] || fail "profile: no seek-read.tsv or summary.json"
sed 's/$/\r/' "$T/good/seek-read.tsv" >"$I/crlf.tsv"
# corrupt NAME FILE: profile copy $T/NAME whose FILE is a FIFO, a link, long, NUL, CRLF or garbage.
corrupt() {
	local d=$T/$1 f=$T/$1/$2
	cp -r "$T/good" "$d"
	rm -f "$f"
	case $1 in
	*-fifo) mkfifo "$f" ;;
	*-zero) [ "$root" = 1 ] && ln -s "$I/zero" "$f" ;;
	*-long) long "$(head -n 1 "$T/good/$2")"$'\n' "$f" ;;
	*-nul) { head -n 3 "$T/good/$2"; printf '\0\n'; } >"$f" ;;
	*-crlf) cp "$I/crlf.tsv" "$f" ;;
	*-garbage) cp "$I/garbage.tsv" "$f" ;;
	esac
}
for k in fifo zero long nul crlf; do corrupt "p-$k" seek-read.tsv; done
for k in fifo zero long nul garbage; do corrupt "s-$k" summary.json; done
mkdir "$T/cmpout"

# ---- the cases ----
# what is read | command (@I@ is $T/in, @T@ is $T) | stderr after "hddscope: " (a regex; @F@ is the file)
NOTREG='@F@: exists and is not a regular file'
cases=$(cat <<TABLE
@I@/fifo|plot @F@|$NOTREG
@I@/zero|plot @F@|$NOTREG
@I@/link-zero|plot @F@|$NOTREG
@I@/dir|plot @F@|@F@: is a directory, not a regular file
@I@/long.tsv|plot @F@|@F@:2: line longer than 65536 bytes
@I@/nul.tsv|plot @F@|@F@:3: NUL byte in a text file
@I@/crlf.tsv|plot @F@|@F@:1: CRLF line ending
@I@/garbage.tsv|plot @F@|@F@:1: not an hddscope data file
@I@/fifo|replay --drive atlas3 @F@|$NOTREG
@I@/zero|replay --drive atlas3 @F@|$NOTREG
@I@/link-fifo|replay --drive atlas3 @F@|$NOTREG
@I@/long.trace|replay --drive atlas3 @F@|@F@:2: line longer than 1022 bytes
@I@/nul.trace|replay --drive atlas3 @F@|@F@:2: NUL byte in a text file
@I@/garbage.trace|replay --drive atlas3 @F@|@F@:1: expected 'R\|W
@I@/fifo.drive|replay --drive @F@ @I@/ok.trace|$NOTREG
@I@/fifo|verdict --rules @F@ @T@/good|$NOTREG
@I@/zero|verdict --rules @F@ @T@/good|$NOTREG
@I@/link-zero|verdict --rules @F@ @T@/good|$NOTREG
@I@/dir|verdict --rules @F@ @T@/good|@F@: is a directory, not a regular file
@I@/long.rules|verdict --rules @F@ @T@/good|@F@:2: line longer than 511 bytes
@I@/nul.rules|verdict --rules @F@ @T@/good|@F@:1: NUL byte in a text file
@I@/garbage.rules|verdict --rules @F@ @T@/good|@F@:1: '.x01.x02.x1b.2J.xff.xfe=.x07junk.x80 .x9b31m': unknown rule '.x01.x02.x1b.2J.xff.xfe'
@I@/fifo|info --smart-blob @F@|$NOTREG
@I@/zero|info --smart-blob @F@|$NOTREG
@I@/link-fifo|info --smart-blob @F@|$NOTREG
@I@/dir|info --smart-blob @F@|@F@: is a directory, not a regular file
@I@/garbage.blob|info --smart-blob @F@|@F@: not SMART data
@I@/fifo|seek -q -o @T@/cwd/s.tsv --smart-blob @F@ sim:atlas3|$NOTREG
@I@/fifo.drive|sim show @F@|$NOTREG
@I@/zero.drive|sim show @F@|$NOTREG
@I@/long.drive|sim show @F@|@F@:2: line longer than 1023 bytes
@I@/nul.drive|sim show @F@|@F@:2: NUL byte in a text file
@I@/garbage.drive|sim show @F@|@F@:1: unknown key '.x01.x02.x1b.2J.xff.xfe'
@I@/fifo.drive|seek -q -o @T@/cwd/s.tsv sim:@F@|$NOTREG
@I@/zero.drive|seek -q -o @T@/cwd/s.tsv sim:@F@|$NOTREG
@I@/fifo.drive|sim info @F@|$NOTREG
@T@/p-fifo/seek-read.tsv|fit -q @T@/p-fifo|fit @T@/p-fifo: $NOTREG
@T@/p-fifo/seek-read.tsv|compare -q --no-charts -o @T@/cmpout @T@/good @T@/p-fifo|compare @T@/good @T@/p-fifo: $NOTREG
@T@/p-fifo/seek-read.tsv|verdict @T@/p-fifo|$NOTREG
@T@/p-fifo/seek-read.tsv|plot @F@|$NOTREG
@T@/p-zero/seek-read.tsv|fit -q @T@/p-zero|fit @T@/p-zero: $NOTREG
@T@/p-zero/seek-read.tsv|compare -q --no-charts -o @T@/cmpout @T@/p-zero @T@/good|compare @T@/p-zero @T@/good: $NOTREG
@T@/p-zero/seek-read.tsv|verdict @T@/p-zero|$NOTREG
@T@/p-zero/seek-read.tsv|plot @F@|$NOTREG
@T@/p-long/seek-read.tsv|fit -q @T@/p-long|fit @T@/p-long: @F@:2: line longer than 65536 bytes
@T@/p-long/seek-read.tsv|compare -q --no-charts -o @T@/cmpout @T@/good @T@/p-long|compare @T@/good @T@/p-long: @F@:2: line longer than 65536 bytes
@T@/p-long/seek-read.tsv|verdict @T@/p-long|@F@:2: line longer than 65536 bytes
@T@/p-nul/seek-read.tsv|fit -q @T@/p-nul|fit @T@/p-nul: @F@:4: NUL byte in a text file
@T@/p-nul/seek-read.tsv|verdict @T@/p-nul|@F@:4: NUL byte in a text file
@T@/p-nul/seek-read.tsv|plot @F@|@F@:4: NUL byte in a text file
@T@/p-crlf/seek-read.tsv|fit -q @T@/p-crlf|fit @T@/p-crlf: @F@:1: CRLF line ending
@T@/p-crlf/seek-read.tsv|compare -q --no-charts -o @T@/cmpout @T@/good @T@/p-crlf|compare @T@/good @T@/p-crlf: @F@:1: CRLF line ending
@T@/p-crlf/seek-read.tsv|verdict @T@/p-crlf|@F@:1: CRLF line ending
@T@/p-crlf/seek-read.tsv|plot @F@|@F@:1: CRLF line ending.*dos2unix
@T@/s-fifo/summary.json|fit -q @T@/s-fifo|fit @T@/s-fifo: $NOTREG
@T@/s-fifo/summary.json|compare -q --no-charts -o @T@/cmpout @T@/good @T@/s-fifo|compare @T@/good @T@/s-fifo: $NOTREG
@T@/s-fifo/summary.json|verdict @T@/s-fifo|$NOTREG
@T@/s-zero/summary.json|fit -q @T@/s-zero|fit @T@/s-zero: $NOTREG
@T@/s-zero/summary.json|verdict @T@/s-zero|$NOTREG
@T@/s-long/summary.json|compare -q --no-charts -o @T@/cmpout @T@/s-long @T@/good|compare @T@/s-long @T@/good: @F@:2: line longer than 1048576 bytes
@T@/s-nul/summary.json|verdict @T@/s-nul|@F@:4: NUL byte in a text file
@T@/s-garbage/summary.json|fit -q @T@/s-garbage|fit @T@/s-garbage: @F@:1: unexpected character '.x01'
@T@/s-garbage/summary.json|verdict @T@/s-garbage|@F@:1: unexpected character '.x01'
TABLE
)

# Everything under $T but the command's own stdout and stderr: names, kinds, sizes, times.
snapshot() { find "$T" -path "$T/out" -prune -o -path "$T/err" -prune -o -printf '%p %y %s %T@\n' | sort; }

# Under a memory limit where the build allows one (not the sanitizers').
limit=()
# The probe's status is taken inside the inner shell, so that an abort is not reported here.
if bash -c 'ulimit -v 600000 && "$0" sim list; r=$?; exit $r' "$HDDSCOPE" >/dev/null 2>&1; then
	limit=(bash -c 'ulimit -v 600000 && exec "$@"' _)
else
	echo "note: this build does not run under ulimit -v (sanitizers): cases run without a memory limit"
fi
have_gnuplot=0
command -v gnuplot >/dev/null && have_gnuplot=1
[ "$have_gnuplot" = 1 ] || echo "note: no gnuplot: the plot cases are skipped (plot needs it before it reads)"
n=0 skipped=0
while IFS='|' read -r file args re; do
	file=${file//@I@/$I}; file=${file//@T@/$T}
	args=${args//@F@/$file}; args=${args//@I@/$I}; args=${args//@T@/$T}
	re=${re//@F@/$file}; re=${re//@I@/$I}; re=${re//@T@/$T}
	if { [ "$root" = 0 ] && [[ $file == *zero* ]]; } || { [ "$have_gnuplot" = 0 ] && [[ $args == plot* ]]; }; then
		skipped=$((skipped + 1))
		continue
	fi
	before=$(snapshot)
	# shellcheck disable=SC2086
	"${limit[@]}" timeout 20 "$HDDSCOPE" $args >"$T/out" 2>"$T/err" </dev/null
	rc=$?
	[ "$rc" != 124 ] || fail "hddscope $args: still running after 20 s"
	[ "$rc" = 2 ] || { cat "$T/err" >&2; fail "hddscope $args: exit $rc, want 2"; }
	[ "$(wc -l <"$T/err")" = 1 ] || { cat "$T/err" >&2; fail "hddscope $args: not exactly one line on stderr"; }
	grep -Eq -- "^hddscope: $re" "$T/err" || { cat "$T/err" >&2; fail "hddscope $args: stderr lacks '$re'"; }
	grep -qF -- "$file" "$T/err" || fail "hddscope $args: the message does not name $file"
	! LC_ALL=C grep -q '[^[:print:]]' "$T/err" || fail "hddscope $args: raw bytes of the file on stderr"
	[ "$before" = "$(snapshot)" ] || { diff <(echo "$before") <(snapshot) >&2; fail "hddscope $args: wrote something"; }
	n=$((n + 1))
done <<<"$cases"
[ "$n" -ge 30 ] || fail "only $n cases ran"
pass "$n bad-input cases ($skipped skipped)"

# ---- under a memory limit, a long first line is a long line, not an "empty file" ----
truncate -s 1G "$I/sparse"
if [ ${#limit[@]} -gt 0 ]; then
	for c in "plot $I/sparse" "replay --drive atlas3 $I/sparse" "verdict --rules $I/sparse $T/good"; do
		# shellcheck disable=SC2086
		"${limit[@]}" timeout 20 "$HDDSCOPE" $c >"$T/out" 2>"$T/err"
		rc=$?
		[ "$rc" = 2 ] || { cat "$T/err" >&2; fail "$c under ulimit -v: exit $rc, want 2"; }
		expect_err "^hddscope: $I/sparse:1: line longer than"
		! grep -q 'empty file' "$T/err" || fail "$c under ulimit -v: called empty"
	done
	pass "memory limit: long lines named as such"
fi

# ---- CRLF where nothing else reads the file is taken ----
printf 'R 0 8\r\nW 4096 8 100\r\n' >"$I/crlf.trace"
run 0 "$HDDSCOPE" replay --drive atlas3 "$I/crlf.trace"
"$HDDSCOPE" sim show atlas3 | sed 's/$/\r/' >"$I/crlf.drive"
run 0 "$HDDSCOPE" sim info "$I/crlf.drive"
grep -q '^rpm: ' "$T/out" || fail "sim info of a CRLF model: no rpm"
printf 'stall_warn_ms = 12345\r\n' >"$I/crlf.rules"
cp -r "$T/good" "$T/v"
"$HDDSCOPE" verdict --json --rules "$I/crlf.rules" "$T/v" >"$T/out" 2>"$T/err"
grep -q '"stall_warn_ms": 12345' "$T/out" || { cat "$T/out" "$T/err" >&2; fail "CRLF rules not taken"; }
pass "CRLF traces, models and rules"

# ---- verdict counts failed accesses from the rows, not from what the header claims ----
"$HDDSCOPE" sim show atlas3 >"$I/bad.drive"
# 8 MiB bad every 64 MiB around the middle, where the seek probe's targets land.
for j in -4 -3 -2 -1 1 2 3 4; do
	echo "bad_sectors = $((8898972 + j * 131072))-$((8898972 + j * 131072 + 16383))" >>"$I/bad.drive"
done
mkdir "$T/lie"
run 0 "$HDDSCOPE" seek -q -o "$T/lie/seek-read.tsv" "sim:$I/bad.drive"
errs=$(grep -c $'\terror\t' "$T/lie/seek-read.tsv")
[ "$errs" -gt 0 ] || fail "no error rows to count"
sed -i 's/^# samples_error: .*/# samples_error: 0/' "$T/lie/seek-read.tsv"
run 5 "$HDDSCOPE" verdict "$T/lie"
grep -q "^FAIL  I/O errors: $errs failed accesses" "$T/out" || { cat "$T/out"; fail "verdict believed samples_error: 0"; }
pass "verdict: $errs error rows counted despite 'samples_error: 0'"

# ---- fit: a corrupt summary.json is bad input (exit 2), and nothing is fitted or written ----
cp -r "$T/good" "$T/f"
rm "$T/f/seekcurve.tsv"
echo '{"device": ' >"$T/f/summary.json"
run 2 "$HDDSCOPE" fit "$T/f"
expect_err "^hddscope: fit $T/f: $T/f/summary.json:2: "
[ ! -e "$T/f/seekcurve.tsv" ] || fail "fit wrote seekcurve.tsv beside a corrupt summary.json"
pass "fit: corrupt summary.json"
