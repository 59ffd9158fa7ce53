# Never lose a byte: every write-capable probe, and profile --write killed with
# SIGINT and SIGKILL at moments spread over the run, leave a loop device full of
# random bytes with the same SHA-256; interrupted results stay usable; refusals
# (no --write, held with O_EXCL by another process) change nothing.
. "$(dirname "$0")/common.bash"

[ "$(id -u)" = 0 ] || skip "needs root for losetup"
command -v losetup >/dev/null || skip "no losetup"
command -v python3 >/dev/null || fail "python3 missing"

img=$T/disk.img
head -c $((128 << 20)) /dev/urandom >"$img"
dev=$(losetup -f --show "$img" 2>/dev/null) || skip "losetup unusable"
LOOPS+=("$dev")
sum0=$(sha256sum <"$dev")
same() { [ "$(sha256sum <"$dev")" = "$sum0" ] || fail "$1: the device changed"; }

# Each write-capable probe on its own.
run 0 "$HDDSCOPE" seek -q --op write --write --samples 300 -o "$T/w1.tsv" "$dev"; same "seek --op write"
run 0 "$HDDSCOPE" response -q --write --points 40 --reps 4 -o "$T/w2.tsv" "$dev"; same "response --write"
run 0 "$HDDSCOPE" response -q --write --sync --points 40 --reps 2 -o "$T/w3.tsv" "$dev"; same "response --write --sync"
run 0 "$HDDSCOPE" interval -q --write --step 2 --reps 2 -o "$T/w4.tsv" "$dev"; same "interval"
run 0 "$HDDSCOPE" bench -q --write --time 300ms --span 32m -o "$T/w5.tsv" "$dev"; same "bench --write"
pass "every write probe leaves every byte"

# Refusals: nothing written, one clear line, exit 2.
run 2 "$HDDSCOPE" seek -q --op write -o "$T/r1.tsv" "$dev"
expect_err "add --write to allow it"
python3 -c 'import os,sys,time; fd=os.open(sys.argv[1], os.O_RDONLY|os.O_EXCL); print("held", flush=True); time.sleep(60)' "$dev" >"$T/held" &
holder=$!
for _ in $(seq 100); do grep -q held "$T/held" && break; sleep 0.05; done
run 2 "$HDDSCOPE" seek -q --op write --write -o "$T/r2.tsv" "$dev"
expect_err "^hddscope: $dev: device is busy \(mounted or in use\); refusing to write$"
run 2 "$HDDSCOPE" profile -q --write --quick -o "$T/r3" "$dev"
expect_err "device is busy"
kill $holder
wait $holder 2>/dev/null
[ ! -e "$T/r1.tsv" ] && [ ! -e "$T/r2.tsv" ] || fail "a refused run left a data file"
same "refusals"
pass "refusals change nothing"

# How long a quick profile with writes takes here, to spread the kills over it.
t0=$(date +%s%N)
run 0 "$HDDSCOPE" profile -q --quick --write --no-charts -o "$T/full" "$dev"
dur_ms=$(( ($(date +%s%N) - t0) / 1000000 ))
same "profile --write"
nfull=$(ls "$T/full"/*.tsv | wc -l)
[ "$dur_ms" -gt 500 ] || fail "profile took only $dur_ms ms: too short to interrupt"

# series SIG DEV PHASE FIRST: five runs on DEV killed with SIG, at moments spread
# over the run: the k-th (k = FIRST, FIRST + 2, ... 9) at (2k + PHASE) / 20 of it.
# Four series (SIGINT at odd twentieths, SIGKILL at even ones, each split in two)
# run side by side, each on a loop device of its own holding the same bytes: a
# quarter of the wall time for the same twenty runs and the same checks.
series() {
	local sig=$1 dev=$2 phase=$3 k d at pid rc n f frc vrc err=$T/err.$1$4
	for k in $(seq "$4" 2 9); do
		d=$T/$sig$k
		at=$(( dur_ms * (2 * k + phase) / 20 ))
		"$HDDSCOPE" profile -q --quick --write --no-charts -o "$d" "$dev" >/dev/null 2>"$err" &
		pid=$!
		sleep "$(awk -v ms=$at 'BEGIN { printf "%.3f", ms / 1000 }')"
		kill -$sig $pid 2>/dev/null
		wait $pid
		rc=$?
		[ "$(sha256sum <"$dev")" = "$sum0" ] || fail "$sig at $at ms: the device changed"
		if [ $sig = KILL ]; then
			[ $rc = 137 ] || [ $rc = 0 ] || fail "KILL at $at ms: exit $rc"
		else
			[ $rc = 130 ] || [ $rc = 0 ] || { cat "$err" >&2; fail "INT at $at ms: exit $rc"; }
		fi
		# Whatever is under a final name is whole and readable; after SIGINT the
		# last file says complete: no, and plot, fit and verdict take the directory.
		[ -d "$d" ] || continue
		n=0
		for f in "$d"/*.tsv; do
			[ -e "$f" ] || continue
			n=$((n + 1))
			"$HDDSCOPE" plot -o "$d/charts" "$f" >/dev/null 2>"$err" || { cat "$err" >&2; fail "$sig at $at ms: plot $f"; }
		done
		if [ $sig = INT ] && [ $rc = 130 ]; then
			[ "$n" -gt 0 ] || [ "$at" -lt 300 ] || fail "INT at $at ms: no data file"
			[ -s "$d/summary.json" ] || fail "INT at $at ms: no summary.json"
			python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))["complete"] is False' "$d/summary.json" ||
				fail "INT at $at ms: summary.json says complete"
			# The probe in flight keeps its file with complete: no; a signal between two
			# probes leaves only whole files, fewer than a full profile's.
			grep -l '^# complete: no' "$d"/*.tsv >/dev/null 2>&1 || [ "$n" -lt "$nfull" ] ||
				fail "INT at $at ms: all $n files whole, yet the profile says it was interrupted"
			if [ "$n" -gt 0 ]; then
				"$HDDSCOPE" fit "$d" >/dev/null 2>"$err"
				frc=$?
				[ $frc = 0 ] || [ $frc = 2 ] && ! grep -q 'FILE\|malformed' "$err" || { cat "$err" >&2; fail "INT at $at ms: fit exit $frc"; }
				"$HDDSCOPE" verdict "$d" >/dev/null 2>"$err"
				vrc=$?
				case $vrc in 0 | 4 | 5 | 6) ;; *) cat "$err" >&2; fail "INT at $at ms: verdict exit $vrc" ;; esac
			fi
		fi
	done
	pass "5 runs killed with SIG$sig: every byte kept"
}

devs=("$dev")
for i in 2 3 4; do
	cp "$img" "$T/disk$i.img"
	devs+=("$(losetup -f --show "$T/disk$i.img" 2>/dev/null)") || fail "loop device $i"
	LOOPS+=("${devs[-1]}")
done
pids=()
series INT "${devs[0]}" 1 0 & pids+=($!)
series INT "${devs[1]}" 1 1 & pids+=($!)
series KILL "${devs[2]}" 2 0 & pids+=($!)
series KILL "${devs[3]}" 2 1 & pids+=($!)
for p in "${pids[@]}"; do wait "$p" || fail "a series of killed runs failed"; done
