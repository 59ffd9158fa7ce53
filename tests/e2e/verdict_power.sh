# verdict's sequential write-stability decision against known truth, over 20 seeds
# (plan and drive seed i): the healthy dtla307030 gets PASS at least 19 times, the
# same model with write_retry_probability = 0.02 WARN or FAIL at least 19 times.
# Each side is the response probe with writes (--sync), as profile --write takes it.
. "$(dirname "$0")/common.bash"

"$HDDSCOPE" sim show dtla307030 | grep -v '^write_retry_probability' >"$T/healthy.drive" || fail "sim show dtla307030"
cp "$T/healthy.drive" "$T/unstable.drive"
echo "write_retry_probability = 0.02" >>"$T/unstable.drive"
pass_h=0 flag_u=0 undecided=0
for i in $(seq 1 20); do
	for m in healthy unstable; do
		mkdir -p "$T/$m-$i"
		run 0 "$HDDSCOPE" response -q --write --sync --seed "$i" -o "$T/$m-$i/response.tsv" "sim:$T/$m.drive,seed=$i"
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
