# Writes are labelled right on DiskSim 4.0's validated models too (valid/ of ../shared/disksim's
# tarball, imported with sim import): drives with slow SCSI interfaces, small segments and no
# write cache of their own (turned on with --write-cache on for the cache case).  Right on at
# least 99% of the seek and response writes, wrong on none (labels_check.bash); without FUA and
# with the models' own setting (no write cache) every write is media.  Skipped (77) without the
# tarball.
. "$(dirname "$0")/common.bash"
. "$(dirname "$0")/labels_check.bash"

MODELS=(hp_c2247a hp_c2490a dec_rz26 hp_c3323a)
disksim_import "${MODELS[@]}"
for m in "${MODELS[@]}"; do
	run 0 "$HDDSCOPE" seek --quiet --op write --write --samples 400 -o "$T/d.tsv" "sim:$T/$m.drive"
	[ "$(hdr "$T/d.tsv" write_cache)" = off ] || fail "$m: the model's write cache is not off"
	check "$m seek, the model's setting (no cache)" media "$T/d.tsv" 99
	labels_check "$T/$m.drive" "$m"
done
