/*
 * fit --drive-out: a simulated-drive model (format 1, data/drives/README.md)
 * of a fitted drive, from its fit (struct hd_fit_result) and
 * DIR/seekcurve.tsv, so that a measured drive can be simulated and the
 * simulation measured again.
 *
 * Surfaces, zones, track sizes and the head switch come from the layout
 * probe where it ran (else every "cylinder" here is one track, surfaces =
 * 1, and track sizes come from the tiny-distance response reads, bytes per
 * revolution at both ends of the device, shaped by the zone steps where the
 * media sets the rate); the seek table is the measured curve
 * with each byte distance mapped to tracks through that layout at the seek
 * reference, extended to the full stroke by the Ruemmler-Wilkes model.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hddscope/datafile.h"
#include "hddscope/fit.h"
#include "hddscope/fsutil.h"

#define MAX_ZONES 64
#define EQUAL_ZONES 8		/* when the zone curve says nothing about tracks */
#define MAX_POINTS 512

struct dzone {
	double first_byte;
	uint64_t first_cyl, ncyl;
	uint32_t spt;
};

struct layout {
	struct dzone z[MAX_ZONES];
	size_t n;
	uint32_t sb;
	double surf;		/* tracks per cylinder */
};

/* Cylinder holding byte offset off, fractional. */
static double cyl_of(const struct layout *L, double off)
{
	size_t i = 0;

	while (i + 1 < L->n && off >= L->z[i + 1].first_byte)
		i++;
	return (double)L->z[i].first_cyl + (off - L->z[i].first_byte) / ((double)L->z[i].spt * L->sb * L->surf);
}

/* Tracks between ref and ref +- D, the mean of both directions where both fit. */
static double cyls_for(const struct layout *L, double ref, double D, double cap)
{
	int up = ref + D < cap, down = ref - D >= 0;

	if (up && down)
		return (cyl_of(L, ref + D) - cyl_of(L, ref - D)) / 2;
	if (up)
		return cyl_of(L, ref + D) - cyl_of(L, ref);
	if (down)
		return cyl_of(L, ref) - cyl_of(L, ref - D);
	return cyl_of(L, cap - 1) - cyl_of(L, 0);
}

/* The figure id's value, or def where the fit has none; *assumed says which it was. */
static double fig_or(const struct hd_fit_result *fit, enum hd_fit_fig_id id, double def, int *assumed)
{
	double v = fit->fig[id].value;

	*assumed = !isfinite(v);
	return *assumed ? def : v;
}

/* The comment ending a line of the model whose value was not measured. */
static const char *mark(int assumed)
{
	return assumed ? "  # assumed" : "";
}

/* v, or def where the fit section has null. */
static double or_default(double v, double def)
{
	return isnan(v) ? def : v;
}

/*
 * Zones: sizes by bytes, track bytes per zone, cylinders of surf tracks;
 * 0 or -1 when nothing tells the track size.  The layout probe's zones,
 * where there are any, are the drive's own (each from the lowest position
 * measured in it); else the response's track sizes shaped by the zone
 * rates.
 */
static int make_layout(const struct hd_fit_result *fit, double rev, double surf, struct layout *L, int *iface_bound,
		       double *iface, const char **zones_assumed)
{
	const struct hd_fit_zone *steps = fit->zones;
	double cap = fit->capacity_bytes, to = fit->track_bytes_outer, ti = fit->track_bytes_inner;
	double ro = fit->zones_outer_mb_s, ri = fit->zones_inner_mb_s;
	double B[MAX_ZONES], start[MAX_ZONES];
	size_t nz = fit->have_zones ? fit->nzones : 0;
	uint64_t cyl = 0;

	L->sb = 512;
	L->surf = surf;
	*zones_assumed = NULL;
	if (!isfinite(to) && isfinite(ti))
		to = ti;
	if (!isfinite(ti) && isfinite(to))
		ti = to;
	/*
	 * A flat zone curve over tracks that shrink inwards means the interface,
	 * not the media, set the rate: the zones then come from the track sizes.
	 */
	*iface_bound = isfinite(to) && isfinite(ro) && isfinite(ri) && ro / ri < 1.05 && to / ti > 1.15;
	*iface = *iface_bound ? ro * 1.01 : (isfinite(ro) ? 3 * ro : 1000);
	if (nz > MAX_ZONES)
		nz = MAX_ZONES;
	if (fit->layout.nzones >= 1) {
		nz = fit->layout.nzones < MAX_ZONES ? fit->layout.nzones : MAX_ZONES;
		for (size_t i = 0; i < nz; i++) {
			start[i] = i ? fit->layout.zones[i].offset_bytes : 0;
			B[i] = fit->layout.zones[i].track_bytes;
		}
		*zones_assumed = "zones: the layout probe's, each from the lowest position measured in it";
	} else if (nz >= 2 && !*iface_bound) {
		double r0 = steps[0].mb_s;

		for (size_t i = 0; i < nz; i++) {
			double r = steps[i].mb_s;

			start[i] = i ? or_default(steps[i].offset_bytes, 0) : 0;
			/* Media rate follows track size; without a measured size assume 15% lost to skews. */
			B[i] = isfinite(to) ? to * r / r0 : r * rev * 1e3 * 1.15;
		}
		if (!isfinite(to))
			*zones_assumed = "track sizes assumed: the zone rates with 15% lost to skews";
	} else if (isfinite(to)) {
		nz = EQUAL_ZONES;
		*zones_assumed = "zone boundaries assumed: 8 equal zones between the measured end track sizes";
		for (size_t i = 0; i < nz; i++) {
			start[i] = cap * (double)i / (double)nz;
			B[i] = to + (ti - to) * ((double)i + 0.5) / (double)nz;
		}
	} else if (nz >= 1) {
		nz = 1;
		*zones_assumed = "track size assumed: the zone rate with 15% lost to skews";
		start[0] = 0;
		B[0] = steps[0].mb_s * rev * 1e3 * 1.15;
	} else {
		return -1;
	}
	L->n = 0;
	for (size_t i = 0; i < nz; i++) {
		double end = i + 1 < nz ? start[i + 1] : cap;
		uint32_t spt = (uint32_t)llround(B[i] / L->sb);
		uint64_t ncyl;

		if (!(spt >= 2) || !(end > start[i]))
			continue;
		ncyl = (uint64_t)llround((end - start[i]) / ((double)spt * L->sb * surf));
		if (ncyl == 0)
			continue;
		L->z[L->n++] = (struct dzone){ start[i], cyl, ncyl, spt };
		cyl += ncyl;
	}
	return L->n ? 0 : -1;
}

struct row {
	double d, ms, n;
};

/* The seek curve from seekcurve.tsv, both directions merged where distances lie within 15%. */
static size_t read_curve(const char *dir, double *D, double *ms, char *err, size_t errlen)
{
	char path[4096];
	struct hd_df *df;
	const struct hd_df_col *d, *s, *n;
	double wsum = 0, raw_left;
	size_t k = 0;
	struct row r[MAX_POINTS];
	size_t nr = 0;

	snprintf(path, sizeof(path), "%s/seekcurve.tsv", dir);
	if (hd_df_read(path, &df, err, errlen))
		return 0;
	d = hd_df_col(df, "distance_bytes");
	s = hd_df_col(df, "seek_ms");
	n = hd_df_col(df, "samples");
	for (size_t i = 0; d && s && n && i < df->nrows && nr < MAX_POINTS; i++)
		r[nr++] = (struct row){ fabs(d->num[i]), s->num[i], n->num[i] };
	hd_df_free(df);
	/* Insertion sort by |d|: a few hundred rows at most. */
	for (size_t i = 1; i < nr; i++)
		for (size_t j = i; j > 0 && r[j].d < r[j - 1].d; j--) {
			struct row t = r[j];
			r[j] = r[j - 1];
			r[j - 1] = t;
		}
	for (size_t i = 0; i < nr; i++) {
		if (k && r[i].d < 1.15 * D[k - 1]) {
			/* Merge into the last point, weighted by samples. */
			D[k - 1] = (D[k - 1] * wsum + r[i].d * r[i].n) / (wsum + r[i].n);
			ms[k - 1] = (ms[k - 1] * wsum + r[i].ms * r[i].n) / (wsum + r[i].n);
			wsum += r[i].n;
			continue;
		}
		D[k] = r[i].d;
		ms[k] = r[i].ms;
		wsum = r[i].n;
		k++;
	}
	/* A [1 2 1] / 4 smoothing: the table should carry the curve, not each bin's noise. */
	raw_left = k ? ms[0] : 0;
	for (size_t i = 1; i + 1 < k; i++) {
		double cur = ms[i];

		ms[i] = (raw_left + 2 * cur + ms[i + 1]) / 4;
		raw_left = cur;
	}
	return k;
}

/*
 * The seek table: track-to-track, the measured curve with each byte
 * distance mapped to tracks through the layout at the seek reference, then
 * the Ruemmler-Wilkes model rw up to the full stroke: the fitted curve as
 * it is, since the model's read overhead and transfer carry the rest of a
 * read's time.  (The table once took what the fitted overhead left over
 * the measured read overhead and the transfer, so that a read cost what
 * was measured; but a profile of the model fits its own overhead, the
 * model's, and the difference came out of its curve: 0.22 ms on atlas3
 * without read-ahead once the overhead's band had the interval reads, and
 * 22 of 60 bins in the round trip.)  A measured
 * track-to-track seek is the one-cylinder point: a curve bin that maps to
 * one cylinder averages targets on the reference's own cylinder (a head
 * switch or nothing) with those one away, and is not the seek of one.
 */
static void put_seek_table(FILE *f, const struct layout *L, const struct hd_fit_result *fit,
			   const struct hd_fit_rw *rw, const double *D, const double *ms, size_t np)
{
	double cap = fit->capacity_bytes, last_c = 0, total_cyl;
	double ref = or_default(fit->seek_reference_bytes, cap / 2);
	int t2t_assumed;
	double t2t = fig_or(fit, HD_FIG_TRACK_TO_TRACK, fit->shortest_seek_ms, &t2t_assumed);

	total_cyl = (double)(L->z[L->n - 1].first_cyl + L->z[L->n - 1].ncyl);
	if (isfinite(t2t) && (!t2t_assumed || cyls_for(L, ref, D[0], cap) >= 2)) {
		fprintf(f, "seek = 1 %.4f%s\n", fmax(t2t, 0.01),
			t2t_assumed ? "  # assumed: the shortest distance measured" : "");
		last_c = 1;
	}
	for (size_t i = 0; i < np; i++) {
		double c = floor(cyls_for(L, ref, D[i], cap) + 0.5);

		if (c <= last_c || c >= total_cyl)
			continue;
		fprintf(f, "seek = %.0f %.4f\n", c, fmax(ms[i], 0.01));
		last_c = c;
	}
	/* Beyond the measured distances, the model up to the full stroke. */
	if (isfinite(rw->a) && isfinite(rw->c)) {
		for (double d = D[np - 1] * 1.5; last_c < total_cyl - 1; d *= 1.5) {
			double c = d >= cap ? total_cyl - 1 : floor(cyls_for(L, cap / 2, d, cap) + 0.5);

			if (c > last_c) {
				fprintf(f, "seek = %.0f %.4f\n", c, fmax(hd_fit_rw_at(rw, fmin(d, cap)), 0.01));
				last_c = c;
			}
		}
	}
}

/* The model's caches and command queue: measured where the fit has them, the writer's defaults marked assumed. */
static void put_cache_lines(FILE *f, const struct hd_fit_result *fit)
{
	double qg = fit->queue_gain, segs, seg_kb, wc_kb;
	int ra_on = fit->read_ahead == 1, asm_segs, asm_seg, asm_ra, asm_wc;

	segs = fig_or(fit, HD_FIG_CACHE_SEGMENTS, 4, &asm_segs);
	fprintf(f, "cache_segments = %.0f%s\n", fmax(segs, 1), mark(asm_segs));
	if (ra_on) {
		double kb = ceil(fmax(or_default(fit->read_ahead_bytes, 0), 65536) / 1024);
		double rakb = fig_or(fit, HD_FIG_READAHEAD_BYTES, kb * 1024, &asm_ra) / 1024;

		seg_kb = fig_or(fit, HD_FIG_CACHE_SEGMENT_BYTES, fmax(2 * kb, 256) * 1024, &asm_seg) / 1024;
		fprintf(f, "cache_segment_kb = %.0f%s\n", ceil(seg_kb), mark(asm_seg));
		fprintf(f, "readahead_kb = %.0f%s\n", ceil(fmin(rakb, seg_kb)),
			asm_ra ? "  # at least what the response reads showed" : "");
	} else {
		seg_kb = fig_or(fit, HD_FIG_CACHE_SEGMENT_BYTES, 64 * 1024, &asm_seg) / 1024;
		fprintf(f, "cache_segment_kb = %.0f%s\nreadahead_kb = 0\n", ceil(seg_kb), mark(asm_seg));
	}
	if (fit->write_cache == 1) {
		wc_kb = fig_or(fit, HD_FIG_WRITE_CACHE_BYTES, 512 * 1024, &asm_wc) / 1024;
		fprintf(f, "write_cache = on\nwrite_cache_kb = %.0f%s\n", ceil(wc_kb), mark(asm_wc));
	} else {
		fprintf(f, "write_cache = off%s\n", mark(fit->write_cache < 0));
	}
	/* A gain the host's scheduler could have made is no evidence of NCQ. */
	fprintf(f, "queue_depth = %d%s\n", isfinite(qg) && qg > 1.3 && fit->queue_at_drive ? 32 : 1,
		mark(!isfinite(qg)));
}

int hd_fit_write_drive(const char *dir, const struct hd_fit_result *fit, const char *path, const char *name,
		       char *err, size_t errlen)
{
	double rev = fit->revolution_ms, cap = fit->capacity_bytes;
	double C = fit->overhead_ms, block = or_default(fit->block_bytes, 4096);
	double hit = fit->cache_hit_ms;
	double D[MAX_POINTS], ms[MAX_POINTS], iface, X, Bmid, t2t, surfaces, ro, wo, hs, ws;
	int t2t_assumed, asm_surf, asm_ro, asm_wo, asm_hs, asm_ws;
	struct hd_fit_rw rw = { NAN, NAN, NAN, NAN, NAN, 0 };
	struct layout L;
	size_t np;
	int bound, rc;
	const char *call, *zones_assumed;
	char *tmp, nm[128];
	FILE *f;

	if (fit->have_model)
		rw = (struct hd_fit_rw){ fit->model.a, fit->model.b, fit->model.knee, fit->model.c, fit->model.e, 0 };
	if (!(rev > 0) || !(cap > 0)) {
		snprintf(err, errlen, "%s: the fit has no revolution time or capacity", dir);
		return -1;
	}
	/* The host cannot see surfaces unless the extraction counted them: then every cylinder is one track. */
	surfaces = fmax(fig_or(fit, HD_FIG_SURFACES, 1, &asm_surf), 1);
	if (make_layout(fit, rev, surfaces, &L, &bound, &iface, &zones_assumed)) {
		snprintf(err, errlen, "%s: no track sizes (response reads at tiny distances) or zone rates to lay "
				      "out a drive", dir);
		return -1;
	}
	/* Empty unless reading the file fails: the caller's buffer may hold anything. */
	if (errlen)
		*err = '\0';
	np = read_curve(dir, D, ms, err, errlen);
	if (!np) {
		if (!*err)
			snprintf(err, errlen, "%s/seekcurve.tsv: no rows", dir);
		return -1;
	}
	/* '#' would start a comment in the model file. */
	snprintf(nm, sizeof(nm), "%s", name);
	for (char *p = nm; *p; p++)
		if (*p == '#' || *p == '\n')
			*p = '_';
	rc = hd_out_fopen(path, &f, &tmp);
	if (rc) {
		snprintf(err, errlen, "create %s: %s", path, hd_fs_strerror(rc));
		return -1;
	}
	Bmid = (double)L.z[L.n / 2].spt * L.sb;
	/* The drive's fixed time for a block: overhead plus the transfer, whichever of media or interface is slower. */
	X = fmax(block * rev / Bmid + L.sb / (iface * 1e3), block / (iface * 1e3));
	fprintf(f, "# A model of the drive measured in %s, written by hddscope fit --drive-out.\n"
		   "# Every value comes from the measurement but those marked '# assumed': nothing\n"
		   "# measured them, and they are this writer's defaults.\n"
		   "format = 1\nname = %s\nrpm = %.6f\nsector_bytes = %u\n",
		dir, nm, 60000.0 / rev, L.sb);
	fprintf(f, "surfaces = %.0f%s\n", surfaces, asm_surf ? "  # assumed: every cylinder one track" : "");
	if (zones_assumed)
		fprintf(f, "# %s\n", zones_assumed);
	t2t = fig_or(fit, HD_FIG_TRACK_TO_TRACK, fit->shortest_seek_ms, &t2t_assumed);
	for (size_t i = 0; i < L.n; i++) {
		/*
		 * A cylinder switch is a one-track seek: the skew covers it, as a
		 * real layout does.  A track-to-track time that is not positive is
		 * no measurement, and is taken as unknown; the skew is bounded
		 * before it is converted, where a wild fit cannot overflow it.
		 */
		double sectors = ceil((isfinite(t2t) && t2t > 0 ? t2t : 1.0) / rev * L.z[i].spt) + 1;
		uint32_t skew = sectors < L.z[i].spt ? (uint32_t)sectors : L.z[i].spt - 1;
		/* With surfaces, a head switch inside a cylinder: the track skew covers the measured switch. */
		double hsw = fit->fig[HD_FIG_HEAD_SWITCH].value;
		double tsec = surfaces > 1 && isfinite(hsw) ? ceil(hsw / rev * L.z[i].spt) + 1 : 0;
		uint32_t tskew = tsec < L.z[i].spt ? (uint32_t)tsec : L.z[i].spt - 1;

		fprintf(f, "zone = %llu %llu %u %u %u%s\n", (unsigned long long)L.z[i].first_cyl,
			(unsigned long long)(L.z[i].first_cyl + L.z[i].ncyl - 1), L.z[i].spt, tskew, skew,
			!(isfinite(t2t) && t2t > 0) ? "  # skew assumed: a 1 ms track-to-track seek"
			: t2t_assumed ? "  # skew assumed: the shortest seek measured" : "");
	}
	ro = fig_or(fit, HD_FIG_READ_OVERHEAD, isfinite(C) ? fmax(C - X, 0) : 0.3, &asm_ro);
	put_seek_table(f, &L, fit, &rw, D, ms, np);
	asm_ro = asm_ro && !isfinite(C);
	wo = fig_or(fit, HD_FIG_WRITE_OVERHEAD, ro, &asm_wo);
	fprintf(f, "read_overhead_ms = %.4f%s\n", ro, mark(asm_ro));
	fprintf(f, "write_overhead_ms = %.4f%s\n", wo, asm_wo ? "  # assumed: the read overhead" : "");
	fprintf(f, "cache_hit_overhead_ms = %.4f%s\n", isfinite(hit) ? fmax(hit - block / (iface * 1e3), 0) : 0.1,
		mark(!isfinite(hit)));
	fprintf(f, "interface_mb_s = %.4f%s\n", iface, bound ? "" : "  # assumed: three times the media rate");
	hs = fig_or(fit, HD_FIG_HEAD_SWITCH, 0, &asm_hs);
	if (!asm_hs)
		fprintf(f, "head_switch_ms = %.4f\n", hs);
	ws = fig_or(fit, HD_FIG_WRITE_SETTLE, 0, &asm_ws);
	fprintf(f, "write_settle_ms = %.4f%s\n", ws, mark(asm_ws));
	put_cache_lines(f, fit);
	rc = hd_out_fclose(f, tmp, path, &call);
	if (rc) {
		snprintf(err, errlen, "%s %s: %s", call, path, hd_fs_strerror(rc));
		return -1;
	}
	return 0;
}
