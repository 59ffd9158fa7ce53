# The revolution from the read-interval sawtooth (interval --op read, which
# profile runs): on every preset, 4 KiB physical sectors and look-ahead
# included, and on four DiskSim models of measured drives imported from
# ../shared (where it is), rpm within 0.05% of the model's on 10 seeds out of
# 10, with the stated uncertainty covering the error.
. "$(dirname "$0")/common.bash"
command -v python3 >/dev/null || fail "python3 missing"

models="atlas3 cheetah9lp dtla307030 st2000dm001 st320420a travelstar5k320"
tarball=${HDDSCOPE_SHARED:-$HDDSCOPE_SRC/../shared}/disksim/disksim-4.0-src.tar.xz
if [ -f "$tarball" ]; then
	tar -xJf "$tarball" -C "$T" --wildcards 'valid/*' 2>/dev/null ||
		tar -xJf "$tarball" -C "$T" --wildcards './valid/*' || fail "extract valid/ from $tarball"
	for m in dec_rz26 hp_c2247a hp_c2490a hp_c3323a; do
		run 0 "$HDDSCOPE" sim import "$T/valid/$m.parv" -o "$T/$m.drive"
		models="$models $T/$m.drive"
	done
else
	echo "DiskSim models left out: no $tarball"
fi

for p in $models; do
	rev=$("$HDDSCOPE" sim info "$p" | sed -n 's/^revolution_ms: //p')
	[ -n "$rev" ] || fail "sim info $p lacks revolution_ms"
	for s in 1 2 3 4 5 6 7 8 9 10; do
		d="$T/$(basename "$p" .drive)-$s"
		mkdir "$d"
		run 0 "$HDDSCOPE" interval --op read --intervals 0:40:0.25 --reps 1 --seed "$s" -q \
			-o "$d/interval-read.tsv" "sim:$p"
		# The fit needs a seek curve to stand on: a small seek run.
		run 0 "$HDDSCOPE" seek --samples 300 --seed "$s" -q -o "$d/seek-read.tsv" "sim:$p"
		run 0 "$HDDSCOPE" fit -q "$d"
		python3 - "$d/summary.json" "$rev" "$p" "$s" <<'PY' || fail "rpm of $p, seed $s"
import json, sys
f = json.load(open(sys.argv[1]))["fit"]
rev = float(sys.argv[2])
rpm, want = f["rpm"], 60000.0 / rev
assert "read-interval" in f["rpm_method"], f["rpm_method"]
err = abs(rpm - want)
assert err <= 0.0005 * want, "%s seed %s: rpm %.3f, model %.3f (%.4f%%)" % (sys.argv[3], sys.argv[4], rpm, want, 100 * err / want)
assert err <= 3 * f["rpm_uncertainty"] + 1e-9 * want, "error %.4f beyond 3 x the stated %.4f" % (err, f["rpm_uncertainty"])
PY
	done
done
pass "rpm within 0.05% from the read sawtooth on every model ($(echo $models | wc -w)), 10 seeds each"
