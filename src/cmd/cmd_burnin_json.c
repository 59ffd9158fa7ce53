/*
 * The burn-in's machine-readable results: each device's device.json,
 * rewritten after every round (so an interrupted run keeps every finished
 * round, and --resume reads them back), the result directory's
 * burnin.json (format "hddscope-burnin", version BI_FORMAT_VERSION; the
 * schema is in the man page), and --prom's Prometheus text exposition for
 * node_exporter's textfile collector.  Every file goes through the output
 * rule: a temporary file renamed into place.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hddscope/fsutil.h"
#include "hddscope/json.h"
#include "hddscope/msg.h"
#include "burnin_local.h"

void bi_smart_of(const struct hd_identity *id, struct hd_burnin_smart *s)
{
	memset(s, 0, sizeof(*s));
	s->available = id->smart_available;
	s->temperature_c = id->have_temp ? id->temperature_c : NAN;
	snprintf(s->overall, sizeof(s->overall), "%s", id->smart_available ? id->smart_overall : "unknown");
	for (size_t i = 0; i < id->nattrs; i++)
		for (int c = 0; c < HD_BI_NCOUNTERS; c++)
			if (id->attrs[i].id == hd_burnin_counter_attr[c]) {
				s->have[c] = 1;
				/* libatasmart's reading of the raw bytes: a count of sectors or of errors. */
				s->v[c] = id->attrs[i].pretty;
			}
}

static void smart_json(struct hd_json *j, const char *key, const struct hd_burnin_smart *s)
{
	hd_json_obj(j, key);
	hd_json_bool(j, "available", s->available);
	hd_json_str(j, "overall", s->overall);
	for (int c = 0; c < HD_BI_NCOUNTERS; c++)
		if (s->have[c])
			hd_json_uint(j, hd_burnin_counter_name[c], s->v[c]);
		else
			hd_json_null(j, hd_burnin_counter_name[c]);
	hd_json_num(j, "temperature_c", s->temperature_c);
	hd_json_end(j);
}

static void round_json(struct hd_json *j, const struct hd_burnin_round *r)
{
	hd_json_obj(j, NULL);
	hd_json_uint(j, "round", r->index);
	hd_json_num(j, "start_s", r->start_s);
	hd_json_num(j, "end_s", r->end_s);
	hd_json_bool(j, "complete", r->complete);
	hd_json_uint(j, "writes", r->writes);
	hd_json_uint(j, "slow_writes", r->slow);
	hd_json_num(j, "slow_write_rate", r->slow_rate);
	hd_json_num(j, "slow_write_rate_lo", r->slow_lo);
	hd_json_num(j, "slow_write_rate_hi", r->slow_hi);
	hd_json_num(j, "revolution_ms", r->rev_ms);
	hd_json_bool(j, "revolution_assumed", r->rev_assumed);
	hd_json_uint(j, "reads", r->reads);
	hd_json_uint(j, "errors", r->errors);
	hd_json_num(j, "write_p50_ms", r->write_p50_ms);
	hd_json_num(j, "write_p99_ms", r->write_p99_ms);
	hd_json_num(j, "read_p50_ms", r->read_p50_ms);
	hd_json_num(j, "read_p99_ms", r->read_p99_ms);
	hd_json_num(j, "temperature_c", r->smart.temperature_c);
	smart_json(j, "smart", &r->smart);
	hd_json_arr(j, "by_distance");
	for (size_t i = 0; i < r->ndist; i++) {
		const struct hd_burnin_dist *d = &r->dist[i];

		hd_json_obj(j, NULL);
		hd_json_num(j, "distance_bytes", d->dist_bytes);
		hd_json_uint(j, "writes", d->writes);
		hd_json_num(j, "write_p50_ms", d->write_p50_ms);
		hd_json_num(j, "write_p99_ms", d->write_p99_ms);
		hd_json_uint(j, "reads", d->reads);
		hd_json_num(j, "read_p50_ms", d->read_p50_ms);
		hd_json_num(j, "read_p99_ms", d->read_p99_ms);
		hd_json_end(j);
	}
	hd_json_end(j);
	hd_json_end(j);
}

static void verdict_json(struct hd_json *j, const struct bi_dev *d)
{
	hd_json_str(j, "verdict", d->judged ? hd_verdict_level_name(d->v.overall) : NULL);
	hd_json_arr(j, "reasons");
	for (size_t i = 0; d->judged && i < d->v.n; i++) {
		const struct hd_verdict_reason *r = &d->v.r[i];

		hd_json_obj(j, NULL);
		hd_json_str(j, "rule", r->rule);
		hd_json_str(j, "level", hd_verdict_level_name(r->level));
		hd_json_num(j, "figure", r->figure);
		hd_json_num(j, "limit", r->limit);
		hd_json_str(j, "text", r->text);
		hd_json_end(j);
	}
	hd_json_end(j);
}

void bi_dev_json(struct hd_json *j, const char *key, const struct bi_dev *d)
{
	hd_json_obj(j, key);
	hd_json_str(j, "format", "hddscope-burnin-device");
	hd_json_int(j, "version", BI_FORMAT_VERSION);
	hd_json_str(j, "device", d->spec);
	hd_json_str(j, "directory", d->name);
	hd_json_obj(j, "identity");
	hd_json_str(j, "model", d->model);
	hd_json_str(j, "serial", d->serial);
	hd_json_str(j, "firmware", d->firmware);
	hd_json_uint(j, "capacity_bytes", d->capacity_bytes);
	hd_json_int(j, "rpm_nominal", d->rpm_nominal);
	hd_json_bool(j, "simulated", d->simulated);
	hd_json_end(j);
	hd_json_num(j, "elapsed_s", d->elapsed_s);
	hd_json_bool(j, "complete", d->complete);
	smart_json(j, "smart_before", &d->before);
	if (d->n)
		smart_json(j, "smart_after", &d->r[d->n - 1].smart);
	else
		hd_json_null(j, "smart_after");
	hd_json_arr(j, "rounds");
	for (size_t i = 0; i < d->n; i++)
		round_json(j, &d->r[i]);
	hd_json_end(j);
	verdict_json(j, d);
	hd_json_end(j);
}

/* Write path through the output rule with fill(f, arg) filling it; 0, or -1 (printed). */
static int save_file(const char *path, void (*fill)(FILE *, const void *), const void *arg)
{
	const char *call = "write";
	char *tmp;
	FILE *f;
	int rc = hd_out_fopen(path, &f, &tmp);

	if (rc) {
		hd_err("create %s: %s", path, hd_fs_strerror(rc));
		return -1;
	}
	fill(f, arg);
	rc = hd_out_fclose(f, tmp, path, &call);
	if (rc) {
		hd_err("%s %s: %s", call, path, hd_fs_strerror(rc));
		return -1;
	}
	return 0;
}

struct json_doc {
	void (*emit)(struct hd_json *, const void *);
	const void *arg;
};

static void fill_json(FILE *f, const void *vd)
{
	const struct json_doc *d = vd;
	struct hd_json j;

	hd_json_init(&j, f, 1);
	d->emit(&j, d->arg);
	fputc('\n', f);
}

/* Write through the output rule with emit(j, arg) filling the document. */
static int save_json(const char *path, void (*emit)(struct hd_json *, const void *), const void *arg)
{
	struct json_doc d = { emit, arg };

	return save_file(path, fill_json, &d);
}

static void emit_dev(struct hd_json *j, const void *arg)
{
	bi_dev_json(j, NULL, arg);
}

int bi_dev_save(const struct bi_dev *d)
{
	char path[4300];

	snprintf(path, sizeof(path), "%s/device.json", d->dir);
	return save_json(path, emit_dev, d);
}

void bi_dev_free(struct bi_dev *d)
{
	for (size_t i = 0; i < d->n; i++)
		hd_burnin_round_free(&d->r[i]);
	free(d->r);
	d->r = NULL;
	d->n = d->cap = 0;
}

static uint64_t jv_u64(const struct hd_jv *v, const char *key)
{
	double x = hd_jv_num(v, key, 0);

	return x > 0 && x < 1.8e19 ? (uint64_t)x : 0;
}

static double jv_nan(const struct hd_jv *v, const char *key)
{
	return hd_jv_num(v, key, NAN);
}

static void smart_from_jv(const struct hd_jv *v, struct hd_burnin_smart *s)
{
	const struct hd_jv *b = hd_jv_get(v, "available");
	const char *o = hd_jv_str(v, "overall");

	memset(s, 0, sizeof(*s));
	s->available = b && b->type == HD_JV_BOOL && b->num != 0;
	snprintf(s->overall, sizeof(s->overall), "%s", o ? o : "unknown");
	for (int c = 0; c < HD_BI_NCOUNTERS; c++) {
		const struct hd_jv *x = hd_jv_get(v, hd_burnin_counter_name[c]);

		s->have[c] = x && x->type == HD_JV_NUM;
		s->v[c] = s->have[c] ? jv_u64(v, hd_burnin_counter_name[c]) : 0;
	}
	s->temperature_c = jv_nan(v, "temperature_c");
}

/* A round of device.json; -1 when out of memory. */
static int round_from_jv(const struct hd_jv *v, struct hd_burnin_round *r)
{
	const struct hd_jv *bd = hd_jv_get(v, "by_distance"), *c = hd_jv_get(v, "complete"), *sm = hd_jv_get(v, "smart");
	const struct hd_jv *ra;

	memset(r, 0, sizeof(*r));
	r->index = (unsigned)jv_u64(v, "round");
	r->start_s = jv_nan(v, "start_s");
	r->end_s = jv_nan(v, "end_s");
	r->complete = c && c->type == HD_JV_BOOL && c->num != 0;
	r->writes = jv_u64(v, "writes");
	r->slow = jv_u64(v, "slow_writes");
	r->slow_rate = jv_nan(v, "slow_write_rate");
	r->slow_lo = jv_nan(v, "slow_write_rate_lo");
	r->slow_hi = jv_nan(v, "slow_write_rate_hi");
	r->rev_ms = jv_nan(v, "revolution_ms");
	ra = hd_jv_get(v, "revolution_assumed");
	r->rev_assumed = ra && ra->type == HD_JV_BOOL && ra->num != 0;
	r->reads = jv_u64(v, "reads");
	r->errors = jv_u64(v, "errors");
	r->write_p50_ms = jv_nan(v, "write_p50_ms");
	r->write_p99_ms = jv_nan(v, "write_p99_ms");
	r->read_p50_ms = jv_nan(v, "read_p50_ms");
	r->read_p99_ms = jv_nan(v, "read_p99_ms");
	if (sm)
		smart_from_jv(sm, &r->smart);
	if (!bd || bd->type != HD_JV_ARR || !bd->n)
		return 0;
	r->dist = calloc(bd->n, sizeof(*r->dist));
	if (!r->dist)
		return -1;
	for (size_t i = 0; i < bd->n; i++) {
		struct hd_burnin_dist *d = &r->dist[i];
		const struct hd_jv *x = bd->items[i];

		d->dist_bytes = hd_jv_num(x, "distance_bytes", 0);
		d->writes = jv_u64(x, "writes");
		d->reads = jv_u64(x, "reads");
		d->write_p50_ms = jv_nan(x, "write_p50_ms");
		d->write_p99_ms = jv_nan(x, "write_p99_ms");
		d->read_p50_ms = jv_nan(x, "read_p50_ms");
		d->read_p99_ms = jv_nan(x, "read_p99_ms");
	}
	r->ndist = bd->n;
	return 0;
}

/* The format line of a saved document: 0, or -1 (printed) when it is not what the burn-in wrote. */
static int check_format(const struct hd_jv *v, const char *path, const char *want)
{
	const char *f = hd_jv_str(v, "format");
	double ver = hd_jv_num(v, "version", -1);

	if (!f || strcmp(f, want) != 0) {
		hd_err("%s: not a burn-in result (format is not \"%s\")", path, want);
		return -1;
	}
	if (ver != BI_FORMAT_VERSION) {
		hd_err("%s: burn-in format version %g, this hddscope reads version %d", path, ver, BI_FORMAT_VERSION);
		return -1;
	}
	return 0;
}

/* Identity and completeness as saved. */
static void ident(const struct hd_jv *v, struct bi_dev *d)
{
	const char *m = hd_jv_str(v, "identity.model"), *s = hd_jv_str(v, "identity.serial");
	const char *f = hd_jv_str(v, "identity.firmware");
	const struct hd_jv *c = hd_jv_get(v, "complete"), *sim = hd_jv_get(v, "identity.simulated");

	snprintf(d->model, sizeof(d->model), "%s", m ? m : "");
	snprintf(d->serial, sizeof(d->serial), "%s", s ? s : "");
	snprintf(d->firmware, sizeof(d->firmware), "%s", f ? f : "");
	d->capacity_bytes = jv_u64(v, "identity.capacity_bytes");
	d->rpm_nominal = jv_u64(v, "identity.rpm_nominal") <= 1000000 ? (int)jv_u64(v, "identity.rpm_nominal") : 0;
	d->simulated = sim && sim->type == HD_JV_BOOL && sim->num != 0;
	d->complete = c && c->type == HD_JV_BOOL && c->num != 0;
}

int bi_dev_load(struct bi_dev *d)
{
	char path[4300], err[600];
	const struct hd_jv *rounds, *sb;
	const char *spec;
	struct hd_jv *v;
	int rc = -1;

	bi_dev_free(d);
	snprintf(path, sizeof(path), "%s/device.json", d->dir);
	if (hd_jv_load(path, &v, err, sizeof(err))) {
		hd_err("%s", err);
		return -1;
	}
	if (check_format(v, path, "hddscope-burnin-device"))
		goto out;
	spec = hd_jv_str(v, "device");
	if (!spec || strcmp(spec, d->spec) != 0) {
		hd_err("%s: the results of %s, not of %s", path, spec ? spec : "no device", d->spec);
		goto out;
	}
	ident(v, d);
	rounds = hd_jv_get(v, "rounds");
	sb = hd_jv_get(v, "smart_before");
	if (sb)
		smart_from_jv(sb, &d->before);
	d->elapsed_s = hd_jv_num(v, "elapsed_s", 0);
	d->n = 0;
	if (rounds && rounds->type == HD_JV_ARR && rounds->n) {
		d->r = calloc(rounds->n, sizeof(*d->r));
		if (!d->r) {
			hd_err("%s: out of memory", path);
			goto out;
		}
		d->cap = rounds->n;
		for (; d->n < rounds->n; d->n++)
			if (round_from_jv(rounds->items[d->n], &d->r[d->n])) {
				hd_err("%s: out of memory", path);
				goto out;
			}
	}
	rc = 0;
out:
	hd_jv_free(v);
	return rc;
}

struct summary {
	const struct bi_plan *p;
	struct bi_dev *devs;
	int complete;
};

static void plan_json(struct hd_json *j, const struct bi_plan *p)
{
	hd_json_obj(j, "plan");
	hd_json_num(j, "duration_s", p->duration_s);
	hd_json_num(j, "every_s", p->every_s);
	hd_json_uint(j, "points", p->points);
	hd_json_uint(j, "reps", p->reps);
	hd_json_uint(j, "seed", p->seed);
	hd_json_uint(j, "rounds", p->rounds);
	hd_json_arr(j, "devices");
	for (size_t i = 0; i < p->ndev; i++)
		hd_json_str(j, NULL, p->dev[i]);
	hd_json_end(j);
	hd_json_end(j);
}

static void emit_summary(struct hd_json *j, const void *arg)
{
	const struct summary *s = arg;
	enum hd_verdict_level worst = HD_VERDICT_PASS;
	int judged = 1;

	for (size_t i = 0; i < s->p->ndev; i++) {
		judged &= s->devs[i].judged;
		if (s->devs[i].judged && s->devs[i].v.overall > worst)
			worst = s->devs[i].v.overall;
	}
	hd_json_obj(j, NULL);
	hd_json_str(j, "format", "hddscope-burnin");
	hd_json_int(j, "version", BI_FORMAT_VERSION);
	hd_json_bool(j, "complete", s->complete);
	hd_json_str(j, "verdict", judged ? hd_verdict_level_name(worst) : NULL);
	plan_json(j, s->p);
	hd_json_arr(j, "devices");
	for (size_t i = 0; i < s->p->ndev; i++)
		bi_dev_json(j, NULL, &s->devs[i]);
	hd_json_end(j);
	hd_json_end(j);
}

int bi_summary_save(const char *dir, const struct bi_plan *p, struct bi_dev *devs, int complete)
{
	struct summary s = { p, devs, complete };
	char path[4200];

	snprintf(path, sizeof(path), "%s/burnin.json", dir);
	return save_json(path, emit_summary, &s);
}

void bi_plan_free(struct bi_plan *p)
{
	for (size_t i = 0; i < p->ndev; i++)
		free(p->dev[i]);
	free(p->dev);
	p->dev = NULL;
	p->ndev = 0;
}

int bi_plan_load(const char *dir, struct bi_plan *p)
{
	char path[4200], err[600];
	const struct hd_jv *devs;
	struct hd_jv *v;
	int rc = -1;

	memset(p, 0, sizeof(*p));
	snprintf(path, sizeof(path), "%s/burnin.json", dir);
	if (hd_jv_load(path, &v, err, sizeof(err))) {
		hd_err("%s", err);
		return -1;
	}
	if (check_format(v, path, "hddscope-burnin"))
		goto out;
	devs = hd_jv_get(v, "plan.devices");
	p->duration_s = hd_jv_num(v, "plan.duration_s", NAN);
	p->every_s = hd_jv_num(v, "plan.every_s", NAN);
	p->points = jv_u64(v, "plan.points");
	p->reps = jv_u64(v, "plan.reps");
	p->seed = jv_u64(v, "plan.seed");
	p->rounds = jv_u64(v, "plan.rounds");
	/* The ranges of the options that made the plan. */
	if (!devs || devs->type != HD_JV_ARR || !devs->n || !(p->duration_s > 0 && p->duration_s <= 3.6e7) ||
	    !(p->every_s >= 0 && p->every_s <= 3.6e7) || p->points < 40 || p->points > 1000 || !p->reps ||
	    p->reps > 10000) {
		hd_err("%s: no burn-in plan (plan.devices, duration_s, every_s, points, reps)", path);
		goto out;
	}
	p->dev = calloc(devs->n, sizeof(*p->dev));
	for (size_t i = 0; p->dev && i < devs->n; i++) {
		if (devs->items[i]->type != HD_JV_STR) {
			hd_err("%s: plan.devices[%zu] is not a device", path, i);
			goto out;
		}
		if (!(p->dev[p->ndev++] = strdup(devs->items[i]->str)))
			break;
	}
	if (!p->dev || p->ndev != devs->n) {
		hd_err("%s: out of memory", path);
		goto out;
	}
	rc = 0;
out:
	if (rc)
		bi_plan_free(p);
	hd_jv_free(v);
	return rc;
}

/* A label value as the exposition format writes it: backslash, quote and newline escaped. */
static void prom_label(FILE *f, const char *name, const char *v)
{
	fprintf(f, "%s=\"", name);
	for (; *v; v++)
		if (*v == '\\' || *v == '"')
			fprintf(f, "\\%c", *v);
		else if (*v == '\n')
			fputs("\\n", f);
		else
			fputc(*v, f);
	fputc('"', f);
}

static void prom_labels(FILE *f, const struct bi_dev *d, const char *extra, const char *extra_v)
{
	fputc('{', f);
	prom_label(f, "device", d->spec);
	fputc(',', f);
	prom_label(f, "serial", d->serial);
	fputc(',', f);
	prom_label(f, "model", d->model);
	if (extra) {
		fputc(',', f);
		prom_label(f, extra, extra_v);
	}
	fputc('}', f);
}

/* A value in the exposition format: NaN where there is none. */
static void prom_value(FILE *f, double v)
{
	if (isnan(v))
		fputs(" NaN\n", f);
	else
		fprintf(f, " %.9g\n", v);
}

static void prom_metric(FILE *f, const char *name, const char *help, struct bi_dev *devs, size_t n,
			double (*val)(const struct bi_dev *))
{
	fprintf(f, "# HELP %s %s\n# TYPE %s gauge\n", name, help, name);
	for (size_t i = 0; i < n; i++) {
		fputs(name, f);
		prom_labels(f, &devs[i], NULL, NULL);
		prom_value(f, val(&devs[i]));
	}
}

static double m_verdict(const struct bi_dev *d)
{
	return d->judged ? (double)d->v.overall : NAN;
}

static double m_rounds(const struct bi_dev *d)
{
	return (double)d->n;
}

static double m_complete(const struct bi_dev *d)
{
	return d->complete;
}

static double m_elapsed(const struct bi_dev *d)
{
	return d->elapsed_s;
}

static double m_slow(const struct bi_dev *d)
{
	return d->n ? d->r[d->n - 1].slow_rate : NAN;
}

static double m_slow_hi(const struct bi_dev *d)
{
	return d->n ? d->r[d->n - 1].slow_hi : NAN;
}

static double m_p99(const struct bi_dev *d)
{
	return d->n ? d->r[d->n - 1].write_p99_ms / 1e3 : NAN;
}

static double m_temp(const struct bi_dev *d)
{
	return d->n ? d->r[d->n - 1].smart.temperature_c : NAN;
}

static void prom_smart(FILE *f, struct bi_dev *devs, size_t n)
{
	static const char name[] = "hddscope_burnin_smart_delta";

	fprintf(f, "# HELP %s SMART counter after the burn-in less before it\n# TYPE %s gauge\n", name, name);
	for (size_t i = 0; i < n; i++)
		for (int c = 0; c < HD_BI_NCOUNTERS; c++) {
			const struct bi_dev *d = &devs[i];
			const struct hd_burnin_smart *a = d->n ? &d->r[d->n - 1].smart : NULL;

			if (!a || !a->have[c] || !d->before.have[c])
				continue;
			fputs(name, f);
			prom_labels(f, d, "counter", hd_burnin_counter_name[c]);
			prom_value(f, (double)a->v[c] - (double)d->before.v[c]);
		}
}

struct prom_doc {
	struct bi_dev *devs;
	size_t n;
};

static void fill_prom(FILE *f, const void *vd)
{
	const struct prom_doc *d = vd;
	struct bi_dev *devs = d->devs;
	size_t n = d->n;

	prom_metric(f, "hddscope_verdict", "burn-in verdict: 0 PASS, 1 WARN, 2 FAIL", devs, n, m_verdict);
	prom_metric(f, "hddscope_burnin_rounds", "rounds finished", devs, n, m_rounds);
	prom_metric(f, "hddscope_burnin_complete", "1 when the burn-in ran its whole duration", devs, n, m_complete);
	prom_metric(f, "hddscope_burnin_elapsed_seconds", "burn-in time so far", devs, n, m_elapsed);
	prom_metric(f, "hddscope_burnin_slow_write_ratio", "slow writes of the last round (fraction)", devs, n, m_slow);
	prom_metric(f, "hddscope_burnin_slow_write_ratio_upper", "upper end of its 95% Wilson interval", devs, n,
		    m_slow_hi);
	prom_metric(f, "hddscope_burnin_write_p99_seconds", "median over distances of write p99, last round", devs, n,
		    m_p99);
	prom_metric(f, "hddscope_burnin_temperature_celsius", "SMART temperature after the last round", devs, n, m_temp);
	prom_smart(f, devs, n);
}

int bi_prom_save(const char *path, struct bi_dev *devs, size_t n)
{
	struct prom_doc d = { devs, n };

	return save_file(path, fill_prom, &d);
}
