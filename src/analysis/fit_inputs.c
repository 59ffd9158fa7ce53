/*
 * The fit's inputs: every data file of the directory, the one per test the
 * fit uses, their samples, and small helpers over samples.
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hddscope/datafile.h"
#include "hddscope/fit.h"
#include "hddscope/stats.h"

#include "fit_local.h"

void fit_fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

static size_t count_rows(const struct hd_df *df, const char *op)
{
	const struct hd_df_col *o = hd_df_col(df, "op"), *c = hd_df_col(df, "class");
	size_t n = 0;

	for (size_t i = 0; i < df->nrows; i++)
		if ((!o || o->type != HD_COL_STR || strcmp(hd_df_str(o, i), op) == 0) &&
		    (!c || c->type != HD_COL_STR || strcmp(hd_df_str(c, i), "error") != 0))
			n++;
	return n;
}

/* The value of key=NUM in the "params" header, or def. */
double fit_param_num(const struct hd_df *df, const char *key, double def)
{
	const char *p = df ? hd_df_meta(df, "params") : NULL;
	size_t kl = strlen(key);

	while (p && *p) {
		if (strncmp(p, key, kl) == 0 && p[kl] == '=')
			return atof(p + kl + 1);
		p = strchr(p, ' ');
		if (p)
			p++;
	}
	return def;
}

/* "calibration: hit_p50_ms=X media_p50_ms=Y": the hit figure, or NAN. */
double fit_hit_p50(const struct hd_df *df)
{
	const char *v = df ? hd_df_meta(df, "calibration") : NULL;
	const char *h = v ? strstr(v, "hit_p50_ms=") : NULL;

	return h ? atof(h + strlen("hit_p50_ms=")) : NAN;
}

static int ends_with(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);

	return a >= b && strcmp(s + a - b, suf) == 0;
}

/*
 * Read every data file in dir (not our own output) and pick, per test, the
 * file with the most usable rows.
 */
int fit_load_inputs(const char *dir, struct inputs *in, char *err, size_t errlen)
{
	DIR *dh = opendir(dir);
	struct dirent *e;
	size_t best_seek = 0, best_resp = 0;

	memset(in, 0, sizeof(*in));
	if (!dh) {
		fit_fail(err, errlen, "%s: %s", dir, strerror(errno));
		return -1;
	}
	while ((e = readdir(dh))) {
		char path[4096];
		struct hd_df *df;
		const char *t;

		if (!ends_with(e->d_name, ".tsv") || strcmp(e->d_name, "seekcurve.tsv") == 0)
			continue;
		if (in->n == MAX_FILES)
			break;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (hd_df_read(path, &df, err, errlen)) {
			closedir(dh);
			return -1;
		}
		in->df[in->n++] = df;
		t = hd_df_meta(df, "test");
		if (!t)
			continue;
		if (strcmp(t, "seek") == 0 && hd_df_col(df, "distance_bytes") && count_rows(df, "read") > best_seek) {
			best_seek = count_rows(df, "read");
			in->seek = df;
		} else if (strcmp(t, "response") == 0 && hd_df_col(df, "start_bytes") &&
			   count_rows(df, "read") > best_resp) {
			best_resp = count_rows(df, "read");
			in->resp = df;
		} else if (strcmp(t, "interval") == 0 && hd_df_col(df, "actual_interval_ms")) {
			const char *op = hd_df_meta(df, "op");

			/* Files from before the read sawtooth have no op: they are writes. */
			if (op && strcmp(op, "read") == 0)
				in->interval_read = df;
			else
				in->interval = df;
		} else if (strcmp(t, "cache") == 0 && hd_df_col(df, "phase")) {
			in->cache = df;
		} else if (strcmp(t, "layout") == 0 && hd_df_col(df, "skew_sectors")) {
			in->layout = df;
		} else if (strcmp(t, "zone") == 0 && hd_df_col(df, "mb_s")) {
			in->zone = df;
		} else if (strcmp(t, "queue") == 0 && !hd_df_meta(df, "table") && hd_df_col(df, "iops")) {
			in->queue = df;
		} else if (strcmp(t, "queue") == 0 && hd_df_col(df, "offset_bytes") && hd_df_col(df, "start_ms")) {
			in->qreq = df;
		}
	}
	closedir(dh);
	return 0;
}

void fit_free_inputs(struct inputs *in)
{
	for (size_t i = 0; i < in->n; i++)
		hd_df_free(in->df[i]);
}

/*
 * The samples of df with the given op whose class is in classes (a list
 * like "media cache"), with distance and latency; NULL columns give none.
 */
struct samp *fit_samples(const struct hd_df *df, const char *op, const char *classes, size_t *n)
{
	const struct hd_df_col *d, *l, *o, *c, *s, *t;
	struct samp *v;

	*n = 0;
	if (!df)
		return NULL;
	d = hd_df_col(df, "distance_bytes");
	l = hd_df_col(df, "latency_ms");
	o = hd_df_col(df, "op");
	c = hd_df_col(df, "class");
	s = hd_df_col(df, "start_bytes");
	t = hd_df_col(df, "offset_bytes");
	if (s && s->type != HD_COL_NUM)
		s = NULL;
	if (t && t->type != HD_COL_NUM)
		t = NULL;
	if (!d || !l || d->type != HD_COL_NUM || l->type != HD_COL_NUM || !df->nrows)
		return NULL;
	v = malloc(df->nrows * sizeof(*v));
	if (!v)
		return NULL;
	for (size_t i = 0; i < df->nrows; i++) {
		if (o && o->type == HD_COL_STR && strcmp(hd_df_str(o, i), op) != 0)
			continue;
		if (c && c->type == HD_COL_STR && !strstr(classes, hd_df_str(c, i)))
			continue;
		v[*n] = (struct samp){ d->num[i], l->num[i], s ? s->num[i] : NAN, 0,
				       t ? t->num[i] : s ? s->num[i] + d->num[i] : NAN };
		(*n)++;
	}
	return v;
}

int fit_cmp_samp_d(const void *a, const void *b)
{
	double x = ((const struct samp *)a)->d, y = ((const struct samp *)b)->d;

	return (x > y) - (x < y);
}

/* Median of n values (v is reordered). */
double fit_median(double *v, size_t n)
{
	hd_sort_doubles(v, n);
	return hd_percentile_sorted(v, n, 50);
}

struct group *fit_groups(const struct samp *v, size_t n, size_t *ng)
{
	struct group *g = malloc((n ? n : 1) * sizeof(*g));
	double *tmp = malloc((n ? n : 1) * sizeof(*tmp));

	*ng = 0;
	if (!g || !tmp) {
		free(g);
		free(tmp);
		return NULL;
	}
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i; j < n && v[j].d == v[i].d; j++)
			tmp[j - i] = v[j].lat;
		g[(*ng)++] = (struct group){ v[i].d, fit_median(tmp, j - i), j - i };
	}
	free(tmp);
	return g;
}
