# bench's burst and sustained figures: on a simulated drive with a write-back
# cache, random writes run fast until the cache fills and then at the rate
# the drive writes them out.  The sustained figure must not depend on
# --time (the whole test's IOPS does), must not fall below what the same
# drive does with its cache off (the media's own random-write rate), and the
# printed row must give both figures.  With the cache off it shows no burst.
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
awk -v a="$a3" -v b="$a30" 'BEGIN { exit !(a > 1.5 * b) }' ||
	fail "the whole test's IOPS ($a3 at 3 s, $a30 at 30 s) should show the cache filling"
awk -v b="$b3" -v s="$s3" 'BEGIN { exit !(b > 2 * s) }' || fail "burst $b3 not twice sustained $s3"
awk -v s="$s3" -v o="$off" 'BEGIN { exit !(s >= 0.75 * o) }' ||
	fail "sustained $s3 IOPS below the uncached drive's $off"
pass "st2000dm001: burst and sustained random writes"

# Without a write cache the random figures have one rate: no burst printed.
run 0 "$HDDSCOPE" bench -q --write --write-cache off --time 3s --seed 3 -o "$T/nc.tsv" "$drive"
grep -q burst "$T/out" && { cat "$T/out"; fail "the uncached drive's row shows a burst"; }
[ -n "$(col "$T/nc.tsv" rand_read sustained_iops)" ] || fail "no sustained_iops column"
pass "one rate where there is no cache"
