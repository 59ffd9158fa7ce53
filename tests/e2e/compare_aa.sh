# compare's stated error rates against known truth.  A/A: every datasheet preset
# (dtla307030, st320420a, st2000dm001, travelstar5k320) against itself over 20
# seed pairs (plan and drive seeds i and 100 + i), each side the seek reads, seek
# writes, response (with writes) and media of a short profile; at most one "clear
# difference" in total per test section over the 80 comparisons (the family-wise
# error rate of a section is 0.001).  Power: dtla307030 against the same model
# with its seek curve scaled by 1.10, 40000 seek reads each at 256 MB..15 GB
# (where a seek moves the head at least 200 cylinders): the original is called
# faster at 90% or more of the distance bins, the scaled one at none.
. "$(dirname "$0")/common.bash"
command -v python3 >/dev/null || fail "python3 missing (the suite checks JSON with it)"

side() { # DIR PRESET SEED
	mkdir -p "$1"
	run 0 "$HDDSCOPE" seek -q --seed "$3" -o "$1/seek-read.tsv" "sim:$2,seed=$3"
	run 0 "$HDDSCOPE" seek -q --seed "$3" --op write --write --sync -o "$1/seek-write.tsv" "sim:$2,seed=$3"
	run 0 "$HDDSCOPE" response -q --seed "$3" --write --sync -o "$1/response.tsv" "sim:$2,seed=$3"
	run 0 "$HDDSCOPE" media -q --seed "$3" -o "$1/media.tsv" "sim:$2,seed=$3"
}
presets="dtla307030 st320420a st2000dm001 travelstar5k320"
for p in $presets; do
	for i in $(seq 1 20); do
		side "$T/$p-a" "$p" "$i"
		side "$T/$p-b" "$p" $((100 + i))
		run 0 "$HDDSCOPE" compare -q --no-charts "$T/$p-a" "$T/$p-b" -o "$T/aa-$p-$i"
		rm -r "$T/$p-a" "$T/$p-b"
	done
done
python3 - "$T" $presets <<'PY' || fail "A/A comparisons"
import json, sys
t, presets = sys.argv[1], sys.argv[2:]
sections = ("seek-read", "seek-write", "response", "media")
total = dict.fromkeys(sections, 0)
tested = 0
for p in presets:
    for i in range(1, 21):
        j = json.load(open("%s/aa-%s-%d/compare.json" % (t, p, i)))
        assert j["method"]["familywise_error_rate"] == 0.001, j["method"]
        for s in sections:
            n = j[s]["clear_differences"]
            if n:
                print("%s seed pair %d: %d clear difference(s) in %s" % (p, i, n, s))
            total[s] += n
        # The findings are real tests: each bin has its interval and p-value.
        b = j["seek-read"]["read"]["both"]["bins"]
        assert len(b) >= 20 and all(x["diff_ci_lo_ms"] < x["diff_ms"] < x["diff_ci_hi_ms"] and 0 < x["p_value"] <= 1 for x in b)
        tested += len(b)
print("A/A, 80 pairs: clear differences by section %s" % total)
sys.exit(any(n > 1 for n in total.values()))
PY
# What the data cannot resolve is said with the largest difference left open, by decade.
grep -Eq '^seek read, both directions: no difference larger than [0-9]+% at every distance measured \(.*\) \(by decade: [0-9]+% at ±0\.2[0-9]* MB to ±[0-9.]+ MB, [0-9]+% at ±1' \
	"$T/aa-dtla307030-20/findings.txt" || { cat "$T/aa-dtla307030-20/findings.txt"; fail "A/A: no bound by decade"; }
pass "A/A: at most one clear difference per section over 80 pairs"

"$HDDSCOPE" sim show dtla307030 >"$T/orig.drive" || fail "sim show dtla307030"
awk '/^seek *=/ { printf "seek = %s %.4f\n", $3, $4 * 1.10; next } { print }' "$T/orig.drive" >"$T/slow.drive"
[ "$(grep -c '^seek =' "$T/slow.drive")" -ge 10 ] || fail "no seek curve to scale"
for s in orig:1 slow:2; do
	mkdir -p "$T/${s%:*}"
	run 0 "$HDDSCOPE" seek -q --samples 40000 --min 256m --range 32g --seed "${s#*:}" \
		-o "$T/${s%:*}/seek-read.tsv" "sim:$T/${s%:*}.drive"
done
run 0 "$HDDSCOPE" compare -q --no-charts "$T/orig" "$T/slow" -o "$T/pw"
grep -Eq '^seek read, both directions: A is [0-9]+-[0-9]+% faster \(95% interval [0-9]+-[0-9]+%\)' "$T/pw/findings.txt" ||
	{ cat "$T/pw/findings.txt"; fail "power: the finding has no interval"; }
python3 - "$T/pw/compare.json" <<'PY' || fail "power on a seek curve 1.10 times the original"
import json, sys
c = json.load(open(sys.argv[1]))["seek-read"]["read"]
for d in ("both", "outward", "inward"):
    b = c[d]["bins"]
    right = sum(x["faster"] == "A" for x in b)
    wrong = sum(x["faster"] == "B" for x in b)
    print("%s: the original faster at %d of %d distance bins (%.0f%%), the scaled one at %d" %
          (d, right, len(b), 100.0 * right / len(b), wrong))
    assert len(b) >= 14 and wrong == 0, d
    if d == "both":
        assert right >= 0.9 * len(b), "power"
PY
pass "a seek curve 1.10 times the original is found slower"
