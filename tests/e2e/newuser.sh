# What a new user meets first: the README's first command builds the binary alone and
# writes only under build/ (which .gitignore covers); results on stdout, progress
# on stderr with its unit; charts of one row draw without a gnuplot warning; sim seek,
# media --max-size and sim list say plainly what is valid; the install holds no empty
# directory.
. "$(dirname "$0")/common.bash"

# The first command of the quick start, its hddscope steps run here in a scratch
# tree: everything it writes lands under build/.
cmd=$(awk '/^## Quick start/ { q = 1 } q && /^```sh$/ { getline; print; exit }' "$HDDSCOPE_SRC/README.md")
[ -n "$cmd" ] || fail "README: no quick start command"
case $cmd in *"--target hddscope"*) ;; *) fail "README command 1 builds more than the binary: $cmd" ;; esac
mkdir -p "$T/tree/build"
(
	cd "$T/tree" || exit 1
	IFS='&' read -ra steps <<<"${cmd//&&/&}"
	for s in "${steps[@]}"; do
		s=${s# }
		s=${s% }
		case $s in ./build/hddscope*) eval "\"\$HDDSCOPE\"${s#./build/hddscope}" >/dev/null 2>&1 || exit 1 ;; esac
	done
) || fail "README command 1's hddscope steps failed"
outside=$(cd "$T/tree" && find . -type f ! -path './build/*')
[ -z "$outside" ] || fail "README command 1 wrote outside build/: $outside"
[ -s "$T/tree/build/seek-read.tsv" ] || fail "README command 1 wrote no build/seek-read.tsv"
if command -v gnuplot >/dev/null; then
	head -c 8 "$T/tree/build/seek-read.png" | od -An -tx1 | grep -q '89 50 4e 47' || fail "no build/seek-read.png"
fi
if command -v git >/dev/null && git -C "$HDDSCOPE_SRC" rev-parse --git-dir >/dev/null 2>&1; then
	for f in build/seek-read.tsv build/seek-read.png seek-read.tsv seek-read.png queue.tsv; do
		git -C "$HDDSCOPE_SRC" check-ignore -q "$f" || fail ".gitignore does not cover $f"
	done
fi
pass "README command 1: the binary alone, outputs under build/, ignored by git"

# Results on stdout, progress and messages on stderr: queue as bench.
img=$T/disk.img
head -c $((16 << 20)) /dev/urandom >"$img"
run 0 "$HDDSCOPE" queue --procs 1,2 --requests 50 -o "$T/q.tsv" "$img"
grep -Eq '^ +procs +requests +IOPS' "$T/out" || fail "queue: no result table on stdout"
grep -Eq '^ +2 +100 ' "$T/out" || fail "queue: no row for 2 clients on stdout"
grep -q 'procs' "$T/err" && fail "queue: result table on stderr"
run 0 "$HDDSCOPE" bench --time 100ms --span 8m -o "$T/b.tsv" "$img"
grep -q '^device | seq read MB/s' "$T/out" || fail "bench: no result table on stdout"
pass "result tables on stdout"

# The progress line says what it counts (it is drawn only on a terminal).
if command -v script >/dev/null; then
	script -qc "'$HDDSCOPE' queue --procs 1,2 --requests 200 -o '$T/qp.tsv' '$img'" /dev/null >"$T/tty" 2>&1
	tr '\r' '\n' <"$T/tty" | grep -Eq '^queue: [0-9.]+/2 client counts \( *[0-9]+%\)' ||
		{ cat "$T/tty" >&2; fail "queue progress names no unit"; }
	script -qc "'$HDDSCOPE' seek --samples 300 -o '$T/sp.tsv' '$img'" /dev/null >"$T/tty" 2>&1
	tr '\r' '\n' <"$T/tty" | grep -Eq '^seek: [0-9]+/300 samples' || { cat "$T/tty" >&2; fail "seek progress names no unit"; }
	pass "progress lines name their unit"
fi

# A chart of a single row (a run interrupted early) draws without a gnuplot warning.
if command -v gnuplot >/dev/null; then
	run 0 "$HDDSCOPE" profile -q --quick --write --no-charts -o "$T/p" sim:atlas3
	mkdir "$T/one"
	for f in "$T"/p/*.tsv; do
		{ grep '^#' "$f"; grep -v '^#' "$f" | head -n 1; } >"$T/one/${f##*/}"
		run 0 "$HDDSCOPE" plot -o "$T/one/charts" "$T/one/${f##*/}"
		grep -qi 'warning' "$T/err" && { cat "$T/err" >&2; fail "one-row chart of ${f##*/} warns"; }
		name=${f##*/}
		[ -s "$T/one/charts/${name%.tsv}.png" ] || fail "no chart of one row of $name"
	done
	pass "one-row charts draw without warnings"
fi

# sim seek: a distance past the last cylinder is refused, naming the valid range.
last=$(( $("$HDDSCOPE" sim info st320420a | sed -n 's/^cylinders: //p') - 1 ))
[ "$last" -gt 0 ] || fail "sim info st320420a: no cylinders"
run 1 "$HDDSCOPE" sim seek st320420a 30000
[ "$(wc -l <"$T/err")" = 1 ] || fail "sim seek beyond the stroke: not one line"
expect_err "^hddscope: DISTANCE 30000: beyond the stroke of st320420a \\(0 to $last cylinders\\)$"
[ ! -s "$T/out" ] || fail "sim seek beyond the stroke printed a time"
run 0 "$HDDSCOPE" sim seek st320420a "$last" 0
awk -v l="$last" 'NR == 1 { ok = $1 == l && $2 > 0 } NR == 2 { ok = ok && $1 == 0 && $2 == 0 } END { exit !(ok && NR == 2) }' \
	"$T/out" || fail "sim seek at the last cylinder and at 0"
pass "sim seek stays within the stroke"

# media --max-size: a size off the power-of-two ladder is refused, not shrunk.
run 1 "$HDDSCOPE" media -q --max-size 3m -o "$T/m.tsv" sim:atlas3
[ "$(wc -l <"$T/err")" = 1 ] || fail "media --max-size 3m: not one line"
expect_err "^hddscope: --max-size 3145728: sizes double from the 512-byte access unit of sim:atlas3, so the largest is 2097152 or 4194304$"
[ ! -e "$T/m.tsv" ] || fail "refused media run left a data file"
run 0 "$HDDSCOPE" media -q --max-size 2m --reps 1 -o "$T/m.tsv" sim:atlas3
[ "$(hdr "$T/m.tsv" params | sed 's/.*max_size=\([0-9]*\).*/\1/')" = 2097152 ] || fail "media --max-size 2m"
pass "media --max-size is what is used, or refused"

# sim list names its sources within the repository.
run 0 "$HDDSCOPE" sim list
grep -q '\.\./' "$T/out" && fail "sim list points outside the repository: $(grep '\.\./' "$T/out")"
[ "$(grep -c 'datasheet figures, derived (see data/drives/README.md)$' "$T/out")" = 4 ] ||
	fail "sim list: datasheet presets do not point at data/drives/README.md"
[ -e "$HDDSCOPE_SRC/data/drives/README.md" ] || fail "data/drives/README.md missing"
pass "sim list points at data/drives/README.md"

# The install: the binary and the chart scripts, no empty directory.
build=$(dirname "$HDDSCOPE")
if command -v cmake >/dev/null && [ -e "$build/cmake_install.cmake" ]; then
	cmake --install "$build" --prefix "$T/inst" >/dev/null 2>"$T/err" || { cat "$T/err" >&2; fail "cmake --install"; }
	[ -x "$T/inst/bin/hddscope" ] || fail "install: no bin/hddscope"
	[ -e "$T/inst/share/hddscope/plots/seek.gp" ] || fail "install: no seek.gp"
	empty=$(find "$T/inst" -type d -empty)
	[ -z "$empty" ] || fail "install created empty directories: $empty"
	pass "install: no empty directory"
fi
