# bench's burst and sustained figures: on a simulated drive with a write-back
# cache, random writes run fast until the cache fills and then at the rate
# the drive writes them out.  The sustained figure must not depend on
# --time (the whole test's IOPS does), must not fall below what the same
# drive does with its cache off (the media's own random-write rate), and the
# printed row must give both figures.  With the cache off it shows no burst.
# A cache that outlasts --time (a persistent cache, as a drive-managed SMR
# disk's) still shows as a burst and a lower sustained figure, because random
# writes run on until their rate is steady; one that outlasts --max-time is
# said not to be steady, never taken for the drive's rate.
. "$(dirname "$0")/common.bash"

col() { awk -F'\t' -v t="$2" -v c="$3" '
	/^# columns: / { sub(/^# columns: /, ""); n = split($0, h, " "); for (i = 1; i <= n; i++) k[h[i]] = i; next }
	/^#/ { next }
	$1 == t { print $(k[c]) }' "$1"; }

drive=sim:st2000dm001
run 0 "$HDDSCOPE" bench -q --write --time 3s --seed 3 -o "$T/b3.tsv" "$drive"
grep -q "| [0-9.]* ([0-9]* IOPS; burst [0-9]*, sustained [0-9]*)\$" "$T/out" ||
	{ cat "$T/out"; fail "the 3 s row gives no burst and sustained figures for random writes"; }
run 0 "$HDDSCOPE" bench -q --write --time 30s --seed 3 -o "$T/b30.tsv" "$drive"
run 0 "$HDDSCOPE" bench -q --write --write-cache off --time 3s --seed 3 -o "$T/off.tsv" "$drive"
s3=$(col "$T/b3.tsv" rand_write sustained_iops)
s30=$(col "$T/b30.tsv" rand_write sustained_iops)
a3=$(col "$T/b3.tsv" rand_write iops)
a30=$(col "$T/b30.tsv" rand_write iops)
b3=$(col "$T/b3.tsv" rand_write burst_iops)
off=$(col "$T/off.tsv" rand_write iops)
echo "rand write: 3 s $a3 IOPS (burst $b3, sustained $s3), 30 s $a30 (sustained $s30), cache off $off"
awk -v a="$s3" -v b="$s30" 'BEGIN { r = a / b; exit !(r > 0.8 && r < 1.25) }' ||
	fail "sustained random-write IOPS at 3 s ($s3) and 30 s ($s30) differ by more than 25%"
awk -v a="$a3" -v b="$a30" 'BEGIN { exit !(a > 1.2 * b) }' ||
	fail "the whole test's IOPS ($a3 at 3 s, $a30 at 30 s) should show the cache filling"
# The random writes ran on past --time until their rate was steady.
t3=$(col "$T/b3.tsv" rand_write seconds)
awk -v t="$t3" 'BEGIN { exit !(t >= 6 && t <= 24.1) }' || fail "3 s random writes ran $t3 s, want 6 to 24"
grep -q '^# rand_write_steady: yes: ' "$T/b3.tsv" || fail "3 s random writes: $(hdr "$T/b3.tsv" rand_write_steady)"
awk -v b="$b3" -v s="$s3" 'BEGIN { exit !(b > 2 * s) }' || fail "burst $b3 not twice sustained $s3"
awk -v s="$s3" -v o="$off" 'BEGIN { exit !(s >= 0.75 * o) }' ||
	fail "sustained $s3 IOPS below the uncached drive's $off"
pass "st2000dm001: burst and sustained random writes"

# Without a write cache the random figures have one rate: no burst printed.
run 0 "$HDDSCOPE" bench -q --write --write-cache off --time 3s --seed 3 -o "$T/nc.tsv" "$drive"
grep -q burst "$T/out" && { cat "$T/out"; fail "the uncached drive's row shows a burst"; }
[ -n "$(col "$T/nc.tsv" rand_read sustained_iops)" ] || fail "no sustained_iops column"
pass "one rate where there is no cache"

# A cache that takes writes at 0.8 ms each (write_hit_overhead_ms) fills only after
# about 6 s of random writes: a fixed 3 s test saw nothing but the cache.
sed 's/^write_overhead_ms = .*/write_miss_overhead_ms = 0.1\nwrite_hit_overhead_ms = 0.8/' \
	"$HDDSCOPE_SRC/data/drives/st2000dm001.drive" >"$T/slowcache.drive"
grep -qx 'write_hit_overhead_ms = 0.8' "$T/slowcache.drive" || fail "no write_overhead_ms line to change"
big=sim:$T/slowcache.drive
run 0 "$HDDSCOPE" bench -q --write --time 3s --seed 3 -o "$T/p3.tsv" "$big"
grep -q "| [0-9.]* ([0-9]* IOPS; burst [0-9]*, sustained [0-9]*)\$" "$T/out" ||
	{ cat "$T/out"; fail "the row does not give the burst and the sustained figure"; }
run 0 "$HDDSCOPE" bench -q --write --time 60s --seed 3 -o "$T/p60.tsv" "$big"
b=$(col "$T/p3.tsv" rand_write burst_iops)
s3=$(col "$T/p3.tsv" rand_write sustained_iops)
s60=$(col "$T/p60.tsv" rand_write sustained_iops)
r=$(col "$T/p3.tsv" rand_read iops)
echo "cache outlasting --time: burst $b, sustained $s3 (3 s), $s60 (60 s); random reads $r"
# Burst: the model's 0.8 ms per write plus a 4 KiB transfer at 600 MB/s, 1239 IOPS.
awk -v b="$b" 'BEGIN { exit !(b > 1200 && b < 1280) }' || fail "burst $b IOPS, want the cache's 1239"
awk -v a="$s3" -v b="$s60" 'BEGIN { r = a / b; exit !(r > 0.8 && r < 1.25) }' ||
	fail "sustained $s3 at 3 s and $s60 at 60 s differ by more than 25%"
awk -v b="$b" -v s="$s3" 'BEGIN { exit !(b > 1.5 * s) }' || fail "sustained $s3 not below the burst $b"
grep -q '^# rand_write_steady: yes: ' "$T/p3.tsv" || fail "not steady: $(hdr "$T/p3.tsv" rand_write_steady)"
pass "a cache outlasting --time: burst and a lower sustained figure"

# Where --max-time is shorter than the cache lasts, the figure is said not to be steady.
run 0 "$HDDSCOPE" bench -q --write --time 3s --max-time 6s --seed 3 -o "$T/p6.tsv" "$big"
grep -q "| [0-9.]* ([0-9]* IOPS; not steady in 6 s)\$" "$T/out" || { cat "$T/out"; fail "row of an unsteady run"; }
hdr "$T/p6.tsv" rand_write_steady | grep -q '^no: .*the writes may all have gone to a write cache$' ||
	fail "header of an unsteady run: $(hdr "$T/p6.tsv" rand_write_steady)"
run 1 "$HDDSCOPE" bench -q --write --time 3s --max-time 2s "$big"
expect_err "^hddscope: --max-time: must be at least --time$"
pass "a cache outlasting --max-time is not taken for the drive's rate"
