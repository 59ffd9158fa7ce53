# The rotational phase of every sample is random: at one fixed distance the
# latencies of 400 seek reads spread over a revolution as the model says
# they must.  Each sample's latency is the read overhead, the seek from the
# reference's cylinder to the target's (the model's curve, `sim seek`), a
# rotational wait and the transfer; the wait is uniform over a revolution
# when the phase is.  Each sample is mapped through its own model CDF,
# u = (latency - fixed part) / revolution, and a Kolmogorov-Smirnov test of
# the u against U(0, 1) must pass at p > 0.01 on every preset.
. "$(dirname "$0")/common.bash"

DIST=$((64 << 20))

# info NAME KEY: one line of `sim info`.
info() { "$HDDSCOPE" sim info "$1" | sed -n "s/^$2: //p"; }

for p in $("$HDDSCOPE" sim list | awk 'NR > 1 { print $1 }'); do
	f=$T/$p.tsv
	run 0 "$HDDSCOPE" seek --quiet --samples 400 --min $DIST --range $DIST -o "$f" "sim:$p"
	case $(hdr "$f" phase) in
	"host delay uniform in [0, "*) ;;
	*) fail "$p: phase header: $(hdr "$f" phase)" ;;
	esac
	rev=$(info "$p" revolution_ms); ovh=$(info "$p" read_overhead_ms); mbs=$(info "$p" interface_mb_s)
	sb=$(info "$p" sector_bytes); cyls=$(info "$p" cylinders)
	outer=$(info "$p" outer_track_bytes); inner=$(info "$p" inner_track_bytes)
	# The media rows: reference and target offsets, then where each lies.
	awk -F'\t' '!/^#/ && $5 == "media" { printf "%.0f %s %s\n", $2 - $1, $2, $3 }' "$f" >"$T/rows"
	n=$(wc -l <"$T/rows")
	[ "$n" -ge 380 ] || fail "$p: only $n media samples of 400"
	# shellcheck disable=SC2046
	"$HDDSCOPE" sim locate "$p" $(awk '{ print $1, $2 }' "$T/rows") >"$T/loc" || fail "$p: sim locate"
	awk 'NR % 2 == 1 { c = $3 } NR % 2 == 0 { d = $3 - c; print d < 0 ? -d : d }' "$T/loc" >"$T/dcyl"
	# shellcheck disable=SC2046
	"$HDDSCOPE" sim seek "$p" $(sort -un "$T/dcyl") >"$T/seek" || fail "$p: sim seek"
	ks=$(awk -v rev="$rev" -v ovh="$ovh" -v mbs="$mbs" -v sb="$sb" -v cyls="$cyls" -v outer="$outer" \
		-v inner="$inner" -v len=4096 '
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
			xfer = k * sb / track * rev
			tail = (len < sb ? len : sb) / (mbs * 1000)
			all = len / (mbs * 1000)
			fixed = ovh + seek[dc[i]] + (xfer + tail > all ? xfer + tail : all)
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
		fail "$p: latencies at |d| = $DIST are not a uniform rotational wait: KS D=$D p=$pv (n=$n, u in [$umin, $umax])"
	pass "$p: |d| = 64 MiB, $n samples, KS D=$D p=$pv (u in [$umin, $umax])"
done
