# The CTest test oracle_disksim: builds DiskSim 4.0 once into the build tree
# ($HDDSCOPE_DISKSIM, from ../shared/disksim), runs the oracle harness on it
# with the targets file and prints its table.  It passes when
#  (a) the harness's method is right: on every workload, DiskSim run again with
#      the service times the harness recovered reports its own mean response
#      time within 0.01 ms of theirs and a per-request difference of 0;
#  (b) every row is within its bound (tests/oracle/targets; by default the
#      issue's: rms within 0.1 ms of DiskSim's, on a measured trace no worse
#      than DiskSim's own rms).
# Skipped (77) without ../shared/disksim or DiskSim's build prerequisites.
. "$(dirname "$0")/../e2e/common.bash"
: "${HDDSCOPE_DISKSIM:?set HDDSCOPE_DISKSIM to the directory DiskSim is built in}"
here=$HDDSCOPE_SRC/tests/oracle
shared=${HDDSCOPE_SHARED:-$HDDSCOPE_SRC/../shared}
[ -r "$shared/disksim/build.sh" ] || skip "no $shared/disksim/build.sh"

# DiskSim builds 32-bit: a kernel that runs no 32-bit program (here one whose
# IA32 emulation is compiled in but off, "Exec format error") cannot run it.
if echo 'int main(void) { return 0; }' | gcc -m32 -x c -o "$T/m32" - 2>/dev/null; then
	"$T/m32" 2>"$T/m32.err" || skip "this kernel runs no 32-bit program, and DiskSim builds 32-bit: $(tail -n 1 "$T/m32.err")"
fi

# build.sh does nothing where the binaries are there; a build cut short after
# them but before valid/ is started again.
[ -r "$HDDSCOPE_DISKSIM/valid/statdefs" ] || rm -rf "$HDDSCOPE_DISKSIM/bin"
bash "$shared/disksim/build.sh" "$HDDSCOPE_DISKSIM" >"$T/build.out" 2>&1
rc=$?
[ $rc = 2 ] && skip "DiskSim cannot be built here: $(tail -n 1 "$T/build.out")"
[ $rc = 0 ] || { cat "$T/build.out" >&2; fail "$shared/disksim/build.sh $HDDSCOPE_DISKSIM: exit $rc"; }

bash "$here/oracle.sh" --targets "$here/targets" "$HDDSCOPE" "$HDDSCOPE_DISKSIM" >"$T/table" 2>"$T/err"
rc=$?
cat "$T/table"
[ -s "$T/err" ] && cat "$T/err" >&2
[ $rc = 2 ] && fail "the harness could not run (exit 2)"

# (a) One method check line per DiskSim model run, none failed; at least the
# presets' two models ran.
grep -q 'CHECK FAILED' "$T/table" && fail "the harness's recovered service times disagree with DiskSim's (see CHECK FAILED)"
n=$(grep -c '^[A-Za-z0-9_]*: [0-9]* workloads; recovered' "$T/table")
[ "$n" -ge 2 ] || fail "method checks for $n DiskSim models, want at least 2 (atlas_III, cheetah9LP)"
pass "method: DiskSim's own means and per-request times reproduced on $n models"

# (b) Every row within its bound.
grep -q ' OUT$' "$T/table" && fail "rows beyond their bound: $(grep -c ' OUT$' "$T/table") (marked OUT above)"
[ $rc = 0 ] || fail "the harness exited $rc"
grep -q '^atlas3 *atlas_III *10000 ' "$T/table" || fail "no row of the Atlas III measured trace"
pass "every row within its bound ($(grep -c ' ok' "$T/table") rows)"
