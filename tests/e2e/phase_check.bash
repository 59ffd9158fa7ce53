# Sourced by seek_phase.sh and seek_phase_disksim.sh (after common.bash): phase_check holds the
# seek probe's phase delay to its promise on one simulated drive.  At one fixed distance the
# latencies of 400 seek reads spread over a revolution as the model says they must.  Each
# sample's latency is the read overhead, the seek from the reference's cylinder to the
# target's (the model's curve, `sim seek`), a rotational wait and the transfer; the wait is
# uniform over a revolution when the phase is.  Each sample is mapped through its own model
# CDF, u = (latency - fixed part) / revolution, and a Kolmogorov-Smirnov test of the u against
# U(0, 1) must pass at p > 0.01.

DIST=$((64 << 20))

# info MODEL KEY: one line of `sim info`.
info() { "$HDDSCOPE" sim info "$1" | sed -n "s/^$2: //p"; }

# key MODEL KEY [DEFAULT]: the first value of KEY in the model file (`sim show`), else DEFAULT.
key() {
	local v
	v=$("$HDDSCOPE" sim show "$1" | sed -n "s/^$2 *= *\([^ #]*\).*/\1/p" | head -n 1)
	echo "${v:-${3:-}}"
}

# phase_check MODEL NAME: the KS test on MODEL (a preset or a .drive file), reported as NAME.
phase_check() {
	local model=$1 name=$2 f=$T/$2.tsv rev ovh mbs sb cyls outer inner water resel compl n ks D pv umin umax
	run 0 "$HDDSCOPE" seek --quiet --samples 400 --min $DIST --range $DIST -o "$f" "sim:$model"
	case $(hdr "$f" phase) in
	"host delay uniform in [0, "*) ;;
	*) fail "$name: phase header: $(hdr "$f" phase)" ;;
	esac
	rev=$(info "$model" revolution_ms); ovh=$(info "$model" read_overhead_ms); mbs=$(info "$model" interface_mb_s)
	sb=$(info "$model" sector_bytes); cyls=$(info "$model" cylinders)
	outer=$(info "$model" outer_track_bytes); inner=$(info "$model" inner_track_bytes)
	# DiskSim's disconnection (read_watermark) and the completion overhead.
	water=$(key "$model" read_watermark off); compl=$(key "$model" completion_overhead_ms 0)
	resel=$(awk -v a="$(key "$model" reselect_overhead_ms 0)" -v b="$(key "$model" data_prep_overhead_ms 0)" \
		'BEGIN { print a + b }')
	# The media rows: reference and target offsets, then where each lies.
	awk -F'\t' '!/^#/ && $5 == "media" { printf "%.0f %s %s\n", $2 - $1, $2, $3 }' "$f" >"$T/rows"
	n=$(wc -l <"$T/rows")
	[ "$n" -ge 380 ] || fail "$name: only $n media samples of 400"
	# shellcheck disable=SC2046
	"$HDDSCOPE" sim locate "$model" $(awk '{ print $1, $2 }' "$T/rows") >"$T/loc" || fail "$name: sim locate"
	awk 'NR % 2 == 1 { c = $3 } NR % 2 == 0 { d = $3 - c; print d < 0 ? -d : d }' "$T/loc" >"$T/dcyl"
	# shellcheck disable=SC2046
	"$HDDSCOPE" sim seek "$model" $(sort -un "$T/dcyl") >"$T/seek" || fail "$name: sim seek"
	ks=$(awk -v rev="$rev" -v ovh="$ovh" -v mbs="$mbs" -v sb="$sb" -v cyls="$cyls" -v outer="$outer" \
		-v inner="$inner" -v water="$water" -v resel="$resel" -v cmpl="$compl" -v len=4096 '
		FILENAME == ARGV[1] { seek[$1] = $2; next }
		FILENAME == ARGV[2] { dc[++nd] = $1; next }
		FILENAME == ARGV[3] { if (FNR % 2 == 0) tcyl[FNR / 2] = $3; next }
		{
			i = FNR
			# The transfer: the physical sectors the block touches, at the
			# track size of its place (between the outer and inner tracks);
			# the host has its data one sector (or the block) after the media.
			off = $2; k = int((off + len + sb - 1) / sb) - int(off / sb)
			track = outer - (outer - inner) * tcyl[i] / cyls
			st = sb / track * rev
			tail = (len < sb ? len : sb) / (mbs * 1000)
			all = len / (mbs * 1000)
			if (water == "off" || water == "never") {
				x = k * st + tail > all ? k * st + tail : all
			} else {
				# A disconnecting drive: it reconnects once w sectors are
				# in, reselects, then sends sector by sector (a sector
				# once it is in and after the one before it).
				w = int(water * k); w = w < 1 ? 1 : w > k ? k : w
				x = w * st + resel
				for (j = 1; j <= k; j++) x = (j > w && j * st > x ? j * st : x) + sb / (mbs * 1000)
			}
			fixed = ovh + seek[dc[i]] + x + cmpl
			u[++n] = ($3 - fixed) / rev
		}
		END {
			# Sort, then the largest distance between the empirical and the uniform CDF.
			for (a = 2; a <= n; a++) { v = u[a]; b = a - 1; while (b > 0 && u[b] > v) { u[b + 1] = u[b]; b-- } u[b + 1] = v }
			D = 0
			for (a = 1; a <= n; a++) {
				x = u[a] < 0 ? 0 : u[a] > 1 ? 1 : u[a]
				if (a / n - x > D) D = a / n - x
				if (x - (a - 1) / n > D) D = x - (a - 1) / n
			}
			# The asymptotic Kolmogorov distribution (Stephens'"'"' correction for n).
			l = (sqrt(n) + 0.12 + 0.11 / sqrt(n)) * D; p = 0
			for (j = 1; j <= 100; j++) p += 2 * (j % 2 ? 1 : -1) * exp(-2 * j * j * l * l)
			if (p > 1) p = 1
			if (p < 0) p = 0
			printf "%d %.4f %.4f %.3f %.3f\n", n, D, p, u[1], u[n]
		}' "$T/seek" "$T/dcyl" "$T/loc" "$T/rows")
	read -r n D pv umin umax <<<"$ks"
	awk -v p="$pv" 'BEGIN { exit !(p > 0.01) }' ||
		fail "$name: latencies at |d| = $DIST are not a uniform rotational wait: KS D=$D p=$pv (n=$n, u in [$umin, $umax])"
	pass "$name: |d| = 64 MiB, $n samples, KS D=$D p=$pv (u in [$umin, $umax])"
}
