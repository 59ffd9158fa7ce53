# Derives a simulator preset (.drive, data/drives/README.md) from a drive's
# published figures (a .sheet file beside this script):
#
#   awk -f data/drives/datasheet/derive.awk data/drives/datasheet/NAME.sheet > data/drives/NAME.drive
#
# tests/e2e/presets.sh runs it on every sheet and requires the presets to be
# exactly its output: the presets hold no hand-tuned number.
#
# A sheet holds "key = value [TAG] note" lines ('#' starts a comment line).
# TAG says what kind of number it is: [M] manufacturer document, [Mq] a
# manufacturer figure quoted by a third party, [O] reported by a drive, [S]
# secondary source, [D] derived from those (the note gives the formula), [A]
# assumed (nothing published).  "set KEY = VALUE [TAG] note" lines are copied
# into the model as they are (controller overheads, the cache).
#
# What is computed here:
# - Sectors per track.  With rate_kind = sustained, rate_outer_mb_s and
#   rate_inner_mb_s are what the host sees reading sequentially: per cylinder
#   S tracks of spt sectors, S - 1 head switches (track skew) and one
#   cylinder switch (cylinder skew) pass in (S*spt + (S-1)*ts + cs) sector
#   times, so rate = S*spt*B / ((S*spt + (S-1)*ts + cs) * rev / spt).  The
#   raw media rate is solved from that (the integer spt nearest the target).
#   With rate_kind = media the rates are the media's own: spt = rate / (B * rps).
#   Zones of equal width; sectors per track fall linearly from outer to inner.
# - Skews: track skew = head switch time in sectors + 1; cylinder skew = the
#   longer of the read and write track-to-track seeks in sectors + 1, so that
#   sequential reads and writes both catch the next cylinder's first sector.
# - Cylinders: as many as bring the capacity closest to the published LBA
#   count without exceeding it.
# - Seek curves, read and write: t(d) = t1 + (tf - t1) * (d^p - 1) / (M^p - 1)
#   for d = 1 .. M = cylinders - 1, with p fitted so that the vendors' average
#   (sum over n of (M + 1 - n) * t(n), divided by the sum of the weights) of
#   the emitted piecewise-linear curve equals the published average seek.
#   Written as points at 1, 2, 3, 4, 6, 8, 12, ... and M.  A write figure not
#   published is the read figure plus write_extra_t2t_ms (track-to-track) or
#   write_extra_ms (average, full stroke).
# - The buffer: the read segments (cache_segments x cache_segment_kb) and the
#   write cache (write_cache_kb) must fit in buffer_kb, the published size.

function die(msg) {
	printf "%s:%d: %s\n", FILENAME, FNR, msg > "/dev/stderr"
	failed = 1
	exit 2
}

function ceil(x,   i) {
	i = int(x)
	return i < x ? i + 1 : i
}

function round(x) {
	return int(x + 0.5)
}

# Keep a key's value, its tag and its note.
function keep(k, v, tag, note) {
	if (k in val)
		die("duplicate key " k)
	val[k] = v
	tg[k] = tag
	nt[k] = note
	order[++nkeys] = k
}

function need(k) {
	if (!(k in val)) {
		FNR = lines
		die("missing key " k)
	}
	return val[k]
}

function has(k) {
	return k in val
}

function skews(spt) {
	ts = ceil(head_ms / rev_ms * spt) + 1
	cs = ceil(t2t_max / rev_ms * spt) + 1
}

# The host's sequential rate (MB/s) over a cylinder of tracks of spt sectors.
function host_rate(spt) {
	skews(spt)
	return S * spt * B / ((S * spt + (S - 1) * ts + cs) * rev_ms / spt) / 1000
}

function spt_for(rate,   lo, hi, mid) {
	if (kind == "media")
		return round(rate * 1e6 / (B * rpm / 60))
	lo = 1
	hi = 1
	while (host_rate(hi) < rate)
		hi *= 2
	while (hi - lo > 1) {
		mid = int((lo + hi) / 2)
		if (host_rate(mid) < rate)
			lo = mid
		else
			hi = mid
	}
	return (rate - host_rate(lo) < host_rate(hi) - rate) ? lo : hi
}

# Capacity in model sectors of c cylinders split into nz zones of equal width
# (the first c % nz zones one cylinder wider).
function capacity(c,   z, w, sum) {
	sum = 0
	for (z = 0; z < nz; z++) {
		w = int(c / nz) + (z < c % nz ? 1 : 0)
		sum += w * S * zspt[z]
	}
	return sum
}

# The distances of the curve's points: 1, 2, 3, 4, 6, 8, 12, ... up to m.
function distances(m,   d, n, p2) {
	n = 0
	for (d = 1; d < m; ) {
		dd[n++] = d
		for (p2 = 1; p2 < d; p2 *= 2)
			;
		d = d < 4 ? d + 1 : (p2 == d ? d * 3 / 2 : d * 4 / 3)
	}
	dd[n++] = m
	return n
}

function curve(t1, tf, p, m, np,   i) {
	for (i = 0; i < np; i++)
		pt[i] = sprintf("%.3f", t1 + (tf - t1) * (dd[i] ^ p - 1) / (m ^ p - 1))
	pt[0] = sprintf("%.3f", t1)
	pt[np - 1] = sprintf("%.3f", tf)
}

# Sum over integers n in (a, b] of (m + 1 - n) * (y0 + (y1 - y0) * (n - a) / (b - a)).
function seg_sum(a, b, y0, y1, m,   k, s1, s2, s0, sl) {
	s0 = b - a
	s1 = (b * (b + 1) - a * (a + 1)) / 2
	s2 = (b * (b + 1) * (2 * b + 1) - a * (a + 1) * (2 * a + 1)) / 6
	sl = (y1 - y0) / (b - a)
	k = y0 - sl * a
	# (m + 1 - n) * (k + sl * n)
	return (m + 1) * k * s0 + ((m + 1) * sl - k) * s1 - sl * s2
}

# The vendors' average of the emitted points' piecewise-linear curve.
function curve_avg(m, np,   i, sum) {
	# seek(0) = 0 is not a seek: the first point stands alone.
	sum = (m + 1 - 1) * pt[0]
	for (i = 1; i < np; i++)
		sum += seg_sum(dd[i - 1], dd[i], pt[i - 1] + 0, pt[i] + 0, m)
	return sum / (m * (m + 1) / 2)
}

function fit(t1, avg, tf, m, np,   lo, hi, mid, i) {
	lo = 0.01
	hi = 3
	for (i = 0; i < 60; i++) {
		mid = (lo + hi) / 2
		curve(t1, tf, mid, m, np)
		# A larger p keeps the curve low for longer: a smaller average.
		if (curve_avg(m, np) > avg)
			lo = mid
		else
			hi = mid
	}
	curve(t1, tf, mid, m, np)
	return mid
}

function put_tagged(label, want,   i, k, line, n) {
	n = 0
	for (i = 1; i <= nkeys; i++) {
		k = order[i]
		if (index(want, "," tg[k] ",") == 0)
			continue
		line = sprintf("#   %s = %s %s %s", k, val[k], tg[k], nt[k])
		sub(/ +$/, "", line)
		if (n++ == 0)
			print "# " label
		print line
	}
}

BEGIN { FS = "\n" }

/^[ \t]*(#|$)/ { lines = FNR; next }

{
	lines = FNR
	line = $0
	setkey = 0
	if (line ~ /^set /) {
		setkey = 1
		sub(/^set /, "", line)
	}
	eq = index(line, "=")
	if (eq == 0)
		die("not key = value: " $0)
	k = substr(line, 1, eq - 1)
	rest = substr(line, eq + 1)
	gsub(/^[ \t]+|[ \t]+$/, "", k)
	gsub(/^[ \t]+/, "", rest)
	tag = ""
	note = ""
	if (match(rest, /\[(M|Mq|O|S|D|A)\]/)) {
		tag = substr(rest, RSTART, RLENGTH)
		note = substr(rest, RSTART + RLENGTH)
		rest = substr(rest, 1, RSTART - 1)
		gsub(/^[ \t]+|[ \t]+$/, "", note)
	} else if (k != "name" && k != "title" && k != "zones") {
		die("no [TAG] on " k)
	}
	gsub(/[ \t]+$/, "", rest)
	keep((setkey ? "set " : "") k, rest, tag, note)
}

END {
	if (failed)
		exit 2
	base = FILENAME
	sub(/.*\//, "", base)
	sub(/\.sheet$/, "", base)
	name = need("name")
	rpm = need("rpm") + 0
	B = need("sector_bytes") + 0
	S = need("surfaces") + 0
	nz = need("zones") + 0
	kind = need("rate_kind")
	if (kind != "sustained" && kind != "media")
		die("rate_kind must be sustained or media")
	lbas = need("lbas") + 0
	cap_sectors = int(lbas * 512 / B)
	rev_ms = 60000 / rpm
	head_ms = need("head_switch_ms") + 0
	t1 = need("seek_t2t_ms") + 0
	avg = need("seek_avg_ms") + 0
	tf = need("seek_full_ms") + 0
	w1 = has("write_seek_t2t_ms") ? val["write_seek_t2t_ms"] + 0 : t1 + need("write_extra_t2t_ms")
	wavg = has("write_seek_avg_ms") ? val["write_seek_avg_ms"] + 0 : avg + need("write_extra_ms")
	wf = has("write_seek_full_ms") ? val["write_seek_full_ms"] + 0 : tf + need("write_extra_ms")
	t2t_max = w1 > t1 ? w1 : t1
	so = spt_for(need("rate_outer_mb_s") + 0)
	si = spt_for(need("rate_inner_mb_s") + 0)
	for (z = 0; z < nz; z++)
		zspt[z] = nz > 1 ? round(so + (si - so) * z / (nz - 1)) : so
	# The most cylinders whose capacity does not exceed the published one.
	c = int(cap_sectors / (S * (so + si) / 2))
	while (capacity(c) > cap_sectors)
		c--
	while (capacity(c + 1) <= cap_sectors)
		c++
	cyl = c
	m = cyl - 1
	# The model keys the sheet sets, by name without "set ".
	for (i = 1; i <= nkeys; i++)
		if (order[i] ~ /^set /)
			sv[substr(order[i], 5)] = val[order[i]]
	# A modern write-back cache has write_cache_kb of its own; DiskSim's
	# levels (append, flush) keep write data in segments, beside the read
	# segments only when separate_write_segment is on.
	wbuf = 0
	if (sv["write_cache"] == "on")
		wbuf = sv["write_cache_kb"]
	else if (sv["write_cache"] != "off" && sv["write_cache"] != "" && sv["separate_write_segment"] == "on")
		wbuf = (sv["write_segments"] != "" ? sv["write_segments"] : 1) * sv["cache_segment_kb"]
	buf = sv["cache_segments"] * sv["cache_segment_kb"] + wbuf
	if (buf > need("buffer_kb") + 0) {
		FNR = lines
		die(sprintf("the read segments and the write cache take %d KB, more than buffer_kb %d", buf, val["buffer_kb"]))
	}
	np = distances(m)

	print "# " need("title")
	print "# source: datasheet figures, derived (see data/drives/README.md)"
	print "#"
	print "# Generated by data/drives/datasheet/derive.awk from data/drives/datasheet/" \
	      base ".sheet; edit the sheet, not this file."
	put_tagged("Published ([M] manufacturer document, [Mq] quoted, [O] drive-reported, [S] secondary):",
		   ",[M],[Mq],[O],[S],")
	put_tagged("Derived from published figures [D]:", ",[D],")
	put_tagged("Assumed, not published [A]:", ",[A],")
	print "#"
	printf "# Derived here: %d zones of equal width, %d cylinders, capacity %d sectors of %d bytes\n",
	       nz, cyl, capacity(cyl), B
	printf "# (%.4f%% of the published capacity; the zone table itself is not published).\n",
	       100 * capacity(cyl) / cap_sectors
	printf "# Buffer: %d read segments of %d KB and %d KB for writes, %d KB of the %d KB published.\n",
	       sv["cache_segments"], sv["cache_segment_kb"], wbuf, buf, val["buffer_kb"]
	skews(so)
	printf "# Outer zone %d sectors per track: media %.2f MB/s, sequential host rate %.2f MB/s;\n",
	       so, so * B * rpm / 60 / 1e6, host_rate(so)
	skews(si)
	printf "# inner zone %d: media %.2f MB/s, sequential host rate %.2f MB/s (skew losses included).\n",
	       si, si * B * rpm / 60 / 1e6, host_rate(si)
	print ""
	print "format = 1"
	print "name = " name
	print "rpm = " rpm
	print "sector_bytes = " B
	print "surfaces = " S
	print ""
	print "# zone = FIRST_CYL LAST_CYL SECTORS_PER_TRACK TRACK_SKEW CYLINDER_SKEW"
	first = 0
	for (z = 0; z < nz; z++) {
		w = int(cyl / nz) + (z < cyl % nz ? 1 : 0)
		skews(zspt[z])
		printf "zone = %d %d %d %d %d\n", first, first + w - 1, zspt[z], ts, cs
		first += w
	}
	print ""
	p = fit(t1, avg, tf, m, np)
	printf "# seek = DISTANCE MS: t1 + (tf - t1) * (d^p - 1) / (%d^p - 1), p = %.4f:\n", m, p
	printf "# seek(1) = %.3f, average over random pairs %.3f, seek(%d) = %.3f ms.\n", t1, curve_avg(m, np), m, tf
	for (i = 0; i < np; i++)
		printf "seek = %d %s\n", dd[i], pt[i]
	print ""
	p = fit(w1, wavg, wf, m, np)
	printf "# write_seek = DISTANCE MS, the same form, p = %.4f:\n", p
	printf "# seek(1) = %.3f, average over random pairs %.3f, seek(%d) = %.3f ms.\n", w1, curve_avg(m, np), m, wf
	for (i = 0; i < np; i++)
		printf "write_seek = %d %s\n", dd[i], pt[i]
	print ""
	print "head_switch_ms = " head_ms
	for (i = 1; i <= nkeys; i++)
		if (order[i] ~ /^set /)
			print substr(order[i], 5) " = " val[order[i]]
}
