# compare of three or more profiles against known truth.  Power and false
# findings in one run: dtla307030 at two seeds (A, B: the same drive) and the
# same model with its seek curve scaled by 1.10 (C), 40000 seek reads each at
# 256 MB..15 GB.  Each against the first: A-B finds nothing, A-C finds A faster
# at 80% or more of the distance bins and C at none, Holm's correction at 0.1%
# over the bins of both pairs together: a bin is called exactly when its
# p-value is within the joint step-down's rejections.  Every pair (--pairs
# all): B-C finds B faster the same way.  A/A
# triples: three seeds of a preset, every pair, over 10 triples: at most one
# clear difference in total per section.  Refusals: one directory, nine, a
# directory that is missing or not a profile.
. "$(dirname "$0")/common.bash"
command -v python3 >/dev/null || fail "python3 missing (the suite checks JSON with it)"

"$HDDSCOPE" sim show dtla307030 >"$T/orig.drive" || fail "sim show dtla307030"
awk '/^seek *=/ { printf "seek = %s %.4f\n", $3, $4 * 1.10; next } { print }' "$T/orig.drive" >"$T/slow.drive"
[ "$(grep -c '^seek =' "$T/slow.drive")" -ge 10 ] || fail "no seek curve to scale"
for s in a:orig:1 b:orig:101 c:slow:2; do
	IFS=: read -r d m seed <<<"$s"
	mkdir -p "$T/$d"
	run 0 "$HDDSCOPE" seek -q --samples 40000 --min 256m --range 32g --seed "$seed" \
		-o "$T/$d/seek-read.tsv" "sim:$T/$m.drive,seed=$seed"
done
run 0 "$HDDSCOPE" compare -q "$T/a" "$T/b" "$T/c" -o "$T/first"
run 0 "$HDDSCOPE" compare -q --no-charts --pairs all "$T/a" "$T/b" "$T/c" -o "$T/all"
python3 - "$T" <<'PY' || fail "N = 3: false findings and power"
import json, sys
t = sys.argv[1]
def bins(d, pair):
    c = json.load(open("%s/%s/pairs/%s/compare.json" % (t, d, pair)))["seek-read"]["read"]
    return c
for d, pairs in (("first", ["A-B", "A-C"]), ("all", ["A-B", "A-C", "B-C"])):
    top = json.load(open("%s/%s/compare.json" % (t, d)))
    assert [c["dir"] for c in top["comparisons"]] == ["pairs/" + p for p in pairs], top["comparisons"]
    assert top["familywise_error_rate"] == 0.001
    # One family across the pairs: Holm's step down over every bin of every pair.
    allb = []
    for p in pairs:
        j = json.load(open("%s/%s/pairs/%s/compare.json" % (t, d, p)))
        assert j["method"]["familywise_error_rate"] == 0.001 and "all the pairs" in j["method"]["correction"]
        for k in ("both", "outward", "inward"):
            allb += j["seek-read"]["read"][k]["bins"]
    ps = sorted(x["p_value"] if x["p_value"] is not None else 1 for x in allb)
    m, cut = len(ps), -1
    for k, q in enumerate(ps):
        if q > 0.001 / (m - k):
            break
        cut = q
    for x in allb:
        rejected = x["p_value"] is not None and x["p_value"] <= cut
        assert (x["faster"] is not None) == (rejected and x["pct"] >= 2), (x, cut)
    print("%s: %d bins in the family, Holm's cut %.3g" % (d, m, cut))
    n_aa = top["comparisons"][0]["clear_differences"]["seek-read"]
    print("%s: A/A pair A-B, clear differences in seek-read: %d" % (d, n_aa))
    assert n_aa == 0
    for p in pairs[1:]:
        for k in ("both", "outward", "inward"):
            b = bins(d, p)[k]["bins"]
            right = sum(x["faster"] == "A" for x in b)
            wrong = sum(x["faster"] == "B" for x in b)
            print("%s %s %s: the original faster at %d of %d bins (%.0f%%), the scaled one at %d" %
                  (d, p, k, right, len(b), 100.0 * right / len(b), wrong))
            assert len(b) >= 14 and wrong == 0, (d, p, k)
            if k == "both":
                # The family holds the A/A pair's bins too, so a pair has a little less
                # power than alone (>= 90% there, e.compare_aa).
                assert right >= 0.8 * len(b), "power"
PY
grep -q '^C: .* (.*/c)$' "$T/first/findings.txt" && grep -q "^==== A against C " "$T/first/findings.txt" ||
	{ cat "$T/first/findings.txt"; fail "findings.txt does not list the three drives and the pairs"; }
for m in side overlay; do
	f=$T/first/charts/seek-read-$m.png
	[ "$(head -c 8 "$f" | od -An -tx1 | tr -d ' ')" = 89504e470d0a1a0a ] || fail "$f is not a PNG"
done
pass "N = 3: a drive against itself finds nothing, against its 1.10-scaled seek curve finds it slower"

# A/A triples: every pair of three seeds of a drive, ten triples.
for i in $(seq 1 10); do
	for k in 0 1 2; do
		mkdir -p "$T/aa$k"
		s=$((i + 100 * k))
		run 0 "$HDDSCOPE" seek -q --seed "$s" -o "$T/aa$k/seek-read.tsv" "sim:st320420a,seed=$s"
		run 0 "$HDDSCOPE" media -q --seed "$s" -o "$T/aa$k/media.tsv" "sim:st320420a,seed=$s"
	done
	run 0 "$HDDSCOPE" compare -q --no-charts --pairs all "$T/aa0" "$T/aa1" "$T/aa2" -o "$T/aat-$i"
	rm -r "$T/aa0" "$T/aa1" "$T/aa2"
done
python3 - "$T" <<'PY' || fail "A/A triples"
import json, sys
t = sys.argv[1]
total = {"seek-read": 0, "media": 0}
for i in range(1, 11):
    for c in json.load(open("%s/aat-%d/compare.json" % (t, i)))["comparisons"]:
        for s in total:
            total[s] += c["clear_differences"][s]
print("A/A triples, 30 pairs: clear differences by section %s" % total)
sys.exit(any(n > 1 for n in total.values()))
PY
pass "A/A triples: at most one clear difference per section over 30 pairs"

# Refusals, each with its object named.
run 1 "$HDDSCOPE" compare "$T/a" -o "$T/x"
grep -q "two or more profile directories are needed" "$T/err" || fail "one directory: $(cat "$T/err")"
run 1 "$HDDSCOPE" compare "$T/a" "$T/a" "$T/a" "$T/a" "$T/a" "$T/a" "$T/a" "$T/a" "$T/a" -o "$T/x"
grep -q "9 profile directories: at most 8" "$T/err" || fail "nine directories: $(cat "$T/err")"
run 2 "$HDDSCOPE" compare "$T/a" "$T/b" "$T/missing" -o "$T/x"
grep -q "stat $T/missing: No such file or directory" "$T/err" || fail "missing directory: $(cat "$T/err")"
[ ! -e "$T/x" ] || fail "a refused compare left $T/x"
mkdir "$T/empty"
run 2 "$HDDSCOPE" compare "$T/a" "$T/b" "$T/empty" -o "$T/x"
grep -q "$T/empty: no data files of a profile" "$T/err" || fail "not a profile: $(cat "$T/err")"
[ ! -e "$T/x" ] || fail "a refused compare left $T/x"
pass "compare refuses one directory, nine, a missing one and one that is not a profile"
