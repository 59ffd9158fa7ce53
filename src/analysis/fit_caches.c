/*
 * The drive's figures beside the seek curve: the controller overhead,
 * read-ahead, the write cache, track sizes at both ends of the device, the
 * zone levels and the gain of a deep queue.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hddscope/datafile.h"
#include "hddscope/fit.h"
#include "hddscope/stats.h"

#include "fit_local.h"

/*
 * The bottom of a band of n latencies x (reordered) whose waits are
 * uniform over [0, rev): two or more at the least time (within 0.2% of a
 * revolution) are reads the drive took on the fly, with no wait, and that
 * time is the bottom.  Otherwise the least lies on average one spacing of
 * the band's samples above it, and that much is taken off: the mean of
 * the lowest OVH_LOW gaps, since only the lowest reads lie in the band
 * alone (a read whose target lies on the next track waits for the head
 * switch as well, a band shifted up by it).  Where the times were moved
 * along a line under them (media_share), the two it touches are alike by
 * construction, not reads on the fly: fly 0.
 */
#define OVH_LOW 6
static double band_bottom(double *x, size_t n, double rev, int fly)
{
	size_t m = n - 1 < OVH_LOW ? n - 1 : OVH_LOW;

	hd_sort_doubles(x, n);
	if (n < 2 || (fly && x[1] - x[0] <= 0.002 * rev))
		return x[0];
	/* No time is less than none: a wide spacing can take the estimate below 0. */
	return fmax(x[0] - (x[m] - x[0]) / (double)m, 0);
}

/* The block's media time at byte offset at: its share of the track there; NAN unknown. */
double fit_media_ms(const struct fit *f, double at)
{
	double trk = fit_track_at(f, at);

	return trk > 0 ? f->block * f->rev / trk : NAN;
}

/*
 * The share of the block's media time in the overhead: a read's time ends
 * when its last sector is read (a drive faster on the interface than on
 * the media: share 1), when the bus has carried the block (slower: 0), or
 * where the drive waits for part of the block before it sends (DiskSim's
 * read water mark: that part).  The reads' bottoms then lie on a line in
 * the media time g (relative to the reference's): the share is the slope,
 * between 0 and 1, of the highest line under all of them at their mean g
 * (the lower envelope, a linear programme solved on a grid of 0.01).  The
 * line rests on the two or three lowest reads, so a slope is taken only
 * where it lifts the envelope by more than two of the band's spacings at
 * its bottom (OVH_LOW gaps) above the flat one: on atlas3 the media time
 * changes by 0.1 ms across the device, and one read decided a slope of 1.25.
 */
static double media_share(const double *lat, const double *g, size_t n, double *tmp)
{
	double gm = 0, best = -INFINITY, flat = NAN, share = 0, gap;
	size_t m = n - 1 < OVH_LOW ? n - 1 : OVH_LOW;

	for (size_t i = 0; i < n; i++)
		gm += g[i] / (double)n;
	for (int k = 0; k <= 100; k++) {
		double a = k / 100.0, e = INFINITY;

		for (size_t i = 0; i < n; i++)
			e = fmin(e, lat[i] - a * (g[i] - gm));
		if (k == 0)
			flat = e;
		if (e > best + 1e-9) {
			best = e;
			share = a;
		}
	}
	if (n < 2 || share == 0)
		return 0;
	for (size_t i = 0; i < n; i++)
		tmp[i] = lat[i] - share * g[i];
	hd_sort_doubles(tmp, n);
	gap = (tmp[m] - tmp[0]) / (double)m;
	return best - flat > 2 * gap ? share : 0;
}

/*
 * Reads each half needs for a bottom of its own: about rev / k off, under
 * 0.06 ms at 7200 rpm with 150, below the zone term it is there to catch.
 * With fewer (a quick profile: some 80 a half) a half's bottom came out up
 * to 0.6 ms off, where one band of all the reads is within about 0.2 ms.
 */
#define OVH_HALF 150

/*
 * The bottom of the band of k reads x (at offsets pos, reordered) at
 * offset at: the bottoms of the first kr (the response reads) in each half
 * of the device, at the mean offset of each, interpolated to it where each
 * half has OVH_HALF of them or more; otherwise all k reads are one band.
 * The interval reads after the first kr lie at one place, by the
 * reference: in the halves they would pull the two means together (a
 * denominator near 0: 0.825 ms on atlas3 for about 0.9), and where the
 * halves have their reads they add little; in one band they halve a quick
 * profile's spacing.
 */
static double halves_bottom(double *x, const double *pos, size_t k, size_t kr, double rev, double at, double cap,
			    double *tmp)
{
	size_t nh[2] = { 0, 0 };
	double mean[2] = { 0, 0 }, c[2];

	for (size_t i = 0; i < kr; i++)
		nh[pos[i] >= cap / 2]++;
	if (nh[0] < OVH_HALF || nh[1] < OVH_HALF || !(cap > 0))
		return band_bottom(x, k, rev, 1);
	for (int h = 0; h < 2; h++) {
		size_t m = 0;

		for (size_t i = 0; i < kr; i++)
			if ((pos[i] >= cap / 2) == h) {
				tmp[m++] = x[i];
				mean[h] += pos[i];
			}
		c[h] = band_bottom(tmp, m, rev, 1);
		mean[h] /= (double)m;
	}
	return c[0] + (c[1] - c[0]) * (at - mean[0]) / (mean[1] - mean[0]);
}

/*
 * The controller overhead with one block's transfer: the least time of any
 * response read, reached by a read on the same track whose start comes
 * under the head just as the drive is ready for it (no positioning, no
 * wait).  Distances within two blocks are left out: read-ahead serves
 * those from the cache, which is not this figure.
 *
 * Where a phase delay came before each read (delay_ms), the reads from 2
 * to 16 blocks away are taken: media reads, and cache hits behind the
 * reference (media reads that did not wait; ahead of it, the drive read
 * while the host waited, and a hit is a hit), or ahead of it too on a
 * drive without read-ahead (ra 0), where a read that did not wait is as
 * fast as a hit and is labelled so.  The block's media time is part of
 * the figure, and it changes from zone to zone, by up to 0.5 ms across
 * hp_c2247a (96 to 56 sectors a track at 5400 rpm, a read water mark of
 * three quarters): where its share shows (media_share), each read's time
 * has that share of the media time's change from the seek reference taken
 * off, and the figure is the bottom of their band (band_bottom); else the
 * halves of the device are interpolated (halves_bottom).
 *
 * The read-interval probe's second reads join them (interval_reads): each
 * is the block before the one just read, on its track, after an idle time
 * that sets its wait, a read of the same kind.  A quick profile has some
 * 60 response reads in the band's bottom, about 0.14 ms apart at 7200
 * rpm, and its least lay 0.3-0.5 ms above the bottom at two seeds of six
 * on an emulated atlas3; the 81 interval reads halve that spacing.  They
 * lie at one place, by the reference, so they join the band but neither
 * the media share nor the halves, which the response reads' spread over
 * the device decides (with them, hp_c3323a took a share and its full
 * stroke came out 6.1% short).
 */
static void interval_reads(const struct fit *f, const struct hd_df *df, double g0, double *x, double *g, double *pos,
			   size_t *k, int *known)
{
	const struct hd_df_col *l = df ? hd_df_col(df, "latency_ms") : NULL, *o = df ? hd_df_col(df, "offset_bytes") : NULL;
	const struct hd_df_col *c = df ? hd_df_col(df, "class") : NULL;
	double hit = df ? fit_hit_p50(df) : NAN;

	if (!l || l->type != HD_COL_NUM)
		return;
	if (o && o->type != HD_COL_NUM)
		o = NULL;
	for (size_t i = 0; i < df->nrows; i++) {
		double at = o ? o->num[i] : f->cap / 2;
		const char *cl = c && c->type == HD_COL_STR ? hd_df_str(c, i) : "media";

		/* Media reads and those fast enough to be called hits; not a late or failed one. */
		if (strcmp(cl, "media") && strcmp(cl, "cache"))
			continue;
		/*
		 * Nor one at a hit's cost: a hit costs the same every time, and the
		 * block before may be cached (cheetah9lp: 1 of 161 at 0.906 ms, its
		 * hit, where its reads' floor is 1.15).
		 */
		if (!strcmp(cl, "cache") && fabs(l->num[i] - hit) <= fmax(0.03, 0.05 * hit))
			continue;
		g[*k] = fit_media_ms(f, at) - g0;
		*known = *known && isfinite(g[*k]);
		pos[*k] = at;
		x[(*k)++] = l->num[i];
	}
}

static int overhead_delayed(struct fit *f, const struct inputs *in)
{
	size_t n, nh, k = 0, kr, ni = in->interval_read ? in->interval_read->nrows : 0;
	struct samp *v = fit_samples(in->resp, "read", "media", &n), *h = fit_samples(in->resp, "read", "cache", &nh);
	double *x = malloc((n + nh + ni + 1) * sizeof(double)), *g = malloc((n + nh + ni + 1) * sizeof(double));
	double *t = malloc((n + nh + ni + 1) * sizeof(double)), *pos = malloc((n + nh + ni + 1) * sizeof(double));
	double g0 = fit_media_ms(f, f->ref);
	int rc = -1, known = isfinite(g0);

	for (size_t i = 0; x && g && t && pos && i < n + nh; i++) {
		const struct samp *q = i < n ? &v[i] : &h[i - n];
		int ok = i < n ? fabs(q->d) > 2 * f->block : q->d < -2 * f->block || (f->ra == 0 && q->d > 2 * f->block);

		if (!ok || fabs(q->d) > 16 * f->block)
			continue;
		g[k] = fit_media_ms(f, q->at) - g0;
		known = known && isfinite(g[k]);
		pos[k] = isfinite(q->start) ? q->start : f->cap / 2;
		x[k++] = q->lat;
	}
	kr = k;
	if (x && g && t && pos)
		interval_reads(f, in->interval_read, g0, x, g, pos, &k, &known);
	if (x && g && t && pos && k >= 8) {
		f->C_media = known ? media_share(x, g, kr, t) : 0;
		if (f->C_media > 0) {
			for (size_t i = 0; i < k; i++)
				x[i] -= f->C_media * g[i];
			f->C = band_bottom(x, k, f->rev, 0);
		} else {
			f->C = halves_bottom(x, pos, k, kr, f->rev, f->ref, f->cap, t);
		}
		rc = 0;
	}
	free(v);
	free(h);
	free(x);
	free(g);
	free(t);
	free(pos);
	return rc;
}

int fit_overhead_from_response(struct fit *f, const struct inputs *in)
{
	const struct hd_df *resp = in->resp;
	const struct hd_df_col *dl = resp ? hd_df_col(resp, "delay_ms") : NULL;
	size_t n;
	struct samp *v;
	double m = INFINITY, block = f->block;

	if (dl && dl->type == HD_COL_NUM && overhead_delayed(f, in) == 0)
		return 0;
	v = fit_samples(resp, "read", "media cache", &n);
	if (v) {
		qsort(v, n, sizeof(*v), fit_cmp_samp_d);
		fit_drop_fixed_starts(v, &n);
	}
	for (size_t i = 0; v && i < n; i++)
		if (fabs(v[i].d) > 2 * block && v[i].lat < m)
			m = v[i].lat;
	free(v);
	if (!isfinite(m))
		return -1;
	f->C = m;
	return 0;
}

/*
 * The overhead from reads behind the reference within its cylinder: a
 * read two tracks or more behind it, on another surface of the same
 * cylinder, costs the overhead, the layout's head switch and a rotational
 * wait; one past the cylinder's edge the one-cylinder seek instead.  No
 * read-ahead reaches behind a read, and read-ahead that moved the head on
 * within the cylinder leaves the cost alike.  A sample k tracks behind is
 * on the reference's cylinder with probability 1 - k / surfaces (the
 * reference's place in its cylinder drawn by the jitter): of the n reads,
 * np on average are of the cheaper kind (cost L, the lesser of the two
 * times) and the rest cost dl more, each spread evenly over a revolution
 * above its cost.  So y above L + overhead lie np y / rev reads, and
 * (n - np)(y - dl) / rev more past dl: the j-th least time lies where
 * that count is j + 1, and the figure is the middle of that estimate over
 * the four least times (one read the track size misplaced moves it
 * little).  Seek and response reads alike; at least SW_NP expected of the
 * cheaper kind.  Needs the layout's head switch, one-cylinder seek and
 * surfaces and the track size at the reference.  Sets *c and *spacing
 * (rev / np, the scale of its error); 0, or -1 where the evidence is
 * missing.
 */
#define SW_NP 40
static void switch_reads(const struct hd_df *df, double trk, double hs, double t2t, double S, double *x, size_t *k,
			 double *np)
{
	size_t n;
	struct samp *v = fit_samples(df, "read", "media", &n);

	for (size_t i = 0; v && i < n; i++) {
		double t = -v[i].d / trk;

		if (t < 2 || t >= S)
			continue;
		*np += hs <= t2t ? 1 - t / S : t / S;
		x[(*k)++] = v[i].lat;
	}
	free(v);
}

int fit_overhead_switch(const struct fit *f, const struct inputs *in, double *c, double *spacing)
{
	double hs, t2t, S, trk = fit_track_at(f, f->ref), np = 0, e[4], dl;
	size_t cap = (in->seek ? in->seek->nrows : 0) + (in->resp ? in->resp->nrows : 0), k = 0;
	double *x;

	if (fit_layout_moves(f, &hs, &t2t, &S) || !(S >= 3) || !(trk > 0) || !isfinite(f->ref) || !cap)
		return -1;
	dl = fabs(hs - t2t);
	x = malloc(cap * sizeof(*x));
	if (!x)
		return -1;
	if (in->seek)
		switch_reads(in->seek, trk, hs, t2t, S, x, &k, &np);
	if (in->resp)
		switch_reads(in->resp, trk, hs, t2t, S, x, &k, &np);
	if (np < SW_NP || k < 4) {
		free(x);
		return -1;
	}
	hd_sort_doubles(x, k);
	for (int j = 0; j < 4; j++) {
		double y = (j + 1) * f->rev / np;

		if (y > dl)
			y = ((j + 1) * f->rev + ((double)k - np) * dl) / (double)k;
		e[j] = x[j] - y;
	}
	free(x);
	hd_sort_doubles(e, 4);
	*c = (e[1] + e[2]) / 2 - fmin(hs, t2t);
	*spacing = f->rev / np;
	return 0;
}

/*
 * Read-ahead: a read just past the previous one (0 < d <= one block) finds
 * its sectors already gone by and waits nearly a revolution, unless the
 * drive kept reading after the previous read.  Served in under half a
 * revolution means read-ahead; the reach is the longest run of such
 * distances from the shortest, as far as the matching distance backwards
 * still waits more than half a revolution (the same track).
 */
void fit_read_ahead(struct fit *f, const struct inputs *in)
{
	size_t n, ng;
	struct samp *v = fit_samples(in->resp, "read", "media cache", &n);
	struct group *g;
	double near[64];
	size_t nn = 0;

	f->ra = -1;
	f->ra_bytes = NAN;
	if (!v)
		return;
	qsort(v, n, sizeof(*v), fit_cmp_samp_d);
	g = fit_groups(v, n, &ng);
	free(v);
	if (!g)
		return;
	for (size_t i = 0; i < ng && nn < 64; i++)
		if (g[i].d > 0 && g[i].d <= f->block)
			near[nn++] = g[i].med;
	if (nn) {
		f->ra = fit_median(near, nn) < 0.5 * f->rev;
		f->ra_bytes = 0;
		for (size_t i = 0; f->ra && i < ng; i++) {
			double back = NAN;

			if (g[i].d <= 0)
				continue;
			for (size_t j = 0; j < ng; j++)
				if (g[j].d == -g[i].d)
					back = g[j].med;
			if (g[i].med >= 0.5 * f->rev || !(back > 0.5 * f->rev))
				break;
			f->ra_bytes = g[i].d;
		}
	}
	free(g);
}

/*
 * Write cache.  The interval probe calibrates it directly (the same block
 * written twice: a second write far cheaper than a media read went to the
 * cache) and labels its writes: mostly "cache" means on.  Without an
 * interval file, the seek writes (not taken with --sync) decide: a cached
 * write needs no positioning and no rotation, so at least 3% of them run
 * faster than all but 1% of the seek reads.  Only the first writes may be
 * fast: a closed loop with no idle time fills the cache, and from then on
 * each write waits for a destage.
 */
void fit_write_cache(struct fit *f, const struct inputs *in)
{
	f->wc = -1;
	f->wc_method = NULL;
	f->wc_median = NAN;
	if (in->interval) {
		const struct hd_df_col *c = hd_df_col(in->interval, "class");
		size_t cache = 0, all = 0;

		for (size_t i = 0; c && c->type == HD_COL_STR && i < in->interval->nrows; i++) {
			if (strcmp(hd_df_str(c, i), "error") == 0)
				continue;
			all++;
			cache += strcmp(hd_df_str(c, i), "cache") == 0;
		}
		if (all) {
			f->wc = cache * 2 > all;
			f->wc_method = "interval writes labelled cache by the probe's write calibration";
			return;
		}
	}
	for (size_t k = 0; k < in->n && in->seek; k++) {
		const char *t = hd_df_meta(in->df[k], "test"), *sy = hd_df_meta(in->df[k], "sync_writes");
		size_t nw, nr, fast = 0;
		struct samp *w, *r;
		double *lat, p1;

		if (!t || strcmp(t, "seek") || (sy && strcmp(sy, "yes") == 0))
			continue;
		w = fit_samples(in->df[k], "write", "media cache", &nw);
		r = fit_samples(in->seek, "read", "media", &nr);
		lat = malloc((nr ? nr : 1) * sizeof(*lat));
		if (w && r && lat && nw >= 20 && nr >= 100) {
			for (size_t i = 0; i < nr; i++)
				lat[i] = r[i].lat;
			hd_sort_doubles(lat, nr);
			p1 = hd_percentile_sorted(lat, nr, 1);
			for (size_t i = 0; i < nw; i++)
				fast += w[i].lat < p1;
			f->wc = fast * 100 >= nw * 3;
			f->wc_median = p1;
			f->wc_method = "seek writes faster than the 1st percentile of seek reads (3% or more: on)";
		}
		free(w);
		free(r);
		free(lat);
		if (f->wc >= 0)
			return;
	}
}

/* Track bytes (per revolution) at the ends of the device from the tiny-distance response reads. */
void fit_track_bytes(struct fit *f, const struct inputs *in)
{
	size_t n, k0 = 0, k1 = 0;
	struct samp *v = fit_samples(in->resp, "read", "media cache", &n);
	double *lo = malloc((n ? n : 1) * sizeof(double)), *hi = malloc((n ? n : 1) * sizeof(double));

	f->trk_outer = f->trk_inner = NAN;
	for (size_t i = 0; v && lo && hi && i < n; i++) {
		double B = hd_fit_track_bytes(v[i].d, v[i].lat, f->rev, f->block);

		if (!isfinite(B))
			continue;
		if (v[i].start < 0.1 * f->cap)
			lo[k0++] = B;
		else if (v[i].start > 0.9 * f->cap)
			hi[k1++] = B;
	}
	if (k0 >= 3)
		f->trk_outer = fit_median(lo, k0);
	if (k1 >= 3)
		f->trk_inner = fit_median(hi, k1);
	free(v);
	free(lo);
	free(hi);
}

/*
 * On a drive whose reads at once past a read joined its read-ahead (the
 * cache probe's), the response reads near the reference tell the overhead
 * badly: those ahead of it join the read-ahead too, with no media time,
 * and those behind it mostly wait for the head to come back from the
 * track the read-ahead went on to.  A positioned read takes the joined
 * read's command overhead and transfer, and where the media is slower
 * than the interface, the block's media time in place of its transfer:
 * the joined time plus the block's media time (its share of the track at
 * the reference, between the track sizes at the ends) less its transfer.
 * On the four presets that show the join (dtla307030, st2000dm001,
 * st320420a, travelstar5k320) this comes within 0.05 ms of the seek
 * reads' floor, seeds 1 to 3, full and quick profiles, where the response
 * reads' band was 0.06 to 0.3 ms off.  Sets f->C and f->C_method and
 * returns 0; -1, nothing set, where no read joined.  Needs f->trk_outer
 * and f->trk_inner (fit_track_bytes).
 */
int fit_overhead_join(struct fit *f, const struct inputs *in)
{
	double join, bus, media;

	if (fit_cache_join(in->cache, f->rev, &join, &bus))
		return -1;
	media = fit_media_ms(f, f->ref);
	if (!isfinite(bus))
		bus = 0;
	f->C = join + (isfinite(media) && media > bus ? media - bus : 0);
	f->C_method = isfinite(media) ? "least time of reads at once past a read that joined the read-ahead, plus the "
					"block's media time (track size at the reference) less its interface transfer"
				      : "least time of reads at once past a read that joined the read-ahead (the "
					"block's media time unknown: left out)";
	return 0;
}

double hd_fit_track_bytes(double d, double lat, double rev, double block)
{
	/* latency = rev * (1 + d / B) on the same track, for tiny |d| that waited. */
	double x = lat / rev - 1;

	if (d == 0 || fabs(d) > 2 * block || fabs(x) > 0.25 || x == 0 || (x > 0) != (d > 0))
		return NAN;
	return d / x;
}

/*
 * Zone steps: a new level where the rate leaves the current one by 1.5%
 * and the next point agrees.  Outer and inner are the first and last
 * levels.  0, or -ENOMEM.
 */
int fit_zone_steps(const struct hd_df *zone, struct hd_fit_result *r)
{
	const struct hd_df_col *o = zone ? hd_df_col(zone, "offset_bytes") : NULL, *v = zone ? hd_df_col(zone, "mb_s") : NULL;
	double sum = 0, first;
	size_t cnt = 0, n;

	r->zones_outer_mb_s = r->zones_inner_mb_s = NAN;
	if (!o || !v || o->type != HD_COL_NUM || v->type != HD_COL_NUM || !zone->nrows)
		return 0;
	n = zone->nrows;
	r->zones = malloc(n * sizeof(*r->zones));
	if (!r->zones)
		return -ENOMEM;
	r->have_zones = 1;
	for (size_t i = 0; i < n; i++) {
		double x = v->num[i];

		if (cnt && fabs(x - sum / (double)cnt) <= 0.015 * sum / (double)cnt) {
			sum += x;
			cnt++;
			continue;
		}
		/* A read straddling two zones runs between their rates: wait for a second point. */
		if (cnt && i + 1 < n && fabs(v->num[i + 1] - x) > 0.015 * x)
			continue;
		if (cnt)
			r->zones[r->nzones - 1].mb_s = sum / (double)cnt;
		r->zones[r->nzones++] = (struct hd_fit_zone){ o->num[i], NAN };
		sum = x;
		cnt = 1;
	}
	r->zones[r->nzones - 1].mb_s = sum / (double)cnt;
	first = v->num[0];
	for (size_t i = 1; i < n && fabs(v->num[i] - v->num[0]) <= 0.015 * v->num[0]; i++)
		first = (first * (double)i + v->num[i]) / (double)(i + 1);
	r->zones_outer_mb_s = first;
	r->zones_inner_mb_s = r->zones[r->nzones - 1].mb_s;
	return 0;
}

/* What the data files' headers say of a cache (key): "on", "off" or NULL. */
const char *fit_header_onoff(const struct inputs *in, const char *key)
{
	for (size_t k = 0; k < in->n; k++) {
		const char *v = hd_df_meta(in->df[k], key);

		/* Static strings: the result outlives the files. */
		if (v && strcmp(v, "on") == 0)
			return "on";
		if (v && strcmp(v, "off") == 0)
			return "off";
	}
	return NULL;
}

/* IOPS at the deepest queue over one client's, NAN without a queue file. */
double fit_queue_gain(const struct hd_df *queue)
{
	const struct hd_df_col *p = queue ? hd_df_col(queue, "procs") : NULL, *io = queue ? hd_df_col(queue, "iops") : NULL;
	double i1 = NAN, imax = NAN, pmax = 0;

	for (size_t i = 0; p && io && p->type == HD_COL_NUM && io->type == HD_COL_NUM && i < queue->nrows; i++) {
		if (p->num[i] == 1)
			i1 = io->num[i];
		if (p->num[i] > pmax) {
			pmax = p->num[i];
			imax = io->num[i];
		}
	}
	return imax / i1;
}

/*
 * Whether a queue gain is the drive's own reordering: the host kept its
 * order (scheduler none, or no host scheduler at all on a simulated drive)
 * and let more than one command reach the drive (queue_depth not 1).  A
 * regular file's gain may be its disk's scheduler's; a file that does not
 * record its scheduler gives no evidence.  *why says what decided.
 */
int fit_queue_at_drive(const struct hd_df *queue, const char **why)
{
	const char *sched = queue ? hd_df_meta(queue, "scheduler") : NULL;
	const char *kind = queue ? hd_df_meta(queue, "device_kind") : NULL;
	const char *qd = queue ? hd_df_meta(queue, "queue_depth") : NULL;

	*why = "no queue data";
	if (!queue)
		return 0;
	if (!sched) {
		*why = "not credited to the drive: the queue file does not record the I/O scheduler";
		return 0;
	}
	if (strcmp(sched, "n/a") == 0 && !(kind && strcmp(kind, "simulated drive") == 0)) {
		*why = "not credited to the drive: a regular file's gain may be its disk's scheduler's";
		return 0;
	}
	if (strcmp(sched, "n/a") != 0 && strcmp(sched, "none") != 0) {
		*why = "not credited to the drive: the host's I/O scheduler reordered the requests";
		return 0;
	}
	if (qd && strcmp(qd, "1") == 0) {
		*why = "not credited to the drive: queue_depth 1, the host kept one command at the drive";
		return 0;
	}
	*why = "the drive's: no host scheduler reordered the requests (scheduler none or n/a on a simulated "
	       "drive) and queue_depth is not 1";
	return 1;
}
