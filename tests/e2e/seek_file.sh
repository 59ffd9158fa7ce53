# seek on a 256 MB regular file: sample count, bounds, alignment, signs, header;
# a data-preserving write run leaves the file byte-identical; refusals change nothing.
. "$(dirname "$0")/common.bash"

img=$T/disk.img
head -c $((256 << 20)) /dev/urandom >"$img" || fail "cannot create $img"
sum0=$(sha256sum <"$img")

run 0 "$HDDSCOPE" seek --quiet --samples 500 -o "$T/r.tsv" "$img"
check_seek "$T/r.tsv" 500 4096
# 256 MB around the middle: the 1g default range shrinks to fit and says so,
# leaving room for the reference's jitter (a sixteenth of the file) and a block.
range=$(hdr "$T/r.tsv" range_bytes)
jit=$(hdr "$T/r.tsv" reference_jitter_bytes)
[ "$jit" = $((16 << 20)) ] || fail "reference_jitter_bytes $jit, want a sixteenth of the file"
[ "$range" -le $(((128 << 20) - jit / 2)) ] && [ "$range" -gt $(((128 << 20) - jit / 2 - 8192)) ] ||
	fail "range_bytes $range"
[ -n "$(hdr "$T/r.tsv" range_note)" ] || fail "no range_note after shrinking"
[ "$(hdr "$T/r.tsv" reference_bytes)" = $((128 << 20)) ] || fail "reference not the middle"
pass "read seek on a file"

# Same seed, same pattern.
run 0 "$HDDSCOPE" seek --quiet --samples 500 -o "$T/r2.tsv" "$img"
cmp <(grep -v '^#' "$T/r.tsv" | cut -f1,2) <(grep -v '^#' "$T/r2.tsv" | cut -f1,2) || fail "same seed, different offsets"
run 0 "$HDDSCOPE" seek --quiet --samples 500 --seed 9 -o "$T/r3.tsv" "$img"
cmp -s <(grep -v '^#' "$T/r.tsv" | cut -f1) <(grep -v '^#' "$T/r3.tsv" | cut -f1) && fail "seed ignored"
pass "seeds repeat"

# Linear distribution, explicit range and block.
run 0 "$HDDSCOPE" seek --quiet --dist linear --range 64m --block 64k --samples 300 -o "$T/l.tsv" "$img"
# Uniform in [-range, range]: about half the |d| lie above range/2 (a log draw gives 1 in 8).
awk -F'\t' '!/^#/ { n++; a = $1 < 0 ? -$1 : $1; if (a > 64 * 1048576) bad++; if (a > 32 * 1048576) far++ }
	END { exit !(bad == 0 && far > 0.4 * n && far < 0.6 * n) }' \
	"$T/l.tsv" || fail "linear distances"
[ "$(hdr "$T/l.tsv" range_bytes)" = $((64 << 20)) ] || fail "linear range"
pass "linear distribution"

# Writes: refused without --write, data-preserving with it.
run 2 "$HDDSCOPE" seek --quiet --op write -o "$T/w.tsv" "$img"
expect_err 'add --write'
[ ! -e "$T/w.tsv" ] || fail "refused run left a data file"
run 0 "$HDDSCOPE" seek --quiet --op write --write --samples 400 -o "$T/w.tsv" "$img"
check_seek "$T/w.tsv" 400 4096
grep -v '^#' "$T/w.tsv" | cut -f4 | sort -u | grep -qx write || fail "op column not write"
[ "$(sha256sum <"$img")" = "$sum0" ] || fail "write seek changed the file"
pass "write seek preserves every byte"

# A chart of the data.
run 0 "$HDDSCOPE" plot -o "$T/charts" "$T/r.tsv"
[ -s "$T/charts/r.png" ] || fail "no chart"
head -c 8 "$T/charts/r.png" | od -An -tx1 | grep -q '89 50 4e 47' || fail "chart is not a PNG"
run 0 "$HDDSCOPE" plot --svg -o "$T/charts" "$T/r.tsv"
grep -q '<svg' "$T/charts/r.svg" || fail "svg chart"
pass "charts"
[ "$(sha256sum <"$img")" = "$sum0" ] || fail "file changed"

# Ctrl-C: stop after the access in flight, keep the samples, say complete: no, exit 130.
"$HDDSCOPE" seek --quiet --samples 50000000 -o "$T/int.tsv" "$img" 2>"$T/err" &
pid=$!
wait_io $pid 300
kill -INT $pid
wait $pid
rc=$?
[ "$rc" = 130 ] || fail "interrupted seek exited $rc, want 130"
grep -q 'interrupted by SIGINT: [0-9]* of 50000000 samples kept' "$T/err" || fail "no interruption message"
[ "$(hdr "$T/int.tsv" complete)" = no ] || fail "interrupted file does not say complete: no"
rows=$(grep -vc '^#' "$T/int.tsv")
[ "$rows" -gt 0 ] && [ "$rows" = "$(hdr "$T/int.tsv" samples)" ] || fail "interrupted file: $rows rows"
ls "$T" | grep -q '\.tmp\.' && fail "temporary file left behind"
run 0 "$HDDSCOPE" plot -o "$T/charts" "$T/int.tsv"
pass "Ctrl-C keeps what was measured"

# A target that starts failing: the file is cut short under a running probe, every
# access then comes back short; the run stops after 10 consecutive failures, exit 3,
# naming the offset and the error, and keeps what it measured.
cp "$img" "$T/cut.img"
"$HDDSCOPE" seek --quiet --samples 50000000 -o "$T/cut.tsv" "$T/cut.img" 2>"$T/err" &
pid=$!
wait_io $pid 300
truncate -s 0 "$T/cut.img"
wait $pid
rc=$?
[ "$rc" = 3 ] || { cat "$T/err" >&2; fail "failing target: exit $rc, want 3"; }
expect_err "^hddscope: read $T/cut.img @ [0-9]+: Input/output error$"
expect_err "stopped after 10 consecutive failed accesses; [0-9]+ samples kept in $T/cut.tsv"
[ "$(hdr "$T/cut.tsv" complete)" = no ] || fail "failed run does not say complete: no"
[ "$(grep -c $'\terror\t' "$T/cut.tsv")" -ge 10 ] || fail "fewer than 10 error samples"
[ "$(grep -v '^#' "$T/cut.tsv" | tail -n 10 | grep -vc $'\terror\t')" = 0 ] || fail "last 10 samples not errors"
pass "a failing target stops the run with exit 3"
