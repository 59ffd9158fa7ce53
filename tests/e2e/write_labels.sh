# Writes are labelled by a write calibration of their own, against what each preset's model
# says of every write (labels_check.bash): right on at least 99% of the seek and response
# writes, wrong on none.  A profile takes its write seek and response with --sync.
. "$(dirname "$0")/common.bash"
. "$(dirname "$0")/labels_check.bash"

for p in $("$HDDSCOPE" sim list | awk 'NR > 1 { print $1 }'); do
	# Every preset's model has its write cache on: the seek writes without FUA are hits.
	run 0 "$HDDSCOPE" seek --quiet --op write --write --samples 400 -o "$T/d.tsv" "sim:$p"
	[ "$(hdr "$T/d.tsv" write_cache)" = on ] || fail "$p: the model's write cache is not on"
	check "$p seek, the model's cache" cache "$T/d.tsv" 99
	labels_check "$p" "$p"
	# The write threshold lies above the read one: a write hit carries its data in (on these
	# models a write hit costs more than a read hit; not so on every DiskSim model).
	awk -v w="$(hdr "$T/c.tsv" write_cache_threshold_ms)" -v r="$(hdr "$T/c.tsv" cache_threshold_ms)" \
		'BEGIN { exit !(r == "none" || w + 0 > r + 0) }' || fail "$p: write threshold not above the read one"
done

# A profile takes its write seek and response with --sync, and says so.
run 0 "$HDDSCOPE" profile --quiet --quick --no-charts --write -o "$T/p" sim:dtla307030
for f in seek-write response; do
	[ "$(hdr "$T/p/$f.tsv" sync_writes)" = yes ] || fail "profile $f: sync_writes $(hdr "$T/p/$f.tsv" sync_writes)"
	check "profile $f" media "$T/p/$f.tsv" 99
done
