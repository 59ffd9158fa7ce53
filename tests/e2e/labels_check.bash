# Sourced by write_labels.sh and write_labels_disksim.sh (after common.bash): labels_check holds
# the labels of writes to what one simulated drive's model does with them.  With FUA (--sync)
# or the write cache off a write goes to the media; with the cache on and no FUA the model
# takes every write (4 KiB, well within every model's cache) into its cache, at once or once a
# destage made room.  So: --sync and cache off, every write is media and none cache; cache on,
# every write is cache and none media.  A write whose class cannot be decided is unknown:
# never wrong, but not right either.  Right on at least 99% of the seek and response writes,
# wrong on none.

# count TRUTH FILE: "right wrong unknown total" of the write rows, the truth being TRUTH (media or cache).
count() {
	awk -F'\t' -v want="$1" '!/^#/ && $4 == "write" {
		n++; if ($5 == want) r++; else if ($5 == "unknown") u++; else if ($5 != "error") w++ }
		END { printf "%d %d %d %d\n", r, w, u, n }' "$2"
}

# check LABEL TRUTH FILE MIN%: no wrong label, at least MIN% right.
check() {
	local r w u n
	read -r r w u n <<<"$(count "$2" "$3")"
	[ "$n" -gt 0 ] || fail "$1: no write rows"
	[ "$w" = 0 ] || fail "$1: $w of $n writes labelled against the model (truth: $2)"
	awk -v r="$r" -v n="$n" -v m="$4" 'BEGIN { exit !(100 * r >= m * n) }' ||
		fail "$1: $r of $n writes labelled $2, $u unknown; want $4%"
	echo "ok: $1: $r of $n right, $u unknown, 0 wrong"
}

# labels_check MODEL NAME: seek writes with --sync, with the write cache on and off, and
# response writes with --sync on MODEL (a preset or a .drive file), reported as NAME.  The
# seek writes with the cache on are left in $T/c.tsv.
labels_check() {
	local model=$1 name=$2
	run 0 "$HDDSCOPE" seek --quiet --op write --write --sync --samples 400 -o "$T/s.tsv" "sim:$model"
	[ "$(hdr "$T/s.tsv" sync_writes)" = yes ] || fail "$name: sync_writes"
	[ "$(hdr "$T/s.tsv" write_cache_threshold_ms)" = none ] || fail "$name --sync: a write threshold"
	case $(hdr "$T/s.tsv" write_calibration) in
	"repeat_write_p50_ms="*" fua_write_p50_ms="*" writes_cached=no") ;;
	*) fail "$name --sync: write_calibration $(hdr "$T/s.tsv" write_calibration)" ;;
	esac
	check "$name seek --sync" media "$T/s.tsv" 99

	run 0 "$HDDSCOPE" seek --quiet --op write --write --write-cache on --samples 400 -o "$T/c.tsv" "sim:$model"
	[ "$(hdr "$T/c.tsv" write_cache)" = on ] || fail "$name: the write cache is not on"
	case $(hdr "$T/c.tsv" write_calibration) in
	*"writes_cached=yes") ;;
	*) fail "$name: write_calibration $(hdr "$T/c.tsv" write_calibration)" ;;
	esac
	[ -n "$(hdr "$T/c.tsv" samples_unknown)" ] || fail "$name: no samples_unknown"
	check "$name seek, cache on" cache "$T/c.tsv" 99

	run 0 "$HDDSCOPE" seek --quiet --op write --write --write-cache off --samples 400 -o "$T/o.tsv" "sim:$model"
	[ "$(hdr "$T/o.tsv" write_cache)" = off ] || fail "$name: the write cache is not off"
	check "$name seek, cache off" media "$T/o.tsv" 99

	run 0 "$HDDSCOPE" response --quiet --write --sync --points 40 --reps 10 -o "$T/r.tsv" "sim:$model"
	check "$name response --sync" media "$T/r.tsv" 99
}
