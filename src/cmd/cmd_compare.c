/*
 * hddscope compare DIR_A DIR_B [DIR...] -o DIR: the command.  The analysis
 * (compare_dir.c, compare_many.c) writes findings.txt, compare.json and
 * the bin files; this layer parses options, prints, and draws the charts:
 * for every test all profiles have, a side-by-side chart (one panel per
 * drive, identical axes, each titled with its drive's model) and an
 * overlay of every drive, one colour per drive.
 */
#include <errno.h>
#include <getopt.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hddscope/cli.h"
#include "hddscope/cmd.h"
#include "hddscope/compare.h"
#include "hddscope/fsutil.h"
#include "hddscope/opt.h"
#include "hddscope/plot.h"

struct compare_opts {
	const char *out, *dirs[HD_CMP_MAX_DIRS];
	size_t ndirs;
	const char *ext;
	int svg, no_charts, quiet, pairs, axis;
	uint64_t min_diff, bins, resamples;	/* as given: percent, per decade, per bin */
	struct hd_cmp_opts cmp;
};

#define O(member) offsetof(struct compare_opts, member)

static const char *const pairs_words[] = { "first", "all", NULL };
static const int pairs_values[] = { HD_CMP_PAIRS_FIRST, HD_CMP_PAIRS_ALL };

static const struct hd_option compare_options[] = {
	{ .name = "output", .letter = 'o', .kind = HD_OPT_STRING, .arg = "DIR", .off = O(out),
	  .help = "where the results go (required; created if missing)" },
	{ .name = "min-diff", .kind = HD_OPT_COUNT, .arg = "PCT", .off = O(min_diff), .def = "2", .hi = 100,
	  .help = "smallest difference called faster, percent" },
	{ .name = "bins", .kind = HD_OPT_COUNT, .arg = "N", .off = O(bins), .def = "8", .lo = 2, .hi = 32,
	  .help = "distance bins per decade, 2..32" },
	{ .name = "resamples", .kind = HD_OPT_COUNT, .arg = "N", .off = O(resamples), .def = "200", .hi = 10000,
	  .help = "bootstrap resamples per bin, 0..10000" },
	{ .name = "seed", .kind = HD_OPT_COUNT, .arg = "N", .off = O(cmp.seed), .def = "1",
	  .help = "seed of the bootstrap" },
	{ .name = "pairs", .kind = HD_OPT_ENUM, .off = O(pairs), .words = pairs_words, .values = pairs_values,
	  .def = "first", .help = "with three or more profiles: each against the first, or every pair" },
	{ .name = "svg", .kind = HD_OPT_FLAG, .off = O(svg), .help = "SVG charts instead of PNG" },
	{ .name = "no-charts", .kind = HD_OPT_FLAG, .off = O(no_charts), .help = "findings only" },
	HD_PLOT_AXIS_OPTION(struct compare_opts, axis),
	{ .name = "quiet", .letter = 'q', .kind = HD_OPT_FLAG, .off = O(quiet), .help = "do not print the findings" },
	HD_OPT_HELP_END,
};

static const struct hd_cmdspec compare_spec = {
	.name = "compare",
	.intro = "Usage: hddscope compare [OPTIONS] DIR_A DIR_B [DIR...] -o DIR\n"
		 "\n"
		 "Compare two profiles (directories written by 'hddscope profile'): for every\n"
		 "data file both have, a side-by-side and an overlay chart in DIR/charts/, and\n"
		 "the findings as sentences in DIR/findings.txt and as data in DIR/compare.json;\n"
		 "per-distance bins of seek and response in DIR/bins-TEST.tsv.\n"
		 "\n"
		 "Three to 8 profiles: each is compared with the first (or every pair, --pairs\n"
		 "all) into DIR/pairs/X-Y/ (drives lettered A, B, C... as given);\n"
		 "DIR/findings.txt gathers the pairs, DIR/compare.json lists them, and the\n"
		 "charts of DIR/charts/ draw every drive, one colour per drive.\n"
		 "\n",
	.opts = compare_options,
	.outro = "\n"
		 "A drive is called faster in a distance bin when the difference is at least\n"
		 "--min-diff and Holm's correction over every bin of the section rejects \"no\n"
		 "difference\" at a family-wise error rate of 0.1%; every finding comes with its\n"
		 "95% interval, every undecided range with the largest difference it leaves open.\n"
		 "With three or more profiles a section's family holds the bins of every pair\n"
		 "compared (the stability tests another), so that all the comparisons made\n"
		 "together are held to 0.1%.\n"
		 "\n"
		 "Exit codes: 0 ok, 1 usage, 2 setup (a directory unreadable, nothing in\n"
		 "common), 3 runtime (a chart could not be drawn).\n",
};

/* 0 to go on, >0 the exit code (usage printed), <0 help printed. */
static int parse(int argc, char **argv, struct compare_opts *o)
{
	uint64_t seed;
	int ex = hd_opt_parse(&compare_spec, o, sizeof(*o), argc, argv);

	if (ex != HD_OPT_GO)
		return ex == HD_EXIT_OK ? -1 : ex;
	if (argc - optind < 2 || argc - optind > HD_CMP_MAX_DIRS) {
		if (argc - optind < 2)
			hd_err("two or more profile directories are needed");
		else
			hd_err("%d profile directories: at most %d can be compared", argc - optind, HD_CMP_MAX_DIRS);
		return hd_usage_hint("compare");
	}
	if (!o->out) {
		hd_err("no output directory (-o DIR)");
		return hd_usage_hint("compare");
	}
	o->ndirs = (size_t)(argc - optind);
	for (size_t i = 0; i < o->ndirs; i++)
		o->dirs[i] = argv[optind + (int)i];
	o->ext = o->svg ? "svg" : "png";
	hd_plot_set_axis((enum hd_plot_axis)o->axis);
	/* The analysis's own defaults for what the command line does not set. */
	seed = o->cmp.seed;
	hd_cmp_defaults(&o->cmp);
	o->cmp.seed = seed;
	o->cmp.min_rel = (double)o->min_diff / 100;
	o->cmp.bins_per_decade = (int)o->bins;
	o->cmp.resamples = (int)o->resamples;
	return 0;
}

static int make_dir(const char *path)
{
	int rc = hd_out_make_dir(path);

	if (rc)
		hd_err("%s: %s", path, hd_fs_strerror(rc));
	return rc;
}

/* Both charts of test t; returns the exit code. */
static int draw(const struct compare_opts *o, const struct hd_compare_result *r, size_t t)
{
	static const char *const modes[] = { "side", "overlay" };
	char fa[4096], fb[4096], out[4096], bins[4096], more[8192] = "";
	int ex = HD_EXIT_OK;

	/* The third and later drives go to the script as one word list (ARG6). */
	for (size_t i = 2; i < o->ndirs; i++) {
		size_t len = strlen(more);
		if (strpbrk(o->dirs[i], " \t\n")) {
			hd_err("%s: a chart of three or more drives needs directory names without blanks", o->dirs[i]);
			return HD_EXIT_RUNTIME;
		}
		snprintf(more + len, sizeof(more) - len, "%s%s/%s.tsv", len ? " " : "", o->dirs[i], r->tests[t]);
	}
	snprintf(fa, sizeof(fa), "%s/%s.tsv", o->dirs[0], r->tests[t]);
	snprintf(fb, sizeof(fb), "%s/%s.tsv", o->dirs[1], r->tests[t]);
	if (r->has_bins[t])
		snprintf(bins, sizeof(bins), "%s/bins-%s.tsv", o->out, r->tests[t]);
	else
		bins[0] = '\0';
	for (int m = 0; m < 2; m++) {
		const char *args[] = { fa, fb, out, modes[m], bins, more };
		int rc;

		snprintf(out, sizeof(out), "%s/charts/%s-%s.%s", o->out, r->tests[t], modes[m], o->ext);
		rc = hd_plot_script(r->scripts[t], o->ndirs > 2 ? 6 : 5, args, 2);
		if (rc == -ENOENT) {
			hd_err("%s: no chart script %s.gp (set HDDSCOPE_PLOTS)", r->tests[t], r->scripts[t]);
			return HD_EXIT_SETUP;
		}
		if (rc != 0) {
			hd_err("gnuplot -c %s.gp %s %s %s %s: %s", r->scripts[t], fa, fb, out, modes[m],
			       rc < 0 ? hd_fs_strerror(rc) : "failed");
			ex = HD_EXIT_RUNTIME;
		}
	}
	return ex;
}

static void print_file(const char *path)
{
	char buf[4096];
	size_t n;
	FILE *f;
	int rc = hd_in_open(path, &f);

	if (rc) {
		hd_in_strerror(buf, sizeof(buf), path, rc);
		hd_warn("%s", buf);
		return;
	}
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		fwrite(buf, 1, n, stdout);
	fclose(f);
}

int hd_cmd_check_dir(const char *dir)
{
	struct stat st;

	if (stat(dir, &st) != 0) {
		hd_err("stat %s: %s", dir, strerror(errno));
		return HD_EXIT_SETUP;
	}
	if (!S_ISDIR(st.st_mode)) {
		hd_err("%s: %s (a profile is a directory)", dir, strerror(ENOTDIR));
		return HD_EXIT_SETUP;
	}
	return 0;
}

/* Compare and draw as o asks; returns the exit code. */
static int run(struct compare_opts *o)
{
	struct hd_compare_result res;
	char err[1024], path[4096];
	int rc, charts, created, ex = HD_EXIT_OK;

	for (size_t i = 0; i < o->ndirs; i++)
		if ((rc = hd_cmd_check_dir(o->dirs[i])))
			return rc;
	created = access(o->out, F_OK) != 0;
	if (make_dir(o->out))
		return HD_EXIT_SETUP;
	charts = !o->no_charts;
	if (charts && !hd_plot_available()) {
		hd_warn("gnuplot not found in PATH: charts skipped (Debian: apt-get install gnuplot-nox)");
		charts = 0;
	}
	if (hd_compare_many(o->dirs, o->ndirs, (enum hd_cmp_pairs)o->pairs, o->out, &o->cmp, charts ? o->ext : NULL,
			    &res, err, sizeof(err))) {
		hd_err("compare %s %s%s: %s", o->dirs[0], o->dirs[1], o->ndirs > 2 ? " ..." : "", err);
		/* A refused comparison leaves no directory of its own behind. */
		if (created)
			rmdir(o->out);
		return HD_EXIT_SETUP;
	}
	snprintf(path, sizeof(path), "%s/charts", o->out);
	if (charts && make_dir(path))
		return HD_EXIT_SETUP;
	for (size_t t = 0; charts && t < res.ntests; t++) {
		int e = draw(o, &res, t);
		if (e > ex)
			ex = e;
	}
	if (!o->quiet) {
		snprintf(path, sizeof(path), "%s/findings.txt", o->out);
		print_file(path);
	}
	return ex;
}

int hd_compare_into(const char *const *dirs, size_t n, const char *outdir, int charts)
{
	struct compare_opts o;

	if (n < 2 || n > HD_CMP_MAX_DIRS)
		return HD_EXIT_USAGE;
	hd_opt_defaults(&compare_spec, &o, sizeof(o));
	hd_cmp_defaults(&o.cmp);
	o.cmp.min_rel = (double)o.min_diff / 100;
	o.cmp.bins_per_decade = (int)o.bins;
	o.cmp.resamples = (int)o.resamples;
	o.out = outdir;
	o.ndirs = n;
	memcpy(o.dirs, dirs, n * sizeof(*dirs));
	o.ext = "png";
	o.no_charts = !charts;
	o.quiet = 1;
	return run(&o);
}

int hd_cmd_compare(int argc, char **argv)
{
	struct compare_opts o;
	int rc = parse(argc, argv, &o);

	if (rc)
		return rc < 0 ? HD_EXIT_OK : rc;
	return run(&o);
}
