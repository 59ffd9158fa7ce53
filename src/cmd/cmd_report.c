/*
 * hddscope report DIR... -o FILE: one self-contained HTML page of one or
 * more profiles: each drive's identity and SMART as the profile recorded
 * them, its bench figures, the verdict computed from its files, the fit
 * run on its files with every figure's interval and method, and its
 * charts; with two or more profiles, compare's findings and charts.
 * Charts are drawn by the plot machinery (the scripts of plots/) into a private
 * temporary directory and inlined as PNG data: URIs, so the page needs no
 * network and no script.  Nothing is written but FILE (through fsutil's
 * output rule); the temporary directory is removed at the end.
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hddscope/cli.h"
#include "hddscope/cmd.h"
#include "hddscope/compare.h"
#include "hddscope/datafile.h"
#include "hddscope/fit.h"
#include "hddscope/fsutil.h"
#include "hddscope/json.h"
#include "hddscope/msg.h"
#include "hddscope/opt.h"
#include "hddscope/plot.h"
#include "hddscope/profile_files.h"
#include "hddscope/verdict.h"
#include "fleet_local.h"

struct report_opts {
	const char *out;
	int no_charts;
};

#define O(member) offsetof(struct report_opts, member)

static const struct hd_option report_options[] = {
	{ .name = "output", .letter = 'o', .kind = HD_OPT_FILE, .arg = "FILE", .off = O(out),
	  .help = "the HTML file to write (required)" },
	{ .name = "no-charts", .kind = HD_OPT_FLAG, .off = O(no_charts), .help = "figures and findings only" },
	HD_OPT_HELP_END,
};

static const struct hd_cmdspec report_spec = {
	.name = "report",
	.intro = "Usage: hddscope report [OPTIONS] DIR... -o FILE\n"
		 "\n"
		 "Write one self-contained HTML page of one to 8 profiles (directories written by\n"
		 "'hddscope profile'): each drive's identity and SMART as its summary.json\n"
		 "recorded them, its bench figures, the verdict computed from its files (as\n"
		 "'hddscope verdict DIR' judges them), the fit run on its files with every\n"
		 "figure's interval and method, and its charts; with two or more profiles, the\n"
		 "findings and charts of 'hddscope compare' (each against the first).  Charts\n"
		 "are PNG images inside the page: it needs no network and no JavaScript.\n"
		 "Nothing is written but FILE; the charts are drawn in a temporary directory\n"
		 "that is removed at the end.\n"
		 "\n"
		 "Or of burn-ins: DIR a device's directory of 'hddscope burnin' (its device.json)\n"
		 "or a whole result directory (its burnin.json), any number of drives: the fleet\n"
		 "first (how many drives PASS, WARN and FAIL, in all and by host, the worst\n"
		 "drives with their reasons and evidence, the figures side by side as 'hddscope\n"
		 "table' gives them), then each drive's identity, SMART before and after, its\n"
		 "rounds (a table and two small charts by round: slow-write rate with its\n"
		 "interval, write p99) and its verdict with every reason, as device.json holds\n"
		 "them.  Profiles and burn-ins cannot be mixed in one page.\n"
		 "\n",
	.opts = report_options,
	.outro = "\n"
		 "Exit codes: 0 ok, 1 usage (profiles and burn-ins mixed), 2 setup (a directory\n"
		 "missing or not a profile or burn-in, FILE refused), 3 runtime (a chart could\n"
		 "not be drawn, FILE not written).\n",
};

/* What the page says of one profile. */
struct drive {
	const char *dir;
	char letter;
	struct hd_verdict_input in;
	struct hd_verdict v;
	int have_fit;
	struct hd_fit_result fit;
	char fit_err[600];
	char charts[4096];	/* the temporary directory of its charts, "" for none */
};

/* ---- HTML ---- */

void hd_report_esc(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(*s, f);
		}
	}
}

static void esc(FILE *f, const char *s)
{
	hd_report_esc(f, s);
}

/* A file as base64 (RFC 4648); -errno. */
static int base64_file(FILE *f, const char *path)
{
	static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	unsigned char b[3];
	size_t n;
	FILE *in;
	int rc = hd_in_open(path, &in);

	if (rc)
		return rc;
	while ((n = fread(b, 1, 3, in)) > 0) {
		unsigned v = (unsigned)b[0] << 16 | (n > 1 ? (unsigned)b[1] << 8 : 0) | (n > 2 ? b[2] : 0);
		fputc(tab[v >> 18 & 63], f);
		fputc(tab[v >> 12 & 63], f);
		fputc(n > 1 ? tab[v >> 6 & 63] : '=', f);
		fputc(n > 2 ? tab[v & 63] : '=', f);
	}
	rc = ferror(in) ? -EIO : 0;
	fclose(in);
	return rc;
}

/* An image of a PNG chart, inlined; a chart that is not there is said so. */
static void chart(FILE *f, const char *path, const char *caption)
{
	fprintf(f, "<figure><img alt=\"");
	esc(f, caption);
	fprintf(f, "\" src=\"data:image/png;base64,");
	if (base64_file(f, path))
		hd_warn("%s: chart not drawn", path);
	fprintf(f, "\"><figcaption>");
	esc(f, caption);
	fprintf(f, "</figcaption></figure>\n");
}

static void row2(FILE *f, const char *k, const char *v)
{
	fprintf(f, "<tr><th>");
	esc(f, k);
	fprintf(f, "</th><td>");
	esc(f, v);
	fprintf(f, "</td></tr>\n");
}

/* The scalar members of a JSON value as rows named by their path (arrays by index). */
static void json_rows(FILE *f, const char *prefix, const struct hd_jv *v)
{
	char key[256], val[512];

	if (!v)
		return;
	if (v->type == HD_JV_OBJ || v->type == HD_JV_ARR) {
		for (size_t i = 0; i < v->n; i++) {
			if (v->type == HD_JV_OBJ)
				snprintf(key, sizeof(key), "%s%s%s", prefix, *prefix ? "." : "", v->keys[i]);
			else
				snprintf(key, sizeof(key), "%s[%zu]", prefix, i);
			json_rows(f, key, v->items[i]);
		}
		return;
	}
	if (v->type == HD_JV_NULL)
		snprintf(val, sizeof(val), "unknown");
	else if (v->type == HD_JV_BOOL)
		snprintf(val, sizeof(val), "%s", v->num ? "yes" : "no");
	else if (v->type == HD_JV_NUM)
		snprintf(val, sizeof(val), "%.10g", v->num);
	else
		snprintf(val, sizeof(val), "%s", v->str);
	row2(f, prefix, val);
}

const char hd_report_css[] =
	"body{font-family:sans-serif;max-width:1100px;margin:1em auto;padding:0 1em;color:#222}"
	"table{border-collapse:collapse;margin:.5em 0}th,td{border:1px solid #ccc;padding:2px 8px;text-align:left;"
	"font-size:90%}th{background:#f3f3f3;font-weight:normal}td.n{text-align:right;white-space:nowrap}"
	"img{max-width:100%;border:1px solid #ddd}figure{margin:1em 0}figcaption{font-size:85%;color:#555}"
	"pre{background:#f7f7f7;padding:.5em;white-space:pre-wrap;font-size:80%}"
	".PASS{color:#1a7f37}.WARN{color:#9a6700}.FAIL{color:#cf222e}.CANNOT{color:#555}";

/* ---- one drive ---- */

static const struct hd_df *first_df(const struct drive *d)
{
	for (size_t t = 0; t < HD_PF_COUNT; t++)
		if (d->in.df[t])
			return d->in.df[t];
	return NULL;
}

static const char *model_of(const struct drive *d)
{
	const char *m = hd_jv_str(d->in.summary, "device.identity.model");
	const struct hd_df *df = first_df(d);

	if (!m && df)
		m = hd_df_meta(df, "model");
	return m ? m : "unknown model";
}

static void identity(FILE *f, const struct drive *d)
{
	const struct hd_jv *dev = hd_jv_get(d->in.summary, "device");
	const struct hd_df *df = first_df(d);

	fprintf(f, "<h3>Identity</h3>\n<table>\n");
	if (dev) {
		for (size_t i = 0; i < dev->n; i++)
			if (strcmp(dev->keys[i], "smart") != 0)
				json_rows(f, dev->keys[i], dev->items[i]);
	} else {
		/* No summary.json: what the data files' headers say of the device. */
		for (size_t i = 0; df && i < df->nmeta; i++)
			if (strstr("device device_kind model serial firmware capacity_bytes rpm_nominal", df->keys[i]))
				row2(f, df->keys[i], df->values[i]);
	}
	fprintf(f, "</table>\n<h3>SMART</h3>\n<table>\n");
	if (hd_jv_get(dev, "smart"))
		json_rows(f, "smart", hd_jv_get(dev, "smart"));
	else
		row2(f, "smart", df && hd_df_meta(df, "smart") ? hd_df_meta(df, "smart") : "not recorded");
	fprintf(f, "</table>\n");
}

static void bench(FILE *f, const struct drive *d)
{
	const struct hd_df *df = d->in.df[HD_PF_BENCH];
	const struct hd_df_col *t = df ? hd_df_col(df, "test") : NULL;
	const struct hd_df_col *mb = df ? hd_df_col(df, "mb_s") : NULL, *io = df ? hd_df_col(df, "iops") : NULL;

	if (!t || !mb || !io || t->type != HD_COL_STR || mb->type != HD_COL_NUM || io->type != HD_COL_NUM)
		return;
	fprintf(f, "<h3>Bench</h3>\n<table>\n<tr><th>test</th><th>MB/s (10<sup>6</sup> bytes/s)</th><th>IOPS</th></tr>\n");
	for (size_t i = 0; i < df->nrows; i++) {
		fprintf(f, "<tr><td>");
		esc(f, hd_df_str(t, i));
		fprintf(f, "</td><td class=\"n\">%.3f</td><td class=\"n\">%.1f</td></tr>\n", mb->num[i], io->num[i]);
	}
	fprintf(f, "</table>\n");
}

static void verdict(FILE *f, const struct drive *d)
{
	const char *lv = hd_verdict_level_name(d->v.overall);

	fprintf(f, "<h3>Verdict</h3>\n<p>Computed from the profile's files under the default rules: <b class=\"%s\">%s</b>",
		lv, lv);
	if (d->v.cannot[0]) {
		fprintf(f, "; <b class=\"CANNOT\">cannot judge</b> write stability: ");
		esc(f, d->v.cannot);
	}
	fprintf(f, "</p>\n<table>\n<tr><th>rule</th><th>level</th><th>figure</th><th>limit</th><th>reason</th></tr>\n");
	for (size_t i = 0; i < d->v.n; i++) {
		const struct hd_verdict_reason *r = &d->v.r[i];

		fprintf(f, "<tr><td>");
		esc(f, r->rule);
		fprintf(f, "</td><td class=\"%s\">%s</td>", hd_verdict_level_name(r->level),
			hd_verdict_level_name(r->level));
		fprintf(f, isfinite(r->figure) ? "<td class=\"n\">%.4g</td>" : "<td>-</td>", r->figure);
		fprintf(f, isfinite(r->limit) ? "<td class=\"n\">%.4g</td>" : "<td>-</td>", r->limit);
		fprintf(f, "<td>");
		esc(f, r->text);
		fprintf(f, "</td></tr>\n");
	}
	fprintf(f, "</table>\n");
}

/* A fit figure: value, its interval (or uncertainty) and its method; "-" for no evidence. */
static void fit_row(FILE *f, const char *name, double v, double lo, double hi, const char *method)
{
	fprintf(f, "<tr><td>");
	esc(f, name);
	fprintf(f, isfinite(v) ? "</td><td class=\"n\">%.6g</td>" : "</td><td>-</td>", v);
	if (isfinite(lo) && isfinite(hi))
		fprintf(f, "<td class=\"n\">%.6g to %.6g</td>", lo, hi);
	else
		fprintf(f, "<td>-</td>");
	fprintf(f, "<td>");
	esc(f, method ? method : "-");
	fprintf(f, "</td></tr>\n");
}

static void fit(FILE *f, const struct drive *d)
{
	const struct hd_fit_result *r = &d->fit;

	fprintf(f, "<h3>Fit</h3>\n");
	if (!d->have_fit) {
		fprintf(f, "<p>Not fitted: ");
		esc(f, d->fit_err);
		fprintf(f, "</p>\n");
		return;
	}
	fprintf(f, "<p>The fit of 'hddscope fit' run on the profile's files; an interval is the figure's\n"
		"stated range (rpm and revolution: plus or minus the uncertainty).</p>\n");
	fprintf(f, "<table>\n<tr><th>figure</th><th>value</th><th>interval</th><th>method</th></tr>\n");
	fit_row(f, "rpm", r->rpm, r->rpm - r->rpm_uncertainty, r->rpm + r->rpm_uncertainty, r->rpm_method);
	fit_row(f, "revolution_ms", r->revolution_ms, r->revolution_ms - r->revolution_uncertainty_ms,
		r->revolution_ms + r->revolution_uncertainty_ms, r->rpm_method);
	fit_row(f, "overhead_ms", r->overhead_ms, NAN, NAN, r->overhead_method);
	fit_row(f, "avg_seek_ms", r->avg_seek_ms, NAN, NAN, r->seek_estimator);
	fit_row(f, "full_stroke_ms", r->full_stroke_ms, NAN, NAN, r->seek_estimator);
	for (size_t i = 0; i < HD_FIG_N; i++)
		fit_row(f, hd_fit_fig_name[i], r->fig[i].value, r->fig[i].low, r->fig[i].high, r->fig[i].method);
	fprintf(f, "</table>\n");
}

static void drive_charts(FILE *f, const struct drive *d)
{
	char path[4096 + 160];

	if (!d->charts[0])
		return;
	fprintf(f, "<h3>Charts</h3>\n");
	for (size_t t = 0; t < HD_PF_COUNT; t++) {
		if (!d->in.df[t])
			continue;
		snprintf(path, sizeof(path), "%s/%s.png", d->charts, hd_profile_files[t].name);
		if (access(path, R_OK) == 0)
			chart(f, path, hd_profile_files[t].name);
	}
}

static void drive_section(FILE *f, const struct drive *d)
{
	fprintf(f, "<h2 id=\"drive-%c\">%c: ", d->letter, d->letter);
	esc(f, model_of(d));
	fprintf(f, "</h2>\n<p>Profile <code>");
	esc(f, d->dir);
	fprintf(f, "</code></p>\n");
	identity(f, d);
	bench(f, d);
	verdict(f, d);
	fit(f, d);
	drive_charts(f, d);
}

/* ---- the page ---- */

static int comparison(FILE *f, const char *cmpdir, size_t n)
{
	char path[4096 + 160], line[1024];
	struct hd_jv *j;
	const struct hd_jv *charts;
	FILE *in;
	int rc;

	fprintf(f, "<h2 id=\"compare\">Comparison</h2>\n<p>The findings of 'hddscope compare' over the %zu profiles "
		"(each against A, at a family-wise error rate of 0.1%% over all the comparisons made).</p>\n<pre>", n);
	snprintf(path, sizeof(path), "%s/findings.txt", cmpdir);
	if ((rc = hd_in_open(path, &in))) {
		hd_err("open %s: %s", path, hd_fs_strerror(rc));
		return HD_EXIT_RUNTIME;
	}
	while (fgets(line, sizeof(line), in))
		esc(f, line);
	fclose(in);
	fprintf(f, "</pre>\n");
	snprintf(path, sizeof(path), "%s/compare.json", cmpdir);
	if (hd_jv_load(path, &j, line, sizeof(line))) {
		hd_err("%s", line);
		return HD_EXIT_RUNTIME;
	}
	charts = hd_jv_get(j, "charts");
	for (size_t i = 0; charts && charts->type == HD_JV_ARR && i < charts->n; i++) {
		if (charts->items[i]->type != HD_JV_STR)
			continue;
		snprintf(path, sizeof(path), "%s/%s", cmpdir, charts->items[i]->str);
		if (access(path, R_OK) == 0)
			chart(f, path, charts->items[i]->str);
	}
	hd_jv_free(j);
	return HD_EXIT_OK;
}

static int write_page(FILE *f, struct drive *d, size_t n, const char *cmpdir)
{
	int ex = HD_EXIT_OK;

	fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		"<title>hddscope report</title>\n<style>%s</style>\n</head>\n<body>\n<h1>hddscope report</h1>\n",
		hd_report_css);
	fprintf(f, "<p>%zu profile%s, written by hddscope %s.</p>\n<ul>\n", n, n > 1 ? "s" : "", HDDSCOPE_VERSION);
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "<li><a href=\"#drive-%c\">%c: ", d[i].letter, d[i].letter);
		esc(f, model_of(&d[i]));
		fprintf(f, "</a> (");
		esc(f, d[i].dir);
		fprintf(f, ")</li>\n");
	}
	if (cmpdir)
		fprintf(f, "<li><a href=\"#compare\">Comparison</a></li>\n");
	fprintf(f, "</ul>\n");
	for (size_t i = 0; i < n; i++)
		drive_section(f, &d[i]);
	if (cmpdir)
		ex = comparison(f, cmpdir, n);
	fprintf(f, "</body>\n</html>\n");
	return ex;
}

/* ---- the work, in a private temporary directory ---- */

/* Remove dir and everything in it (it holds files and directories hddscope made). */
static void remove_tree(const char *dir)
{
	char path[4096 + 256];
	struct dirent *e;
	struct stat st;
	DIR *dp = opendir(dir);

	while (dp && (e = readdir(dp))) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode))
			remove_tree(path);
		else
			unlink(path);
	}
	if (dp)
		closedir(dp);
	rmdir(dir);
}

/*
 * Fit the drive from its files without writing beside them: the data files
 * are linked into a directory of the temporary one, where the fit writes
 * its seek curve.
 */
static void fit_drive(struct drive *d, const char *tmp)
{
	char work[4096], from[4096], to[4096 + 64];
	size_t linked = 0;

	snprintf(work, sizeof(work), "%s/fit-%c", tmp, d->letter);
	if (mkdir(work, 0700) != 0) {
		snprintf(d->fit_err, sizeof(d->fit_err), "mkdir %.500s: %s", work, strerror(errno));
		return;
	}
	for (size_t t = 0; t < HD_PF_COUNT; t++) {
		if (!d->in.df[t] || strcmp(hd_profile_files[t].name, "seekcurve") == 0)
			continue;
		int w = snprintf(from, sizeof(from), "%s/%s.tsv", d->dir, hd_profile_files[t].name);
		char cwd[2048];

		/* A link is resolved from its own directory: make the target absolute. */
		if (w > 0 && from[0] != '/' && getcwd(cwd, sizeof(cwd)))
			w = snprintf(from, sizeof(from), "%s/%s/%s.tsv", cwd, d->dir, hd_profile_files[t].name);
		/* A path too long for the buffers is no file to fit from. */
		if (w < 0 || (size_t)w >= sizeof(from))
			continue;
		snprintf(to, sizeof(to), "%s/%s.tsv", work, hd_profile_files[t].name);
		linked += symlink(from, to) == 0;
	}
	if (!linked) {
		snprintf(d->fit_err, sizeof(d->fit_err), "no data files to fit");
		return;
	}
	d->have_fit = hd_fit_dir(work, &d->fit, d->fit_err, sizeof(d->fit_err)) == 0;
}

/* Every chart of the drive's data files into tmp/charts-X; returns the exit code. */
static int draw_drive(struct drive *d, const char *tmp)
{
	char data[4096];
	int ex = HD_EXIT_OK;

	snprintf(d->charts, sizeof(d->charts), "%s/charts-%c", tmp, d->letter);
	if (mkdir(d->charts, 0700) != 0) {
		hd_err("mkdir %s: %s", d->charts, strerror(errno));
		d->charts[0] = '\0';
		return HD_EXIT_RUNTIME;
	}
	for (size_t t = 0; t < HD_PF_COUNT; t++) {
		int rc;

		if (!d->in.df[t])
			continue;
		snprintf(data, sizeof(data), "%s/%s.tsv", d->dir, hd_profile_files[t].name);
		rc = hd_plot_file(data, d->charts, "png", 0);
		if (rc > ex)
			ex = rc;
	}
	return ex;
}

/* Load and judge one drive; returns the exit code. */
static int load_drive(struct drive *d)
{
	struct hd_verdict_smart sm;
	char err[600];

	if (hd_cmd_check_dir(d->dir))
		return HD_EXIT_SETUP;
	if (hd_verdict_load(d->dir, &d->in, err, sizeof(err))) {
		hd_err("%s", err);
		return HD_EXIT_SETUP;
	}
	if (hd_verdict_smart_from_summary(d->in.summary, &sm) == 0)
		hd_verdict_judge(&d->in, &sm, "as the profile recorded it", &d->v);
	else
		hd_verdict_judge(&d->in, NULL, "no summary.json", &d->v);
	return HD_EXIT_OK;
}

/* Write the page to o->out through the output rule; returns the exit code. */
static int write_out(const struct report_opts *o, struct drive *d, size_t n, const char *cmpdir)
{
	const char *call;
	char *tmp;
	FILE *f;
	int rc = hd_out_fopen(o->out, &f, &tmp), ex;

	if (rc) {
		hd_err("create %s: %s", o->out, hd_fs_strerror(rc));
		return HD_EXIT_SETUP;
	}
	ex = write_page(f, d, n, cmpdir);
	rc = hd_out_fclose(f, tmp, o->out, &call);
	if (rc) {
		hd_err("%s %s: %s", call, o->out, hd_fs_strerror(rc));
		return HD_EXIT_RUNTIME;
	}
	return ex;
}

static int work(const struct report_opts *o, struct drive *d, size_t n, const char *tmp)
{
	char cmpdir[4096];
	int charts = !o->no_charts, ex = HD_EXIT_OK, e;

	if (charts && !hd_plot_available()) {
		hd_warn("gnuplot not found in PATH: charts skipped (Debian: apt-get install gnuplot-nox)");
		charts = 0;
	}
	for (size_t i = 0; i < n; i++) {
		fit_drive(&d[i], tmp);
		if (charts && (e = draw_drive(&d[i], tmp)) > ex)
			ex = e;
	}
	if (n > 1) {
		const char *dirs[HD_CMP_MAX_DIRS];

		for (size_t i = 0; i < n; i++)
			dirs[i] = d[i].dir;
		snprintf(cmpdir, sizeof(cmpdir), "%s/compare", tmp);
		e = hd_compare_into(dirs, n, cmpdir, charts);
		if (e == HD_EXIT_SETUP)
			return e;
		ex = e > ex ? e : ex;
	}
	e = write_out(o, d, n, n > 1 ? cmpdir : NULL);
	return e > ex ? e : ex;
}

int hd_cmd_report(int argc, char **argv)
{
	struct report_opts o;
	struct drive d[HD_CMP_MAX_DIRS];
	const char *base = getenv("TMPDIR");
	char tmpl[1024];
	size_t n = 0;
	int ex = hd_opt_parse(&report_spec, &o, sizeof(o), argc, argv), rc;

	if (ex != HD_OPT_GO)
		return ex;
	if (optind < argc && o.out) {
		int family = fl_family("report", argv + optind, (size_t)(argc - optind));

		if (family < 0)
			return family == -HD_EXIT_USAGE ? hd_usage_hint("report") : -family;
		if (family)
			return hd_report_fleet(o.out, argv + optind, (size_t)(argc - optind), !o.no_charts);
	}
	if (optind >= argc || argc - optind > HD_CMP_MAX_DIRS || !o.out) {
		if (!o.out)
			hd_err("no output file (-o FILE)");
		else
			hd_err(optind >= argc ? "no profile or burn-in directory given" : "at most %d profiles", HD_CMP_MAX_DIRS);
		return hd_usage_hint("report");
	}
	if ((rc = hd_out_check_file(o.out))) {
		hd_err("%s: %s", o.out, hd_fs_strerror(rc));
		return HD_EXIT_SETUP;
	}
	memset(d, 0, sizeof(d));
	for (ex = HD_EXIT_OK; ex == HD_EXIT_OK && optind + (int)n < argc; n++) {
		d[n].dir = argv[optind + (int)n];
		d[n].letter = (char)('A' + n);
		ex = load_drive(&d[n]);
	}
	snprintf(tmpl, sizeof(tmpl), "%s/hddscope-report.XXXXXX", base && *base ? base : "/tmp");
	if (ex == HD_EXIT_OK && !mkdtemp(tmpl)) {
		hd_err("mkdtemp %s: %s", tmpl, strerror(errno));
		ex = HD_EXIT_SETUP;
	} else if (ex == HD_EXIT_OK) {
		ex = work(&o, d, n, tmpl);
		remove_tree(tmpl);
	}
	for (size_t i = 0; i < n; i++) {
		hd_verdict_input_free(&d[i].in);
		if (d[i].have_fit)
			hd_fit_result_free(&d[i].fit);
	}
	return ex;
}
