# valgrind: whole commands on a simulated drive under memcheck report no
# memory error and no leak, and free everything they allocated.  Covers
# profile --write (every probe, the write probes' pre-reads and restores,
# summary.json), a plain profile with its charts, and the commands that
# read a profile back (verdict, fit) or a trace (replay).  Skipped (77)
# where valgrind is missing or the binary is built with AddressSanitizer,
# whose runtime cannot run under valgrind.
. "$(dirname "$0")/common.bash"
command -v valgrind >/dev/null || skip "valgrind not installed"
grep -qa __asan_init "$HDDSCOPE" && skip "$HDDSCOPE is built with AddressSanitizer"

# Exit code 99 is valgrind's: an error, or a definite, indirect or possible
# leak.  gnuplot and the shell that may start it are not ours to check.
VG=(valgrind --leak-check=full --show-leak-kinds=all
	--errors-for-leak-kinds=definite,indirect,possible --error-exitcode=99
	--trace-children=yes --trace-children-skip='*gnuplot*,*/sh,*/bash,*/dash'
	--log-file="$T/vg.%p.log")

# vg NAME CMD...: CMD under valgrind exits 0, and every hddscope process it
# ran ended with no error and nothing left allocated (not even reachable
# blocks: a clean exit frees all, so that a real leak cannot hide in them).
vg() {
	local name=$1; shift
	rm -f "$T"/vg.*.log
	"${VG[@]}" "$@" >"$T/out" 2>"$T/err"
	local rc=$?
	[ "$rc" -ne 99 ] || { cat "$T"/vg.*.log >&2; fail "$name: valgrind reports errors or leaks"; }
	[ "$rc" -eq 0 ] || { cat "$T/err" >&2; fail "$name: exited $rc"; }
	local l checked=0
	for l in "$T"/vg.*.log; do
		# A child that went on to exec gnuplot (not traced) ends its log without a summary.
		grep -q 'ERROR SUMMARY:' "$l" || continue
		grep -q 'ERROR SUMMARY: 0 errors' "$l" || { cat "$l" >&2; fail "$name: errors in $l"; }
		grep -q 'in use at exit: 0 bytes in 0 blocks' "$l" || { cat "$l" >&2; fail "$name: memory left at exit ($l)"; }
		checked=$((checked + 1))
	done
	[ "$checked" -gt 0 ] || fail "$name: no valgrind summary"
	pass "$name: no memory errors, no leaks, nothing left at exit ($checked process(es))"
}

# complete DIR NAME...: the profile really ran: every file complete, summary written.
complete() {
	local dir=$1; shift
	[ -s "$dir/summary.json" ] || fail "$dir: no summary.json"
	for n in "$@"; do
		[ "$(hdr "$dir/$n.tsv" complete)" = yes ] || fail "$dir/$n.tsv missing or not complete"
	done
}

vg "profile --quick --write --no-charts" "$HDDSCOPE" profile --quick --write --no-charts -q -o "$T/pw" sim:atlas3
complete "$T/pw" seek-read seek-write response media queue interval bench zone
[ ! -e "$T/pw/charts" ] || [ -z "$(ls -A "$T/pw/charts")" ] || fail "--no-charts drew charts"

if command -v gnuplot >/dev/null; then
	vg "profile --quick" "$HDDSCOPE" profile --quick -q -o "$T/p" sim:cheetah9lp
	[ -s "$T/p/charts/seek-read.png" ] || fail "profile --quick drew no seek chart"
else
	vg "profile --quick --no-charts" "$HDDSCOPE" profile --quick --no-charts -q -o "$T/p" sim:cheetah9lp
fi
complete "$T/p" seek-read response media queue bench zone

# Reading a profile back: summary.json parsed, extended and saved again.
"${VG[@]}" "$HDDSCOPE" verdict "$T/pw" >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -ne 99 ] || { cat "$T"/vg.*.log >&2; fail "verdict: valgrind reports errors or leaks"; }
case $rc in 0|4|5) pass "verdict: exit $rc under valgrind, no errors or leaks" ;; *) cat "$T/err" >&2; fail "verdict exited $rc" ;; esac
vg "fit" "$HDDSCOPE" fit "$T/pw"
printf 'R 0 8\nW 4096 16 250\nR 100000 64 0\n' >"$T/plain.trace"
vg "replay" "$HDDSCOPE" replay --drive atlas3 "$T/plain.trace"
