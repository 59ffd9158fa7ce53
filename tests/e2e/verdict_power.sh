# verdict's sequential write-stability decision against known truth, over 20 seeds
# (plan and drive seed i): the healthy dtla307030 gets PASS at least 19 times, the
# same model with write_retry_probability = 0.02 WARN or FAIL at least 19 times.
# Each side is the response probe with writes (--sync) and its sequential cap, as
# profile --write takes it.  Then the cap itself: a healthy drive whose planned writes
# are too few to decide goes on measuring until it is told healthy; held to its plan,
# it is undecided and the verdict says so.
. "$(dirname "$0")/common.bash"

"$HDDSCOPE" sim show dtla307030 | grep -v '^write_retry_probability' >"$T/healthy.drive" || fail "sim show dtla307030"
cp "$T/healthy.drive" "$T/unstable.drive"
echo "write_retry_probability = 0.02" >>"$T/unstable.drive"
pass_h=0 flag_u=0 undecided=0
for i in $(seq 1 20); do
	for m in healthy unstable; do
		mkdir -p "$T/$m-$i"
		run 0 "$HDDSCOPE" response -q --write --sync --write-cap 4800 --seed "$i" -o "$T/$m-$i/response.tsv" "sim:$T/$m.drive,seed=$i"
		"$HDDSCOPE" verdict "$T/$m-$i" >"$T/v" 2>"$T/err"
		rc=$?
		case $m:$rc in
		healthy:0) pass_h=$((pass_h + 1)) ;;
		unstable:4 | unstable:5) flag_u=$((flag_u + 1)) ;;
		*:[045]) echo "$m seed $i: exit $rc: $(grep 'write response' "$T/v")" ;;
		*) cat "$T/v" "$T/err"; fail "$m seed $i: verdict exit $rc" ;;
		esac
		grep -q '^WARN  write response undecided' "$T/v" && undecided=$((undecided + 1))
		grep -Eq 'write response (stable|unstable|undecided): [0-9.]+% of writes \([0-9]+ of [0-9]+; 95% interval' "$T/v" ||
			{ cat "$T/v"; fail "$m seed $i: no slow-write rate with its interval"; }
	done
done
echo "healthy PASS $pass_h of 20, unstable WARN or FAIL $flag_u of 20, undecided $undecided"
[ "$pass_h" -ge 19 ] && [ "$flag_u" -ge 19 ] || fail "the decision lacks power"
pass "verdict tells healthy from unstable over 20 seeds"

mkdir -p "$T/more" "$T/plan"
run 0 "$HDDSCOPE" response -q --write --sync --reps 5 --write-cap 4800 -o "$T/more/response.tsv" "sim:$T/healthy.drive"
run 0 "$HDDSCOPE" response -q --write --sync --reps 5 --write-cap 555 -o "$T/plan/response.tsv" "sim:$T/healthy.drive"
# 48 distances x 5 writes, the 21 near ones (2-16 blocks) x 20: 555 planned, then a round of
# 48 x 5 = 240 (756 writes decide with no slow one).
grep -qx '# write_decision: healthy after 756 of 795 writes (cap 4800)' "$T/more/response.tsv" ||
	fail "more: $(grep write_decision "$T/more/response.tsv")"
[ "$(grep -c $'\twrite\t' "$T/more/response.tsv")" = 795 ] || fail "more: not 795 writes"
run 0 "$HDDSCOPE" verdict "$T/more"
grep -q '^PASS  write response stable: .* after 756 writes' "$T/out" || { cat "$T/out"; fail "more: verdict"; }
grep -qx '# write_decision: undecided after 555 writes (cap 555)' "$T/plan/response.tsv" ||
	fail "plan: $(grep write_decision "$T/plan/response.tsv")"
run 4 "$HDDSCOPE" verdict "$T/plan"
grep -q '^WARN  write response undecided: .*555 writes cannot tell healthy (0.20% or less) from unstable (0.80% or more)' \
	"$T/out" || { cat "$T/out"; fail "plan: verdict"; }
pass "writes go on within the cap until decided, else the verdict says undecided"
