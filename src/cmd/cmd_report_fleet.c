/*
 * hddscope report over burn-in results: one self-contained HTML page of a
 * fleet.  First the fleet: how many drives got each verdict (in all and
 * by host, the result directory each came from), the worst drives with
 * their reasons and the evidence (each rule's figure and limit), every
 * drive's figures side by side (the rows of 'hddscope table'); then each
 * drive: its identity, SMART before and after, a table of its rounds,
 * charts of slow-write rate and write p99 by round (SVG drawn here,
 * inlined as data: URIs; not with --no-charts), its verdict and reasons.
 * Every figure is the one its device.json holds.  Nothing is written but
 * the page (through fsutil's output rule); the page has no script and
 * refers to nothing outside itself.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hddscope/burnin.h"
#include "hddscope/fsutil.h"
#include "hddscope/json.h"
#include "hddscope/msg.h"
#include "fleet_local.h"

#define esc hd_report_esc

static void cell(FILE *f, const char *s, int numeric)
{
	fputs(numeric ? "<td class=\"n\">" : "<td>", f);
	esc(f, s);
	fputs("</td>", f);
}

static void num_cell(FILE *f, const struct hd_jv *v, const char *path, const char *fmt)
{
	char buf[128];

	fl_num(buf, sizeof(buf), v, path, fmt);
	cell(f, buf, 1);
}

/* The style class of a level: one of the style sheet's, whatever the file says. */
static const char *level_class(const char *v)
{
	static const char *const known[] = { "PASS", "WARN", "FAIL" };

	for (size_t i = 0; v && i < 3; i++)
		if (strcmp(v, known[i]) == 0)
			return known[i];
	return "CANNOT";
}

static void verdict_b(FILE *f, const char *v)
{
	fprintf(f, "<b class=\"%s\">", level_class(v));
	esc(f, v);
	fputs("</b>", f);
}

/* ---- the fleet ---- */

static void counts(FILE *f, const struct fl_fleet *fl)
{
	static const char *const name[4] = { "FAIL", "WARN", "PASS", "none" };
	size_t n[4] = { 0 };

	for (size_t i = 0; i < fl->n; i++)
		n[fl->d[i].rank]++;
	fprintf(f, "<h2 id=\"fleet\">Fleet</h2>\n<p>%zu drive%s.</p>\n<table>\n<tr><th>verdict</th><th>drives</th></tr>\n",
		fl->n, fl->n == 1 ? "" : "s");
	for (int k = 0; k < 4; k++)
		fprintf(f, "<tr><td class=\"%s\">%s</td><td class=\"n\">%zu</td></tr>\n", k < 3 ? name[k] : "CANNOT",
			k < 3 ? name[k] : "not judged", n[k]);
	fputs("</table>\n", f);
}

/* The host of a drive: the first name of where (the result directory), "" for none. */
static size_t host_len(const struct fl_drive *d)
{
	const char *slash = strchr(d->where, '/');

	return slash ? (size_t)(slash - d->where) : 0;
}

/* Drives by host (the result directory each came from) and verdict, hosts in their first drive's order. */
static void by_host(FILE *f, const struct fl_fleet *fl)
{
	char host[512];

	fputs("<h3>By host</h3>\n<table>\n<tr><th>host (result directory)</th><th>drives</th><th>FAIL</th>"
	      "<th>WARN</th><th>PASS</th><th>not judged</th></tr>\n", f);
	for (size_t i = 0; i < fl->n; i++) {
		size_t len = host_len(&fl->d[i]), n[4] = { 0 }, all = 0, seen = 0;

		for (size_t j = 0; j < i && !seen; j++)
			seen = host_len(&fl->d[j]) == len && !strncmp(fl->d[j].where, fl->d[i].where, len);
		if (seen)
			continue;
		for (size_t j = i; j < fl->n; j++)
			if (host_len(&fl->d[j]) == len && !strncmp(fl->d[j].where, fl->d[i].where, len)) {
				n[fl->d[j].rank]++;
				all++;
			}
		snprintf(host, sizeof(host), "%.*s", (int)len, fl->d[i].where);
		fputs("<tr>", f);
		cell(f, len ? host : "-", 0);
		fprintf(f, "<td class=\"n\">%zu</td><td class=\"n\">%zu</td><td class=\"n\">%zu</td>"
			"<td class=\"n\">%zu</td><td class=\"n\">%zu</td></tr>\n", all, n[0], n[1], n[2], n[3]);
	}
	fputs("</table>\n", f);
}

/* A drive's FAIL and WARN reasons as a list, with each rule's figure and limit. */
static void evidence(FILE *f, const struct fl_drive *d)
{
	const struct hd_jv *r = hd_jv_get(d->doc, "reasons");

	fputs("<ul>\n", f);
	for (size_t i = 0; r && r->type == HD_JV_ARR && i < r->n; i++) {
		const struct hd_jv *x = r->items[i];
		const char *lv = hd_jv_str(x, "level"), *rule = hd_jv_str(x, "rule");
		char fig[64], lim[64];

		if (!lv || (strcmp(lv, "FAIL") && strcmp(lv, "WARN")))
			continue;
		fl_num(fig, sizeof(fig), x, "figure", "%.6g");
		fl_num(lim, sizeof(lim), x, "limit", "%.6g");
		fprintf(f, "<li><b class=\"%s\">%s</b> ", lv, lv);
		esc(f, hd_jv_str(x, "text"));
		fputs(" (<code>", f);
		esc(f, rule ? rule : "-");
		fprintf(f, "</code>: figure %s, limit %s)</li>\n", fig, lim);
	}
	fputs("</ul>\n", f);
}

static void worst(FILE *f, const struct fl_fleet *fl)
{
	size_t n = 0;

	fputs("<h3>The worst drives</h3>\n", f);
	for (size_t i = 0; i < fl->n; i++) {
		const struct fl_drive *d = &fl->d[i];

		if (d->rank > 1)
			continue;
		n++;
		fprintf(f, "<p><a href=\"#drive-%zu\">", i + 1);
		esc(f, d->where);
		fputs("</a> ", f);
		esc(f, hd_jv_str(d->doc, "device"));
		fputs(" (", f);
		esc(f, hd_jv_str(d->doc, "identity.model"));
		fputs("): ", f);
		verdict_b(f, fl_verdict(d));
		fputs("</p>\n", f);
		evidence(f, d);
	}
	if (!n)
		fputs("<p>No drive got FAIL or WARN.</p>\n", f);
}

static void side_by_side(FILE *f, const struct fl_fleet *fl)
{
	char c[FL_NCOL][FL_CELL];

	fputs("<h3>Side by side</h3>\n<p>Each drive's last round (slow-write rate in per cent, with its 95% interval; "
	      "write p99; temperature) and the change of its SMART counters over the burn-in, as "
	      "<code>hddscope table</code> gives them (its reasons: above and in its section).</p>\n<table>\n<tr>", f);
	/* The reasons, long, are the worst drives' list above. */
	for (size_t k = 0; k + 1 < FL_NCOL; k++) {
		fputs("<th>", f);
		esc(f, fl_head[k]);
		fputs("</th>", f);
	}
	fputs("</tr>\n", f);
	for (size_t i = 0; i < fl->n; i++) {
		fl_cells(&fl->d[i], c);
		fprintf(f, "<tr><td><a href=\"#drive-%zu\">", i + 1);
		esc(f, c[0]);
		fputs("</a></td>", f);
		for (size_t k = 1; k + 1 < FL_NCOL; k++) {
			if (k == 4) {
				fprintf(f, "<td class=\"%s\">", level_class(c[k]));
				esc(f, c[k]);
				fputs("</td>", f);
			} else
				cell(f, c[k], fl_numeric[k]);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

/* ---- the chart of a drive's rounds: SVG, inlined as a data: URI ---- */

static void base64(FILE *f, const char *b, size_t n)
{
	static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	const unsigned char *u = (const unsigned char *)b;

	for (size_t i = 0; i < n; i += 3) {
		size_t k = n - i;
		unsigned v = (unsigned)u[i] << 16 | (k > 1 ? (unsigned)u[i + 1] << 8 : 0) | (k > 2 ? u[i + 2] : 0);

		fputc(tab[v >> 18 & 63], f);
		fputc(tab[v >> 12 & 63], f);
		fputc(k > 1 ? tab[v >> 6 & 63] : '=', f);
		fputc(k > 2 ? tab[v & 63] : '=', f);
	}
}

#define CW 380.0
#define CH 210.0
#define CL 56.0
#define CR 12.0
#define CT 26.0
#define CB 34.0

/* One panel: the figure key of every round times scale (with lo/hi bars where given), by round. */
static void panel(FILE *s, const struct hd_jv *rs, const char *key, const char *lo, const char *hi, double scale,
		  const char *title)
{
	double top = 0, x, y;
	size_t n = rs->n;

	for (size_t i = 0; i < n; i++)
		top = fmax(top, scale * hd_jv_num(rs->items[i], hi ? hi : key, 0));
	top = top > 0 ? top * 1.15 : 1;
	fprintf(s, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" font-family=\"sans-serif\" "
		"font-size=\"11\"><rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>"
		"<text x=\"%.0f\" y=\"16\" text-anchor=\"middle\" font-size=\"12\">%s</text>"
		"<path d=\"M%.1f %.1fV%.1fH%.1f\" stroke=\"black\" fill=\"none\"/>", CW, CH, CW / 2, title, CL, CT,
		CH - CB, CW - CR);
	for (int t = 0; t <= 2; t++) {
		y = CH - CB - t / 2.0 * (CH - CB - CT);
		fprintf(s, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%.3g</text>", CL - 4, y + 4, top * t / 2);
	}
	for (size_t i = 0; i < n; i++) {
		x = CL + (n > 1 ? (double)i / (double)(n - 1) : 0.5) * (CW - CL - CR - 10) + 5;
		if (n <= 16 || i == 0 || i + 1 == n || i % (n / 8) == 0)
			fprintf(s, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%zu</text>", x, CH - CB + 14, i + 1);
	}
	fprintf(s, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">round</text><polyline fill=\"none\" "
		"stroke=\"#0550ae\" stroke-width=\"1.5\" points=\"", (CL + CW - CR) / 2, CH - 4);
	for (size_t i = 0; i < n; i++) {
		x = CL + (n > 1 ? (double)i / (double)(n - 1) : 0.5) * (CW - CL - CR - 10) + 5;
		y = CH - CB - scale * hd_jv_num(rs->items[i], key, 0) / top * (CH - CB - CT);
		fprintf(s, "%.1f,%.1f ", x, y);
	}
	fputs("\"/>", s);
	for (size_t i = 0; lo && hi && i < n; i++) {
		double y0 = CH - CB - scale * hd_jv_num(rs->items[i], lo, 0) / top * (CH - CB - CT);
		double y1 = CH - CB - scale * hd_jv_num(rs->items[i], hi, 0) / top * (CH - CB - CT);

		x = CL + (n > 1 ? (double)i / (double)(n - 1) : 0.5) * (CW - CL - CR - 10) + 5;
		fprintf(s, "<path d=\"M%.1f %.1fV%.1f\" stroke=\"#555\"/>", x, y0, y1);
	}
	fputs("</svg>", s);
}

/* The drive's slow-write rate (with its 95% intervals) and write p99 by round, as two images. */
static void round_charts(FILE *f, const struct fl_drive *d)
{
	const struct hd_jv *rs = hd_jv_get(d->doc, "rounds");
	static const char *const alt[2] = { "slow-write rate by round", "write p99 by round" };

	if (!rs || rs->type != HD_JV_ARR || !rs->n)
		return;
	for (int k = 0; k < 2; k++) {
		char *buf = NULL;
		size_t len = 0;
		FILE *s = open_memstream(&buf, &len);

		if (!s) {
			hd_warn("%s: chart not drawn: %s", d->dir, strerror(errno));
			return;
		}
		if (k == 0)
			panel(s, rs, "slow_write_rate", "slow_write_rate_lo", "slow_write_rate_hi", 100,
			      "slow writes % (bars: 95% interval)");
		else
			panel(s, rs, "write_p99_ms", NULL, NULL, 1, "write p99 ms (median over distances)");
		if (fclose(s) == 0) {
			fprintf(f, "<img alt=\"%s\" src=\"data:image/svg+xml;base64,", alt[k]);
			base64(f, buf, len);
			fputs("\">\n", f);
		}
		free(buf);
	}
}

/* ---- one drive ---- */

/* The scalar members of an object as rows. */
static void scalar_rows(FILE *f, const struct hd_jv *o, const char *prefix)
{
	char v[128];

	for (size_t i = 0; o && o->type == HD_JV_OBJ && i < o->n; i++) {
		const struct hd_jv *x = o->items[i];

		if (x->type == HD_JV_OBJ || x->type == HD_JV_ARR)
			continue;
		if (x->type == HD_JV_STR)
			snprintf(v, sizeof(v), "%s", x->str);
		else if (x->type == HD_JV_NUM)
			snprintf(v, sizeof(v), "%.10g", x->num);
		else
			snprintf(v, sizeof(v), "%s", x->type == HD_JV_NULL ? "unknown" : x->num ? "yes" : "no");
		fputs("<tr><th>", f);
		esc(f, prefix);
		esc(f, o->keys[i]);
		fputs("</th>", f);
		cell(f, v, x->type == HD_JV_NUM);
		fputs("</tr>\n", f);
	}
}

static void smart(FILE *f, const struct fl_drive *d)
{
	const struct hd_jv *b = hd_jv_get(d->doc, "smart_before"), *a = hd_jv_get(d->doc, "smart_after");
	char v[2][128], ch[128];

	fputs("<h3>SMART</h3>\n<table>\n<tr><th></th><th>before</th><th>after</th><th>change</th></tr>\n", f);
	for (size_t i = 0; b && b->type == HD_JV_OBJ && i < b->n; i++) {
		const char *k = b->keys[i];
		const struct hd_jv *x[2] = { b->items[i], a ? hd_jv_get(a, k) : NULL };

		for (int s = 0; s < 2; s++) {
			if (!x[s] || x[s]->type == HD_JV_NULL)
				snprintf(v[s], sizeof(v[s]), "-");
			else if (x[s]->type == HD_JV_NUM)
				snprintf(v[s], sizeof(v[s]), "%.10g", x[s]->num);
			else if (x[s]->type == HD_JV_BOOL)
				snprintf(v[s], sizeof(v[s]), "%s", x[s]->num ? "yes" : "no");
			else
				snprintf(v[s], sizeof(v[s]), "%s", x[s]->type == HD_JV_STR ? x[s]->str : "-");
		}
		if (x[0]->type == HD_JV_NUM && x[1] && x[1]->type == HD_JV_NUM)
			snprintf(ch, sizeof(ch), x[1]->num > x[0]->num ? "+%.10g" : "%.10g", x[1]->num - x[0]->num);
		else
			snprintf(ch, sizeof(ch), "-");
		fputs("<tr><th>", f);
		esc(f, k);
		fputs("</th>", f);
		cell(f, v[0], 1);
		cell(f, v[1], 1);
		cell(f, ch, 1);
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

static void pct_cell(FILE *f, const struct hd_jv *r, const char *path)
{
	const struct hd_jv *x = hd_jv_get(r, path);
	char buf[64];

	snprintf(buf, sizeof(buf), x && x->type == HD_JV_NUM ? "%.3f" : "-", x && x->type == HD_JV_NUM ? 100 * x->num : 0);
	cell(f, buf, 1);
}

static void rounds(FILE *f, const struct fl_drive *d)
{
	static const char *const head[] = { "round", "start h", "end h", "complete", "writes", "slow", "slow %",
		"95% interval %", "write p50 ms", "write p99 ms", "read p50 ms", "read p99 ms", "errors", "temp C",
		"realloc", "pending" };
	const struct hd_jv *rs = hd_jv_get(d->doc, "rounds");

	fputs("<h3>Rounds</h3>\n<table>\n<tr>", f);
	for (size_t k = 0; k < sizeof(head) / sizeof(head[0]); k++)
		fprintf(f, "<th>%s</th>", head[k]);
	fputs("</tr>\n", f);
	for (size_t i = 0; rs && rs->type == HD_JV_ARR && i < rs->n; i++) {
		const struct hd_jv *r = rs->items[i], *c = hd_jv_get(r, "complete");
		char iv[128], lo[64], hi[64];

		fl_num(lo, sizeof(lo), r, "slow_write_rate_lo", "%.6f");
		fl_num(hi, sizeof(hi), r, "slow_write_rate_hi", "%.6f");
		snprintf(iv, sizeof(iv), "%.3f-%.3f", 100 * hd_jv_num(r, "slow_write_rate_lo", NAN),
			 100 * hd_jv_num(r, "slow_write_rate_hi", NAN));
		fputs("<tr>", f);
		num_cell(f, r, "round", "%.0f");
		fprintf(f, "<td class=\"n\">%.2f</td><td class=\"n\">%.2f</td>", hd_jv_num(r, "start_s", NAN) / 3600,
			hd_jv_num(r, "end_s", NAN) / 3600);
		cell(f, c && c->type == HD_JV_BOOL ? (c->num ? "yes" : "no") : "-", 0);
		num_cell(f, r, "writes", "%.0f");
		num_cell(f, r, "slow_writes", "%.0f");
		pct_cell(f, r, "slow_write_rate");
		cell(f, strcmp(lo, "-") && strcmp(hi, "-") ? iv : "-", 1);
		num_cell(f, r, "write_p50_ms", "%.3f");
		num_cell(f, r, "write_p99_ms", "%.3f");
		num_cell(f, r, "read_p50_ms", "%.3f");
		num_cell(f, r, "read_p99_ms", "%.3f");
		num_cell(f, r, "errors", "%.0f");
		num_cell(f, r, "temperature_c", "%.0f");
		num_cell(f, r, "smart.reallocated_sectors", "%.0f");
		num_cell(f, r, "smart.pending_sectors", "%.0f");
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

static void reasons(FILE *f, const struct fl_drive *d)
{
	const struct hd_jv *r = hd_jv_get(d->doc, "reasons");

	fputs("<h3>Verdict</h3>\n<p>", f);
	verdict_b(f, fl_verdict(d));
	fputs("</p>\n<table>\n<tr><th>rule</th><th>level</th><th>figure</th><th>limit</th><th>reason</th></tr>\n", f);
	for (size_t i = 0; r && r->type == HD_JV_ARR && i < r->n; i++) {
		const struct hd_jv *x = r->items[i];
		const char *lv = hd_jv_str(x, "level");

		fputs("<tr>", f);
		cell(f, hd_jv_str(x, "rule"), 0);
		fprintf(f, "<td class=\"%s\">", level_class(lv));
		esc(f, lv);
		fputs("</td>", f);
		num_cell(f, x, "figure", "%.6g");
		num_cell(f, x, "limit", "%.6g");
		cell(f, hd_jv_str(x, "text"), 0);
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

static void drive_section(FILE *f, const struct fl_drive *d, size_t k, int charts)
{
	fprintf(f, "<h2 id=\"drive-%zu\">", k);
	esc(f, d->where);
	fputs(": ", f);
	esc(f, hd_jv_str(d->doc, "identity.model"));
	fputs(" ", f);
	verdict_b(f, fl_verdict(d));
	fputs("</h2>\n<p>Burn-in <code>", f);
	esc(f, d->dir);
	fputs("</code></p>\n<h3>Identity</h3>\n<table>\n", f);
	scalar_rows(f, d->doc, "");
	scalar_rows(f, hd_jv_get(d->doc, "identity"), "identity.");
	fputs("</table>\n", f);
	smart(f, d);
	rounds(f, d);
	if (charts && fl_last_round(d)) {
		fputs("<figure>", f);
		round_charts(f, d);
		fputs("<figcaption>By round: the slow-write rate (per cent, its 95% interval as a bar) and write p99 "
	      "(ms).</figcaption></figure>\n", f);
	}
	reasons(f, d);
}

/* ---- the page ---- */

static void write_page(FILE *f, const struct fl_fleet *fl, size_t ndirs, int charts)
{
	fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		"<title>hddscope fleet report</title>\n<style>%s</style>\n</head>\n<body>\n<h1>hddscope fleet report</h1>\n",
		hd_report_css);
	fprintf(f, "<p>%zu drive%s of %zu burn-in director%s, written by hddscope %s; the worst first.</p>\n", fl->n,
		fl->n == 1 ? "" : "s", ndirs, ndirs == 1 ? "y" : "ies", HDDSCOPE_VERSION);
	counts(f, fl);
	by_host(f, fl);
	worst(f, fl);
	side_by_side(f, fl);
	for (size_t i = 0; i < fl->n; i++)
		drive_section(f, &fl->d[i], i + 1, charts);
	fputs("</body>\n</html>\n", f);
}

int hd_report_fleet(const char *out, char *const *dirs, size_t n, int charts)
{
	struct fl_fleet fl;
	const char *call;
	char *tmp;
	FILE *f;
	int rc = hd_out_check_file(out), ex;

	if (rc) {
		hd_err("%s: %s", out, hd_fs_strerror(rc));
		return HD_EXIT_SETUP;
	}
	if ((ex = fl_load(dirs, n, &fl)) != HD_EXIT_OK)
		return ex;
	if ((rc = hd_out_fopen(out, &f, &tmp))) {
		hd_err("create %s: %s", out, hd_fs_strerror(rc));
		fl_free(&fl);
		return HD_EXIT_SETUP;
	}
	write_page(f, &fl, n, charts);
	fl_free(&fl);
	if ((rc = hd_out_fclose(f, tmp, out, &call))) {
		hd_err("%s %s: %s", call, out, hd_fs_strerror(rc));
		return HD_EXIT_RUNTIME;
	}
	return HD_EXIT_OK;
}
