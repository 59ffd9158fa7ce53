/*
 * The numbers behind the seek and response charts, computed here rather
 * than in gnuplot or awk: a million-sample file is read once, by the
 * reader every command uses, and the chart scripts draw a few hundred
 * lines of percentiles and one image instead of re-reading every row.
 *
 * Bins: a file with few distinct distances (response: a fixed ladder) gets
 * its percentiles per distance; otherwise the distances are cut into bins
 * of equal width on the chart's own axis (per decade of 1 + |d| / c on the
 * symmetric log axis, equal lengths on the linear one), as many as keep
 * about a hundred samples in a bin.  Only media samples count: cache hits
 * are labelled and drawn, never mixed into a curve.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hddscope/datafile.h"
#include "hddscope/stats.h"
#include "plot_data.h"

struct pd_in {
	const double *d, *lat;
	const uint8_t *cls, *op;	/* NULL op: every row is one op */
	size_t n;
	int media, cache, error;	/* the classes' dictionary indexes, -1 when absent */
	const struct hd_df_col *opcol;
	uint32_t *bin;			/* each media row's bin, found once for every op's pass */
};

enum pd_mode { PD_KEYED, PD_SYMLOG, PD_LINEAR };

struct pd_bins {
	enum pd_mode mode;
	double *keys;		/* PD_KEYED: the distinct distances, ascending */
	size_t nbins;
	double c, bpd;		/* PD_SYMLOG: bins of 1 / bpd decade each side of zero */
	int kside;		/* PD_SYMLOG: bins on each side */
	double lo, w;		/* PD_LINEAR */
};

static double symlog(double x, double c)
{
	return (x < 0 ? -1 : 1) * log10(1 + fabs(x) / c);
}

static double symlog_inv(double u, double c)
{
	return (u < 0 ? -1 : 1) * c * (pow(10, fabs(u)) - 1);
}

static int dict_index(const struct hd_df_col *c, const char *s)
{
	for (size_t i = 0; c && i < c->ndict; i++)
		if (strcmp(c->dict[i], s) == 0)
			return (int)i;
	return -1;
}

int hd_plot_data_wanted(const struct hd_df *df)
{
	const char *t = hd_df_meta(df, "test");

	return t && (strcmp(t, "seek") == 0 || strcmp(t, "response") == 0) && hd_df_col(df, "distance_bytes") &&
	       hd_df_col(df, "latency_ms") && hd_df_col(df, "class");
}

static int pd_open(const struct hd_df *df, struct pd_in *in)
{
	const struct hd_df_col *d = hd_df_col(df, "distance_bytes"), *l = hd_df_col(df, "latency_ms");
	const struct hd_df_col *c = hd_df_col(df, "class"), *o = hd_df_col(df, "op");

	if (!d || !l || !c || d->type != HD_COL_NUM || l->type != HD_COL_NUM || c->type != HD_COL_STR ||
	    (o && o->type != HD_COL_STR))
		return -EINVAL;
	*in = (struct pd_in){ .d = d->num, .lat = l->num, .cls = c->str, .op = o ? o->str : NULL, .n = df->nrows,
			      .media = dict_index(c, "media"), .cache = dict_index(c, "cache"),
			      .error = dict_index(c, "error"), .opcol = o };
	return 0;
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * Sort n doubles (no NaN) ascending: quicksort on the median of three,
 * insertion sort below 16, the smaller side first so that the stack stays
 * shallow.  A million latencies sort in about half qsort's time, which
 * calls a comparison through a pointer for every step.
 */
static void sort_dbl(double *v, size_t n)
{
	while (n > 16) {
		double a = v[0], b = v[n / 2], c = v[n - 1], p, t;
		size_t i = 0, j = n - 1;

		p = a < b ? (b < c ? b : a < c ? c : a) : (a < c ? a : b < c ? c : b);
		for (;;) {
			while (v[i] < p)
				i++;
			while (v[j] > p)
				j--;
			if (i >= j)
				break;
			t = v[i];
			v[i++] = v[j];
			v[j--] = t;
		}
		if (j + 1 < n - j - 1) {
			sort_dbl(v, j + 1);
			v += j + 1;
			n -= j + 1;
		} else {
			sort_dbl(v + j + 1, n - j - 1);
			n = j + 1;
		}
	}
	for (size_t i = 1; i < n; i++) {
		double t = v[i];
		size_t j = i;

		for (; j > 0 && v[j - 1] > t; j--)
			v[j] = v[j - 1];
		v[j] = t;
	}
}

/* The distinct distances, when there are at most HD_PLOT_KEYED_MAX: 1 and b->keys, else 0. */
static int pd_keyed(const struct pd_in *in, struct pd_bins *b)
{
	double *k = malloc((HD_PLOT_KEYED_MAX + 1) * sizeof(*k));
	size_t n = 0;

	if (!k)
		return -ENOMEM;
	for (size_t i = 0; i < in->n; i++) {
		size_t j = 0;
		while (j < n && k[j] != in->d[i])
			j++;
		if (j < n)
			continue;
		if (n == HD_PLOT_KEYED_MAX) {
			free(k);
			return 0;
		}
		k[n++] = in->d[i];
	}
	qsort(k, n, sizeof(*k), cmp_dbl);
	b->mode = PD_KEYED;
	b->keys = k;
	b->nbins = n;
	return 1;
}

/* Bins for n media samples over distances [lo, hi] on the chart's axis. */
static void pd_cut(struct pd_bins *b, int linear, double c, double lo, double hi, size_t n)
{
	/* About one and a half times what a p99 needs in a bin, on average. */
	double want = (double)n / (1.5 * HD_PLOT_P99_MIN);

	if (linear) {
		b->mode = PD_LINEAR;
		b->nbins = want < 10 ? 10 : want > 100 ? 100 : (size_t)want;
		b->lo = lo;
		/* A hair wider than the range, so that the largest distance is inside the last [lo, hi). */
		b->w = hi > lo ? (hi - lo) / (double)b->nbins * (1 + 1e-9) : 1;
		return;
	}
	{
		double span = symlog(hi, c) - symlog(lo, c), top = fmax(fabs(symlog(lo, c)), fabs(symlog(hi, c)));

		b->mode = PD_SYMLOG;
		b->c = c;
		b->bpd = span > 0 ? floor(want / span) : 10;
		b->bpd = b->bpd < 2 ? 2 : b->bpd > 10 ? 10 : b->bpd;
		b->kside = (int)ceil(top * b->bpd) + 1;
		b->nbins = 2 * (size_t)b->kside;
	}
}

static size_t pd_bin_of(const struct pd_bins *b, double d)
{
	if (b->mode == PD_KEYED) {
		size_t lo = 0, hi = b->nbins - 1;
		while (lo < hi) {
			size_t m = (lo + hi) / 2;
			if (b->keys[m] < d)
				lo = m + 1;
			else
				hi = m;
		}
		return lo;
	}
	if (b->mode == PD_LINEAR) {
		double k = floor((d - b->lo) / b->w);
		return k < 0 ? 0 : k >= (double)b->nbins ? b->nbins - 1 : (size_t)k;
	}
	{
		/* Every bin is [lo, hi): on the negative side |d| in (inner, outer]. */
		double u = fabs(symlog(d, b->c)) * b->bpd;
		int k = d < 0 ? (int)ceil(u) - 1 : (int)floor(u);

		k = k < 0 ? 0 : k >= b->kside ? b->kside - 1 : k;
		return d < 0 ? (size_t)(b->kside - 1 - k) : (size_t)(b->kside + k);
	}
}

/*
 * Bin i's distances [lo, hi) and where its point goes (bytes): half way,
 * on the chart's axis, between the smallest and largest distance it holds
 * (dmin, dmax), so that a bin the samples fill only in part is drawn where
 * they are.
 */
static void pd_edges(const struct pd_bins *b, size_t i, double dmin, double dmax, double *lo, double *hi,
		     double *x)
{
	if (b->mode == PD_KEYED) {
		*lo = *hi = *x = b->keys[i];
	} else if (b->mode == PD_LINEAR) {
		*lo = b->lo + (double)i * b->w;
		*hi = *lo + b->w;
		*x = (dmin + dmax) / 2;
	} else {
		int side = (int)i < b->kside ? -1 : 1;
		int k = side < 0 ? b->kside - 1 - (int)i : (int)i - b->kside;
		double u0 = k / b->bpd, u1 = (k + 1) / b->bpd;

		*lo = side < 0 ? -symlog_inv(u1, b->c) : symlog_inv(u0, b->c);
		*hi = side < 0 ? -symlog_inv(u0, b->c) : symlog_inv(u1, b->c);
		*x = symlog_inv((symlog(dmin, b->c) + symlog(dmax, b->c)) / 2, b->c);
	}
}

/* One op's media latencies grouped by bin: bin k's are v[cnt[k] .. cnt[k + 1]), sorted. */
struct pd_op {
	size_t *cnt;
	double *v;
	double *dr;		/* bin k's smallest and largest distance: dr[2k], dr[2k + 1] */
	double *pool;		/* room for every latency: a pooled p99's samples */
};

static void pd_op_free(struct pd_op *po)
{
	free(po->cnt);
	free(po->v);
	free(po->dr);
	free(po->pool);
}

static int pd_take(const struct pd_in *in, size_t i, int op)
{
	return (int)in->cls[i] == in->media && (op < 0 || in->op[i] == op) && !isnan(in->lat[i]);
}

/* Group the media samples of op (op < 0: every row) by bin. */
static int pd_op_fill(const struct pd_in *in, const struct pd_bins *b, int op, struct pd_op *po)
{
	size_t *at;

	memset(po, 0, sizeof(*po));
	po->cnt = calloc(b->nbins + 1, sizeof(*po->cnt));
	po->dr = malloc(2 * b->nbins * sizeof(*po->dr));
	if (!po->cnt || !po->dr)
		return -ENOMEM;
	for (size_t k = 0; k < b->nbins; k++) {
		po->dr[2 * k] = INFINITY;
		po->dr[2 * k + 1] = -INFINITY;
	}
	for (size_t i = 0; i < in->n; i++)
		if (pd_take(in, i, op))
			po->cnt[in->bin[i] + 1]++;
	for (size_t k = 1; k <= b->nbins; k++)
		po->cnt[k] += po->cnt[k - 1];
	at = malloc((b->nbins + 1) * sizeof(*at));
	po->v = malloc((po->cnt[b->nbins] + 1) * sizeof(*po->v));
	po->pool = malloc((po->cnt[b->nbins] + 1) * sizeof(*po->pool));
	if (!at || !po->v || !po->pool) {
		free(at);
		return -ENOMEM;
	}
	memcpy(at, po->cnt, (b->nbins + 1) * sizeof(*at));
	for (size_t i = 0; i < in->n; i++)
		if (pd_take(in, i, op)) {
			size_t k = in->bin[i];

			po->v[at[k]++] = in->lat[i];
			po->dr[2 * k] = fmin(po->dr[2 * k], in->d[i]);
			po->dr[2 * k + 1] = fmax(po->dr[2 * k + 1], in->d[i]);
		}
	free(at);
	for (size_t k = 0; k < b->nbins; k++)
		sort_dbl(po->v + po->cnt[k], po->cnt[k + 1] - po->cnt[k]);
	return 0;
}

/* Which side of zero bin i is on (0: the linear axis's bins are one run). */
static int pd_side(const struct pd_bins *b, size_t i)
{
	if (b->mode == PD_KEYED)
		return b->keys[i] < 0 ? -1 : 1;
	if (b->mode == PD_SYMLOG)
		return (int)i < b->kside ? -1 : 1;
	return 0;
}

/*
 * Bin k's p99: of its own samples where it has HD_PLOT_P99_MIN, else of
 * them and its neighbours' on the same side of zero, one more each way
 * until there are that many.  Sets the bins pooled, [*ka, *kb]; NAN when
 * the side has too few.
 */
static double pd_p99(const struct pd_bins *b, const struct pd_op *po, size_t k, size_t *ka, size_t *kb, size_t *n)
{
	size_t a = k, z = k, m = po->cnt[k + 1] - po->cnt[k];

	while (m < HD_PLOT_P99_MIN) {
		int grew = 0;

		if (a > 0 && pd_side(b, a - 1) == pd_side(b, k)) {
			a--;
			grew = 1;
		}
		if (z + 1 < b->nbins && pd_side(b, z + 1) == pd_side(b, k)) {
			z++;
			grew = 1;
		}
		m = po->cnt[z + 1] - po->cnt[a];
		if (!grew)
			break;
	}
	*ka = a;
	*kb = z;
	*n = m;
	if (m < HD_PLOT_P99_MIN)
		return NAN;
	if (a == z)
		return hd_percentile_sorted(po->v + po->cnt[k], m, 99);
	memcpy(po->pool, po->v + po->cnt[a], m * sizeof(double));
	sort_dbl(po->pool, m);
	return hd_percentile_sorted(po->pool, m, 99);
}

/* The percentile lines of one op (op < 0: every row). */
static int pd_write_op(const struct pd_in *in, const struct pd_bins *b, int op, const char *opname, FILE *f)
{
	struct pd_op po;
	int rc = pd_op_fill(in, b, op, &po), sign = 0;

	for (size_t k = 0; k < b->nbins && !rc; k++) {
		const double *s = po.v + po.cnt[k];
		double lo, hi, x, plo, phi, dummy, p99;
		size_t m = po.cnt[k + 1] - po.cnt[k], ka, kb, pn;

		if (m < HD_PLOT_P50_MIN)
			continue;
		pd_edges(b, k, po.dr[2 * k], po.dr[2 * k + 1], &lo, &hi, &x);
		p99 = pd_p99(b, &po, k, &ka, &kb, &pn);
		pd_edges(b, ka, po.dr[2 * ka], po.dr[2 * ka + 1], &plo, &dummy, &dummy);
		pd_edges(b, kb, po.dr[2 * kb], po.dr[2 * kb + 1], &dummy, &phi, &dummy);
		if (sign < 0 && x >= 0)
			fputc('\n', f);
		sign = x < 0 ? -1 : 1;
		fprintf(f, "%.0f\t%zu\t%.6f\t%.6f\t%.6f\t%.6f\t%.3f\t%.3f\t%s\t%.3f\t%.3f\t%zu\n", x, m,
			hd_percentile_sorted(s, m, 50), hd_percentile_sorted(s, m, 90), p99, s[m - 1], lo, hi, opname,
			plo, phi, pn);
	}
	if (!rc)
		fputs("\n\n", f);
	pd_op_free(&po);
	return rc;
}

/* The ranges, the media count and symlog's c of the file. */
static size_t pd_ranges(const struct pd_in *in, struct hd_plot_axes *ax)
{
	double minabs = INFINITY;
	size_t media = 0;

	ax->xlo = INFINITY;
	ax->xhi = -INFINITY;
	ax->yhi = 0;
	for (size_t i = 0; i < in->n; i++) {
		double a = fabs(in->d[i]);

		ax->xlo = fmin(ax->xlo, in->d[i]);
		ax->xhi = fmax(ax->xhi, in->d[i]);
		if (a > 0 && a < minabs)
			minabs = a;
		if ((int)in->cls[i] != in->error && in->lat[i] > ax->yhi)
			ax->yhi = in->lat[i];
		media += (int)in->cls[i] == in->media;
	}
	/* c: the smallest distance, down to a power of two, so that it is a tick of its own. */
	ax->symc = isinf(minabs) ? 4096 : pow(2, floor(log2(minabs)));
	if (in->n == 0)
		ax->xlo = ax->xhi = 0;
	return media;
}

static double pd_xpos(const struct hd_plot_axes *ax, double d)
{
	return ax->linear ? d / 1e6 : symlog(d, ax->symc);
}

/* The density grid: x and y at the cells' centres, in axis units. */
static int pd_write_grid(const struct pd_in *in, struct hd_plot_axes *ax, FILE *f)
{
	uint32_t *g = calloc((size_t)HD_PLOT_GRID_X * HD_PLOT_GRID_Y, sizeof(*g));
	double x0 = pd_xpos(ax, ax->xlo), x1 = pd_xpos(ax, ax->xhi), yh = ax->yhi > 0 ? ax->yhi : 1;
	double wx = (x1 > x0 ? x1 - x0 : 1) / HD_PLOT_GRID_X, wy = yh / HD_PLOT_GRID_Y;

	if (!g)
		return -ENOMEM;
	for (size_t i = 0; i < in->n; i++) {
		int c = in->cls[i];
		long kx, ky;

		if (c == in->error || (c == in->cache && !ax->grid_cache) || isnan(in->lat[i]))
			continue;
		kx = (long)((pd_xpos(ax, in->d[i]) - x0) / wx);
		ky = (long)(in->lat[i] / wy);
		kx = kx < 0 ? 0 : kx >= HD_PLOT_GRID_X ? HD_PLOT_GRID_X - 1 : kx;
		ky = ky < 0 ? 0 : ky >= HD_PLOT_GRID_Y ? HD_PLOT_GRID_Y - 1 : ky;
		g[(size_t)ky * HD_PLOT_GRID_X + (size_t)kx]++;
	}
	for (int y = 0; y < HD_PLOT_GRID_Y; y++) {
		for (int x = 0; x < HD_PLOT_GRID_X; x++) {
			uint32_t n = g[(size_t)y * HD_PLOT_GRID_X + (size_t)x];
			fprintf(f, "%.6g\t%.6g\t", x0 + (x + 0.5) * wx, (y + 0.5) * wy);
			if (n)
				fprintf(f, "%u\n", n);
			else
				fputs("NaN\n", f);
		}
		fputc('\n', f);
	}
	free(g);
	return 0;
}

int hd_plot_data_write(const struct hd_df *df, int linear, FILE *bins, FILE *dens, struct hd_plot_axes *ax)
{
	struct pd_in in;
	struct pd_bins b = { 0 };
	size_t media, ncache = 0;
	int rc = pd_open(df, &in);

	if (rc)
		return rc;
	memset(ax, 0, sizeof(*ax));
	ax->linear = linear;
	media = pd_ranges(&in, ax);
	for (size_t i = 0; i < in.n; i++)
		ncache += (int)in.cls[i] == in.cache;
	rc = pd_keyed(&in, &b);
	if (rc < 0)
		return rc;
	if (rc == 0)
		pd_cut(&b, linear, ax->symc, ax->xlo, ax->xhi, media);
	rc = 0;
	in.bin = malloc((in.n + 1) * sizeof(*in.bin));
	if (!in.bin) {
		free(b.keys);
		return -ENOMEM;
	}
	for (size_t i = 0; i < in.n; i++)
		if ((int)in.cls[i] == in.media)
			in.bin[i] = (uint32_t)pd_bin_of(&b, in.d[i]);
	fputs("# per-bin percentiles of the media samples (hddscope plot)\n"
	      "# p99 pools neighbouring bins on the same side of zero, p99_lo_bytes to p99_hi_bytes,\n"
	      "# where a bin has fewer than 100 samples (p99_n of them)\n"
	      "# columns: x_bytes n p50 p90 p99 max lo_bytes hi_bytes op p99_lo_bytes p99_hi_bytes p99_n\n", bins);
	if (in.n && in.op) {
		for (size_t k = 0; k < in.opcol->ndict && !rc; k++)
			rc = pd_write_op(&in, &b, (int)k, in.opcol->dict[k], bins);
	} else if (in.n) {
		rc = pd_write_op(&in, &b, -1, "read", bins);
	}
	free(b.keys);
	free(in.bin);
	if (rc == 0 && dens && in.n > HD_PLOT_DENSITY_MIN) {
		ax->density = 1;
		ax->grid_cache = ncache > HD_PLOT_DENSITY_MIN;
		rc = pd_write_grid(&in, ax, dens);
	}
	return rc;
}

int hd_plot_cdf_wanted(const struct hd_df *df)
{
	const char *t = hd_df_meta(df, "test");
	const struct hd_df_col *c = hd_df_col(df, "sim_ms");

	return t && strcmp(t, "replay") == 0 && c && c->type == HD_COL_NUM;
}

/* One empirical CDF: each value sorted, with the fraction of values at or below it. */
static int cdf_block(const struct hd_df_col *c, size_t n, const char *name, FILE *f)
{
	double *v = malloc((n + 1) * sizeof(*v));
	size_t m = 0;

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		if (!isnan(c->num[i]))
			v[m++] = c->num[i];
	qsort(v, m, sizeof(*v), cmp_dbl);
	fprintf(f, "# %s: %zu service times\n", name, m);
	for (size_t i = 0; i < m; i++)
		fprintf(f, "%.6f\t%.9f\n", v[i], (double)(i + 1) / (double)m);
	fputs("\n\n", f);
	free(v);
	return 0;
}

int hd_plot_cdf_write(const struct hd_df *df, FILE *f, int *measured)
{
	const struct hd_df_col *s = hd_df_col(df, "sim_ms"), *m = hd_df_col(df, "measured_ms");
	int rc;

	*measured = m && m->type == HD_COL_NUM;
	fputs("# service-time CDFs of a replay (hddscope plot): index 0 simulated, index 1 measured\n"
	      "# columns: ms fraction\n", f);
	rc = cdf_block(s, df->nrows, "simulated", f);
	if (!rc && *measured)
		rc = cdf_block(m, df->nrows, "measured", f);
	return rc;
}
