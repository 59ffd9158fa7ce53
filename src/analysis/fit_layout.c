/*
 * The layout probe's figures (layout.tsv, src/probe/probe_layout.c): bytes
 * per track, the skews, surfaces, head switch, one-cylinder seek, write
 * settle and the zones.
 *
 * Every walk row is one transition from the access before it, timed from
 * that access's completion.  With the revolution and the sectors per
 * track, its interval says whether the target was caught in the first
 * pass (made) and how much slack it had (the angular gap less the host
 * delay before it was issued).  A kind of transition (a step on one track,
 * a head switch, a cylinder switch: told apart by the skew the row
 * measured) needs some least slack: it lies above every slack missed and
 * at or below every slack made.  A switch is what a crossing needs beyond
 * a step on one track.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hddscope/datafile.h"
#include "hddscope/fit.h"
#include "hddscope/stats.h"

#include "fit_local.h"

enum { K_SAME, K_HEAD, K_CYL, K_N };

/* A kind's samples: slack (ms) and made. */
struct kind {
	double *slack;
	int *made;
	size_t n;
};

/* The least slack a kind needs: [lo, hi] and its middle; 0, or -1 without a made and a missed sample. */
struct need {
	double lo, hi, mid;
};

static int cmp_pair(const void *a, const void *b)
{
	double x = ((const double *)a)[0], y = ((const double *)b)[0];

	return (x > y) - (x < y);
}

/*
 * The threshold between missed and made slacks: where the fewest samples
 * fall on the wrong side of it (none on a steady drive), the range of such
 * thresholds as the interval.
 */
static int need_of(const struct kind *k, struct need *nd)
{
	double *v = malloc((k->n ? k->n : 1) * 2 * sizeof(*v));
	size_t made = 0, best = (size_t)-1, lo_i = 0, hi_i = 0;

	if (!v)
		return -1;
	for (size_t i = 0; i < k->n; i++) {
		v[2 * i] = k->slack[i];
		v[2 * i + 1] = k->made[i];
		made += k->made[i] != 0;
	}
	if (made == 0 || made == k->n) {
		free(v);
		return -1;
	}
	qsort(v, k->n, 2 * sizeof(*v), cmp_pair);
	/* Threshold between sample i-1 and i: the made below it and the missed at or above it are wrong. */
	{
		size_t wrong_below = 0, missed_above = k->n - made;

		for (size_t i = 0; i <= k->n; i++) {
			size_t e = wrong_below + missed_above;

			if (e < best) {
				best = e;
				lo_i = hi_i = i;
			} else if (e == best) {
				hi_i = i;
			}
			if (i < k->n) {
				if (v[2 * i + 1] != 0)
					wrong_below++;
				else
					missed_above--;
			}
		}
	}
	nd->lo = lo_i > 0 ? v[2 * (lo_i - 1)] : 0;
	nd->hi = hi_i < k->n ? v[2 * hi_i] : v[2 * (k->n - 1)];
	if (nd->lo > nd->hi)
		nd->lo = nd->hi;
	nd->mid = (nd->lo + nd->hi) / 2;
	free(v);
	return 0;
}

static void kind_add(struct kind *k, double slack, int made, size_t cap)
{
	if (k->n < cap) {
		k->slack[k->n] = slack;
		k->made[k->n++] = made;
	}
}

/* a - b as a figure (ms, never below 0), the interval from the brackets. */
static struct hd_fit_fig fig_diff(const struct need *a, const struct need *b, const char *method)
{
	struct hd_fit_fig g;

	g.value = fmax(a->mid - b->mid, 0);
	g.low = fmax(a->lo - b->hi, 0);
	g.high = fmax(a->hi - b->lo, 0);
	g.method = method;
	return g;
}

static double meta_num(const struct hd_df *df, const char *key)
{
	const char *v = hd_df_meta(df, key);

	return v ? atof(v) : NAN;
}

/*
 * Whether a measured skew s is the whole number v: within 0.3 of it, or
 * where the probe's clock was noisy within its tolerance tol.
 */
static int skew_is(double s, int v, double tol)
{
	return v >= 0 && fabs(s - v) <= fmax(0.3, tol);
}

/*
 * The skews (sectors) of the main location's crossings: the most frequent
 * is the track skew, the next the cylinder's.  Where the probe's clock was
 * noisy (tol, its skew_tolerance_sectors), one skew is measured over
 * several whole numbers: they are counted in groups (hd_int_groups).
 */
static void skews(const struct hd_df *df, int main, double tol, int *head, int *cyl)
{
	const struct hd_df_col *loc = hd_df_col(df, "location"), *kind = hd_df_col(df, "kind");
	const struct hd_df_col *sk = hd_df_col(df, "skew_sectors"), *op = hd_df_col(df, "op");
	int val[64], cnt[64], gv[64], gc[64], n = 0, c1 = 0, c2 = 0;

	*head = *cyl = -1;
	for (size_t i = 0; i < df->nrows; i++) {
		double s = sk->num[i];
		int r = (int)lround(s), j;

		if ((int)loc->num[i] != main || strcmp(hd_df_str(kind, i), "walk") || strcmp(hd_df_str(op, i), "read") ||
		    s < -0.5 - tol || (tol > 0 ? fabs(s) <= tol : fabs(s - r) > 0.3 || r == 0))
			continue;
		for (j = 0; j < n && val[j] != r; j++)
			;
		if (j == n && n < 64) {
			val[n] = r;
			cnt[n++] = 0;
		}
		if (j < n)
			cnt[j]++;
	}
	if (tol > 0) {
		n = (int)hd_int_groups(val, cnt, (size_t)n, tol, gv, gc);
		memcpy(val, gv, (size_t)n * sizeof(int));
		memcpy(cnt, gc, (size_t)n * sizeof(int));
	}
	for (int j = 0; j < n; j++) {
		if (cnt[j] > c1) {
			*cyl = *head;
			c2 = c1;
			*head = val[j];
			c1 = cnt[j];
		} else if (cnt[j] > c2) {
			*cyl = val[j];
			c2 = cnt[j];
		}
	}
	if (*cyl >= 0 && c1 == c2 && *cyl < *head) {
		int t = *cyl;
		*cyl = *head;
		*head = t;
	}
}

/* Tracks between cylinder crossings: the most frequent spacing, 0 where it does not stand out. */
static int surfaces_of(const struct hd_df *df, int main, int cyl, double tol)
{
	const struct hd_df_col *loc = hd_df_col(df, "location"), *kind = hd_df_col(df, "kind");
	const struct hd_df_col *sk = hd_df_col(df, "skew_sectors"), *tr = hd_df_col(df, "track");
	const struct hd_df_col *op = hd_df_col(df, "op");
	int counts[1025] = { 0 }, best = 0, total = 0;
	double last = NAN;

	if (cyl < 0)
		return 0;
	for (size_t i = 0; i < df->nrows; i++) {
		if ((int)loc->num[i] != main || strcmp(hd_df_str(op, i), "read") ||
		    (strcmp(hd_df_str(kind, i), "walk") && strcmp(hd_df_str(kind, i), "find")) ||
		    !skew_is(sk->num[i], cyl, tol))
			continue;
		if (!isnan(last) && last > tr->num[i] && last - tr->num[i] <= 1024) {
			counts[(int)(last - tr->num[i])]++;
			total++;
		}
		last = tr->num[i];
	}
	for (int h = 1; h <= 1024; h++)
		if (counts[h] > counts[best])
			best = h;
	return total >= 2 && 2 * counts[best] > total ? best : 0;
}

/* The zones: runs of equal sectors per track over the positions measured (four at least), from the lowest offset. */
static void zones_of(const struct hd_df *df, double unit, struct hd_fit_layout *ly)
{
	const struct hd_df_col *kind = hd_df_col(df, "kind"), *spt = hd_df_col(df, "spt");
	const struct hd_df_col *off = hd_df_col(df, "offset_bytes");
	double (*p)[2] = malloc((df->nrows ? df->nrows : 1) * sizeof(*p));
	size_t n = 0;

	ly->nzones = 0;
	if (!p)
		return;
	for (size_t i = 0; i < df->nrows; i++)
		if (strcmp(hd_df_str(kind, i), "loc") == 0 && spt->num[i] > 0) {
			p[n][0] = off->num[i];
			p[n++][1] = spt->num[i];
		}
	/* A few positions say nothing of the zones between them. */
	if (n < 4)
		n = 0;
	qsort(p, n, sizeof(*p), cmp_pair);
	for (size_t i = 0; i < n; i++) {
		if (ly->nzones && ly->zones[ly->nzones - 1].track_bytes == p[i][1] * unit)
			continue;
		if (ly->nzones == HD_FIT_MAX_LZONES)
			break;
		ly->zones[ly->nzones++] = (struct hd_fit_lzone){ p[i][0], p[i][1] * unit };
	}
	free(p);
}

static const char hs_method[] =
	"MTBRC: least slack a head-switch crossing needs (layout walk, bisected) less a step on one track's";
static const char t2t_method[] =
	"MTBRC: least slack a cylinder-switch crossing (one cylinder) needs less a step on one track's";
static const char ws_method[] =
	"MTBRC with FUA writes: a write's one-cylinder crossing beyond a write step on one track, less a read's";
static const char ws_method_data[] =
	"MTBRC with FUA writes: a write's one-cylinder crossing beyond a write step on one track, less a read's, "
	"plus one sector's interface transfer (cache hits of 1 and 8 sectors), which the step waits for";
static const char surf_method[] =
	"tracks between cylinder skews along the layout walk (the most frequent spacing)";
static const char zone_method[] =
	"distinct sectors-per-track levels at the layout probe's positions (a zone narrower than their spacing "
	"is not seen)";

void fit_layout(struct fit *f, const struct inputs *in)
{
	const struct hd_df *df = in->layout;
	const struct hd_df_col *loc, *kind, *sk, *hg, *lat, *op, *cls, *spt;
	struct kind k[2][K_N];
	struct need nd[2][K_N];
	int have[2][K_N], head, cyl, main, h;
	double rev, unit, *buf, tol;
	size_t cap;

	f->layout.offset_bytes = f->layout.track_bytes = NAN;
	f->layout.track_skew = f->layout.cylinder_skew = NAN;
	f->layout.nzones = 0;
	if (!df)
		return;
	loc = hd_df_col(df, "location");
	kind = hd_df_col(df, "kind");
	sk = hd_df_col(df, "skew_sectors");
	hg = hd_df_col(df, "host_gap_ms");
	lat = hd_df_col(df, "latency_ms");
	op = hd_df_col(df, "op");
	cls = hd_df_col(df, "class");
	spt = hd_df_col(df, "spt");
	rev = meta_num(df, "revolution_ms");
	unit = meta_num(df, "unit_bytes");
	main = (int)meta_num(df, "main_location");
	if (!loc || !kind || !sk || !hg || !lat || !op || !cls || !spt || kind->type != HD_COL_STR ||
	    op->type != HD_COL_STR || cls->type != HD_COL_STR || !(rev > 0) || !(unit > 0) || !df->nrows)
		return;
	zones_of(df, unit, &f->layout);
	if (f->layout.nzones >= 1) {
		f->fig[HD_FIG_ZONE_COUNT] = (struct hd_fit_fig){ (double)f->layout.nzones, (double)f->layout.nzones,
								 (double)f->layout.nzones, zone_method };
	}
	for (size_t i = 0; i < df->nrows; i++)
		if ((int)loc->num[i] == main && strcmp(hd_df_str(kind, i), "loc") == 0 && spt->num[i] > 0) {
			f->layout.offset_bytes = hd_df_col(df, "offset_bytes")->num[i];
			f->layout.track_bytes = spt->num[i] * unit;
		}
	tol = meta_num(df, "skew_tolerance_sectors");
	if (!(tol > 0))
		tol = 0;
	skews(df, main, tol, &head, &cyl);
	if (head >= 0)
		f->layout.track_skew = head;
	if (cyl >= 0)
		f->layout.cylinder_skew = cyl;
	h = surfaces_of(df, main, cyl, tol);
	if (h > 0)
		f->fig[HD_FIG_SURFACES] = (struct hd_fit_fig){ h, h, h, surf_method };

	cap = df->nrows;
	buf = malloc(cap * 2 * K_N * (sizeof(double) + sizeof(int)) + 1);
	if (!buf)
		return;
	for (int w = 0; w < 2; w++)
		for (int t = 0; t < K_N; t++) {
			size_t base = (size_t)(w * K_N + t) * cap;

			k[w][t].slack = buf + base;
			k[w][t].made = (int *)(buf + 2 * K_N * cap) + base;
			k[w][t].n = 0;
		}
	for (size_t i = 0; i < df->nrows; i++) {
		int w = strcmp(hd_df_str(kind, i), "wwalk") == 0, r = (int)lround(sk->num[i]), t;
		double st, I, n, g;

		if ((int)loc->num[i] != main || (!w && strcmp(hd_df_str(kind, i), "walk")) ||
		    strcmp(hd_df_str(cls, i), "media") || sk->num[i] < -0.5 - tol ||
		    (!(tol > 0) && fabs(sk->num[i] - r) > 0.3) || !(spt->num[i] > 0))
			continue;
		if (skew_is(fabs(sk->num[i]), 0, tol))
			t = K_SAME;
		else if (skew_is(sk->num[i], head, tol))
			t = K_HEAD;
		else if (skew_is(sk->num[i], cyl, tol))
			t = K_CYL;
		else
			continue;
		st = rev / spt->num[i];
		I = hg->num[i] + lat->num[i];
		n = floor((I - st + 0.01 * st) / rev);
		g = I - st - n * rev;
		kind_add(&k[w][t], g - hg->num[i], n < 0.5, cap);
	}
	for (int w = 0; w < 2; w++)
		for (int t = 0; t < K_N; t++)
			have[w][t] = need_of(&k[w][t], &nd[w][t]) == 0;
	free(buf);
	if (have[0][K_SAME] && have[0][K_HEAD])
		f->fig[HD_FIG_HEAD_SWITCH] = fig_diff(&nd[0][K_HEAD], &nd[0][K_SAME], hs_method);
	if (have[0][K_SAME] && have[0][K_CYL])
		f->fig[HD_FIG_TRACK_TO_TRACK] = fig_diff(&nd[0][K_CYL], &nd[0][K_SAME], t2t_method);
	if (have[0][K_SAME] && have[0][K_CYL] && have[1][K_SAME] && have[1][K_CYL]) {
		struct need a = nd[1][K_CYL], b = nd[1][K_SAME], c = nd[0][K_CYL], d = nd[0][K_SAME];
		struct hd_fit_fig g;

		/* A write on the track under the head waits for its data to cross the interface; a seek hides it. */
		double h1 = meta_num(df, "hit_1_unit_ms"), h8 = meta_num(df, "hit_8_units_ms");
		double data = isfinite(h1) && isfinite(h8) && h8 > h1 ? (h8 - h1) / 7 : 0;

		g.value = fmax((a.mid - b.mid) - (c.mid - d.mid) + data, 0);
		g.low = fmax((a.lo - b.hi) - (c.hi - d.lo) + data, 0);
		g.high = fmax((a.hi - b.lo) - (c.lo - d.hi) + data, 0);
		g.method = data > 0 ? ws_method_data : ws_method;
		f->fig[HD_FIG_WRITE_SETTLE] = g;
	}
}

int fit_layout_moves(const struct fit *f, double *hs, double *t2t, double *surfaces)
{
	*hs = f->fig[HD_FIG_HEAD_SWITCH].value;
	*t2t = f->fig[HD_FIG_TRACK_TO_TRACK].value;
	*surfaces = f->fig[HD_FIG_SURFACES].value;
	return *hs >= 0 && *t2t > 0 && *surfaces >= 2 ? 0 : -1;
}

/* Zone i of the layout's: from offset a (the first from 0) to b (the last to the end). */
static void zone_span(const struct hd_fit_layout *L, size_t i, double *a, double *b)
{
	*a = i ? L->zones[i].offset_bytes : 0;
	*b = i + 1 < L->nzones ? L->zones[i + 1].offset_bytes : INFINITY;
}

/*
 * Bytes a track holds at byte offset x: the track the layout probe found
 * in that zone, else the track sizes at the ends (fit_track_bytes, each
 * measured about 5% in) taken as linear in the offset (as fit_model.c's
 * tracks); NAN where neither was measured.
 */
double fit_track_at(const struct fit *f, double x)
{
	const struct hd_fit_layout *L = &f->layout;
	double bo = f->trk_outer, bi = f->trk_inner, u = f->cap > 0 ? (x / f->cap - 0.05) / 0.9 : 0.5, a, b;

	if (!isfinite(x))
		return NAN;
	for (size_t i = 0; i < L->nzones; i++) {
		zone_span(L, i, &a, &b);
		if (x < b)
			return L->zones[i].track_bytes;
	}
	if (isfinite(bo) && isfinite(bi))
		return bo + (bi - bo) * (u < 0 ? 0 : u > 1 ? 1 : u);
	return isfinite(bo) ? bo : bi;
}

double fit_layout_tracks_to(const struct hd_fit_layout *L, double x)
{
	double t = 0, a, b;

	for (size_t i = 0; i < L->nzones; i++) {
		zone_span(L, i, &a, &b);
		if (x <= a)
			break;
		t += (fmin(x, b) - a) / L->zones[i].track_bytes;
	}
	return t;
}

double fit_layout_offset_of(const struct hd_fit_layout *L, double t)
{
	double a, b;

	for (size_t i = 0; i < L->nzones; i++) {
		double n;

		zone_span(L, i, &a, &b);
		n = (b - a) / L->zones[i].track_bytes;
		if (t <= n || i + 1 == L->nzones)
			return a + t * L->zones[i].track_bytes;
		t -= n;
	}
	return 0;
}
