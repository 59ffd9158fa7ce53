/*
 * Comparing two profiles (hddscope compare): the
 * statistics that decide which drive is faster at which distance and which
 * is steadier, and the comparison of two profile directories into
 * findings.txt, compare.json and per-distance bin files.  Analysis reads
 * only data files and summary.json, never a device.
 */
#ifndef HDDSCOPE_COMPARE_H
#define HDDSCOPE_COMPARE_H

#include <stddef.h>
#include <stdint.h>

/* ---- latency against distance: where each drive is faster ---- */

/* How curves are compared; hd_cmp_defaults() gives the documented defaults. */
struct hd_cmp_opts {
	int bins_per_decade;	/* log-spaced |distance| bins (8) */
	size_t min_samples;	/* per drive in a bin, else the bin is not compared (8) */
	double min_rel;		/* smallest relative difference called faster (0.02) */
	int resamples;		/* bootstrap resamples per bin (200) */
	double confidence;	/* two-sided interval of a difference (0.95) */
	double alpha;		/* family-wise error rate of a section's findings (0.001) */
	uint64_t seed;		/* of the bootstrap (1) */
	/*
	 * A family decided across several comparisons (hd_compare_many): when
	 * have_cut, a bin whose p-value is at most cut is rejected, in place of
	 * Holm's step down at alpha over the bins given (0).
	 */
	int have_cut;
	double cut;
};

void hd_cmp_defaults(struct hd_cmp_opts *o);

/* One distance bin that both drives have enough samples in. */
struct hd_cmp_bin {
	double lo, hi;		/* smallest and largest |distance| of its samples, bytes */
	double x;		/* mean log10 |distance| of its samples */
	size_t na, nb;
	double ta, tb;		/* typical latency (hd_cmp_typical), ms */
	double diff;		/* tb - ta, ms: > 0 where A is faster */
	double se;		/* bootstrap standard error of diff */
	double ci_lo, ci_hi;	/* normal interval of diff at the confidence asked */
	double p;		/* two-sided p-value of diff = 0 */
	double pct;		/* |diff| / max(ta, tb) * 100 */
	double bound_pct;	/* max(|ci_lo|, |ci_hi|) / max(ta, tb) * 100: no larger difference */
	char winner;		/* 'A', 'B', or 0: no clear difference */
};

/* Consecutive bins with the same winner. */
struct hd_cmp_range {
	size_t first, last;	/* bin indexes */
	char winner;
	double lo, hi;		/* |distance| covered, bytes */
	double pct_min, pct_max;	/* of the bins called (a winner's range) */
	double ci_lo, ci_hi;	/* a winner's advantage, percent: the widest of its bins' intervals */
	double bound_pct;	/* no winner: no difference larger than this, percent */
};

/* Where the faster drive changes. */
struct hd_cmp_cross {
	double bytes;		/* estimated |distance| where the curves cross */
	double lo, hi;		/* the bracket: last bin of one winner, first of the other */
	char below, above;	/* the faster drive below and above it */
};

struct hd_cmp_curve {
	struct hd_cmp_bin *bins;
	size_t nbins;
	struct hd_cmp_range *ranges;
	size_t nranges;
	struct hd_cmp_cross *cross;
	size_t ncross;
};

/*
 * The typical latency of n samples: the mid-decile (p10 + p90) / 2.  v is
 * sorted in place.  NAN for n == 0.
 */
double hd_cmp_typical(double *v, size_t n);

/*
 * Compare latency against |distance| of drive A (da, la: na samples) and
 * drive B.  Distances must be positive (the caller folds directions).
 * Each bin's difference gets a bootstrap standard error, an interval and
 * a p-value; a bin is called for a drive when Holm's correction over every
 * bin rejects "no difference" at o->alpha and the difference is at least
 * o->min_rel.  Returns 0 or -ENOMEM; out is freed with hd_cmp_curve_free().
 */
int hd_cmp_curve(const double *da, const double *la, size_t na,
		 const double *db, const double *lb, size_t nb,
		 const struct hd_cmp_opts *o, struct hd_cmp_curve *out);

/* hd_cmp_curve's bins alone, none called yet: the family is decided by hd_cmp_decide. */
int hd_cmp_curve_bins(const double *da, const double *la, size_t na,
		      const double *db, const double *lb, size_t nb,
		      const struct hd_cmp_opts *o, struct hd_cmp_curve *out);

/*
 * Decide every bin of the ncv curves as one family at family-wise error
 * rate o->alpha (Holm; or, when o->have_cut, at o->cut), then make each curve's ranges and crossovers.
 * Returns 0 or -ENOMEM.
 */
int hd_cmp_decide(struct hd_cmp_curve *cv, size_t ncv, const struct hd_cmp_opts *o);
void hd_cmp_curve_free(struct hd_cmp_curve *c);

/* ---- stability: spread at equal distances ---- */

struct hd_cmp_spread {
	size_t groups;		/* distances with at least the minimum samples */
	size_t n;		/* samples in those groups */
	size_t outliers;	/* slower than their group's median by more than rev_ms */
	double rate;		/* outliers / n */
	double ratio_median;	/* median over groups of p99 / p50 */
	double ratio_max;	/* largest p99 / p50 */
};

/*
 * Spread of n samples grouped by equal |distance| (groups of fewer than
 * min_group samples are left out).  Returns 0, -ENOMEM, or -ENODATA when no
 * group qualifies.
 */
int hd_cmp_spread(const double *d, const double *lat, size_t n, double rev_ms,
		  size_t min_group, struct hd_cmp_spread *out);

/*
 * The two-sided p-value of "the outlier rates are equal" (two-proportion
 * z), the difference b - a of the rates and its normal interval at
 * normal quantile z (*lo, *hi).
 */
double hd_cmp_spread_p(const struct hd_cmp_spread *a, const struct hd_cmp_spread *b, double z, double *diff,
		       double *lo, double *hi);

/*
 * Which of two drives is steadier: 'A', 'B' or 0 (no clear difference),
 * given whether the test of equal outlier rates was rejected (by
 * hd_cmp_spread_p's p-value, corrected over its family): the lower rate,
 * when the other is at least 1.5 times it.  *why is set to "outliers" or
 * "none".
 */
char hd_cmp_steadier(const struct hd_cmp_spread *a, const struct hd_cmp_spread *b, int rejected, const char **why);

/* The normal quantile of a two-sided interval of confidence conf (0.95: 1.96). */
double hd_cmp_z(double conf);

/*
 * The revolution time estimated from the width of the rotational band of
 * a seek or response scatter (d: |distance|, positive): median over log
 * bins (with at least 20 samples) of (p90 - p10) / 0.8, which is the width
 * of a uniform band.  NAN when no bin qualifies.
 */
double hd_cmp_band_rev(const double *d, const double *lat, size_t n, int bins_per_decade);

/* ---- two profile directories ---- */

#define HD_CMP_MAX_TESTS 8

struct hd_compare_result {
	size_t ntests;
	const char *tests[HD_CMP_MAX_TESTS];	/* data files both have: "seek-read", ... */
	const char *scripts[HD_CMP_MAX_TESTS];	/* their chart scripts: "compare-seek", ... */
	int has_bins[HD_CMP_MAX_TESTS];		/* outdir/bins-<test>.tsv was written */
	size_t findings[HD_CMP_MAX_TESTS];	/* clear differences called in each test's section */
	char model_a[160], model_b[160];	/* the drives compared, as the charts name them */
	/* The p-values of each test's families (0: the bins, 1: the stability tests). */
	double *p[HD_CMP_MAX_TESTS][2];
	size_t np[HD_CMP_MAX_TESTS][2];
};

/* Free the p-values of res (the rest of it holds no memory of its own). */
void hd_compare_result_free(struct hd_compare_result *res);

/*
 * hd_compare_dirs with each section's families decided elsewhere: a
 * p-value of section t's family f (profile_files.h's id; 0 the bins, 1 the
 * stability tests) is rejected when at most cut[t][f].  NULL: Holm at
 * o->alpha within each section, as hd_compare_dirs does.
 */
int hd_compare_dirs_cut(const char *dir_a, const char *dir_b, const char *outdir,
			const struct hd_cmp_opts *o, const double (*cut)[2], const char *chart_ext,
			struct hd_compare_result *res, char *err, size_t errlen);

/*
 * Compare the profile directories dir_a and dir_b: write outdir/findings.txt,
 * outdir/compare.json and outdir/bins-<test>.tsv, and list the tests
 * compared in *res.  chart_ext ("png", "svg", or NULL for none) names the
 * charts compare.json lists.  Returns 0, or -1 with a message in err.
 */
int hd_compare_dirs(const char *dir_a, const char *dir_b, const char *outdir,
		    const struct hd_cmp_opts *o, const char *chart_ext,
		    struct hd_compare_result *res, char *err, size_t errlen);

/* ---- N profile directories ---- */

#define HD_CMP_MAX_DIRS 8

/* Which pairs of N directories are compared. */
enum hd_cmp_pairs {
	HD_CMP_PAIRS_FIRST,	/* each against the first: N - 1 pairs */
	HD_CMP_PAIRS_ALL,	/* every pair: N (N - 1) / 2 */
};

/* How many pairs of n directories are compared under which. */
size_t hd_compare_npairs(size_t n, enum hd_cmp_pairs which);

/*
 * Compare n (2..HD_CMP_MAX_DIRS) profile directories.  Two are compared
 * by hd_compare_dirs into outdir itself.  More are compared pair by pair
 * into outdir/pairs/X-Y/ (drives lettered A, B, C... as given), each
 * section's families holding the tests of every pair (Holm's correction
 * at o->alpha over all of them, hd_compare_dirs_cut), so that every
 * comparison made together stays within o->alpha; outdir/findings.txt
 * gathers them and
 * outdir/compare.json lists the drives, the pairs and their clear
 * differences.  *res lists the tests every directory has (has_bins 0).
 * Returns 0, or -1 with a message in err.
 */
int hd_compare_many(const char *const *dirs, size_t n, enum hd_cmp_pairs which, const char *outdir,
		    const struct hd_cmp_opts *o, const char *chart_ext, struct hd_compare_result *res,
		    char *err, size_t errlen);

#endif
