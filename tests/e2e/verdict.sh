# verdict: PASS on a steady simulated drive; FAIL naming write response on the same
# drive with write retries, naming I/O errors with bad sectors, naming SMART with a
# saved BAD_SECTOR drive; WARN without write data; rule overrides; JSON; exit codes.
# The refusals: "cannot judge" (exit 6) from writes the cache took and on a target
# that does not rotate, --smart-blob of another drive refused (exit 2); and the
# profile directory is left byte for byte as it was.
. "$(dirname "$0")/common.bash"
command -v python3 >/dev/null || fail "python3 missing"

# A write-back cache that takes writes anywhere, so that write retries stand out
# (atlas3's own cache is one write segment, written out before the next request).
"$HDDSCOPE" sim show atlas3 | grep -v '^write_cache' >"$T/steady.drive" || fail "sim show"
printf 'write_cache = on\nwrite_cache_kb = 32\n' >>"$T/steady.drive"
grep -v '^write_retry_probability' "$T/steady.drive" >"$T/retry.drive"
echo "write_retry_probability = 0.08" >>"$T/retry.drive"
cp "$T/steady.drive" "$T/bad.drive"
# Around the middle of the drive, where every probe's reference lies.
echo "bad_sectors = 8898972-8899072" >>"$T/bad.drive"

for d in steady retry bad; do
	"$HDDSCOPE" profile -q --write --no-charts -o "$T/$d" "sim:$T/$d.drive" >/dev/null 2>&1 || fail "profile $d"
done
"$HDDSCOPE" profile -q --no-charts -o "$T/ro" sim:atlas3 >/dev/null 2>&1 || fail "profile without writes"

sums() { (cd "$1" && sha256sum ./* | sort); }
sums "$T/steady" >"$T/steady.sums"
run 0 "$HDDSCOPE" verdict "$T/steady"
grep -qx 'verdict: PASS' "$T/out" || { cat "$T/out"; fail "steady drive not PASS"; }
grep -Eq '^PASS  write response stable: .*; 95% interval [0-9.]+-[0-9.]+%\).*told healthy \(0\.20% or less\) after [0-9]+ writes' "$T/out" ||
	fail "steady: no interval or sequential decision"
# With the phase random, a write whose block crosses a track (a head switch and
# up to a revolution more) may end more than 1.1 revolutions past its distance's
# p10: a few in a thousand at most (0.28% here: 8 of 2846, half of them at the
# distances of 2-16 blocks, which take four times the samples for the fit's
# overhead and cross a track more often), well under the unstable 0.8%.
pct=$(sed -n 's/^PASS  write response stable: \([0-9.]*\)% of writes.*/\1/p' "$T/out")
[ -n "$pct" ] && awk -v p="$pct" 'BEGIN { exit !(p < 0.4) }' || fail "steady: write figure ${pct:-missing}"
run 0 "$HDDSCOPE" verdict --json "$T/steady"
sums "$T/steady" | cmp -s - "$T/steady.sums" || fail "verdict changed the profile directory"
pass "PASS on a steady drive; the profile left as it was"

run 5 "$HDDSCOPE" verdict "$T/retry"
grep -qx 'verdict: FAIL' "$T/out" || fail "retry: not FAIL"
grep -Eq '^FAIL  write response unstable: [0-9.]+% of writes \([0-9]+ of [0-9]+; 95% interval [0-9.]+-[0-9.]+%\) slower than their distance.s p10 by more than 1.1 revolutions .*told unstable' "$T/out" ||
	{ cat "$T/out"; fail "retry: no write response reason"; }
[ "$(grep -c '^FAIL' "$T/out")" = 1 ] || fail "retry: other failures"
pass "FAIL naming write response with write retries"

run 5 "$HDDSCOPE" verdict "$T/bad"
grep -q '^FAIL  I/O errors: [0-9]* failed accesses (' "$T/out" || { cat "$T/out"; fail "bad: no error reason"; }
# Every access named (4 KiB at the offset; a media read up to 1 MiB) touches the bad range.
grep '^FAIL  I/O errors' "$T/out" | grep -o '[a-z-]*@[0-9]*' | tr @ ' ' |
	awk -v lo=$((8898972 * 512)) -v hi=$((8899073 * 512)) '{ n++; len = $1 == "media" ? 1048576 : 4096
		if ($2 + len <= lo || $2 >= hi) bad++ } END { exit !(n > 0 && bad == 0) }' ||
	fail "bad: offsets outside the bad sectors"
grep -q '^FAIL  stalls: slowest access' "$T/out" || fail "bad: the retries' stalls not reported"
pass "FAIL naming I/O errors with bad sectors"

run 4 "$HDDSCOPE" verdict "$T/ro"
grep -qx 'verdict: WARN' "$T/out" || fail "no writes: not WARN"
grep -q '^WARN  write response not measured' "$T/out" || fail "no writes: reason"
pass "WARN without write response data"

blobs=${HDDSCOPE_SHARED:-$HDDSCOPE_SRC/../shared}/smart-blobs
if [ -d "$blobs" ]; then
	# Profiles that carry the saved drives' identities.
	for b in SAMSUNG_HD501LJ--CR100-12 FUJITSU_MHY2120BH--0084000D; do
		"$HDDSCOPE" profile -q --write --no-charts --smart-blob "$blobs/$b" -o "$T/$b" "sim:$T/steady.drive" \
			>/dev/null 2>&1 || fail "profile with $b"
	done
	run 5 "$HDDSCOPE" verdict --smart-blob "$blobs/SAMSUNG_HD501LJ--CR100-12" "$T/SAMSUNG_HD501LJ--CR100-12"
	grep -qx 'FAIL  SMART overall assessment: BAD_SECTOR (saved SMART data)' "$T/out" || { cat "$T/out"; fail "SMART reason"; }
	grep -qx 'WARN  SMART bad sectors: 2; limits 1 warn, 100 fail' "$T/out" || fail "bad sector count"
	run 0 "$HDDSCOPE" verdict --smart-blob "$blobs/FUJITSU_MHY2120BH--0084000D" "$T/FUJITSU_MHY2120BH--0084000D"
	grep -qx 'PASS  SMART overall assessment: GOOD (saved SMART data)' "$T/out" || fail "GOOD drive"
	pass "FAIL naming SMART with a BAD_SECTOR drive"
	# Another drive's SMART data: another model, and the same model with another serial.
	run 2 "$HDDSCOPE" verdict --smart-blob "$blobs/SAMSUNG_HD501LJ--CR100-12" "$T/steady"
	expect_err "SAMSUNG_HD501LJ--CR100-12: refused: SMART data of model 'SAMSUNG HD501LJ', the profile $T/steady is of 'QUANTUM_QM39100TD-SW'"
	other=$(cd "$blobs" && ls -d FUJITSU_MHY2120BH--* | grep -vx FUJITSU_MHY2120BH--0084000D | head -1)
	if [ -n "$other" ] && "$HDDSCOPE" info --smart-blob "$blobs/$other" sim:atlas3 2>/dev/null | grep -q '^model: *FUJITSU MHY2120BH$'; then
		run 2 "$HDDSCOPE" verdict --smart-blob "$blobs/$other" "$T/FUJITSU_MHY2120BH--0084000D"
		expect_err "refused: SMART data of serial"
	fi
	pass "--smart-blob of another drive refused"
fi

# Cannot judge: writes the drive's cache took (no --sync), and a file that does not rotate.
"$HDDSCOPE" response -q --write -o "$T/cached/response.tsv" "sim:$T/steady.drive" >/dev/null 2>&1 ||
	{ mkdir -p "$T/cached" && "$HDDSCOPE" response -q --write -o "$T/cached/response.tsv" "sim:$T/steady.drive" >/dev/null 2>&1; } ||
	fail "response through the cache"
run 6 "$HDDSCOPE" verdict "$T/cached"
grep -q "^cannot judge: the writes of $T/cached/response.tsv went through the drive's write cache (sync_writes: no, write_cache: on)" \
	"$T/out" || { cat "$T/out"; fail "cached writes judged"; }
grep -q '^verdict:' "$T/out" && fail "cached writes: a verdict given"
mkdir -p "$T/file"
truncate -s 64M "$T/file.img"
"$HDDSCOPE" response -q --write --sync -o "$T/file/response.tsv" "$T/file.img" >/dev/null 2>&1 || fail "response on a file"
run 6 "$HDDSCOPE" verdict --json "$T/file"
python3 -c '
import json, sys
v = json.load(open(sys.argv[1]))
assert v["verdict"] == "CANNOT_JUDGE" and v["cannot_judge"].startswith("no rotation found: the response reads"), v' "$T/out" ||
	fail "a target that does not rotate judged"
pass "cannot judge from cached writes or a target that does not rotate (exit 6)"

# Overrides: a laxer limit turns the retry drive's FAIL into a WARN; a file does the same.
run 4 "$HDDSCOPE" verdict --rule write_slow_fail=50 "$T/retry"
grep -q '^WARN  write response unstable' "$T/out" || fail "--rule"
# (Its retries also put the spread of its writes just past the warning, 2.0.)
printf '# laxer\nwrite_slow_warn = 40\nwrite_slow_fail=50   # still a number\nwrite_p99_p50_warn = 2.5\n' >"$T/rules"
run 0 "$HDDSCOPE" verdict --rules "$T/rules" "$T/retry"
run 0 "$HDDSCOPE" verdict --json --rules "$T/rules" "$T/retry"
python3 -c '
import json,sys
v=json.load(open(sys.argv[1]))
assert v["verdict"]=="PASS" and v["rules"]["write_slow_fail"]==50, v
r=[x for x in v["reasons"] if x["rule"]=="write_slow"][0]
assert r["level"]=="PASS" and 0 < r["figure"] < 40, r' "$T/out" || fail "--json"
run 1 "$HDDSCOPE" verdict --rule nosuch=1 "$T/retry"
expect_err "unknown rule 'nosuch'"
run 1 "$HDDSCOPE" verdict --rule write_slow_fail=abc "$T/retry"
expect_err "write_slow_fail must be a number"
printf 'write_slow_fail 3\n' >"$T/badrules"
run 2 "$HDDSCOPE" verdict --rules "$T/badrules" "$T/retry"
expect_err "badrules:1: 'write_slow_fail 3': expected NAME=VALUE"
run 2 "$HDDSCOPE" verdict "$T/nonexistent"
expect_err "open $T/nonexistent: No such file or directory"
mkdir "$T/empty"
run 2 "$HDDSCOPE" verdict "$T/empty"
expect_err "no hddscope data files"
run 1 "$HDDSCOPE" verdict
run 0 "$HDDSCOPE" verdict --help
grep -q 'Exit codes: 0 PASS, 4 WARN, 5 FAIL, 6 cannot judge' "$T/out" || fail "--help exit codes"
pass "rules, JSON and errors"
