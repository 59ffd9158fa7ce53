# Behaviour is pinned: every probe, run with a fixed seed on simulated
# drives, and the commands that read its data (fit, compare, verdict,
# replay), give byte-identical files (timestamps and run times aside) to the
# checksums in same_bytes.sha256.  A change of code layout must leave every
# checksum as it is; a change meant to alter what is measured updates them
# with `HDDSCOPE=build/hddscope bash tests/e2e/same_bytes.sh --update` and
# says so in its commit.
. "$(dirname "$0")/common.bash"

SUMS=$HDDSCOPE_SRC/tests/e2e/same_bytes.sha256
O=$T/o
mkdir "$O"

# What varies between equal runs: where, when it ran and how long the host took.
normalize() {
	sed -E -e "s#$T#@T@#g" -e 's/^# (started|finished): .*/# \1: -/' \
		-e 's/"(started|finished)": "[^"]*"/"\1": "-"/' \
		-e 's/"(cpu_s|wall_s)": [-0-9.eE+]+/"\1": 0/' "$1"
}

probes() {
	local drive=$1 d=$O/$1
	mkdir -p "$d"
	run 0 "$HDDSCOPE" seek -q --seed 7 --samples 300 -o "$d/seek-read.tsv" "sim:$drive"
	run 0 "$HDDSCOPE" seek -q --seed 7 --samples 200 --op write --write -o "$d/seek-write.tsv" "sim:$drive"
	run 0 "$HDDSCOPE" response -q --seed 7 --points 40 --reps 3 -o "$d/response.tsv" "sim:$drive"
	run 0 "$HDDSCOPE" response -q --seed 7 --points 40 --reps 2 --write --sync \
		-o "$d/response-write.tsv" "sim:$drive"
	run 0 "$HDDSCOPE" media -q --seed 7 --reps 3 -o "$d/media.tsv" "sim:$drive"
	run 0 "$HDDSCOPE" queue -q --seed 7 --procs 1,4 --requests 50 -o "$d/queue.tsv" "sim:$drive"
	run 0 "$HDDSCOPE" interval -q --seed 7 --write --reps 2 -o "$d/interval.tsv" "sim:$drive"
	run 0 "$HDDSCOPE" bench -q --seed 7 --write --time 1s -o "$d/bench.tsv" "sim:$drive"
	run 0 "$HDDSCOPE" zone -q --seed 7 --points 20 -o "$d/zone.tsv" "sim:$drive"
	run 0 "$HDDSCOPE" cache -q --seed 7 --reps 1 --write --span 4m -o "$d/cache.tsv" "sim:$drive"
	run 0 "$HDDSCOPE" layout -q --seed 7 --write --points 8 --tracks 30 --cylinders 4 --write-cylinders 4 \
		-o "$d/layout.tsv" "sim:$drive"
}

probes atlas3
probes st320420a
run 0 "$HDDSCOPE" profile -q --quick --no-charts --seed 3 -o "$O/p1" sim:dtla307030
run 0 "$HDDSCOPE" profile -q --quick --no-charts --seed 4 -o "$O/p2" sim:st320420a
run 0 "$HDDSCOPE" fit -q --drive-out "$O/fitted.drive" "$O/p1"
run 0 "$HDDSCOPE" compare -q --no-charts -o "$O/cmp" "$O/p1" "$O/p2"
"$HDDSCOPE" verdict "$O/p1" >"$O/verdict.txt" 2>&1
printf 'R 0 8\nR 4000 16\nW 100000 8 500\nR 800000 64\nR 800064 64 100\n' >"$T/t.trace"
run 0 "$HDDSCOPE" replay --drive cheetah9lp -o "$O/replay.tsv" "$T/t.trace"

(cd "$O" && find . -type f | LC_ALL=C sort | while read -r f; do
	printf '%s  %s\n' "$(normalize "$f" | sha256sum | cut -d' ' -f1)" "$f"
done) >"$T/sums"

if [ "${1:-}" = --update ]; then
	cp "$T/sums" "$SUMS"
	echo "updated $SUMS ($(wc -l <"$SUMS") files)"
	exit 0
fi
[ -f "$SUMS" ] || fail "no $SUMS: run with --update once"
if ! diff "$SUMS" "$T/sums" >"$T/diff"; then
	cat "$T/diff" >&2
	fail "outputs differ from same_bytes.sha256 (see above)"
fi
pass "$(wc -l <"$SUMS") files byte-identical to the pinned checksums"
