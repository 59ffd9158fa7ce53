/*
 * The burn-in's figures and decision (burnin.h): a round's response data
 * file read into its slow-write rate with its interval and its p50/p99 by
 * distance, and the verdict over the rounds.  A drive is flagged when the
 * later rounds write worse than the earlier ones (more slow writes, or a
 * higher write p99), when it is unstable by the verdict's own test, when
 * a SMART counter a burn-in watches moved, or when an access failed.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hddscope/burnin.h"
#include "hddscope/datafile.h"
#include "hddscope/stats.h"

const int hd_burnin_counter_attr[HD_BI_NCOUNTERS] = { 5, 197, 198, 199 };
const char *const hd_burnin_counter_name[HD_BI_NCOUNTERS] = {
	"reallocated_sectors", "pending_sectors", "offline_uncorrectable", "crc_errors",
};

struct hd_verdict_rule hd_burnin_rules[HD_BURNIN_NRULES] = {
	{ "burnin_slow_drift", 1.5,
	  "slow-write rate of the later half of the rounds over the earlier half, their intervals apart: FAIL at" },
	{ "burnin_slow_unstable", HD_WRITE_SLOW_UNSTABLE * 100,
	  "% of slow writes in the later half of the rounds (the lower end of its 95% interval): FAIL at" },
	{ "burnin_p99_drift", 1.25, "write p99 of the later half of the rounds over the earlier half: FAIL at" },
	{ "burnin_counter_moved", 1, "a SMART counter (reallocated, pending, offline uncorrectable, CRC) up by: FAIL at" },
};

static double rule(const char *name)
{
	for (size_t i = 0; i < HD_BURNIN_NRULES; i++)
		if (strcmp(hd_burnin_rules[i].name, name) == 0)
			return hd_burnin_rules[i].value;
	return NAN;
}

/* One access of a round: |distance|, latency, write or read. */
struct acc {
	double dist, lat;
	int write;
};

static int cmp_acc(const void *a, const void *b)
{
	const struct acc *x = a, *y = b;

	if (x->dist != y->dist)
		return (x->dist > y->dist) - (x->dist < y->dist);
	if (x->write != y->write)
		return x->write - y->write;
	return (x->lat > y->lat) - (x->lat < y->lat);
}

static double pct_or_nan(const double *sorted, size_t n, double p)
{
	return n ? hd_percentile_sorted(sorted, n, p) : NAN;
}

/* The median of the n values v (NANs left out); NAN when none is left. */
static double median_of(const double *v, size_t n)
{
	double *x = malloc((n ? n : 1) * sizeof(*x)), m = NAN;
	size_t k = 0;

	for (size_t i = 0; x && i < n; i++)
		if (!isnan(v[i]))
			x[k++] = v[i];
	if (k) {
		hd_sort_doubles(x, k);
		m = hd_percentile_sorted(x, k, 50);
	}
	free(x);
	return m;
}

/* The distances of a (sorted), each with its writes' and reads' p50/p99; then the round's medians. */
static int by_distance(struct hd_burnin_round *r, const struct acc *a, size_t n)
{
	double *lat = malloc((n ? n : 1) * sizeof(*lat)), *w50, *w99, *r50, *r99;
	size_t nd = 0;

	r->dist = calloc(n ? n : 1, sizeof(*r->dist));
	w50 = malloc(4 * (n ? n : 1) * sizeof(*w50));
	if (!lat || !r->dist || !w50) {
		free(lat);
		free(w50);
		return -1;
	}
	w99 = w50 + n;
	r50 = w99 + n;
	r99 = r50 + n;
	for (size_t i = 0, j; i < n; i = j) {
		struct hd_burnin_dist *d = &r->dist[nd];
		size_t nr = 0, nw;

		for (j = i; j < n && a[j].dist == a[i].dist; j++)
			lat[j - i] = a[j].lat;
		while (i + nr < j && !a[i + nr].write)
			nr++;
		nw = j - i - nr;
		d->dist_bytes = a[i].dist;
		d->reads = nr;
		d->writes = nw;
		d->read_p50_ms = pct_or_nan(lat, nr, 50);
		d->read_p99_ms = pct_or_nan(lat, nr, 99);
		d->write_p50_ms = pct_or_nan(lat + nr, nw, 50);
		d->write_p99_ms = pct_or_nan(lat + nr, nw, 99);
		/* A median over distances counts those with 5 samples or more. */
		w50[nd] = nw >= 5 ? d->write_p50_ms : NAN;
		w99[nd] = nw >= 5 ? d->write_p99_ms : NAN;
		r50[nd] = nr >= 5 ? d->read_p50_ms : NAN;
		r99[nd] = nr >= 5 ? d->read_p99_ms : NAN;
		nd++;
	}
	r->ndist = nd;
	r->write_p50_ms = median_of(w50, nd);
	r->write_p99_ms = median_of(w99, nd);
	r->read_p50_ms = median_of(r50, nd);
	r->read_p99_ms = median_of(r99, nd);
	free(lat);
	free(w50);
	return 0;
}

/* The slow writes among a round's n accesses a, in file order. */
static int count_slow(struct hd_burnin_round *r, const struct acc *a, size_t n)
{
	double *d = malloc((n ? n : 1) * sizeof(*d)), *l = malloc((n ? n : 1) * sizeof(*l));
	unsigned char *slow = malloc(n ? n : 1);
	size_t k = 0;
	int rc = -1;

	if (!d || !l || !slow)
		goto out;
	for (size_t i = 0; i < n; i++)
		if (a[i].write) {
			d[k] = a[i].dist;
			l[k++] = a[i].lat;
		}
	r->writes = k;
	if (hd_slow_flags(d, l, k, 1.1 * r->rev_ms, slow))
		goto out;
	r->slow = 0;
	for (size_t i = 0; i < k; i++)
		r->slow += slow[i] != 0;
	r->slow_rate = k ? (double)r->slow / (double)k : NAN;
	r->slow_lo = r->slow_hi = NAN;
	if (k)
		hd_wilson(r->slow, k, 1.959964, &r->slow_lo, &r->slow_hi);
	rc = 0;
out:
	free(d);
	free(l);
	free(slow);
	return rc;
}

/* The accesses of a response data file that count (media and cache rows); -1 with err. */
static int accesses(const struct hd_df *df, struct hd_burnin_round *r, struct acc **out, size_t *n, char *err,
		    size_t errlen)
{
	const struct hd_df_col *d = hd_df_col(df, "distance_bytes"), *l = hd_df_col(df, "latency_ms");
	const struct hd_df_col *op = hd_df_col(df, "op"), *cls = hd_df_col(df, "class");
	struct acc *a;

	*n = 0;
	if (!d || !l || !op || !cls) {
		snprintf(err, errlen, "%s: not a response data file (no distance_bytes, latency_ms, op or class column)",
			 df->path);
		return -1;
	}
	a = calloc(df->nrows ? df->nrows : 1, sizeof(*a));
	if (!a) {
		snprintf(err, errlen, "%s: out of memory", df->path);
		return -1;
	}
	for (size_t i = 0; i < df->nrows; i++) {
		const char *c = hd_df_str(cls, i);

		if (strcmp(c, "error") == 0)
			r->errors++;
		/* An unknown write's time may be another write's destaging: the verdict leaves them out too. */
		if (strcmp(c, "media") != 0 && strcmp(c, "cache") != 0)
			continue;
		a[*n].dist = fabs(d->num[i]);
		a[*n].lat = l->num[i];
		a[*n].write = strcmp(hd_df_str(op, i), "write") == 0;
		r->reads += !a[*n].write;
		(*n)++;
	}
	*out = a;
	return 0;
}

int hd_burnin_round_read(const char *path, struct hd_burnin_round *r, char *err, size_t errlen)
{
	struct hd_df *df;
	struct acc *a = NULL;
	const char *rpm, *complete;
	double v;
	size_t n;
	int rc = -1;

	r->dist = NULL;
	r->ndist = 0;
	r->writes = r->slow = r->reads = r->errors = 0;
	if (hd_df_read(path, &df, err, errlen))
		return -1;
	rpm = hd_df_meta(df, "rpm_nominal");
	r->rev_assumed = !(rpm && sscanf(rpm, "%lf", &v) == 1 && v > 1 && v < 1e6);
	r->rev_ms = r->rev_assumed ? 60000.0 / 7200 : 60000.0 / v;
	complete = hd_df_meta(df, "complete");
	r->complete = complete && strcmp(complete, "yes") == 0;
	if (accesses(df, r, &a, &n, err, errlen))
		goto out;
	if (count_slow(r, a, n)) {
		snprintf(err, errlen, "%s: out of memory", path);
		goto out;
	}
	qsort(a, n, sizeof(*a), cmp_acc);
	if (by_distance(r, a, n)) {
		snprintf(err, errlen, "%s: out of memory", path);
		goto out;
	}
	rc = 0;
out:
	free(a);
	hd_df_free(df);
	return rc;
}

void hd_burnin_round_free(struct hd_burnin_round *r)
{
	free(r->dist);
	r->dist = NULL;
	r->ndist = 0;
}

/* Slow writes pooled over rounds [a, b): *k of *n, the rate's 95% interval. */
static void pool(const struct hd_burnin_round *r, size_t a, size_t b, uint64_t *k, uint64_t *n, double *lo,
		 double *hi)
{
	*k = *n = 0;
	for (size_t i = a; i < b; i++) {
		*k += r[i].slow;
		*n += r[i].writes;
	}
	*lo = *hi = NAN;
	if (*n)
		hd_wilson(*k, *n, 1.959964, lo, hi);
}

/* The slow-write rate, the later half of the rounds against the earlier. */
static void judge_slow(const struct hd_burnin_round *r, size_t n, struct hd_verdict *v)
{
	size_t h = n / 2;
	uint64_t k1, n1, k2, n2;
	double lo1, hi1, lo2, hi2, p1, p2, lim = rule("burnin_slow_unstable"), by = rule("burnin_slow_drift");

	pool(r, 0, h, &k1, &n1, &lo1, &hi1);
	pool(r, n - h, n, &k2, &n2, &lo2, &hi2);
	if (!n1 || !n2) {
		hd_verdict_add(v, "burnin_slow_drift", HD_VERDICT_WARN, NAN, NAN, "slow writes: no writes to compare");
		return;
	}
	p1 = 100.0 * (double)k1 / (double)n1;
	p2 = 100.0 * (double)k2 / (double)n2;
	/*
	 * Apart and material: over days of rounds the intervals narrow until a
	 * drive warming up by a degree would part them.
	 */
	if (lo2 > hi1 && p2 >= by * p1)
		hd_verdict_add(v, "burnin_slow_drift", HD_VERDICT_FAIL, p1 > 0 ? p2 / p1 : INFINITY, by,
		    "slow-write rate drifted up: %.2f%% (%llu of %llu; 95%% interval %.2f-%.2f%%) in rounds %zu-%zu, "
		    "%.2f%% (%llu of %llu; %.2f-%.2f%%) in rounds %zu-%zu", p2, (unsigned long long)k2,
		    (unsigned long long)n2, lo2 * 100, hi2 * 100, n - h + 1, n, p1, (unsigned long long)k1,
		    (unsigned long long)n1, lo1 * 100, hi1 * 100, (size_t)1, h);
	else
		hd_verdict_add(v, "burnin_slow_drift", HD_VERDICT_PASS, p1 > 0 ? p2 / p1 : NAN, by,
		    "slow-write rate steady: %.2f%% (95%% interval %.2f-%.2f%%) in rounds %zu-%zu, %.2f%% "
		    "(%.2f-%.2f%%) in rounds 1-%zu", p2, lo2 * 100, hi2 * 100, n - h + 1, n, p1, lo1 * 100, hi1 * 100, h);
	if (lo2 * 100 >= lim)
		hd_verdict_add(v, "burnin_slow_unstable", HD_VERDICT_FAIL, lo2 * 100, lim,
		    "unstable writer: slow writes in rounds %zu-%zu at least %.2f%% (95%% interval), the limit %.2f%%",
		    n - h + 1, n, lo2 * 100, lim);
}

/* The median write p99 of rounds [a, b). */
static double p99_of(const struct hd_burnin_round *r, size_t a, size_t b)
{
	double *x = malloc((b - a + 1) * sizeof(*x)), m = NAN;

	for (size_t i = a; x && i < b; i++)
		x[i - a] = r[i].write_p99_ms;
	if (x)
		m = median_of(x, b - a);
	free(x);
	return m;
}

static void judge_p99(const struct hd_burnin_round *r, size_t n, struct hd_verdict *v)
{
	size_t h = n / 2;
	double a = p99_of(r, 0, h), b = p99_of(r, n - h, n), lim = rule("burnin_p99_drift"), q = b / a;

	if (!(a > 0) || isnan(b)) {
		hd_verdict_add(v, "burnin_p99_drift", HD_VERDICT_WARN, NAN, lim, "write p99: too few writes by distance to compare");
		return;
	}
	hd_verdict_add(v, "burnin_p99_drift", q >= lim ? HD_VERDICT_FAIL : HD_VERDICT_PASS, q, lim,
	    "write p99 %s: %.3f ms in rounds %zu-%zu, %.3f ms in rounds 1-%zu (x%.2f; FAIL at x%.2f)",
	    q >= lim ? "drifted up" : "steady", b, n - h + 1, n, a, h, q, lim);
}

/* Every counter that moved from before to the last round, with the round it first moved in. */
static void judge_smart(const struct hd_burnin_round *r, size_t n, const struct hd_burnin_smart *b,
			struct hd_verdict *v)
{
	const struct hd_burnin_smart *e = n ? &r[n - 1].smart : b;
	double lim = rule("burnin_counter_moved");
	int moved = 0;

	if (!b->available || !e->available) {
		hd_verdict_add(v, "burnin_smart", HD_VERDICT_WARN, NAN, NAN,
		    "SMART not available: reallocated, pending and CRC counters not watched");
		return;
	}
	for (int c = 0; c < HD_BI_NCOUNTERS; c++) {
		size_t first = 0;
		double d;

		if (!b->have[c] || !e->have[c])
			continue;
		d = (double)e->v[c] - (double)b->v[c];
		if (d < lim)
			continue;
		while (first < n && !(r[first].smart.have[c] && r[first].smart.v[c] > b->v[c]))
			first++;
		moved = 1;
		hd_verdict_add(v, "burnin_smart", HD_VERDICT_FAIL, d, lim, "SMART %s moved: %llu before, %llu after (+%.0f; first in "
		    "round %zu)", hd_burnin_counter_name[c], (unsigned long long)b->v[c], (unsigned long long)e->v[c], d,
		    first + 1);
	}
	if (!moved)
		hd_verdict_add(v, "burnin_smart", HD_VERDICT_PASS, 0, lim, "SMART counters steady (reallocated %llu, pending %llu, "
		    "offline uncorrectable %llu, CRC %llu)", (unsigned long long)e->v[0], (unsigned long long)e->v[1],
		    (unsigned long long)e->v[2], (unsigned long long)e->v[3]);
}

void hd_burnin_judge(const struct hd_burnin_round *r, size_t n, const struct hd_burnin_smart *before,
		     struct hd_verdict *v)
{
	uint64_t errors = 0;
	double tmax = NAN;

	memset(v, 0, sizeof(*v));
	for (size_t i = 0; i < n; i++) {
		errors += r[i].errors;
		if (!isnan(r[i].smart.temperature_c) && !(r[i].smart.temperature_c <= tmax))
			tmax = r[i].smart.temperature_c;
	}
	for (size_t i = 0; i < n; i++)
		if (r[i].rev_assumed) {
			hd_verdict_add(v, "burnin_revolution", HD_VERDICT_WARN, r[i].rev_ms, NAN,
			    "the drive gives no rpm: slow writes counted by an assumed 7200 rpm (%.3f ms) from round %zu on",
			    r[i].rev_ms, i + 1);
			break;
		}
	if (n < 2)
		hd_verdict_add(v, "burnin_rounds", HD_VERDICT_WARN, (double)n, 2,
		    "%zu round%s: drift needs two rounds or more to compare", n, n == 1 ? "" : "s");
	else {
		judge_slow(r, n, v);
		judge_p99(r, n, v);
	}
	if (errors)
		hd_verdict_add(v, "burnin_errors", HD_VERDICT_FAIL, (double)errors, 1,
			       "I/O errors: %llu failed accesses over %zu rounds",
		    (unsigned long long)errors, n);
	judge_smart(r, n, before, v);
	if (!isnan(tmax))
		hd_verdict_add(v, "burnin_temperature", HD_VERDICT_INFO, tmax, NAN, "temperature at most %.0f C", tmax);
}
