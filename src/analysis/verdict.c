/*
 * The verdict's decision: PASS, WARN or FAIL for deployment, from a
 * profile directory's data files (never the device) and the drive's SMART
 * data.  Every rule has a documented default that --rule NAME=VALUE or a
 * rules file overrides, and every reason comes with the figure behind it.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hddscope/compare.h"
#include "hddscope/datafile.h"
#include "hddscope/evidence.h"
#include "hddscope/json.h"
#include "hddscope/profile_files.h"
#include "hddscope/stats.h"
#include "hddscope/verdict.h"

/* The rules, their defaults and what they mean (verdict --help prints them). */
struct hd_verdict_rule hd_verdict_rules[HD_VERDICT_NRULES] = {
	{ "write_slow_ok", HD_WRITE_SLOW_OK * 100, "% of writes slower than their distance's p10 by more than 1.1 revolutions: healthy up to" },
	{ "write_slow_warn", HD_WRITE_SLOW_UNSTABLE * 100, "... unstable (WARN) from" },
	{ "write_slow_fail", 1.2, "... and FAIL, once told unstable, at" },
	{ "write_risk_warn", HD_WRITE_RISK_ALPHA * 100, "% chance that a healthy drive is told unstable (the sequential test's error rate)" },
	{ "write_risk_pass", HD_WRITE_RISK_BETA * 100, "% chance that an unstable drive is told healthy" },
	{ "write_p99_p50_warn", 2.0, "p99/p50 of write response at equal distances (median over distances): WARN at" },
	{ "write_p99_p50_fail", 3.0, "... and FAIL at" },
	{ "stall_warn_ms", 100, "a single small access slower than this (ms) is a stall: WARN" },
	{ "stall_fail_ms", 1000, "... and slower than this (ms): FAIL" },
	{ "errors_fail", 1, "failed accesses (I/O errors of any kind): FAIL at this many" },
	{ "bad_sectors_warn", 1, "SMART bad sectors (reallocated + pending): WARN at" },
	{ "bad_sectors_fail", 100, "... and FAIL at" },
	{ "temperature_warn_c", 50, "SMART temperature (C): WARN at" },
	{ "temperature_fail_c", 60, "... and FAIL at" },
	{ "min_write_samples", 200, "fewer write response samples than this: WARN, not enough evidence" },
};
static double rule(const char *name)
{
	for (size_t i = 0; i < HD_VERDICT_NRULES; i++)
		if (strcmp(hd_verdict_rules[i].name, name) == 0)
			return hd_verdict_rules[i].value;
	return NAN;
}

const char *hd_verdict_level_name(enum hd_verdict_level l)
{
	static const char *const name[] = { "PASS", "WARN", "FAIL", "INFO" };

	return name[l];
}

void hd_verdict_add(struct hd_verdict *v, const char *rulename, enum hd_verdict_level l, double figure, double limit,
		    const char *fmt, ...)
{
	struct hd_verdict_reason *r;
	va_list ap;

	if (v->n == sizeof(v->r) / sizeof(v->r[0]))
		return;
	r = &v->r[v->n++];
	r->rule = rulename;
	r->level = l;
	r->figure = figure;
	r->limit = limit;
	va_start(ap, fmt);
	vsnprintf(r->text, sizeof(r->text), fmt, ap);
	va_end(ap);
	if (l != HD_VERDICT_INFO && l > v->overall)
		v->overall = l;
}

/* Level of a figure against warn and fail limits. */
static enum hd_verdict_level grade(double x, const char *warn, const char *fail)
{
	return x >= rule(fail) ? HD_VERDICT_FAIL : x >= rule(warn) ? HD_VERDICT_WARN : HD_VERDICT_PASS;
}

/* Read DIR/NAME.tsv when it exists: 1 read, 0 absent, -1 malformed (with err). */
static int load(const char *dir, const char *name, struct hd_df **df, char *err, size_t errlen)
{
	char path[4096];

	*df = NULL;
	snprintf(path, sizeof(path), "%s/%s.tsv", dir, name);
	if (access(path, F_OK) != 0)
		return 0;
	if (hd_df_read(path, df, err, errlen))
		return -1;
	return 1;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Pairs (dist, lat) sorted by distance, then latency, into sd and sl. */
static void sort_pairs(const double *dist, const double *lat, size_t n, double *sd, double *sl)
{
	double (*pairs)[2] = malloc((n ? n : 1) * sizeof(*pairs));

	for (size_t i = 0; pairs && i < n; i++) {
		pairs[i][0] = dist[i];
		pairs[i][1] = lat[i];
	}
	if (pairs)
		qsort(pairs, n, sizeof(*pairs), cmp_d);
	for (size_t i = 0; i < n; i++) {
		sd[i] = pairs ? pairs[i][0] : dist[i];
		sl[i] = pairs ? pairs[i][1] : lat[i];
	}
	free(pairs);
}

/* The writes of response.tsv in file order (the order they were taken): |distance| and latency. */
static size_t write_samples(const struct hd_df *df, double *dist, double *lat)
{
	const struct hd_df_col *d = hd_df_col(df, "distance_bytes"), *l = hd_df_col(df, "latency_ms");
	const struct hd_df_col *op = hd_df_col(df, "op"), *cls = hd_df_col(df, "class");
	size_t n = 0;

	for (size_t i = 0; i < df->nrows; i++)
		/* An unknown write's time may be another write's destaging, or come from a head not placed. */
		if (strcmp(hd_df_str(op, i), "write") == 0 && strcmp(hd_df_str(cls, i), "error") != 0 &&
		    strcmp(hd_df_str(cls, i), "unknown") != 0) {
			dist[n] = fabs(d->num[i]);
			lat[n++] = l->num[i];
		}
	return n;
}

/* The median over distances (of 5 samples or more) of p99/p50 of n writes sorted by distance; NAN without one. */
static double spread_ratio(const double *dist, const double *lat, size_t n, size_t *groups)
{
	double *x = malloc((n ? n : 1) * sizeof(*x)), *ratios = malloc((n ? n : 1) * sizeof(*ratios)), r = NAN;

	*groups = 0;
	for (size_t a = 0, b; x && ratios && a < n; a = b) {
		double med;

		for (b = a; b < n && dist[b] == dist[a]; b++)
			x[b - a] = lat[b];
		hd_sort_doubles(x, b - a);
		med = hd_percentile_sorted(x, b - a, 50);
		if (b - a >= 5 && med > 0)
			ratios[(*groups)++] = hd_percentile_sorted(x, b - a, 99) / med;
	}
	if (*groups) {
		hd_sort_doubles(ratios, *groups);
		r = hd_percentile_sorted(ratios, *groups, 50);
	}
	free(x);
	free(ratios);
	return r;
}

/*
 * The slow-write decision: each write slower than its distance's p10 by
 * more than 1.1 revolutions is slow; Wald's sequential test, fed the writes
 * in the order they were taken, tells a healthy rate (write_slow_ok) from
 * an unstable one (write_slow_warn) at the error rates of the rules, or
 * cannot within the writes there are.
 */
static void rule_write_slow(struct hd_verdict *v, const double *dist, const double *lat, size_t n, double rev_ms,
			    const char *rev_from)
{
	struct hd_write_test w = { rev_ms, rule("write_slow_ok") / 100, rule("write_slow_warn") / 100,
				   rule("write_risk_warn") / 100, rule("write_risk_pass") / 100 };
	double lo, hi, pct;
	uint64_t k = 0;
	struct hd_sprt t;
	enum hd_verdict_level l;
	char what[400];

	if (hd_write_decide(&w, dist, lat, n, &t, &k)) {
		hd_verdict_add(v, "write_slow", HD_VERDICT_WARN, NAN, NAN, "write response: out of memory");
		return;
	}
	pct = 100.0 * (double)k / (double)n;
	hd_wilson(k, n, 1.959964, &lo, &hi);
	snprintf(what, sizeof(what), "%.2f%% of writes (%" PRIu64 " of %zu; 95%% interval %.2f-%.2f%%) slower than "
		 "their distance's p10 by more than 1.1 revolutions (%.3f ms, %s)", pct, k, n, lo * 100, hi * 100,
		 rev_ms, rev_from);
	if (t.decision == HD_SPRT_UNDECIDED) {
		hd_verdict_add(v, "write_slow", HD_VERDICT_WARN, pct, rule("write_slow_warn"),
		    "write response undecided: %s; %zu writes cannot tell healthy (%.2f%% or less) from unstable "
		    "(%.2f%% or more) at error rates %g%% and %g%%: measure more (response --write --sync --write-cap N)", what, n,
		    rule("write_slow_ok"), rule("write_slow_warn"), rule("write_risk_warn"), rule("write_risk_pass"));
		return;
	}
	l = t.decision == HD_SPRT_H0 ? HD_VERDICT_PASS : pct >= rule("write_slow_fail") ? HD_VERDICT_FAIL : HD_VERDICT_WARN;
	hd_verdict_add(v, "write_slow", l, pct, rule(l == HD_VERDICT_FAIL ? "write_slow_fail" : "write_slow_warn"),
	    "write response %s: %s; %s (%.2f%% or %s) after %" PRIu64 " writes (sequential test, error rates %g%% and "
	    "%g%%); FAIL at %.2f%%", l == HD_VERDICT_PASS ? "stable" : "unstable", what,
	    l == HD_VERDICT_PASS ? "told healthy" : "told unstable",
	    l == HD_VERDICT_PASS ? rule("write_slow_ok") : rule("write_slow_warn"), l == HD_VERDICT_PASS ? "less" : "more",
	    t.decided_at, rule("write_risk_warn"), rule("write_risk_pass"), rule("write_slow_fail"));
}

/* Write response stability from response.tsv: the slow writes, and p99/p50 per distance. */
static void rule_write_response(struct hd_verdict *v, const struct hd_df *df, double rev_ms, const char *rev_from)
{
	const struct hd_df_col *d = hd_df_col(df, "distance_bytes"), *lat = hd_df_col(df, "latency_ms");
	const struct hd_df_col *op = hd_df_col(df, "op"), *cls = hd_df_col(df, "class");
	double *dist, *ms, *sd, *sl, ratio;
	size_t n, nr;

	if (!d || !lat || !op || !cls || op->type != HD_COL_STR || cls->type != HD_COL_STR || d->type != HD_COL_NUM ||
	    lat->type != HD_COL_NUM) {
		hd_verdict_add(v, "write_response", HD_VERDICT_WARN, NAN, NAN,
			       "write response not measured (response.tsv has no write columns)");
		return;
	}
	dist = malloc((df->nrows + 1) * sizeof(*dist));
	ms = malloc((df->nrows + 1) * sizeof(*ms));
	sd = malloc((df->nrows + 1) * sizeof(*sd));
	sl = malloc((df->nrows + 1) * sizeof(*sl));
	if (!dist || !ms || !sd || !sl)
		goto out;
	n = write_samples(df, dist, ms);
	if ((double)n < rule("min_write_samples")) {
		hd_verdict_add(v, "write_response", HD_VERDICT_WARN, (double)n, rule("min_write_samples"),
		    "write response not measured%s (%zu write samples; profile with --write)", n ? " enough" : "", n);
		goto out;
	}
	rule_write_slow(v, dist, ms, n, rev_ms, rev_from);
	sort_pairs(dist, ms, n, sd, sl);
	ratio = spread_ratio(sd, sl, n, &nr);
	if (nr) {
		enum hd_verdict_level l = grade(ratio, "write_p99_p50_warn", "write_p99_p50_fail");
		hd_verdict_add(v, "write_p99_p50", l, ratio, rule(l == HD_VERDICT_FAIL ? "write_p99_p50_fail" : "write_p99_p50_warn"),
		    "write response spread: p99/p50 %.2f at equal distances (median over %zu distances); limits %.2f "
		    "warn, %.2f fail", ratio, nr, rule("write_p99_p50_warn"), rule("write_p99_p50_fail"));
	}
out:
	free(dist);
	free(ms);
	free(sd);
	free(sl);
}

/* The slowest single access of the small-block, one-at-a-time probes. */
static void rule_stalls(struct hd_verdict *v, struct hd_df *const *dfs)
{
	double worst = 0, fail = rule("stall_fail_ms"), warn = rule("stall_warn_ms");
	size_t over_warn = 0, over_fail = 0, seen = 0;
	const char *where = NULL;
	double where_off = NAN;

	for (size_t f = 0; f < HD_PF_COUNT; f++) {
		const struct hd_df_col *lat, *off;

		if (!(hd_profile_files[f].flags & HD_PF_ACCESSES))
			continue;
		lat = dfs[f] ? hd_df_col(dfs[f], "latency_ms") : NULL;
		off = dfs[f] ? hd_df_col(dfs[f], "offset_bytes") : NULL;
		if (!lat || lat->type != HD_COL_NUM)
			continue;
		seen++;
		for (size_t i = 0; i < dfs[f]->nrows; i++) {
			double x = lat->num[i];

			over_warn += x >= warn;
			over_fail += x >= fail;
			if (x > worst) {
				worst = x;
				where = hd_profile_files[f].name;
				where_off = off && off->type == HD_COL_NUM ? off->num[i] : NAN;
			}
		}
	}
	if (!seen) {
		hd_verdict_add(v, "stalls", HD_VERDICT_WARN, NAN, NAN, "stalls not measured (no seek, response or interval data)");
		return;
	}
	{
		enum hd_verdict_level l = worst >= fail ? HD_VERDICT_FAIL : worst >= warn ? HD_VERDICT_WARN : HD_VERDICT_PASS;
		char at[80] = "";

		if (where && !isnan(where_off))
			snprintf(at, sizeof(at), " at offset %.0f", where_off);
		hd_verdict_add(v, "stalls", l, worst, l == HD_VERDICT_FAIL ? fail : warn,
		    "%s: slowest access %.1f ms (%s%s); %zu accesses of %.0f ms or more, %zu of %.0f ms or more",
		    l == HD_VERDICT_PASS ? "no stalls" : "stalls", worst, where ? where : "-", at, over_warn, warn, over_fail, fail);
	}
}

/*
 * Is file f queue.tsv, whose sums cover the requests queue-requests.tsv
 * lists row by row?  Those are counted from their rows, and once.
 */
static int sums_listed_requests(struct hd_df *const *dfs, size_t f)
{
	return f == HD_PF_QUEUE && dfs[HD_PF_QUEUE_REQUESTS];
}

/* Failed accesses in every data file, with the offsets where the file names them. */
static void rule_errors(struct hd_verdict *v, struct hd_df *const *dfs)
{
	char list[400] = "";
	size_t len = 0, listed = 0;
	uint64_t total = 0;

	for (size_t f = 0; f < HD_PF_COUNT; f++) {
		double at[12];
		size_t k;

		if (!dfs[f] || sums_listed_requests(dfs, f))
			continue;
		total += hd_evidence_error_count(dfs[f]);
		k = hd_evidence_error_offsets(dfs[f], at, 12);
		for (size_t i = 0; i < k && i < 12 && listed < 12 && len < sizeof(list) - 40; i++, listed++)
			len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s@%.0f", listed ? ", " : "",
						hd_profile_files[f].name, at[i]);
	}
	if (total >= rule("errors_fail"))
		hd_verdict_add(v, "errors", HD_VERDICT_FAIL, (double)total, rule("errors_fail"),
			       "I/O errors: %" PRIu64 " failed accesses%s%s%s", total, listed ? " (" : "", list,
			       listed ? (total > listed ? ", ...)" : ")") : "");
	else
		hd_verdict_add(v, "errors", total ? HD_VERDICT_WARN : HD_VERDICT_PASS, (double)total, rule("errors_fail"),
		    "I/O errors: %" PRIu64 " failed accesses", total);
}

static void rule_smart(struct hd_verdict *v, const struct hd_verdict_smart *id, const char *from)
{
	if (!id) {
		hd_verdict_add(v, "smart", HD_VERDICT_INFO, NAN, NAN, "SMART: not available (%s)", from);
		return;
	}
	if (!id->available) {
		hd_verdict_add(v, "smart", HD_VERDICT_INFO, NAN, NAN, "SMART: not available (%s)", id->reason);
		return;
	}
	hd_verdict_add(v, "smart_overall", strcmp(id->overall, "GOOD") ? HD_VERDICT_FAIL : HD_VERDICT_PASS, NAN, NAN,
	    "SMART overall assessment: %s (%s)", id->overall, from);
	if (id->have_bad) {
		enum hd_verdict_level l = grade((double)id->bad_sectors, "bad_sectors_warn", "bad_sectors_fail");
		hd_verdict_add(v, "bad_sectors", l, (double)id->bad_sectors,
			       rule(l == HD_VERDICT_FAIL ? "bad_sectors_fail" : "bad_sectors_warn"),
		    "SMART bad sectors: %" PRIu64 "; limits %.0f warn, %.0f fail", id->bad_sectors,
		    rule("bad_sectors_warn"), rule("bad_sectors_fail"));
	}
	if (id->have_temp) {
		enum hd_verdict_level l = grade(id->temperature_c, "temperature_warn_c", "temperature_fail_c");
		hd_verdict_add(v, "temperature", l, id->temperature_c,
		    rule(l == HD_VERDICT_FAIL ? "temperature_fail_c" : "temperature_warn_c"),
		    "SMART temperature: %.0f C; limits %.0f warn, %.0f fail", id->temperature_c,
		    rule("temperature_warn_c"), rule("temperature_fail_c"));
	}
}

int hd_verdict_smart_from_summary(const struct hd_jv *sum, struct hd_verdict_smart *id)
{
	const struct hd_jv *sm = sum ? hd_jv_get(sum, "device.smart") : NULL;
	const char *s;

	if (!sm)
		return -1;
	memset(id, 0, sizeof(*id));
	snprintf(id->overall, sizeof(id->overall), "unknown");
	id->available = hd_jv_num(sm, "available", 0) != 0;
	if ((s = hd_jv_str(sm, "reason")))
		snprintf(id->reason, sizeof(id->reason), "%s", s);
	if ((s = hd_jv_str(sm, "overall")))
		snprintf(id->overall, sizeof(id->overall), "%s", s);
	if (hd_jv_get(sm, "bad_sectors")) {
		id->have_bad = 1;
		id->bad_sectors = (uint64_t)hd_jv_num(sm, "bad_sectors", 0);
	}
	if (hd_jv_get(sm, "temperature_c")) {
		id->have_temp = 1;
		id->temperature_c = hd_jv_num(sm, "temperature_c", 0);
	}
	return 0;
}

int hd_verdict_load(const char *dir, struct hd_verdict_input *in, char *err, size_t errlen)
{
	char path[4096];
	int nfiles = 0;

	memset(in, 0, sizeof(*in));
	for (size_t i = 0; i < HD_PF_COUNT; i++) {
		int r = load(dir, hd_profile_files[i].name, &in->df[i], err, errlen);

		if (r < 0)
			return -1;
		nfiles += r;
	}
	if (!nfiles) {
		snprintf(err, errlen, "%s: no hddscope data files (run hddscope profile -o %s first)", dir, dir);
		return -1;
	}
	snprintf(path, sizeof(path), "%s/summary.json", dir);
	if (access(path, F_OK) == 0 && hd_jv_load(path, &in->summary, err, errlen))
		return -1;
	return 0;
}

void hd_verdict_input_free(struct hd_verdict_input *in)
{
	for (size_t i = 0; i < HD_PF_COUNT; i++) {
		hd_df_free(in->df[i]);
		in->df[i] = NULL;
	}
	hd_jv_free(in->summary);
	in->summary = NULL;
}

/* The width of the rotational band of response.tsv's media reads (hd_cmp_band_rev); NAN without it. */
static double read_band(const struct hd_df *df)
{
	const struct hd_df_col *d = hd_df_col(df, "distance_bytes"), *lat = hd_df_col(df, "latency_ms");
	const struct hd_df_col *op = hd_df_col(df, "op"), *cls = hd_df_col(df, "class");
	double *x, *y, band = NAN;
	size_t n = 0;

	if (!d || !lat || !op || !cls || d->type != HD_COL_NUM || lat->type != HD_COL_NUM)
		return NAN;
	x = malloc((df->nrows + 1) * sizeof(*x));
	y = malloc((df->nrows + 1) * sizeof(*y));
	for (size_t i = 0; x && y && i < df->nrows; i++)
		if (strcmp(hd_df_str(op, i), "read") == 0 && strcmp(hd_df_str(cls, i), "media") == 0 && d->num[i] != 0) {
			x[n] = fabs(d->num[i]);
			y[n++] = lat->num[i];
		}
	if (x && y)
		band = hd_cmp_band_rev(x, y, n, 8);
	free(x);
	free(y);
	return band;
}

/* The revolution: as fitted, else as the drive says, else assumed; *from says which. */
static double revolution(const struct hd_verdict_input *in, const char **from)
{
	double rev = hd_jv_num(in->summary, "fit.revolution_ms", 0);

	if (in->summary && rev > 0) {
		*from = "fitted";
		return rev;
	}
	for (size_t i = 0; i < HD_PF_COUNT; i++) {
		const char *r = in->df[i] ? hd_df_meta(in->df[i], "rpm_nominal") : NULL;

		if (r && atof(r) > 1000) {
			*from = "from the nominal rpm";
			return 60000.0 / atof(r);
		}
	}
	*from = "nominal 7200 rpm, assumed";
	return 60000.0 / 7200;
}

/* Does any media row of df have op? */
static int has_writes(const struct hd_df *df)
{
	const struct hd_df_col *op = hd_df_col(df, "op");

	for (size_t i = 0; op && op->type == HD_COL_STR && i < df->nrows; i++)
		if (strcmp(hd_df_str(op, i), "write") == 0)
			return 1;
	return 0;
}

/*
 * Why the write response cannot be judged, into why (empty when it can):
 * writes the drive's cache took say nothing of the mechanics, and a target
 * that does not rotate has no revolution to be slow by.
 */
static void cannot_judge(const struct hd_verdict_input *in, int rev_known, char *why, size_t len)
{
	const struct hd_df *r = in->df[HD_PF_RESPONSE];
	const char *sync = r ? hd_df_meta(r, "sync_writes") : NULL, *wc = r ? hd_df_meta(r, "write_cache") : NULL;

	why[0] = '\0';
	for (size_t i = 0; i < HD_PF_COUNT; i++) {
		const char *rot = in->df[i] ? hd_df_meta(in->df[i], "rotational") : NULL;
		if (rot && strcmp(rot, "no") == 0) {
			snprintf(why, len, "the target does not rotate (%s says rotational: no): write stability is "
				 "judged by revolutions", in->df[i]->path);
			return;
		}
	}
	if (!r || !has_writes(r))
		return;
	if ((!sync || strcmp(sync, "yes") != 0) && (!wc || strcmp(wc, "off") != 0)) {
		snprintf(why, len, "the writes of %s went through the drive's write cache (sync_writes: %s, write_cache: "
			 "%s), which hides what the mechanics do; profile with --write, whose response writes use --sync",
			 r->path, sync ? sync : "unknown", wc ? wc : "unknown");
		return;
	}
	if (!rev_known) {
		double band = read_band(r);

		if (!(band >= 1.0))
			snprintf(why, len, "no rotation found: the response reads of %s spread over %.3f ms, less than "
				 "the revolution of any spinning disk (1 ms at least), and neither a fit nor the drive "
				 "gives one", r->path, band);
	}
}

void hd_verdict_judge(const struct hd_verdict_input *in, const struct hd_verdict_smart *sm, const char *smart_from,
		      struct hd_verdict *v)
{
	const char *rev_from;
	double rev_ms = revolution(in, &rev_from);

	memset(v, 0, sizeof(*v));
	cannot_judge(in, strcmp(rev_from, "nominal 7200 rpm, assumed") != 0, v->cannot, sizeof(v->cannot));
	if (v->cannot[0])
		hd_verdict_add(v, "write_response", HD_VERDICT_INFO, NAN, NAN, "write response not judged: %s", v->cannot);
	else if (in->df[HD_PF_RESPONSE])
		rule_write_response(v, in->df[HD_PF_RESPONSE], rev_ms, rev_from);
	else
		hd_verdict_add(v, "write_response", HD_VERDICT_WARN, NAN, NAN,
		    "write response not measured (no response.tsv; profile with --write)");
	rule_stalls(v, in->df);
	rule_errors(v, in->df);
	rule_smart(v, sm, smart_from);
}
