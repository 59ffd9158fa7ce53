# hddscope seek on sim:atlas3 against the model's truth: for every sample the
# head moves from the track where the reference read ended to the target's
# track, so its latency lies between the positioning time the model gives
# for that move (seek curve by cylinder distance, or a head switch) plus the
# transfer, and that plus one revolution.  Per distance bin, the lowest media
# latency lies between the bin's seek time and that plus a revolution and
# the overheads.  Addresses come from 'hddscope sim locate', seek times from
# 'hddscope sim seek' (the curve itself is checked against the file in sim_cli).
. "$(dirname "$0")/common.bash"

# The Atlas III without its read-ahead: every media sample then positions and
# reads (with it, a target the stream has reached is partly in the cache).
"$HDDSCOPE" sim show atlas3 | sed 's/^readahead = .*/readahead = off/' >"$T/atlas3.drive" || fail "sim show"
grep -qx 'readahead = off' "$T/atlas3.drive" || fail "no readahead key in atlas3"
M=$T/atlas3.drive
run 0 "$HDDSCOPE" seek -q --samples 2000 -o "$T/s.tsv" "sim:$M"
check_seek "$T/s.tsv" 2000 4096
"$HDDSCOPE" sim info "$M" >"$T/info" || fail "sim info"
val() { sed -n "s/^$1: //p" "$T/info"; }
rev=$(val revolution_ms); hs=$(val head_switch_ms); ovh=$(val read_overhead_ms)
iface=$(awk -v r="$(val interface_mb_s)" 'BEGIN { print 4096 / (r * 1e3) }')
# The slowest transfer of 4 KiB: 8 sectors on the innermost track, plus the
# largest skew (the gap a transfer crossing onto the next track waits out).
xfer=$(awk -v r="$rev" -v b="$(val inner_track_bytes)" '
	{ sub(/#.*/, "") }
	$1 == "zone" { for (i = 6; i <= 7 && i <= NF; i++) if ($i / $5 > sk) sk = $i / $5 }
	END { print 4096 / b * r + sk * r }' "$M")

grep -v '^#' "$T/s.tsv" | awk -F'\t' '$5 == "media"' >"$T/media"
[ "$(wc -l <"$T/media")" -ge 1800 ] || fail "fewer than 1800 media samples"
# Where the reference read ended (its last sector) and where the target starts.
refs=$(awk -F'\t' '{ printf "%.0f\n", $2 - $1 + 4096 - 512 }' "$T/media")
tgts=$(cut -f2 "$T/media")
"$HDDSCOPE" sim locate "$M" $refs >"$T/from" || fail "sim locate"
"$HDDSCOPE" sim locate "$M" $tgts >"$T/to" || fail "sim locate"
paste "$T/from" "$T/to" | awk -F'\t' '{ d = $3 - $8; print d < 0 ? -d : d }' >"$T/cyl"
"$HDDSCOPE" sim seek "$M" $(cat "$T/cyl") | cut -f2 >"$T/seekms"
paste "$T/media" "$T/from" "$T/to" "$T/seekms" | awk -F'\t' -v rev="$rev" -v hs="$hs" -v ovh="$ovh" \
	-v iface="$iface" -v xfer="$xfer" '
	{
		d = $1; lat = $3
		# columns 1-6: the row (delay_ms last); 7-11: from offset lba cyl surface sector; 12-16: to; 17: seek ms
		pos = $9 != $14 ? $17 : ($10 != $15 ? hs : 0)
		lo = pos + ovh + iface; hi = pos + ovh + iface + xfer + rev
		if (lat < lo - 0.001 || lat > hi + 0.001) {
			printf "d=%d: %.4f ms outside [%.4f, %.4f] (cyl %d -> %d)\n", d, lat, lo, hi, $9, $14
			bad++
		}
		# Bins: sign and power of two of |d|.
		b = (d < 0 ? "-" : "+") int(log(d < 0 ? -d : d) / log(2))
		if (!(b in minlat) || lat < minlat[b]) minlat[b] = lat
		if (!(b in smin) || pos < smin[b]) smin[b] = pos
		if (!(b in smax) || pos > smax[b]) smax[b] = pos
		n[b]++
	}
	END {
		for (b in n) {
			nb++
			if (minlat[b] < smin[b] + ovh + iface - 0.001 || minlat[b] > smax[b] + ovh + iface + xfer + rev) {
				printf "bin %s: lowest %.4f ms, seek %.4f..%.4f ms\n", b, minlat[b], smin[b], smax[b]
				bad++
			}
		}
		if (nb < 20) { print "only " nb " bins"; bad++ }
		exit bad > 0
	}' || fail "seek latencies against the model"
pass "seek on atlas3 (read-ahead off) within the model's bounds, per sample and per bin"
