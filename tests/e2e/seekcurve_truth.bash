# Sourced by tests/bench/run and the end-to-end tests that hold a fitted seek
# curve against its model.
#
# seekcurve_truth HDDSCOPE MODEL DIR WORK: for each point of DIR/seekcurve.tsv
# (seek time against signed distance from the profile's reference), prints
# "distance_bytes fitted_ms model_ms": the model's positioning from the end of
# a 4 KiB read at R to R + distance ('hddscope sim locate', 'hddscope sim
# seek'; where both ends lie on one cylinder, the model's head switch if they
# lie on two surfaces, as the simulator positions, else 0), averaged over 16
# places R spread over the seek probe's reference jitter window
# (DIR/seek-read.tsv's reference_jitter_bytes; the reference alone without
# one), kept inside the drive.  The jitter spans many cylinders, so a
# distance shorter than a cylinder is a head switch from some references
# and a one-cylinder seek from others: the profile measures their mean, as
# test_fit's truth has it.  WORK is a scratch directory.
seekcurve_truth() {
	local hd=$1 model=$2 f=$3/seekcurve.tsv w=$4 ref cap hs jit
	hs=$("$hd" sim info "$model" | sed -n 's/^head_switch_ms: //p')
	ref=$(sed -n -e '/^# columns:/q' -e 's/^# reference_bytes: //p' "$f")
	cap=$(sed -n -e '/^# columns:/q' -e 's/^# capacity_bytes: //p' "$f")
	jit=$(sed -n -e '/^# columns:/q' -e 's/^# reference_jitter_bytes: //p' "$3/seek-read.tsv" 2>/dev/null)
	# One line per row and place: the two ends, the row's fitted time and distance.
	awk -F'\t' -v r="$ref" -v z="$cap" -v j="${jit:-0}" '!/^#/ {
		n = j > 0 ? 16 : 1
		for (i = 0; i < n; i++) {
			R = int((r - j / 2 + j * (i + 0.5) / n) / 4096) * 4096
			if (R + $1 > z - 4096) R = int((z - 4096 - $1) / 4096) * 4096
			if (R + $1 < 0) R = int((4096 - $1) / 4096) * 4096
			if (R > z - 4096) R = z - 4096
			if (R < 0) R = 0
			b = R + $1; if (b > z - 512) b = z - 512; if (b < 0) b = 0
			printf "%.0f %.0f %s %s\n", R + 4096 - 512, int(b / 512) * 512, $2, $1
		} }' "$f" >"$w/cm"
	"$hd" sim locate "$model" $(awk '{ print $1 }' "$w/cm") | cut -f3,4 >"$w/ca"
	"$hd" sim locate "$model" $(awk '{ print $2 }' "$w/cm") | cut -f3,4 >"$w/cb"
	# Cylinders apart, and whether the surfaces differ.
	paste "$w/ca" "$w/cb" | awk '{ d = $3 - $1; print (d < 0 ? -d : d), ($2 != $4) }' >"$w/cc"
	awk '$1 > 0 { print $1 }' "$w/cc" | sort -un >"$w/ccu"
	: >"$w/cs"
	if [ -s "$w/ccu" ]; then "$hd" sim seek "$model" $(cat "$w/ccu") >"$w/cs"; fi
	# The mean over each row's places, rows in their order.
	paste "$w/cc" <(awk '{ print $3, $4 }' "$w/cm") |
		awk -F'\t' -v hs="${hs:-0}" 'FILENAME == ARGV[1] { t[$1] = $2; next }
			{ split($1, c, " "); split($2, v, " "); k = v[2]
			  if (!(k in n)) { order[++m] = k; fit[k] = v[1] }
			  n[k]++; s[k] += c[1] > 0 ? t[c[1]] : c[2] ? hs : 0 }
			END { for (i = 1; i <= m; i++) { k = order[i]; printf "%s %s %.6f\n", k, fit[k], s[k] / n[k] } }' "$w/cs" -
}
