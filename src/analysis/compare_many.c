/*
 * hddscope compare of more than two profiles: every pair asked for is
 * compared by hd_compare_dirs into a directory of its own, and each
 * section's family holds the tests of every pair: a first pass gathers
 * every pair's p-values, Holm's correction over all of them at the
 * family-wise error rate asked for gives each family its cut (the largest
 * p-value rejected), and a second pass decides every pair at those cuts.
 * So all the findings together are held to that rate.  findings.txt
 * gathers the pairs' sentences and compare.json lists the drives, the
 * pairs and their clear differences.  Nothing here prints.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hddscope/compare.h"
#include "hddscope/fsutil.h"
#include "hddscope/json.h"
#include "hddscope/profile_files.h"
#include "hddscope/stats.h"

struct pair {
	size_t a, b;	/* indexes into the directories */
	struct hd_compare_result r;
};

static int failf(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int failf(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

size_t hd_compare_npairs(size_t n, enum hd_cmp_pairs which)
{
	if (n < 2)
		return 0;
	return which == HD_CMP_PAIRS_ALL ? n * (n - 1) / 2 : n - 1;
}

/* The pairs of n directories in the order they are compared. */
static size_t list_pairs(size_t n, enum hd_cmp_pairs which, struct pair *p)
{
	size_t k = 0;

	for (size_t a = 0; a < n; a++)
		for (size_t b = a + 1; b < n && (a == 0 || which == HD_CMP_PAIRS_ALL); b++) {
			memset(&p[k], 0, sizeof(p[k]));
			p[k].a = a;
			p[k++].b = b;
		}
	return k;
}

static void pair_dir(char *buf, size_t len, const char *outdir, const struct pair *p)
{
	snprintf(buf, len, "%s/pairs/%c-%c", outdir, (char)('A' + p->a), (char)('A' + p->b));
}

/* Compare every pair into its own directory, each section's families decided at cut (NULL: within the pair). */
static int compare_pairs(const char *const *dirs, const char *outdir, const struct hd_cmp_opts *o,
			 const double (*cut)[2], struct pair *p, size_t np, char *err, size_t errlen)
{
	char path[4096], why[1024];
	int rc;

	snprintf(path, sizeof(path), "%s/pairs", outdir);
	if ((rc = hd_out_make_dir(path)))
		return failf(err, errlen, "%s: %s", path, hd_fs_strerror(rc));
	for (size_t k = 0; k < np; k++) {
		pair_dir(path, sizeof(path), outdir, &p[k]);
		hd_compare_result_free(&p[k].r);
		if ((rc = hd_out_make_dir(path)))
			return failf(err, errlen, "%s: %s", path, hd_fs_strerror(rc));
		if (hd_compare_dirs_cut(dirs[p[k].a], dirs[p[k].b], path, o, cut, NULL, &p[k].r, why, sizeof(why)))
			return failf(err, errlen, "%s against %s: %s", dirs[p[k].a], dirs[p[k].b], why);
	}
	return 0;
}

/* Does every directory hold a data file of a profile?  Checked before any pair writes anything. */
static int check_profiles(const char *const *dirs, size_t n, char *err, size_t errlen)
{
	char path[4096];

	for (size_t i = 0; i < n; i++) {
		size_t t;

		for (t = 0; t < HD_PF_COUNT; t++) {
			snprintf(path, sizeof(path), "%s/%s.tsv", dirs[i], hd_profile_files[t].name);
			if (access(path, R_OK) == 0)
				break;
		}
		if (t == HD_PF_COUNT)
			return failf(err, errlen, "%s: no data files of a profile (seek-read.tsv, response.tsv, ...)",
				     dirs[i]);
	}
	return 0;
}

/* The test index of profile file t in r, or -1. */
static int test_index(const struct hd_compare_result *r, const char *test);

/*
 * Each family's cut: Holm's correction at o->alpha over the p-values of
 * every pair rejects exactly those at most the largest one it rejects
 * (-1 when it rejects none).  Returns 0 or -ENOMEM.
 */
static int family_cuts(const struct pair *p, size_t np, double alpha, double (*cut)[2])
{
	for (size_t t = 0; t < HD_PF_COUNT; t++)
		for (int f = 0; f < 2; f++) {
			size_t m = 0, k = 0;
			double *all;
			unsigned char *rej;

			cut[t][f] = -1;
			for (size_t q = 0; q < np; q++) {
				int i = test_index(&p[q].r, hd_profile_files[t].name);
				m += i < 0 ? 0 : p[q].r.np[i][f];
			}
			all = malloc((m ? m : 1) * sizeof(*all));
			rej = malloc(m ? m : 1);
			if (!all || !rej) {
				free(all);
				free(rej);
				return -ENOMEM;
			}
			for (size_t q = 0; q < np; q++) {
				int i = test_index(&p[q].r, hd_profile_files[t].name);
				for (size_t j = 0; i >= 0 && j < p[q].r.np[i][f]; j++)
					all[k++] = p[q].r.p[i][f][j];
			}
			if (hd_holm(all, m, alpha, rej) == 0)
				for (size_t j = 0; j < m; j++)
					if (rej[j] && all[j] > cut[t][f])
						cut[t][f] = all[j];
			free(all);
			free(rej);
		}
	return 0;
}

/* Does the result of pair k list test? Its index, or -1. */
static int test_index(const struct hd_compare_result *r, const char *test)
{
	for (size_t t = 0; t < r->ntests; t++)
		if (strcmp(r->tests[t], test) == 0)
			return (int)t;
	return -1;
}

/* The tests every pair compared: with every directory in some pair, the tests every directory has. */
static void common_tests(const struct pair *p, size_t np, struct hd_compare_result *res)
{
	const struct hd_compare_result *r0 = &p[0].r;

	for (size_t t = 0; t < r0->ntests; t++) {
		size_t k;

		for (k = 1; k < np && test_index(&p[k].r, r0->tests[t]) >= 0; k++)
			;
		if (k < np)
			continue;
		res->tests[res->ntests] = r0->tests[t];
		res->scripts[res->ntests] = r0->scripts[t];
		res->has_bins[res->ntests++] = 0;
	}
}

/* The model of directory i, from the first pair it is in. */
static const char *model_of(const struct pair *p, size_t np, size_t i)
{
	for (size_t k = 0; k < np; k++)
		if (p[k].a == i || p[k].b == i)
			return p[k].a == i ? p[k].r.model_a : p[k].r.model_b;
	return "";
}

static int copy_file(FILE *to, const char *path)
{
	char buf[4096];
	size_t n;
	FILE *f;
	int rc = hd_in_open(path, &f);

	if (rc)
		return rc;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		fwrite(buf, 1, n, to);
	rc = ferror(f) ? -EIO : 0;
	fclose(f);
	return rc;
}

static int write_findings(FILE *f, const char *const *dirs, size_t n, const char *outdir, const struct pair *p,
			  size_t np, const struct hd_cmp_opts *o, char *err, size_t errlen)
{
	char path[4096];
	int rc;

	fprintf(f, "hddscope compare: %zu profiles, %zu pairs (%s)\n", n, np,
		np == n - 1 ? "each against A" : "every pair");
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%c: %s (%s)\n", (char)('A' + i), model_of(p, np, i), dirs[i]);
	fprintf(f, "\nEvery pair is compared as two profiles are, in pairs/X-Y/, whose text calls X 'A' and Y 'B',\n"
		"except that each section's family (and its stability tests') holds the tests of all %zu pairs:\n"
		"Holm's correction over all of them at %g%%, so that the findings of all the pairs together\n"
		"are held to a family-wise error rate of %g%%.\n",
		np, o->alpha * 100, o->alpha * 100);
	for (size_t k = 0; k < np; k++) {
		fprintf(f, "\n==== %c against %c (below, 'A' is %c and 'B' is %c) ====\n", (char)('A' + p[k].a),
			(char)('A' + p[k].b), (char)('A' + p[k].a), (char)('A' + p[k].b));
		pair_dir(path, sizeof(path), outdir, &p[k]);
		strncat(path, "/findings.txt", sizeof(path) - strlen(path) - 1);
		if ((rc = copy_file(f, path)))
			return failf(err, errlen, "read %s: %s", path, hd_fs_strerror(rc));
	}
	return 0;
}

static void write_json(FILE *fj, const char *const *dirs, size_t n, const struct pair *p, size_t np,
		       const struct hd_cmp_opts *o, const char *chart_ext, const struct hd_compare_result *res)
{
	struct hd_json j;
	char name[128];

	hd_json_init(&j, fj, 1);
	hd_json_obj(&j, NULL);
	hd_json_str(&j, "hddscope_version", HDDSCOPE_VERSION);
	hd_json_arr(&j, "drives");
	for (size_t i = 0; i < n; i++) {
		hd_json_obj(&j, NULL);
		snprintf(name, sizeof(name), "%c", (char)('A' + i));
		hd_json_str(&j, "drive", name);
		hd_json_str(&j, "dir", dirs[i]);
		hd_json_str(&j, "model", model_of(p, np, i));
		hd_json_end(&j);
	}
	hd_json_end(&j);
	hd_json_str(&j, "pairs", np == n - 1 ? "first" : "all");
	hd_json_num(&j, "familywise_error_rate", o->alpha);
	hd_json_str(&j, "correction", "Holm, over every test of a section in all the pairs together");
	hd_json_arr(&j, "comparisons");
	for (size_t k = 0; k < np; k++) {
		hd_json_obj(&j, NULL);
		snprintf(name, sizeof(name), "%c", (char)('A' + p[k].a));
		hd_json_str(&j, "a", name);
		snprintf(name, sizeof(name), "%c", (char)('A' + p[k].b));
		hd_json_str(&j, "b", name);
		snprintf(name, sizeof(name), "pairs/%c-%c", (char)('A' + p[k].a), (char)('A' + p[k].b));
		hd_json_str(&j, "dir", name);
		hd_json_obj(&j, "clear_differences");
		for (size_t t = 0; t < p[k].r.ntests; t++)
			hd_json_uint(&j, p[k].r.tests[t], p[k].r.findings[t]);
		hd_json_end(&j);
		hd_json_end(&j);
	}
	hd_json_end(&j);
	hd_json_arr(&j, "charts");
	for (size_t t = 0; chart_ext && t < res->ntests; t++) {
		snprintf(name, sizeof(name), "charts/%s-side.%s", res->tests[t], chart_ext);
		hd_json_str(&j, NULL, name);
		snprintf(name, sizeof(name), "charts/%s-overlay.%s", res->tests[t], chart_ext);
		hd_json_str(&j, NULL, name);
	}
	hd_json_end(&j);
	hd_json_end(&j);
	fputc('\n', fj);
}

/* Write outdir/NAME through the output rule: findings (fj NULL) or compare.json. */
static int write_out(const char *outdir, const char *name, const char *const *dirs, size_t n, const struct pair *p,
		     size_t np, const struct hd_cmp_opts *o, const char *chart_ext,
		     const struct hd_compare_result *res, char *err, size_t errlen)
{
	char path[4096], *tmp;
	const char *call;
	FILE *f;
	int rc;

	snprintf(path, sizeof(path), "%s/%s", outdir, name);
	if ((rc = hd_out_fopen(path, &f, &tmp)))
		return failf(err, errlen, "create %s: %s", path, hd_fs_strerror(rc));
	if (strcmp(name, "compare.json") == 0)
		write_json(f, dirs, n, p, np, o, chart_ext, res);
	else if (write_findings(f, dirs, n, outdir, p, np, o, err, errlen)) {
		hd_out_fdrop(f, tmp);
		return -1;
	}
	rc = hd_out_fclose(f, tmp, path, &call);
	return rc ? failf(err, errlen, "%s %s: %s", call, path, hd_fs_strerror(rc)) : 0;
}

int hd_compare_many(const char *const *dirs, size_t n, enum hd_cmp_pairs which, const char *outdir,
		    const struct hd_cmp_opts *o, const char *chart_ext, struct hd_compare_result *res,
		    char *err, size_t errlen)
{
	struct pair p[HD_CMP_MAX_DIRS * (HD_CMP_MAX_DIRS - 1) / 2];
	double cut[HD_PF_COUNT][2];
	size_t np;
	int rc = -1;

	memset(res, 0, sizeof(*res));
	if (n < 2 || n > HD_CMP_MAX_DIRS)
		return failf(err, errlen, "%zu profiles: 2 to %d can be compared", n, HD_CMP_MAX_DIRS);
	if (n == 2) {
		rc = hd_compare_dirs(dirs[0], dirs[1], outdir, o, chart_ext, res, err, errlen);
		hd_compare_result_free(res);
		return rc;
	}
	np = list_pairs(n, which, p);
	if (check_profiles(dirs, n, err, errlen) || compare_pairs(dirs, outdir, o, NULL, p, np, err, errlen))
		goto out;
	if (family_cuts(p, np, o->alpha, cut)) {
		failf(err, errlen, "%s", strerror(ENOMEM));
		goto out;
	}
	if (compare_pairs(dirs, outdir, o, (const double (*)[2])cut, p, np, err, errlen))
		goto out;
	common_tests(p, np, res);
	if (res->ntests == 0) {
		failf(err, errlen, "the %zu profiles have no data file in common", n);
		goto out;
	}
	snprintf(res->model_a, sizeof(res->model_a), "%s", p[0].r.model_a);
	snprintf(res->model_b, sizeof(res->model_b), "%s", p[0].r.model_b);
	if (write_out(outdir, "findings.txt", dirs, n, p, np, o, chart_ext, res, err, errlen) ||
	    write_out(outdir, "compare.json", dirs, n, p, np, o, chart_ext, res, err, errlen))
		goto out;
	rc = 0;
out:
	for (size_t k = 0; k < np; k++)
		hd_compare_result_free(&p[k].r);
	return rc;
}
