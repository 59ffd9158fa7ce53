# A quick profile's seek curve against the model's (seekcurve_truth.bash: the
# model's positioning averaged over the seek probe's reference jitter): some 14
# samples a bin in each direction, so that a bin's own band edge is off by
# about a revolution / 14 (0.4 ms at 7200 rpm) and the fit takes its
# neighbours' samples too (pool_neighbours in fit_seek.c).  sim:atlas3 at
# seeds 1 to 7: at least 94% of all the bins within max(0.3 ms, 5%), and 85%
# at each seed (each bin from its own samples: 88% in all, 81% at seed 7);
# the other presets at seed 1: 95% each (93% and 95% for st320420a and
# travelstar5k320 before).
. "$(dirname "$0")/common.bash"
. "$(dirname "$0")/seekcurve_truth.bash"

# within MODEL DIR: "ok n" of DIR's seek curve against MODEL.
within() {
	seekcurve_truth "$HDDSCOPE" "$1" "$2" "$T" >"$T/curve" || fail "seekcurve_truth $1 $2"
	awk '{ e = $2 - $3; e = e < 0 ? -e : e; t = 0.05 * $3; if (t < 0.3) t = 0.3; n++; ok += e <= t }
		END { print ok + 0, n + 0 }' "$T/curve"
}

tok=0 tn=0 each=""
for seed in 1 2 3 4 5 6 7; do
	run 0 "$HDDSCOPE" profile -q --quick --no-charts --seed $seed -o "$T/a$seed" sim:atlas3
	read -r ok n <<<"$(within atlas3 "$T/a$seed")"
	[ "$n" -ge 40 ] || fail "atlas3 seed $seed: only $n bins in the seek curve"
	[ $((100 * ok)) -ge $((85 * n)) ] || fail "atlas3 seed $seed: $ok of $n bins within max(0.3 ms, 5%), below 85%"
	tok=$((tok + ok)) tn=$((tn + n)) each="$each $ok/$n"
done
[ $((100 * tok)) -ge $((94 * tn)) ] || fail "atlas3 seeds 1-7: $tok of $tn bins within max(0.3 ms, 5%), below 94% ($each)"
pass "quick sim:atlas3, seeds 1-7: $tok of $tn bins within max(0.3 ms, 5%) ($each)"

for m in cheetah9lp dtla307030 st2000dm001 st320420a travelstar5k320; do
	run 0 "$HDDSCOPE" profile -q --quick --no-charts --seed 1 -o "$T/$m" "sim:$m"
	read -r ok n <<<"$(within $m "$T/$m")"
	[ "$n" -ge 40 ] || fail "$m: only $n bins in the seek curve"
	[ $((100 * ok)) -ge $((95 * n)) ] || fail "$m: $ok of $n bins within max(0.3 ms, 5%), below 95%"
	pass "quick sim:$m: $ok of $n bins within max(0.3 ms, 5%)"
done

# The directions' spread (direction_spread_ms) on a drive whose seek is the same
# either way: st2000dm001's model is symmetric beyond the reference's track,
# where the two directions' band edges differ by revolutions.  From the
# differences between the directions' edges bin by bin, trimmed, quick
# profiles at seeds 1 to 4 gave 0, 0, 0.05 and 0.16 ms and a full profile
# 0.05; from one direction's deviations from the pooled curve, which took in
# the bins within a track, 0.22 to 0.44 and 0.53, and an emulated quick
# profile 0.2 ms off in one direction over half its curve.
each=""
for seed in 1 2 3 4; do
	run 0 "$HDDSCOPE" profile -q --quick --no-charts --seed $seed -o "$T/s$seed" sim:st2000dm001
	sp=$(sed -n 's/^# direction_spread_ms: //p' "$T/s$seed/seekcurve.tsv")
	[ -n "$sp" ] || fail "st2000dm001 seed $seed: no direction_spread_ms"
	each="$each $sp"
done
awk '{ for (i = 1; i <= NF; i++) s += $i; exit !(s / NF <= 0.12) }' <<<"$each" || fail "st2000dm001 quick, seeds 1-4: directions' spread$each ms, mean over 0.12"
run 0 "$HDDSCOPE" profile -q --no-charts --seed 1 -o "$T/sfull" sim:st2000dm001
sp=$(sed -n 's/^# direction_spread_ms: //p' "$T/sfull/seekcurve.tsv")
awk -v s="$sp" 'BEGIN { exit !(s != "" && s <= 0.15) }' || fail "st2000dm001 full, seed 1: directions' spread '$sp' ms, over 0.15"
pass "st2000dm001, symmetric: directions' spread$each ms (quick, seeds 1-4), $sp ms (full)"
