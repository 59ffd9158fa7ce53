/*
 * hddscope verdict: PASS, WARN or FAIL for deployment, from a profile
 * directory's data files (never the device) and the drive's SMART data.
 * Every rule has a documented default that --rule NAME=VALUE or a rules
 * file overrides, and every reason comes with the figure behind it.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hddscope/cli.h"
#include "hddscope/cmd.h"
#include "hddscope/datafile.h"
#include "hddscope/evidence.h"
#include "hddscope/fsutil.h"
#include "hddscope/identity.h"
#include "hddscope/json.h"
#include "hddscope/opt.h"
#include "hddscope/stats.h"
#include "hddscope/util.h"

/* The rules, their defaults and what they mean (printed by --help). */
struct rule {
	const char *name;
	double value;
	const char *help;
};

static struct rule rules[] = {
	{ "write_slow_warn", 0.8, "% of writes slower than their distance's median by more than a revolution: WARN at" },
	{ "write_slow_fail", 1.2, "... and FAIL at" },
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
#define NRULES (sizeof(rules) / sizeof(rules[0]))

static double rule(const char *name)
{
	for (size_t i = 0; i < NRULES; i++)
		if (strcmp(rules[i].name, name) == 0)
			return rules[i].value;
	return NAN;
}

/*
 * Set one rule from "NAME=VALUE".  A refused spec is quoted through
 * hd_quote: it may come from a file that is not text at all.
 */
static int set_rule(const char *src, const char *spec)
{
	char name[64], qs[128], qn[80];
	const char *eq = strchr(spec, '=');
	size_t n = eq ? (size_t)(eq - spec) : 0;
	double v;

	hd_quote(qs, sizeof(qs), spec);
	while (n && spec[n - 1] == ' ')
		n--;
	if (n == 0 || n >= sizeof(name)) {
		hd_err("%s '%s': expected NAME=VALUE", src, qs);
		return -1;
	}
	memcpy(name, spec, n);
	name[n] = '\0';
	hd_quote(qn, sizeof(qn), name);
	eq++;
	while (*eq == ' ')
		eq++;
	for (size_t i = 0; i < NRULES; i++)
		if (strcmp(rules[i].name, name) == 0) {
			if (hd_parse_double(eq, &v) || v < 0) {
				hd_err("%s '%s': %s must be a number >= 0", src, qs, qn);
				return -1;
			}
			rules[i].value = v;
			return 0;
		}
	hd_err("%s '%s': unknown rule '%s' (see hddscope verdict --help)", src, qs, qn);
	return -1;
}

/* The longest line of a rules file: its rules are short, so more is not a rules file. */
#define RULES_MAX_LINE 511

/* One line of a rules file, its comment and blanks dropped, as set_rule takes it. */
static int rules_line(const char *path, size_t lineno, char *line)
{
	char *p = line, *hash = strchr(line, '#'), where[4200];

	if (hash)
		*hash = '\0';
	while (*p == ' ' || *p == '\t')
		p++;
	if (!*p)
		return 0;
	for (char *e = p + strlen(p); e > p && (e[-1] == ' ' || e[-1] == '\t');)
		*--e = '\0';
	snprintf(where, sizeof(where), "%s:%zu:", path, lineno);
	return set_rule(where, p);
}

/*
 * A rules file: NAME = VALUE lines, '#' comments.  A CRLF line is read like
 * an LF one: nothing else reads this file.
 */
static int load_rules(const char *path)
{
	struct hd_lines l;
	char msg[4200];
	FILE *f;
	int rc = hd_in_open(path, &f);

	if (rc) {
		hd_in_strerror(msg, sizeof(msg), path, rc);
		hd_err("%s", msg);
		return -1;
	}
	if (hd_lines_init(&l, f, RULES_MAX_LINE)) {
		hd_err("%s: out of memory", path);
		fclose(f);
		return -1;
	}
	while ((rc = hd_lines_next(&l)) == 1)
		if (rules_line(path, l.lineno, l.buf))
			break;
	if (rc < 0) {
		hd_lines_strerror(msg, sizeof(msg), &l, path, rc);
		hd_err("%s", msg);
	}
	hd_lines_free(&l);
	fclose(f);
	return rc ? -1 : 0;
}

enum level { L_PASS, L_WARN, L_FAIL, L_INFO };
static const char *level_name[] = { "PASS", "WARN", "FAIL", "INFO" };

struct reason {
	const char *rule;
	enum level level;
	double figure, limit;
	char text[600];
};

struct verdict {
	struct reason r[32];
	size_t n;
	enum level overall;
};

static void add(struct verdict *v, const char *rulename, enum level l, double figure, double limit, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

static void add(struct verdict *v, const char *rulename, enum level l, double figure, double limit, const char *fmt, ...)
{
	struct reason *r;
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
	if (l != L_INFO && l > v->overall)
		v->overall = l;
}

/* Level of a figure against warn and fail limits. */
static enum level grade(double x, const char *warn, const char *fail)
{
	return x >= rule(fail) ? L_FAIL : x >= rule(warn) ? L_WARN : L_PASS;
}

/* Read DIR/NAME.tsv when it exists: 1 read, 0 absent, -1 malformed (printed). */
static int load(const char *dir, const char *name, struct hd_df **df)
{
	char path[4096], err[600];

	*df = NULL;
	snprintf(path, sizeof(path), "%s/%s.tsv", dir, name);
	if (access(path, F_OK) != 0)
		return 0;
	if (hd_df_read(path, df, err, sizeof(err))) {
		hd_err("%s", err);
		return -1;
	}
	return 1;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * Write response stability from response.tsv: at each distance the writes'
 * median; a write slower than it by more than a revolution went round once
 * more (a retry, a rewrite); and p99/p50 per distance.
 */
static void rule_write_response(struct verdict *v, const struct hd_df *df, double rev_ms, const char *rev_from)
{
	const struct hd_df_col *d = hd_df_col(df, "distance_bytes"), *lat = hd_df_col(df, "latency_ms");
	const struct hd_df_col *op = hd_df_col(df, "op"), *cls = hd_df_col(df, "class");
	double (*pairs)[2], *ratios, ratio = NAN;
	size_t n = 0, slow = 0, nr = 0;
	const char *sync = hd_df_meta(df, "sync_writes"), *wc = hd_df_meta(df, "write_cache");
	enum level l;

	if (!d || !lat || !op || !cls || op->type != HD_COL_STR || cls->type != HD_COL_STR) {
		add(v, "write_response", L_WARN, NAN, NAN, "write response not measured (response.tsv has no write columns)");
		return;
	}
	pairs = malloc((df->nrows + 1) * sizeof(*pairs));
	ratios = malloc((df->nrows + 1) * sizeof(*ratios));
	if (!pairs || !ratios) {
		free(pairs);
		free(ratios);
		return;
	}
	for (size_t i = 0; i < df->nrows; i++)
		if (strcmp(hd_df_str(op, i), "write") == 0 && strcmp(hd_df_str(cls, i), "error") != 0) {
			pairs[n][0] = fabs(d->num[i]);
			pairs[n][1] = lat->num[i];
			n++;
		}
	if ((double)n < rule("min_write_samples")) {
		add(v, "write_response", L_WARN, (double)n, rule("min_write_samples"),
		    "write response not measured%s (%zu write samples; profile with --write)", n ? " enough" : "", n);
		free(pairs);
		free(ratios);
		return;
	}
	/* Sorted by distance, then latency: each distance's writes are a run. */
	qsort(pairs, n, sizeof(*pairs), cmp_d);
	for (size_t a = 0; a < n;) {
		size_t b = a;
		double *x, med;

		while (b < n && pairs[b][0] == pairs[a][0])
			b++;
		x = malloc((b - a) * sizeof(*x));
		if (x) {
			for (size_t k = a; k < b; k++)
				x[k - a] = pairs[k][1];
			hd_sort_doubles(x, b - a);
			med = hd_percentile_sorted(x, b - a, 50);
			for (size_t k = 0; k < b - a; k++)
				slow += x[k] > med + rev_ms;
			if (b - a >= 5 && med > 0)
				ratios[nr++] = hd_percentile_sorted(x, b - a, 99) / med;
			free(x);
		}
		a = b;
	}
	if (nr) {
		hd_sort_doubles(ratios, nr);
		ratio = hd_percentile_sorted(ratios, nr, 50);
	}
	l = grade(100.0 * (double)slow / (double)n, "write_slow_warn", "write_slow_fail");
	add(v, "write_slow", l, 100.0 * (double)slow / (double)n, rule(l == L_FAIL ? "write_slow_fail" : "write_slow_warn"),
	    "write response %s: %.2f%% of writes (%zu of %zu) slower than their distance's median by more than a "
	    "revolution (%.3f ms, %s); limits %.2f%% warn, %.2f%% fail",
	    l == L_PASS ? "stable" : "unstable", 100.0 * (double)slow / (double)n, slow, n, rev_ms, rev_from,
	    rule("write_slow_warn"), rule("write_slow_fail"));
	if (nr) {
		l = grade(ratio, "write_p99_p50_warn", "write_p99_p50_fail");
		add(v, "write_p99_p50", l, ratio, rule(l == L_FAIL ? "write_p99_p50_fail" : "write_p99_p50_warn"),
		    "write response spread: p99/p50 %.2f at equal distances (median over %zu distances); limits %.2f "
		    "warn, %.2f fail", ratio, nr, rule("write_p99_p50_warn"), rule("write_p99_p50_fail"));
	}
	/* Writes the cache took say little about the mechanics. */
	if ((!sync || strcmp(sync, "yes") != 0) && (!wc || strcmp(wc, "off") != 0))
		add(v, "write_response", L_WARN, NAN, NAN,
		    "write response was measured through the drive's write cache (sync_writes: %s, write_cache: %s): "
		    "instability may hide behind it; measure with --sync", sync ? sync : "unknown", wc ? wc : "unknown");
	free(pairs);
	free(ratios);
}

/* The slowest single access of the small-block, one-at-a-time probes. */
static void rule_stalls(struct verdict *v, struct hd_df **dfs, const char **names, size_t nf)
{
	double worst = 0, fail = rule("stall_fail_ms"), warn = rule("stall_warn_ms");
	size_t over_warn = 0, over_fail = 0, seen = 0;
	const char *where = NULL;
	double where_off = NAN;

	for (size_t f = 0; f < nf; f++) {
		const struct hd_df_col *lat = dfs[f] ? hd_df_col(dfs[f], "latency_ms") : NULL;
		const struct hd_df_col *off = dfs[f] ? hd_df_col(dfs[f], "offset_bytes") : NULL;

		if (!lat || lat->type != HD_COL_NUM)
			continue;
		seen++;
		for (size_t i = 0; i < dfs[f]->nrows; i++) {
			double x = lat->num[i];

			over_warn += x >= warn;
			over_fail += x >= fail;
			if (x > worst) {
				worst = x;
				where = names[f];
				where_off = off && off->type == HD_COL_NUM ? off->num[i] : NAN;
			}
		}
	}
	if (!seen) {
		add(v, "stalls", L_WARN, NAN, NAN, "stalls not measured (no seek, response or interval data)");
		return;
	}
	{
		enum level l = worst >= fail ? L_FAIL : worst >= warn ? L_WARN : L_PASS;
		char at[80] = "";

		if (where && !isnan(where_off))
			snprintf(at, sizeof(at), " at offset %.0f", where_off);
		add(v, "stalls", l, worst, l == L_FAIL ? fail : warn,
		    "%s: slowest access %.1f ms (%s%s); %zu accesses of %.0f ms or more, %zu of %.0f ms or more",
		    l == L_PASS ? "no stalls" : "stalls", worst, where ? where : "-", at, over_warn, warn, over_fail, fail);
	}
}

/*
 * Is file f queue.tsv, whose sums cover the requests queue-requests.tsv
 * lists row by row?  Those are counted from their rows, and once.
 */
static int sums_listed_requests(struct hd_df **dfs, const char **names, size_t nf, size_t f)
{
	if (strcmp(names[f], "queue") != 0)
		return 0;
	for (size_t i = 0; i < nf; i++)
		if (dfs[i] && strcmp(names[i], "queue-requests") == 0)
			return 1;
	return 0;
}

/* Failed accesses in every data file, with the offsets where the file names them. */
static void rule_errors(struct verdict *v, struct hd_df **dfs, const char **names, size_t nf)
{
	char list[400] = "";
	size_t len = 0, listed = 0;
	uint64_t total = 0;

	for (size_t f = 0; f < nf; f++) {
		double at[12];
		size_t k;

		if (!dfs[f] || sums_listed_requests(dfs, names, nf, f))
			continue;
		total += hd_df_error_count(dfs[f]);
		k = hd_df_error_offsets(dfs[f], at, 12);
		for (size_t i = 0; i < k && i < 12 && listed < 12 && len < sizeof(list) - 40; i++, listed++)
			len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s@%.0f", listed ? ", " : "",
						names[f], at[i]);
	}
	if (total >= rule("errors_fail"))
		add(v, "errors", L_FAIL, (double)total, rule("errors_fail"), "I/O errors: %" PRIu64 " failed accesses%s%s%s",
		    total, listed ? " (" : "", list, listed ? (total > listed ? ", ...)" : ")") : "");
	else
		add(v, "errors", total ? L_WARN : L_PASS, (double)total, rule("errors_fail"),
		    "I/O errors: %" PRIu64 " failed accesses", total);
}

static void rule_smart(struct verdict *v, const struct hd_identity *id, const char *from)
{
	if (!id) {
		add(v, "smart", L_INFO, NAN, NAN, "SMART: not available (%s)", from);
		return;
	}
	if (!id->smart_available) {
		add(v, "smart", L_INFO, NAN, NAN, "SMART: not available (%s)", id->smart_reason);
		return;
	}
	add(v, "smart_overall", strcmp(id->smart_overall, "GOOD") ? L_FAIL : L_PASS, NAN, NAN,
	    "SMART overall assessment: %s (%s)", id->smart_overall, from);
	if (id->have_bad) {
		enum level l = grade((double)id->bad_sectors, "bad_sectors_warn", "bad_sectors_fail");
		add(v, "bad_sectors", l, (double)id->bad_sectors, rule(l == L_FAIL ? "bad_sectors_fail" : "bad_sectors_warn"),
		    "SMART bad sectors: %" PRIu64 "; limits %.0f warn, %.0f fail", id->bad_sectors,
		    rule("bad_sectors_warn"), rule("bad_sectors_fail"));
	}
	if (id->have_temp) {
		enum level l = grade(id->temperature_c, "temperature_warn_c", "temperature_fail_c");
		add(v, "temperature", l, id->temperature_c,
		    rule(l == L_FAIL ? "temperature_fail_c" : "temperature_warn_c"),
		    "SMART temperature: %.0f C; limits %.0f warn, %.0f fail", id->temperature_c,
		    rule("temperature_warn_c"), rule("temperature_fail_c"));
	}
}

/* SMART as the profile recorded it in summary.json (device.smart), when no blob is given. */
static int smart_from_summary(const struct hd_jv *sum, struct hd_identity *id)
{
	const struct hd_jv *sm = hd_jv_get(sum, "device.smart");
	const char *s;

	if (!sm)
		return -1;
	hd_identity_init(id);
	id->smart_available = hd_jv_num(sm, "available", 0) != 0;
	if ((s = hd_jv_str(sm, "reason")))
		snprintf(id->smart_reason, sizeof(id->smart_reason), "%s", s);
	if ((s = hd_jv_str(sm, "overall")))
		snprintf(id->smart_overall, sizeof(id->smart_overall), "%s", s);
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

/* The rules and how a verdict is given, after the options in the help. */
static void verdict_rules_help(FILE *f)
{
	fprintf(f, "\nRules (defaults in parentheses):\n");
	for (size_t i = 0; i < NRULES; i++)
		fprintf(f, "  %-20s %s (%g)\n", rules[i].name, rules[i].help, rules[i].value);
	fprintf(f,
"A SMART overall assessment other than GOOD fails.  Write response needs\n"
"response.tsv with writes (profile --write, which takes them with --sync);\n"
"without it the verdict is at best WARN: \"write response not measured\".\n"
"\n"
"The verdict is also stored in DIR/summary.json as \"verdict\".\n"
"Exit codes: 0 PASS, 4 WARN, 5 FAIL; 1 usage, 2 unreadable directory, data or rules file.\n");
}

struct verdict_opts {
	int json;
	const char *blob;	/* --smart-blob FILE */
};

static int opt_rule(void *o, const char *arg)
{
	(void)o;
	return set_rule("--rule", arg) ? -1 : 0;
}

/* A rules file is input like the data: one it cannot take is a setup failure. */
static int opt_rules(void *o, const char *arg)
{
	(void)o;
	return load_rules(arg) ? HD_EXIT_SETUP : 0;
}

static const struct hd_option verdict_options[] = {
	{ .name = "json", .kind = HD_OPT_FLAG, .off = offsetof(struct verdict_opts, json),
	  .help = "machine-readable output" },
	{ .name = "rule", .kind = HD_OPT_CALL, .arg = "NAME=VALUE", .call = opt_rule,
	  .help = "override a rule's limit (repeatable)" },
	{ .name = "rules", .kind = HD_OPT_CALL, .arg = "FILE", .call = opt_rules,
	  .help = "rule overrides from a file: NAME = VALUE lines, '#' comments" },
	{ .name = "smart-blob", .kind = HD_OPT_STRING, .arg = "FILE", .off = offsetof(struct verdict_opts, blob),
	  .help = "SMART health from saved data instead of summary.json's" },
	{ .name = "help", .letter = 'h', .kind = HD_OPT_HELP, .help = "this help" },
	{ .kind = HD_OPT_END },
};

static const struct hd_cmdspec verdict_spec = {
	.name = "verdict",
	.intro = "Usage: hddscope verdict [OPTIONS] DIR\n"
		 "\n"
		 "Judge a profile directory (hddscope profile --write) for deployment: PASS,\n"
		 "WARN or FAIL, with every reason and the figure behind it.  Works from the\n"
		 "data files alone; the drive is not touched.\n"
		 "\n",
	.opts = verdict_options,
	.extra_help = verdict_rules_help,
};

int hd_cmd_verdict(int argc, char **argv)
{
	struct verdict_opts o;
	static const char *stall_files[] = { "seek-read", "seek-write", "response", "interval" };
	static const char *all_files[] = { "seek-read", "seek-write", "response", "media", "queue-requests",
					   "queue", "interval", "bench", "zone" };
	struct hd_df *stall[4] = { NULL }, *all[9] = { NULL }, *resp = NULL;
	struct hd_identity id, *idp = NULL;
	struct hd_jv *sum = NULL;
	struct verdict v;
	const char *dir, *blob = NULL, *rev_from = "nominal 7200 rpm, assumed";
	char path[4096], err[600];
	double rev_ms = 60000.0 / 7200;
	int c, json = 0, ex = HD_EXIT_OK, nfiles = 0;

	c = hd_opt_parse(&verdict_spec, &o, sizeof(o), argc, argv);
	if (c != HD_OPT_GO)
		return c;
	json = o.json;
	blob = o.blob;
	if (argc - optind != 1) {
		hd_err(argc - optind ? "one profile directory, please" : "no profile directory given");
		return hd_usage_hint("verdict");
	}
	dir = argv[optind];
	if (access(dir, R_OK | X_OK) != 0) {
		hd_err("open %s: %s", dir, strerror(errno));
		return HD_EXIT_SETUP;
	}
	memset(&v, 0, sizeof(v));
	hd_identity_init(&id);
	for (size_t i = 0; i < sizeof(all_files) / sizeof(all_files[0]); i++) {
		int r = load(dir, all_files[i], &all[i]);
		if (r < 0) {
			ex = HD_EXIT_SETUP;
			goto out;
		}
		nfiles += r;
	}
	if (!nfiles) {
		hd_err("%s: no hddscope data files (run hddscope profile -o %s first)", dir, dir);
		ex = HD_EXIT_SETUP;
		goto out;
	}
	for (size_t i = 0; i < 4; i++)
		for (size_t k = 0; k < sizeof(all_files) / sizeof(all_files[0]); k++)
			if (strcmp(stall_files[i], all_files[k]) == 0)
				stall[i] = all[k];
	resp = all[2];
	snprintf(path, sizeof(path), "%s/summary.json", dir);
	if (access(path, F_OK) == 0 && hd_jv_load(path, &sum, err, sizeof(err))) {
		hd_err("%s", err);
		ex = HD_EXIT_SETUP;
		goto out;
	}
	/* The revolution: as fitted, else as the drive says, else assumed. */
	if (sum && hd_jv_num(sum, "fit.revolution_ms", 0) > 0) {
		rev_ms = hd_jv_num(sum, "fit.revolution_ms", 0);
		rev_from = "fitted";
	} else {
		for (size_t i = 0; i < sizeof(all_files) / sizeof(all_files[0]); i++) {
			const char *r = all[i] ? hd_df_meta(all[i], "rpm_nominal") : NULL;
			if (r && atof(r) > 1000) {
				rev_ms = 60000.0 / atof(r);
				rev_from = "from the nominal rpm";
				break;
			}
		}
	}

	if (resp)
		rule_write_response(&v, resp, rev_ms, rev_from);
	else
		add(&v, "write_response", L_WARN, NAN, NAN, "write response not measured (no response.tsv; profile with --write)");
	rule_stalls(&v, stall, stall_files, 4);
	rule_errors(&v, all, all_files, sizeof(all_files) / sizeof(all_files[0]));
	if (blob) {
		if (hd_identity_from_blob_file(blob, &id, err, sizeof(err))) {
			hd_err("%s", err);
			ex = HD_EXIT_SETUP;
			goto out;
		}
		idp = &id;
		rule_smart(&v, idp, "saved SMART data");
	} else if (sum && smart_from_summary(sum, &id) == 0) {
		idp = &id;
		rule_smart(&v, idp, "as the profile recorded it");
	} else {
		rule_smart(&v, NULL, "no summary.json and no --smart-blob");
	}

	if (json) {
		struct hd_json j;

		hd_json_init(&j, stdout, 1);
		hd_json_obj(&j, NULL);
		hd_json_str(&j, "verdict", level_name[v.overall]);
		hd_json_str(&j, "directory", dir);
		hd_json_arr(&j, "reasons");
		for (size_t i = 0; i < v.n; i++) {
			hd_json_obj(&j, NULL);
			hd_json_str(&j, "rule", v.r[i].rule);
			hd_json_str(&j, "level", level_name[v.r[i].level]);
			hd_json_num(&j, "figure", v.r[i].figure);
			hd_json_num(&j, "limit", v.r[i].limit);
			hd_json_str(&j, "text", v.r[i].text);
			hd_json_end(&j);
		}
		hd_json_end(&j);
		hd_json_obj(&j, "rules");
		for (size_t i = 0; i < NRULES; i++)
			hd_json_num(&j, rules[i].name, rules[i].value);
		hd_json_end(&j);
		hd_json_end(&j);
	} else {
		printf("verdict: %s\n", level_name[v.overall]);
		for (size_t i = 0; i < v.n; i++)
			printf("%-5s %s\n", level_name[v.r[i].level], v.r[i].text);
	}
	/* Keep it with the profile. */
	if (sum) {
		struct hd_jv *o = hd_jv_new(HD_JV_OBJ), *arr = hd_jv_new(HD_JV_ARR);
		int bad = !o || !arr || hd_jv_set(o, "result", hd_jv_new_str(level_name[v.overall]));

		for (size_t i = 0; !bad && i < v.n; i++) {
			char line[700];
			struct hd_jv *t;

			snprintf(line, sizeof(line), "%s %s", level_name[v.r[i].level], v.r[i].text);
			t = hd_jv_new_str(line);
			if (!t || hd_jv_append(arr, t)) {
				hd_jv_free(t);
				bad = 1;
			}
		}
		/* hd_jv_set takes its value, on failure too. */
		if (!bad) {
			bad = hd_jv_set(o, "reasons", arr);
			arr = NULL;
		}
		if (!bad) {
			bad = hd_jv_set(sum, "verdict", o);
			o = NULL;
		}
		if (bad || hd_jv_save(path, sum))
			hd_warn("could not store the verdict in %s", path);
		hd_jv_free(o);
		hd_jv_free(arr);
	}
	ex = v.overall == L_FAIL ? HD_EXIT_FAIL : v.overall == L_WARN ? HD_EXIT_WARN : HD_EXIT_OK;
out:
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		hd_df_free(all[i]);
	hd_jv_free(sum);
	hd_identity_free(&id);
	(void)idp;
	return ex;
}
