/*
 * hddscope compare, the analysis: two profile directories in, findings out.
 * Every data file both profiles have is compared by the section of its
 * test in the table below; each section writes its sentences to
 * findings.txt and the same figures to compare.json in one pass, so the
 * text and the data cannot disagree.  Nothing here prints.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hddscope/compare.h"
#include "hddscope/datafile.h"
#include "hddscope/fsutil.h"
#include "hddscope/json.h"
#include "hddscope/profile_files.h"
#include "hddscope/stats.h"
#include "hddscope/util.h"

/* One profile directory. */
struct side {
	const char *dir;
	char name;		/* 'A' or 'B' */
	struct hd_jv *summary;	/* NULL when the directory has none */
	char model[160];
	struct hd_df *df[HD_PF_COUNT];	/* by enum hd_profile_file_id */
	double rev_ms;		/* revolution for the outlier rule */
	const char *rev_source;
};

struct ctx {
	struct side s[2];
	const struct hd_cmp_opts *o;	/* of the section being compared */
	const struct hd_cmp_opts *base;
	struct hd_cmp_opts sec;		/* base with the section's cut */
	const double (*cut)[2];		/* the families' cuts by section, or NULL (hd_compare_dirs_cut) */
	size_t t;			/* the section being compared */
	double *fp[2];			/* its families' p-values */
	size_t fn[2], fcap[2];
	const char *outdir;
	FILE *txt;
	struct hd_json j;
	struct hd_df_writer *bins;	/* of the test being compared, or NULL */
	size_t findings;	/* clear differences called in the section being compared */
	char *err;
	size_t errlen;
};

/* What compare does with a data file of profile_files.h; a file without a section is not compared. */
struct test {
	const char *script;	/* plots/<script>.gp */
	int bins;		/* writes bins-<name>.tsv */
	int (*section)(struct ctx *c, const struct hd_df *a, const struct hd_df *b);
};

static int sec_seek(struct ctx *c, const struct hd_df *a, const struct hd_df *b);
static int sec_response(struct ctx *c, const struct hd_df *a, const struct hd_df *b);
static int sec_media(struct ctx *c, const struct hd_df *a, const struct hd_df *b);
static int sec_queue(struct ctx *c, const struct hd_df *a, const struct hd_df *b);
static int sec_interval(struct ctx *c, const struct hd_df *a, const struct hd_df *b);
static int sec_bench(struct ctx *c, const struct hd_df *a, const struct hd_df *b);
static int sec_zone(struct ctx *c, const struct hd_df *a, const struct hd_df *b);

static const struct test tests[HD_PF_COUNT] = {
	[HD_PF_SEEK_READ] = { .script = "compare-seek", .bins = 1, .section = sec_seek },
	[HD_PF_SEEK_WRITE] = { .script = "compare-seek", .bins = 1, .section = sec_seek },
	[HD_PF_RESPONSE] = { .script = "compare-response", .bins = 1, .section = sec_response },
	[HD_PF_MEDIA] = { .script = "compare-media", .section = sec_media },
	[HD_PF_QUEUE] = { .script = "compare-queue", .section = sec_queue },
	[HD_PF_INTERVAL] = { .script = "compare-interval", .section = sec_interval },
	[HD_PF_BENCH] = { .script = "compare-bench", .section = sec_bench },
	[HD_PF_ZONE] = { .script = "compare-zone", .section = sec_zone },
};

static int access_ok(const char *path)
{
	return access(path, R_OK) == 0;
}

static int fail(struct ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct ctx *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->err, c->errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* Note p-value p of family f (0 the bins, 1 the stability tests) of the section being compared. */
static int push_p(struct ctx *c, int f, double p)
{
	if (c->fn[f] == c->fcap[f]) {
		size_t cap = c->fcap[f] ? 2 * c->fcap[f] : 64;
		double *n = realloc(c->fp[f], cap * sizeof(*n));
		if (!n)
			return fail(c, "compare: %s", strerror(ENOMEM));
		c->fp[f] = n;
		c->fcap[f] = cap;
	}
	c->fp[f][c->fn[f]++] = p;
	return 0;
}

static int push_curves(struct ctx *c, const struct hd_cmp_curve *cv, size_t ncv)
{
	for (size_t k = 0; k < ncv; k++)
		for (size_t i = 0; i < cv[k].nbins; i++)
			if (push_p(c, 0, cv[k].bins[i].p))
				return -1;
	return 0;
}

/* The stability tests of a section: Holm at alpha, or the cut of a family decided across pairs. */
static int stability_reject(const struct ctx *c, const double *p, size_t n, unsigned char *rej)
{
	if (!c->cut)
		return hd_holm(p, n, c->o->alpha, rej);
	for (size_t i = 0; i < n; i++)
		rej[i] = p[i] <= c->cut[c->t][1];
	return 0;
}

/* ---- reading columns ---- */

/* A numeric column, or NULL with a message naming the file. */
static const double *num_col(struct ctx *c, const struct hd_df *df, const char *name)
{
	const struct hd_df_col *col = hd_df_col(df, name);

	if (!col || col->type != HD_COL_NUM) {
		fail(c, "%s: no numeric column '%s'", df->path, name);
		return NULL;
	}
	return col->num;
}

/* Is row i of a text column (NULL: any) equal to want? */
static int str_is(const struct hd_df_col *col, size_t i, const char *want)
{
	return !col || strcmp(hd_df_str(col, i), want) == 0;
}

/* Media samples of op (NULL: any) in direction dir (0 both, 1 outward, -1 inward). */
struct pts {
	double *d, *lat;	/* |distance| (or the key), latency */
	size_t n;
};

static void pts_free(struct pts *p)
{
	free(p->d);
	free(p->lat);
	memset(p, 0, sizeof(*p));
}

static int select_pts(struct ctx *c, const struct hd_df *df, const char *key, const char *op, int dir,
		      struct pts *p)
{
	const double *d = num_col(c, df, key), *lat = num_col(c, df, "latency_ms");
	const struct hd_df_col *cls = hd_df_col(df, "class"), *opc = hd_df_col(df, "op");
	const struct hd_df_col *delay = hd_df_col(df, "delay_ms");

	memset(p, 0, sizeof(*p));
	if (delay && delay->type != HD_COL_NUM)
		delay = NULL;
	if (!d || !lat)
		return -1;
	p->d = malloc((df->nrows ? df->nrows : 1) * sizeof(*p->d));
	p->lat = malloc((df->nrows ? df->nrows : 1) * sizeof(*p->lat));
	if (!p->d || !p->lat) {
		pts_free(p);
		return fail(c, "%s: %s", df->path, strerror(ENOMEM));
	}
	for (size_t i = 0; i < df->nrows; i++) {
		if (!str_is(cls, i, "media") || (op && !str_is(opc, i, op)))
			continue;
		if ((dir > 0 && d[i] <= 0) || (dir < 0 && d[i] >= 0) || d[i] == 0)
			continue;
		/*
		 * A sample without a phase delay timed the rotation from the
		 * reference's own phase: its latency is set by the run, not drawn
		 * from the drive's distribution, and would pose as a difference.
		 */
		if (delay && delay->num[i] == 0)
			continue;
		p->d[p->n] = fabs(d[i]);
		p->lat[p->n++] = lat[i];
	}
	return 0;
}

/* Does any media row of df have op? */
static int has_op(const struct hd_df *df, const char *op)
{
	const struct hd_df_col *opc = hd_df_col(df, "op"), *cls = hd_df_col(df, "class");

	for (size_t i = 0; opc && i < df->nrows; i++)
		if (str_is(opc, i, op) && str_is(cls, i, "media"))
			return 1;
	return 0;
}

/* ---- formatting ---- */

/* A distance in MB or GB (10^6, 10^9 bytes) with three significant digits. */
static const char *fmt_dist(char *buf, size_t len, double bytes)
{
	if (bytes >= 999.5e6)
		snprintf(buf, len, "%.3g GB", bytes / 1e9);
	else if (bytes >= 1e4)
		snprintf(buf, len, "%.3g MB", bytes / 1e6);
	else
		snprintf(buf, len, "%.0f bytes", bytes);
	return buf;
}

/* "3%" or "2-5%" from a range of percentages. */
static const char *fmt_pct(char *buf, size_t len, double lo, double hi)
{
	if (lround(lo) == lround(hi))
		snprintf(buf, len, "%ld%%", lround(hi));
	else
		snprintf(buf, len, "%ld-%ld%%", lround(lo), lround(hi));
	return buf;
}

static const char *winner_str(char w)
{
	return w == 'A' ? "A" : w == 'B' ? "B" : NULL;
}

/* ---- seek and response: latency against distance ---- */

static const struct {
	int dir;
	const char *key, *label, *sign;
} directions[] = {
	{ 0, "both", "both directions", "\u00b1" },
	{ 1, "outward", "outward (+, toward higher offsets)", "+" },
	{ -1, "inward", "inward (-, toward lower offsets)", "-" },
};

/*
 * An undecided range over more than a decade: the largest difference left
 * open in each decade, since the few samples of its shortest distances
 * would otherwise speak for all of it.
 */
static void bound_by_decade(FILE *f, const struct hd_cmp_curve *cv, const struct hd_cmp_range *g, const char *sign)
{
	char lo[32], hi[32];
	int groups = 0;

	if (floor(cv->bins[g->first].x) == floor(cv->bins[g->last].x))
		return;
	for (size_t i = g->first, j; i <= g->last; i = j) {
		double bound = 0, top = 0;

		for (j = i; j <= g->last && floor(cv->bins[j].x) == floor(cv->bins[i].x); j++) {
			bound = fmax(bound, cv->bins[j].bound_pct);
			top = cv->bins[j].hi;
		}
		fprintf(f, "%s%.0f%% at %s%s to %s%s", groups++ ? ", " : " (by decade: ", ceil(bound), sign,
			fmt_dist(lo, sizeof(lo), cv->bins[i].lo), sign, fmt_dist(hi, sizeof(hi), top));
	}
	fprintf(f, ")");
}

/* The sentence of one curve comparison. */
static void curve_text(FILE *f, const struct hd_cmp_curve *cv, const char *sign)
{
	char lo[32], hi[32], pct[32], ci[32];

	if (cv->nbins == 0) {
		fprintf(f, "too few samples at common distances to compare.\n");
		return;
	}
	for (size_t r = 0; r < cv->nranges; r++) {
		const struct hd_cmp_range *g = &cv->ranges[r];
		int first = r == 0, last = r + 1 == cv->nranges;

		if (g->winner)
			fprintf(f, "%s%s is %s faster (95%% interval %s)", r ? "; " : "", winner_str(g->winner),
				fmt_pct(pct, sizeof(pct), g->pct_min, g->pct_max),
				fmt_pct(ci, sizeof(ci), fmax(0, g->ci_lo), g->ci_hi));
		else
			fprintf(f, "%sno difference larger than %s", r ? "; " : "",
				fmt_pct(pct, sizeof(pct), ceil(g->bound_pct), ceil(g->bound_pct)));
		fmt_dist(lo, sizeof(lo), g->lo);
		fmt_dist(hi, sizeof(hi), g->hi);
		if (first && last)
			fprintf(f, " at every distance measured (%s%s to %s%s)", sign, lo, sign, hi);
		else if (first)
			fprintf(f, " %s %s%s", sign[0] == '+' || sign[0] == '-' ? "up to" : "within", sign, hi);
		else if (last)
			fprintf(f, " beyond %s%s", sign, lo);
		else if (g->first == g->last)
			fprintf(f, " at %s%s", sign, lo);
		else
			fprintf(f, " from %s%s to %s%s", sign, lo, sign, hi);
		if (!g->winner)
			bound_by_decade(f, cv, g, sign);
	}
	fprintf(f, ".");
	for (size_t k = 0; k < cv->ncross; k++) {
		const struct hd_cmp_cross *x = &cv->cross[k];
		char at[32];
		fprintf(f, " Crossover at %s%s (between %s and %s): %s faster below, %s beyond.", sign,
			fmt_dist(at, sizeof(at), x->bytes), fmt_dist(lo, sizeof(lo), x->lo),
			fmt_dist(hi, sizeof(hi), x->hi), winner_str(x->below), winner_str(x->above));
	}
	fprintf(f, "\n");
}

static void curve_json(struct hd_json *j, const char *key, const struct hd_cmp_curve *cv)
{
	hd_json_obj(j, key);
	hd_json_arr(j, "ranges");
	for (size_t r = 0; r < cv->nranges; r++) {
		const struct hd_cmp_range *g = &cv->ranges[r];
		hd_json_obj(j, NULL);
		hd_json_str(j, "faster", winner_str(g->winner));
		hd_json_num(j, "from_bytes", g->lo);
		hd_json_num(j, "to_bytes", g->hi);
		hd_json_num(j, "pct_min", g->winner ? g->pct_min : NAN);
		hd_json_num(j, "pct_max", g->winner ? g->pct_max : NAN);
		hd_json_num(j, "ci_lo_pct", g->winner ? g->ci_lo : NAN);
		hd_json_num(j, "ci_hi_pct", g->winner ? g->ci_hi : NAN);
		hd_json_num(j, "no_larger_than_pct", g->winner ? NAN : g->bound_pct);
		hd_json_end(j);
	}
	hd_json_end(j);
	hd_json_arr(j, "crossovers");
	for (size_t k = 0; k < cv->ncross; k++) {
		const struct hd_cmp_cross *x = &cv->cross[k];
		hd_json_obj(j, NULL);
		hd_json_num(j, "bytes", x->bytes);
		hd_json_num(j, "bracket_lo_bytes", x->lo);
		hd_json_num(j, "bracket_hi_bytes", x->hi);
		hd_json_str(j, "faster_below", winner_str(x->below));
		hd_json_str(j, "faster_above", winner_str(x->above));
		hd_json_end(j);
	}
	hd_json_end(j);
	hd_json_arr(j, "bins");
	for (size_t i = 0; i < cv->nbins; i++) {
		const struct hd_cmp_bin *b = &cv->bins[i];
		hd_json_obj(j, NULL);
		hd_json_num(j, "distance_bytes", pow(10, b->x));
		hd_json_num(j, "lo_bytes", b->lo);
		hd_json_num(j, "hi_bytes", b->hi);
		hd_json_uint(j, "a_samples", b->na);
		hd_json_uint(j, "b_samples", b->nb);
		hd_json_num(j, "a_ms", b->ta);
		hd_json_num(j, "b_ms", b->tb);
		hd_json_num(j, "diff_ms", b->diff);
		hd_json_num(j, "diff_ci_lo_ms", b->ci_lo);
		hd_json_num(j, "diff_ci_hi_ms", b->ci_hi);
		hd_json_num(j, "diff_se_ms", b->se);
		hd_json_num(j, "p_value", b->p);
		hd_json_num(j, "pct", b->pct);
		hd_json_str(j, "faster", winner_str(b->winner));
		hd_json_end(j);
	}
	hd_json_end(j);
	hd_json_end(j);
}

static void curve_bins(struct ctx *c, const char *op, const char *dir, const struct hd_cmp_curve *cv)
{
	FILE *f = hd_dfw_rows(c->bins);

	for (size_t i = 0; i < cv->nbins; i++) {
		const struct hd_cmp_bin *b = &cv->bins[i];
		fprintf(f, "%s\t%s\t%.0f\t%.0f\t%.0f\t%zu\t%zu\t%.6f\t%.6f\t%.6f\t%.6f\t%.6f\t%.3f\t%s\n", op, dir,
			pow(10, b->x), b->lo, b->hi, b->na, b->nb, b->ta, b->tb, b->diff, b->ci_lo, b->ci_hi,
			b->pct, b->winner ? winner_str(b->winner) : "-");
	}
}

/*
 * The bins of latency against distance for op (NULL: every row) in the
 * three direction sets, none called yet; label names it in errors.
 */
static int curves_measure(struct ctx *c, const struct hd_df *a, const struct hd_df *b, const char *key,
			  const char *op, const char *label, struct hd_cmp_curve cv[3])
{
	memset(cv, 0, 3 * sizeof(*cv));
	for (size_t k = 0; k < 3; k++) {
		struct pts pa, pb;
		int rc;

		if (select_pts(c, a, key, op, directions[k].dir, &pa))
			return -1;
		if (select_pts(c, b, key, op, directions[k].dir, &pb)) {
			pts_free(&pa);
			return -1;
		}
		rc = hd_cmp_curve_bins(pa.d, pa.lat, pa.n, pb.d, pb.lat, pb.n, c->o, &cv[k]);
		pts_free(&pa);
		pts_free(&pb);
		if (rc) {
			for (size_t i = 0; i < k; i++)
				hd_cmp_curve_free(&cv[i]);
			return fail(c, "compare %s: %s", label, strerror(-rc));
		}
	}
	return 0;
}

/* The decided curves of op as sentences, compare.json and bins rows; their findings are counted. */
static void curves_emit(struct ctx *c, const char *op, const char *label, const struct hd_cmp_curve cv[3])
{
	hd_json_obj(&c->j, op ? op : "all");
	for (size_t k = 0; k < 3; k++) {
		fprintf(c->txt, "%s, %s: ", label, directions[k].label);
		curve_text(c->txt, &cv[k], directions[k].sign);
		curve_json(&c->j, directions[k].key, &cv[k]);
		curve_bins(c, op ? op : "all", directions[k].key, &cv[k]);
		for (size_t r = 0; r < cv[k].nranges; r++)
			c->findings += cv[k].ranges[r].winner != 0;
	}
	hd_json_end(&c->j);
}

static const char *op_of(const struct hd_df *df)
{
	const struct hd_df_col *opc = hd_df_col(df, "op");

	for (size_t i = 0; opc && i < df->nrows; i++)
		if (str_is(hd_df_col(df, "class"), i, "media"))
			return hd_df_str(opc, i);
	return "read";
}

static int sec_seek(struct ctx *c, const struct hd_df *a, const struct hd_df *b)
{
	const char *op = op_of(a);
	char label[64];

	if (strcmp(op, op_of(b)) != 0)
		return fail(c, "%s times %ss, %s times %ss", a->path, op, b->path, op_of(b));
	struct hd_cmp_curve cv[3];
	int rc;

	fprintf(c->txt, "\nSeek (%s): typical latency (mid-decile) by |distance|\n", op);
	snprintf(label, sizeof(label), "seek %s", op);
	if (curves_measure(c, a, b, "distance_bytes", op, label, cv))
		return -1;
	rc = hd_cmp_decide(cv, 3, c->o);
	if (rc == 0)
		curves_emit(c, op, label, cv);
	if (rc == 0 && push_curves(c, cv, 3))
		rc = -ENOMEM;
	for (int k = 0; k < 3; k++)
		hd_cmp_curve_free(&cv[k]);
	return rc ? fail(c, "compare %s: %s", label, strerror(-rc)) : 0;
}

static void spread_json(struct hd_json *j, const char *key, const struct side *s, const struct hd_cmp_spread *sp)
{
	hd_json_obj(j, key);
	hd_json_num(j, "revolution_ms", s->rev_ms);
	hd_json_str(j, "revolution_source", s->rev_source);
	hd_json_uint(j, "distances", sp->groups);
	hd_json_uint(j, "samples", sp->n);
	hd_json_uint(j, "outliers", sp->outliers);
	hd_json_num(j, "outlier_rate", sp->rate);
	hd_json_num(j, "p99_p50_median", sp->ratio_median);
	hd_json_num(j, "p99_p50_max", sp->ratio_max);
	hd_json_end(j);
}

/* The spread of op's response at equal distances in both profiles: 0, 1 when one has too few samples, -1. */
static int stability_measure(struct ctx *c, const struct hd_df *df[2], const char *op, struct hd_cmp_spread sp[2],
			     double *p)
{
	double diff, lo, hi;

	*p = NAN;
	for (int i = 0; i < 2; i++) {
		struct pts pt;
		int rc;

		if (select_pts(c, df[i], "distance_bytes", op, 0, &pt))
			return -1;
		rc = hd_cmp_spread(pt.d, pt.lat, pt.n, c->s[i].rev_ms, 5, &sp[i]);
		pts_free(&pt);
		if (rc == -ENODATA)
			return 1;
		if (rc)
			return fail(c, "%s: stability: %s", df[i]->path, strerror(-rc));
	}
	*p = hd_cmp_spread_p(&sp[0], &sp[1], hd_cmp_z(c->o->confidence), &diff, &lo, &hi);
	return 0;
}

/* Stability of op's response as decided (rejected: Holm rejected equal outlier rates); key names it in compare.json. */
static void stability_emit(struct ctx *c, const struct hd_df *df[2], const char *op, const char *key,
			   const struct hd_cmp_spread sp[2], int too_few, int rejected)
{
	double diff, lo, hi, p;
	const char *why;
	char w;

	if (too_few) {
		int i = sp[0].groups ? 1 : 0;
		fprintf(c->txt, "%s stability: %s has fewer than 5 samples at every distance.\n", op, df[i]->path);
		hd_json_null(&c->j, key);
		return;
	}
	p = hd_cmp_spread_p(&sp[0], &sp[1], hd_cmp_z(c->o->confidence), &diff, &lo, &hi);
	w = hd_cmp_steadier(&sp[0], &sp[1], rejected, &why);
	c->findings += w != 0;
	fprintf(c->txt, "%s stability (spread at equal distances; an outlier is slower than the median at its "
		"distance by more than one revolution):\n", op);
	for (int i = 0; i < 2; i++)
		fprintf(c->txt, "  %c: p99/p50 median %.2f (max %.2f), outliers %.1f%% (%zu of %zu; revolution %.2f ms, %s)\n",
			c->s[i].name, sp[i].ratio_median, sp[i].ratio_max, sp[i].rate * 100, sp[i].outliers, sp[i].n,
			c->s[i].rev_ms, c->s[i].rev_source);
	fprintf(c->txt, "  outlier rate B - A: %+.2f%% (95%% interval %+.2f%% to %+.2f%%; p = %.2g)\n", diff * 100,
		lo * 100, hi * 100, p);
	if (w)
		fprintf(c->txt, "  %c is steadier in %s response (by outlier rate).\n", w, op);
	else
		fprintf(c->txt, "  Neither is clearly steadier in %s response: no difference in outlier rate larger "
			"than %.2f%%.\n", op, fmax(fabs(lo), fabs(hi)) * 100);
	hd_json_obj(&c->j, key);
	spread_json(&c->j, "a", &c->s[0], &sp[0]);
	spread_json(&c->j, "b", &c->s[1], &sp[1]);
	hd_json_num(&c->j, "rate_diff", diff);
	hd_json_num(&c->j, "rate_diff_ci_lo", lo);
	hd_json_num(&c->j, "rate_diff_ci_hi", hi);
	hd_json_num(&c->j, "p_value", p);
	hd_json_str(&c->j, "steadier", winner_str(w));
	hd_json_str(&c->j, "decided_by", why);
	hd_json_end(&c->j);
}

/*
 * Read and write response: every bin of every curve is one family, the
 * stability tests another, each held to the family-wise error rate.
 */
static int sec_response(struct ctx *c, const struct hd_df *a, const struct hd_df *b)
{
	static const char *const ops[] = { "read", "write" };
	const struct hd_df *df[2] = { a, b };
	struct hd_cmp_curve cv[6];
	struct hd_cmp_spread sp[2][2];
	double p[2];
	unsigned char rej[2] = { 0, 0 };
	int have[2], st[2] = { 1, 1 }, rc = 0;
	size_t np = 0;

	memset(cv, 0, sizeof(cv));
	memset(sp, 0, sizeof(sp));
	fprintf(c->txt, "\nResponse over the whole stroke: typical latency (mid-decile) by |distance|\n");
	for (size_t k = 0; k < 2 && rc == 0; k++) {
		char label[64];

		have[k] = has_op(a, ops[k]) && has_op(b, ops[k]);
		snprintf(label, sizeof(label), "response %s", ops[k]);
		if (have[k] && (curves_measure(c, a, b, "distance_bytes", ops[k], label, &cv[3 * k]) ||
				(st[k] = stability_measure(c, df, ops[k], sp[k], &p[k])) < 0))
			rc = -1;
	}
	/* Only the stability tests that ran are in the family; a curve not measured has no bins. */
	if (rc == 0) {
		double pp[2];
		for (size_t k = 0; k < 2; k++)
			if (have[k] && st[k] == 0)
				pp[np++] = p[k];
		rc = hd_cmp_decide(cv, 6, c->o) || stability_reject(c, pp, np, rej) || push_curves(c, cv, 6)
			     ? fail(c, "compare response: %s", strerror(ENOMEM)) : 0;
		for (size_t k = 0; k < np && rc == 0; k++)
			rc = push_p(c, 1, pp[k]);
	}
	for (size_t k = 0, e = 0; k < 2 && rc == 0; k++) {
		char label[64];

		if (!have[k])
			continue;
		snprintf(label, sizeof(label), "response %s", ops[k]);
		curves_emit(c, ops[k], label, &cv[3 * k]);
		stability_emit(c, df, ops[k], k ? "write_stability" : "read_stability", sp[k], st[k],
			       st[k] == 0 && rej[e]);
		e += st[k] == 0;
	}
	for (size_t k = 0; k < 6; k++)
		hd_cmp_curve_free(&cv[k]);
	return rc;
}

/* ---- keyed tables: media by size, queue by N, interval by gap ---- */

/* The distinct values of a column, ascending; *n of them. */
static double *distinct(const double *v, size_t nrows, size_t *n)
{
	double *u = malloc((nrows ? nrows : 1) * sizeof(*u));

	*n = 0;
	if (!u)
		return NULL;
	memcpy(u, v, nrows * sizeof(*u));
	hd_sort_doubles(u, nrows);
	for (size_t i = 0; i < nrows; i++)
		if (*n == 0 || u[i] != u[*n - 1])
			u[(*n)++] = u[i];
	return u;
}

/*
 * Media read time by transfer size: each size is a bin of hd_cmp_curve
 * (sizes a factor of 1.15 or more apart never share one of its 16 bins a
 * decade), its typical latency the mid-decile, decided as one family.
 */
static int sec_media(struct ctx *c, const struct hd_df *a, const struct hd_df *b)
{
	struct pts pa, pb;
	struct hd_cmp_opts o = *c->o;
	struct hd_cmp_curve cv;
	size_t wins[2] = { 0, 0 };
	double bound = 0;
	int rc;

	o.bins_per_decade = 16;
	if (select_pts(c, a, "size_bytes", NULL, 0, &pa))
		return -1;
	if (select_pts(c, b, "size_bytes", NULL, 0, &pb)) {
		pts_free(&pa);
		return -1;
	}
	rc = hd_cmp_curve(pa.d, pa.lat, pa.n, pb.d, pb.lat, pb.n, &o, &cv);
	pts_free(&pa);
	pts_free(&pb);
	if (rc)
		return fail(c, "compare media: %s", strerror(-rc));
	if (push_curves(c, &cv, 1)) {
		hd_cmp_curve_free(&cv);
		return -1;
	}
	fprintf(c->txt, "\nMedia read time by transfer size (mid-decile of media reads, ms; B - A with its 95%% interval):\n");
	fprintf(c->txt, "  %10s %10s %10s %7s %22s %7s\n", "size", "A", "B", "B/A", "B - A ms (95%)", "faster");
	hd_json_arr(&c->j, "sizes");
	for (size_t i = 0; i < cv.nbins; i++) {
		const struct hd_cmp_bin *g = &cv.bins[i];
		char sz[32], iv[48];

		if (g->winner)
			wins[g->winner == 'B']++;
		else
			bound = fmax(bound, g->bound_pct);
		snprintf(iv, sizeof(iv), "%+.3f (%+.3f, %+.3f)", g->diff, g->ci_lo, g->ci_hi);
		fprintf(c->txt, "  %10s %10.3f %10.3f %7.2f %22s %7s\n", hd_fmt_size(sz, sizeof(sz), (uint64_t)g->lo),
			g->ta, g->tb, g->tb / g->ta, iv, g->winner ? winner_str(g->winner) : "-");
		hd_json_obj(&c->j, NULL);
		hd_json_num(&c->j, "size_bytes", g->lo);
		hd_json_num(&c->j, "a_ms", g->ta);
		hd_json_num(&c->j, "b_ms", g->tb);
		hd_json_num(&c->j, "b_over_a", g->tb / g->ta);
		hd_json_num(&c->j, "diff_ci_lo_ms", g->ci_lo);
		hd_json_num(&c->j, "diff_ci_hi_ms", g->ci_hi);
		hd_json_num(&c->j, "p_value", g->p);
		hd_json_str(&c->j, "faster", winner_str(g->winner));
		hd_json_end(&c->j);
	}
	hd_json_end(&c->j);
	fprintf(c->txt, "media: A is faster at %zu of %zu sizes, B at %zu", wins[0], cv.nbins, wins[1]);
	if (wins[0] + wins[1] < cv.nbins)
		fprintf(c->txt, "; at the others no difference larger than %.0f%%", ceil(bound));
	fprintf(c->txt, ".\n");
	c->findings += wins[0] + wins[1];
	hd_json_uint(&c->j, "a_faster_sizes", wins[0]);
	hd_json_uint(&c->j, "b_faster_sizes", wins[1]);
	hd_cmp_curve_free(&cv);
	return 0;
}

/* A row index of df whose column col equals v, or -1. */
static long row_of(const double *col, size_t nrows, double v)
{
	for (size_t i = 0; i < nrows; i++)
		if (col[i] == v)
			return (long)i;
	return -1;
}

/*
 * The best N: the smallest N whose IOPS reach 98% of the highest, since
 * beyond saturation more clients add only latency.
 */
static double best_procs(const double *procs, const double *iops, size_t n, double *peak)
{
	double best = NAN;

	*peak = 0;
	for (size_t i = 0; i < n; i++)
		*peak = fmax(*peak, iops[i]);
	for (size_t i = 0; i < n; i++)
		if (iops[i] >= 0.98 * *peak && !(procs[i] >= best))
			best = procs[i];
	return best;
}

static int sec_queue(struct ctx *c, const struct hd_df *a, const struct hd_df *b)
{
	const double *pa = num_col(c, a, "procs"), *ia = num_col(c, a, "iops"), *qa = num_col(c, a, "lat_p99_ms");
	const double *pb = num_col(c, b, "procs"), *ib = num_col(c, b, "iops"), *qb = num_col(c, b, "lat_p99_ms");
	double peak[2], best[2];

	if (!pa || !ia || !qa || !pb || !ib || !qb)
		return -1;
	fprintf(c->txt, "\nQueued random reads (IOPS and p99 latency by concurrent clients N):\n");
	fprintf(c->txt, "  %5s %10s %10s %7s %12s %12s\n", "N", "A IOPS", "B IOPS", "B/A", "A p99 ms", "B p99 ms");
	hd_json_arr(&c->j, "by_procs");
	for (size_t i = 0; i < a->nrows; i++) {
		long k = row_of(pb, b->nrows, pa[i]);

		if (k < 0)
			continue;
		fprintf(c->txt, "  %5.0f %10.1f %10.1f %7.2f %12.2f %12.2f\n", pa[i], ia[i], ib[k], ib[k] / ia[i], qa[i],
			qb[k]);
		hd_json_obj(&c->j, NULL);
		hd_json_num(&c->j, "procs", pa[i]);
		hd_json_num(&c->j, "a_iops", ia[i]);
		hd_json_num(&c->j, "b_iops", ib[k]);
		hd_json_num(&c->j, "b_over_a", ib[k] / ia[i]);
		hd_json_num(&c->j, "a_p99_ms", qa[i]);
		hd_json_num(&c->j, "b_p99_ms", qb[k]);
		hd_json_end(&c->j);
	}
	hd_json_end(&c->j);
	best[0] = best_procs(pa, ia, a->nrows, &peak[0]);
	best[1] = best_procs(pb, ib, b->nrows, &peak[1]);
	fprintf(c->txt, "queue: A peaks at %.1f IOPS (best N = %.0f), B at %.1f IOPS (best N = %.0f); "
		"the best N is the smallest within 2%% of the peak.\n", peak[0], best[0], peak[1], best[1]);
	hd_json_num(&c->j, "a_peak_iops", peak[0]);
	hd_json_num(&c->j, "a_best_procs", best[0]);
	hd_json_num(&c->j, "b_peak_iops", peak[1]);
	hd_json_num(&c->j, "b_best_procs", best[1]);
	return 0;
}

/*
 * The write-interval minimum delay: the smallest asked interval from which
 * on the median latency stays within max(0.25 ms, 10%) of the lowest
 * median, over at least the last 1 ms of intervals.  A drive that writes
 * through shows a sawtooth that never settles: NAN.
 */
static double min_delay(const struct hd_df *df, const double *iv, const double *lat, double *floor_ms, int *ok)
{
	size_t n;
	double *u = distinct(iv, df->nrows, &n), *med, *tmp, res = NAN, lim;

	*ok = 0;
	*floor_ms = NAN;
	med = malloc((n + 1) * sizeof(*med));
	tmp = malloc((df->nrows + 1) * sizeof(*tmp));
	if (!u || !med || !tmp)
		goto done;
	*ok = 1;
	*floor_ms = INFINITY;
	for (size_t i = 0; i < n; i++) {
		/* Every class: a write the cache took is exactly what did not wait. */
		size_t m = 0;
		for (size_t r = 0; r < df->nrows; r++)
			if (iv[r] == u[i] && strcmp(hd_df_str(hd_df_col(df, "class"), r), "error") != 0)
				tmp[m++] = lat[r];
		hd_sort_doubles(tmp, m);
		med[i] = hd_percentile_sorted(tmp, m, 50);
		if (isfinite(med[i]))
			*floor_ms = fmin(*floor_ms, med[i]);
	}
	lim = *floor_ms + fmax(0.25, 0.1 * *floor_ms);
	for (size_t i = n; i-- > 0;) {
		if (!(med[i] <= lim))
			break;
		res = u[i];
	}
	if (n && isfinite(res) && u[n - 1] - res < 1)
		res = NAN;
done:
	free(u);
	free(med);
	free(tmp);
	return res;
}

static int sec_interval(struct ctx *c, const struct hd_df *a, const struct hd_df *b)
{
	const struct hd_df *df[2] = { a, b };

	fprintf(c->txt, "\nWrite interval (the idle interval beyond which the next write no longer waits):\n");
	for (int i = 0; i < 2; i++) {
		const double *iv = num_col(c, df[i], "interval_ms"), *lat = num_col(c, df[i], "latency_ms");
		double fl, d;
		int ok;

		if (!iv || !lat || !hd_df_col(df[i], "class"))
			return iv && lat ? fail(c, "%s: no column 'class'", df[i]->path) : -1;
		d = min_delay(df[i], iv, lat, &fl, &ok);
		if (!ok)
			return fail(c, "%s: %s", df[i]->path, strerror(ENOMEM));
		if (isfinite(d))
			fprintf(c->txt, "  %c: no longer waits from %.2f ms on (median then %.3f ms or less; lowest %.3f ms)\n",
				c->s[i].name, d, fl + fmax(0.25, 0.1 * fl), fl);
		else
			fprintf(c->txt, "  %c: waits at every interval measured (lowest median %.3f ms): a write that "
				"goes to the media waits for its sector, a sawtooth of one revolution\n", c->s[i].name, fl);
		hd_json_obj(&c->j, i ? "b" : "a");
		hd_json_num(&c->j, "min_delay_ms", d);
		hd_json_num(&c->j, "floor_ms", fl);
		hd_json_end(&c->j);
	}
	return 0;
}

static int sec_bench(struct ctx *c, const struct hd_df *a, const struct hd_df *b)
{
	const struct hd_df_col *ta = hd_df_col(a, "test"), *tb = hd_df_col(b, "test");
	const double *ma = num_col(c, a, "mb_s"), *oa = num_col(c, a, "iops");
	const double *mb = num_col(c, b, "mb_s"), *ob = num_col(c, b, "iops");

	if (!ma || !oa || !mb || !ob)
		return -1;
	if (!ta || !tb || ta->type != HD_COL_STR || tb->type != HD_COL_STR)
		return fail(c, "%s: no text column 'test'", ta ? b->path : a->path);
	fprintf(c->txt, "\nBench (MB/s, 10^6 bytes/s; IOPS):\n");
	fprintf(c->txt, "  %-10s %10s %10s %7s %10s %10s\n", "test", "A MB/s", "B MB/s", "B/A", "A IOPS", "B IOPS");
	hd_json_arr(&c->j, "rows");
	for (size_t i = 0; i < a->nrows; i++) {
		const char *t = hd_df_str(ta, i);

		for (size_t k = 0; k < b->nrows; k++) {
			if (strcmp(t, hd_df_str(tb, k)) != 0)
				continue;
			fprintf(c->txt, "  %-10s %10.3f %10.3f %7.2f %10.1f %10.1f\n", t, ma[i], mb[k], mb[k] / ma[i], oa[i],
				ob[k]);
			hd_json_obj(&c->j, NULL);
			hd_json_str(&c->j, "test", t);
			hd_json_num(&c->j, "a_mb_s", ma[i]);
			hd_json_num(&c->j, "b_mb_s", mb[k]);
			hd_json_num(&c->j, "b_over_a", mb[k] / ma[i]);
			hd_json_num(&c->j, "a_iops", oa[i]);
			hd_json_num(&c->j, "b_iops", ob[k]);
			hd_json_end(&c->j);
			break;
		}
	}
	hd_json_end(&c->j);
	return 0;
}

static int sec_zone(struct ctx *c, const struct hd_df *a, const struct hd_df *b)
{
	const struct hd_df *df[2] = { a, b };
	double mean[2];

	fprintf(c->txt, "\nZone (sequential read rate by position, MB/s):\n");
	for (int i = 0; i < 2; i++) {
		const double *r = num_col(c, df[i], "mb_s");
		double lo = INFINITY, hi = 0, sum = 0;
		size_t n = df[i]->nrows;

		if (!r)
			return -1;
		if (n == 0)
			return fail(c, "%s: no rows", df[i]->path);
		for (size_t k = 0; k < n; k++) {
			lo = fmin(lo, r[k]);
			hi = fmax(hi, r[k]);
			sum += r[k];
		}
		mean[i] = sum / (double)n;
		fprintf(c->txt, "  %c: outer %.2f, inner %.2f, highest %.2f, lowest %.2f, mean %.2f (%zu points)\n",
			c->s[i].name, r[0], r[n - 1], hi, lo, mean[i], n);
		hd_json_obj(&c->j, i ? "b" : "a");
		hd_json_num(&c->j, "outer_mb_s", r[0]);
		hd_json_num(&c->j, "inner_mb_s", r[n - 1]);
		hd_json_num(&c->j, "max_mb_s", hi);
		hd_json_num(&c->j, "min_mb_s", lo);
		hd_json_num(&c->j, "mean_mb_s", mean[i]);
		hd_json_end(&c->j);
	}
	fprintf(c->txt, "zone: B/A mean rate %.2f.\n", mean[1] / mean[0]);
	hd_json_num(&c->j, "b_over_a_mean", mean[1] / mean[0]);
	return 0;
}

/* ---- fit figures ---- */

static const struct {
	const char *path, *label, *fmt;
} fit_rows[] = {
	{ "rpm", "rpm", "%.1f" },
	{ "revolution_ms", "revolution (ms)", "%.3f" },
	{ "overhead_ms", "controller overhead (ms)", "%.3f" },
	{ "track_to_track_ms.value", "track-to-track seek (ms)", "%.3f" },
	{ "avg_seek_ms", "average seek (ms)", "%.3f" },
	{ "full_stroke_ms", "full-stroke seek (ms)", "%.3f" },
	{ "head_switch_ms.value", "head switch (ms)", "%.3f" },
	{ "write_settle_ms.value", "write settle (ms)", "%.3f" },
	{ "read_overhead_ms.value", "read overhead (ms)", "%.3f" },
	{ "write_overhead_ms.value", "write overhead (ms)", "%.3f" },
	{ "surfaces.value", "surfaces", "%.0f" },
	{ "zone_count.value", "zones", "%.0f" },
	{ "read_ahead.detected", "read-ahead", NULL },
	{ "read_ahead.bytes", "read-ahead (bytes)", "%.0f" },
	{ "readahead_bytes.value", "read-ahead extent (bytes)", "%.0f" },
	{ "cache_segments.value", "read cache segments", "%.0f" },
	{ "cache_segment_bytes.value", "segment size (bytes)", "%.0f" },
	{ "write_cache.detected", "write cache", NULL },
	{ "write_cache_bytes.value", "write cache (bytes)", "%.0f" },
};

/* One fit figure as text: a number, a boolean, a string, or "-" when null. */
static void fit_value(char *buf, size_t len, const struct hd_jv *fit, size_t row)
{
	const struct hd_jv *v;

	if (!fit) {
		snprintf(buf, len, "not fitted");
		return;
	}
	v = hd_jv_get(fit, fit_rows[row].path);
	if (!v || v->type == HD_JV_NULL)
		snprintf(buf, len, "-");
	else if (v->type == HD_JV_BOOL)
		snprintf(buf, len, "%s", v->num ? "yes" : "no");
	else if (v->type == HD_JV_STR)
		snprintf(buf, len, "%s", v->str);
	else if (v->type == HD_JV_NUM)
		snprintf(buf, len, fit_rows[row].fmt ? fit_rows[row].fmt : "%g", v->num);
	else
		snprintf(buf, len, "?");
}

static void sec_fit(struct ctx *c)
{
	const struct hd_jv *fit[2];

	for (int i = 0; i < 2; i++)
		fit[i] = hd_jv_get(c->s[i].summary, "fit");
	fprintf(c->txt, "\nFit (from each profile's summary.json):\n");
	hd_json_obj(&c->j, "fit");
	hd_json_bool(&c->j, "a_fitted", fit[0] != NULL);
	hd_json_bool(&c->j, "b_fitted", fit[1] != NULL);
	if (!fit[0] && !fit[1]) {
		fprintf(c->txt, "  not fitted (run 'hddscope fit DIR' on each profile)\n");
		hd_json_end(&c->j);
		return;
	}
	fprintf(c->txt, "  %-26s %14s %14s\n", "", "A", "B");
	hd_json_arr(&c->j, "rows");
	for (size_t r = 0; r < sizeof(fit_rows) / sizeof(fit_rows[0]); r++) {
		char va[64], vb[64];

		fit_value(va, sizeof(va), fit[0], r);
		fit_value(vb, sizeof(vb), fit[1], r);
		fprintf(c->txt, "  %-26s %14s %14s\n", fit_rows[r].label, va, vb);
		hd_json_obj(&c->j, NULL);
		hd_json_str(&c->j, "name", fit_rows[r].path);
		for (int i = 0; i < 2; i++) {
			const struct hd_jv *v = hd_jv_get(fit[i], fit_rows[r].path);
			if (v)
				hd_jv_emit(&c->j, i ? "b" : "a", v);
			else
				hd_json_null(&c->j, i ? "b" : "a");
		}
		hd_json_end(&c->j);
	}
	hd_json_end(&c->j);
	hd_json_end(&c->j);
}

/* ---- the two directories ---- */

static int load_side(struct ctx *c, struct side *s)
{
	char path[4096], err[512];
	int found = 0;

	snprintf(path, sizeof(path), "%s/summary.json", s->dir);
	if (access_ok(path) && hd_jv_load(path, &s->summary, err, sizeof(err)))
		return fail(c, "%s", err);
	for (size_t t = 0; t < HD_PF_COUNT; t++) {
		const char *test;

		if (!tests[t].section)
			continue;
		snprintf(path, sizeof(path), "%s/%s.tsv", s->dir, hd_profile_files[t].name);
		if (!access_ok(path))
			continue;
		if (hd_df_read(path, &s->df[t], err, sizeof(err)))
			return fail(c, "%s", err);
		test = hd_df_meta(s->df[t], "test");
		if (!test || strcmp(test, hd_profile_files[t].test) != 0)
			return fail(c, "%s: test is '%s', expected '%s'", path, test ? test : "", hd_profile_files[t].test);
		if (!found++) {
			const char *m = hd_df_meta(s->df[t], "model"), *d = hd_df_meta(s->df[t], "device");
			snprintf(s->model, sizeof(s->model), "%s", m && strcmp(m, "unknown") ? m : d ? d : s->dir);
		}
	}
	if (!found)
		return fail(c, "%s: no data files of a profile (seek-read.tsv, response.tsv, ...)", s->dir);
	return 0;
}

/*
 * The revolution behind the outlier rule: the fit's when there is one,
 * otherwise the width of the rotational band of the seek reads (or of the
 * response reads).
 */
static void revolution(struct ctx *c, struct side *s)
{
	static const struct { size_t test; const char *source; } from[] = {
		{ HD_PF_SEEK_READ, "band of seek-read" }, { HD_PF_RESPONSE, "band of response reads" },
	};

	s->rev_ms = hd_jv_num(s->summary, "fit.revolution_ms", NAN);
	s->rev_source = "fit";
	for (size_t k = 0; !(s->rev_ms > 0) && k < sizeof(from) / sizeof(from[0]); k++) {
		struct pts p;

		if (!s->df[from[k].test] || select_pts(c, s->df[from[k].test], "distance_bytes", "read", 0, &p))
			continue;
		s->rev_ms = hd_cmp_band_rev(p.d, p.lat, p.n, c->o->bins_per_decade);
		s->rev_source = from[k].source;
		pts_free(&p);
	}
	if (!(s->rev_ms > 0)) {
		s->rev_ms = NAN;
		s->rev_source = "unknown";
	}
}

static void side_json(struct hd_json *j, const char *key, const struct side *s)
{
	const char *d = hd_jv_str(s->summary, "device.path");

	hd_json_obj(j, key);
	hd_json_str(j, "dir", s->dir);
	hd_json_str(j, "model", s->model);
	hd_json_str(j, "device", d);
	hd_json_num(j, "capacity_bytes", hd_jv_num(s->summary, "device.capacity_bytes", NAN));
	hd_json_bool(j, "fitted", hd_jv_get(s->summary, "fit") != NULL);
	hd_json_end(j);
}

static void method_json(struct hd_json *j, const struct hd_cmp_opts *o, int across)
{
	hd_json_obj(j, "method");
	hd_json_str(j, "typical", "mid-decile (p10 + p90) / 2 of media samples per bin");
	hd_json_int(j, "bins_per_decade", o->bins_per_decade);
	hd_json_uint(j, "min_samples", o->min_samples);
	hd_json_num(j, "min_rel_diff", o->min_rel);
	hd_json_int(j, "bootstrap_resamples", o->resamples);
	hd_json_num(j, "confidence", o->confidence);
	hd_json_num(j, "familywise_error_rate", o->alpha);
	hd_json_str(j, "correction", across ? "Holm, over every test of a section in all the pairs compared together"
					    : "Holm, over every test of a section");
	hd_json_uint(j, "seed", o->seed);
	hd_json_end(j);
}

/* Open outdir/bins-<name>.tsv for test t. */
static int open_bins(struct ctx *c, size_t t)
{
	char path[4096];
	int rc;

	snprintf(path, sizeof(path), "%s/bins-%s.tsv", c->outdir, hd_profile_files[t].name);
	rc = hd_dfw_open(&c->bins, path, "compare-bins");
	if (rc)
		return fail(c, "create %s: %s", path, hd_fs_strerror(rc));
	hd_dfw_meta(c->bins, "compared", "%s", hd_profile_files[t].name);
	hd_dfw_meta(c->bins, "a_dir", "%s", c->s[0].dir);
	hd_dfw_meta(c->bins, "a_model", "%s", c->s[0].model);
	hd_dfw_meta(c->bins, "b_dir", "%s", c->s[1].dir);
	hd_dfw_meta(c->bins, "b_model", "%s", c->s[1].model);
	hd_dfw_meta(c->bins, "typical", "mid-decile (p10 + p90) / 2");
	hd_dfw_columns(c->bins, "op direction distance_bytes lo_bytes hi_bytes a_samples b_samples a_ms b_ms "
			       "diff_ms diff_ci_lo_ms diff_ci_hi_ms pct faster");
	return 0;
}

static int close_bins(struct ctx *c)
{
	const char *call = "";
	int rc = hd_dfw_finish(c->bins, 1, &call);

	c->bins = NULL;
	return rc ? fail(c, "%s bins file in %s: %s", call, c->outdir, hd_fs_strerror(rc)) : 0;
}

static void write_header(struct ctx *c)
{
	fprintf(c->txt, "hddscope compare\n");
	for (int i = 0; i < 2; i++)
		fprintf(c->txt, "%c: %s (%s)\n", c->s[i].name, c->s[i].model, c->s[i].dir);
	fprintf(c->txt, "\nMethod: media samples are binned by |distance| (%d bins per decade); a bin's typical\n"
		"latency is its mid-decile (p10 + p90) / 2, which for latencies spread evenly over a\n"
		"revolution is about 2.4 times as precise as the median and ignores 10%% outliers on each side.\n"
		"Each bin's difference has a bootstrap standard error (%d resamples), a %.0f%% interval and a\n"
		"p-value; a drive is called faster in a bin when the difference is at least %.0f%% and Holm's\n"
		"correction over every bin of the section (every direction and operation; the stability tests\n"
		"are a family of their own) rejects \"no difference\" at a family-wise error rate of %g%%: a drive compared\n"
		"with itself gets a clear difference in a section at most that often.  Where no drive is called,\n"
		"the findings give the largest difference the intervals leave open.  A crossover is where the\n"
		"faster drive changes: the zero of a line fitted to the difference around it.\n",
		c->o->bins_per_decade, c->o->resamples, c->o->confidence * 100, c->o->min_rel * 100, c->o->alpha * 100);
	if (c->cut)
		fprintf(c->txt, "This pair is one of several compared together: each section's family (and its stability\n"
			"tests') holds the tests of every pair, so that all the findings together keep that rate.\n");
}

static int compare_tests(struct ctx *c, const char *chart_ext, struct hd_compare_result *res)
{
	for (size_t t = 0; t < HD_PF_COUNT; t++) {
		if (!c->s[0].df[t] || !c->s[1].df[t])
			continue;
		if (tests[t].bins && open_bins(c, t))
			return -1;
		hd_json_obj(&c->j, hd_profile_files[t].name);
		c->findings = 0;
		c->t = t;
		c->sec = *c->base;
		c->sec.have_cut = c->cut != NULL;
		c->sec.cut = c->cut ? c->cut[t][0] : -1;
		c->o = &c->sec;
		if (tests[t].section(c, c->s[0].df[t], c->s[1].df[t])) {
			if (c->bins)
				hd_dfw_abort(c->bins);
			c->bins = NULL;
			return -1;
		}
		hd_json_uint(&c->j, "clear_differences", c->findings);
		hd_json_end(&c->j);
		res->findings[res->ntests] = c->findings;
		for (int f = 0; f < 2; f++) {
			res->p[res->ntests][f] = c->fp[f];
			res->np[res->ntests][f] = c->fn[f];
			c->fp[f] = NULL;
			c->fn[f] = c->fcap[f] = 0;
		}
		if (c->bins && close_bins(c))
			return -1;
		res->tests[res->ntests] = hd_profile_files[t].name;
		res->scripts[res->ntests] = tests[t].script;
		res->has_bins[res->ntests++] = tests[t].bins;
	}
	if (res->ntests == 0)
		return fail(c, "%s and %s have no data file in common", c->s[0].dir, c->s[1].dir);
	sec_fit(c);
	hd_json_arr(&c->j, "charts");
	for (size_t t = 0; chart_ext && t < res->ntests; t++) {
		char name[128];
		snprintf(name, sizeof(name), "charts/%s-side.%s", res->tests[t], chart_ext);
		hd_json_str(&c->j, NULL, name);
		snprintf(name, sizeof(name), "charts/%s-overlay.%s", res->tests[t], chart_ext);
		hd_json_str(&c->j, NULL, name);
	}
	hd_json_end(&c->j);
	return 0;
}

/* Write a file through a temporary name under fsutil's output rule, as data files are. */
static FILE *open_tmp(struct ctx *c, const char *name, char **tmp)
{
	char path[4096];
	FILE *f;
	int rc;

	snprintf(path, sizeof(path), "%s/%s", c->outdir, name);
	rc = hd_out_fopen(path, &f, tmp);
	if (rc) {
		fail(c, "create %s: %s", path, hd_fs_strerror(rc));
		return NULL;
	}
	return f;
}

static int close_tmp(struct ctx *c, FILE *f, char *tmp, const char *name)
{
	char path[4096];
	const char *call;
	int rc;

	snprintf(path, sizeof(path), "%s/%s", c->outdir, name);
	rc = hd_out_fclose(f, tmp, path, &call);
	return rc ? fail(c, "%s %s: %s", call, path, hd_fs_strerror(rc)) : 0;
}

void hd_compare_result_free(struct hd_compare_result *res)
{
	for (size_t t = 0; t < HD_CMP_MAX_TESTS; t++)
		for (int f = 0; f < 2; f++) {
			free(res->p[t][f]);
			res->p[t][f] = NULL;
			res->np[t][f] = 0;
		}
}

int hd_compare_dirs(const char *dir_a, const char *dir_b, const char *outdir,
		    const struct hd_cmp_opts *o, const char *chart_ext,
		    struct hd_compare_result *res, char *err, size_t errlen)
{
	return hd_compare_dirs_cut(dir_a, dir_b, outdir, o, NULL, chart_ext, res, err, errlen);
}

int hd_compare_dirs_cut(const char *dir_a, const char *dir_b, const char *outdir,
			const struct hd_cmp_opts *o, const double (*cut)[2], const char *chart_ext,
			struct hd_compare_result *res, char *err, size_t errlen)
{
	struct ctx c = { .o = o, .base = o, .cut = cut, .outdir = outdir, .err = err, .errlen = errlen };
	char *tmp_txt = NULL, *tmp_json = NULL;
	FILE *fj = NULL;
	int rc = -1;

	memset(res, 0, sizeof(*res));
	c.s[0].dir = dir_a;
	c.s[0].name = 'A';
	c.s[1].dir = dir_b;
	c.s[1].name = 'B';
	if (load_side(&c, &c.s[0]) || load_side(&c, &c.s[1]))
		goto out;
	revolution(&c, &c.s[0]);
	revolution(&c, &c.s[1]);
	snprintf(res->model_a, sizeof(res->model_a), "%s", c.s[0].model);
	snprintf(res->model_b, sizeof(res->model_b), "%s", c.s[1].model);
	c.txt = open_tmp(&c, "findings.txt", &tmp_txt);
	if (!c.txt)
		goto out;
	fj = open_tmp(&c, "compare.json", &tmp_json);
	if (!fj)
		goto out;
	hd_json_init(&c.j, fj, 1);
	hd_json_obj(&c.j, NULL);
	hd_json_str(&c.j, "hddscope_version", HDDSCOPE_VERSION);
	side_json(&c.j, "a", &c.s[0]);
	side_json(&c.j, "b", &c.s[1]);
	method_json(&c.j, o, cut != NULL);
	write_header(&c);
	if (compare_tests(&c, chart_ext, res))
		goto out;
	hd_json_end(&c.j);
	fputc('\n', fj);
	rc = close_tmp(&c, c.txt, tmp_txt, "findings.txt");
	c.txt = NULL;
	tmp_txt = NULL;
	if (rc == 0) {
		rc = close_tmp(&c, fj, tmp_json, "compare.json");
		fj = NULL;
		tmp_json = NULL;
	}
out:
	if (c.txt || tmp_txt)
		hd_out_fdrop(c.txt, tmp_txt);
	if (fj || tmp_json)
		hd_out_fdrop(fj, tmp_json);
	free(c.fp[0]);
	free(c.fp[1]);
	if (rc)
		hd_compare_result_free(res);
	for (int i = 0; i < 2; i++) {
		hd_jv_free(c.s[i].summary);
		for (size_t t = 0; t < HD_PF_COUNT; t++)
			hd_df_free(c.s[i].df[t]);
	}
	return rc;
}
