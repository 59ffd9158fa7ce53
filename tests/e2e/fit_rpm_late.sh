# The revolution from a read-interval sawtooth whose completions were seen
# late now and then, as on a busy host (a kernel without preemption, the CPUs
# taken): the simulated drive's sawtooth, exact, with a tenth of the reads'
# completions delayed by an exponential time (mean 0.3, 1 or 3 ms), at either
# end of the timed sum.  The quick profile's 81 idle times and the full
# profile's 161, 10 seeds each on atlas3 and st2000dm001: fit finds the rpm
# within 0.2% of the model's every time (least squares over all the sums
# came out 0.8% off with such delays).
. "$(dirname "$0")/common.bash"
command -v python3 >/dev/null || fail "python3 missing"

for model in atlas3 st2000dm001; do
	rev=$("$HDDSCOPE" sim info "$model" | sed -n 's/^revolution_ms: //p')
	[ -n "$rev" ] || fail "sim info $model lacks revolution_ms"
	for iv in 0:40:0.5 0:40:0.25; do
		for s in 1 2 3 4 5 6 7 8 9 10; do
			d="$T/$model-$iv-$s"
			mkdir "$d"
			run 0 "$HDDSCOPE" interval --op read --intervals "$iv" --reps 1 --seed "$s" -q \
				-o "$T/clean.tsv" "sim:$model"
			run 0 "$HDDSCOPE" seek --samples 200 --seed "$s" -q -o "$d/seek-read.tsv" "sim:$model"
			for scale in 0.3 1 3; do
				python3 - "$T/clean.tsv" "$d/interval-read.tsv" "$s" "$scale" <<'PY' || fail "delay $T/clean.tsv"
import random, sys
src, dst, seed, scale = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
rnd = random.Random(seed * 1000 + int(scale * 10))
out, cols = [], None
for line in open(src):
    if line.startswith("#"):
        if line.startswith("# columns:"):
            cols = line[len("# columns:"):].split()
        out.append(line)
        continue
    f = line.rstrip("\n").split("\t")
    lat = cols.index("latency_ms")
    v = float(f[lat])
    # The timed read's completion seen late adds to the sum; the first
    # read's seen late starts the idle time late, which takes from it.
    if rnd.random() < 0.1:
        v += rnd.expovariate(1 / scale)
    if rnd.random() < 0.1:
        v -= rnd.expovariate(1 / scale)
    f[lat] = "%.6f" % max(v, 0.01)
    out.append("\t".join(f) + "\n")
assert cols, "no columns header in " + src
open(dst, "w").writelines(out)
PY
				run 0 "$HDDSCOPE" fit -q "$d"
				python3 - "$d/summary.json" "$rev" "$model $iv seed $s scale $scale" <<'PY' || fail "rpm, $model $iv seed $s, delays of mean $scale ms"
import json, sys
f = json.load(open(sys.argv[1]))["fit"]
want = 60000.0 / float(sys.argv[2])
assert "read-interval" in f["rpm_method"], f["rpm_method"]
err = abs(f["rpm"] - want) / want
assert err <= 0.002, "%s: rpm %.2f, model %.2f (%.3f%%)" % (sys.argv[3], f["rpm"], want, 100 * err)
PY
			done
		done
	done
done
pass "rpm within 0.2% of the model's with a tenth of the completions seen late (2 models, 2 plans, 10 seeds, 3 delays)"
