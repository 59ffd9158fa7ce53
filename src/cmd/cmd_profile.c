/*
 * hddscope profile: every probe that applies, one after another on the same
 * target, their data files in one directory, every chart, and summary.json.
 * Each probe runs through its own command with options from the table
 * below, so a profile measures exactly what the single commands measure.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hddscope/cli.h"
#include "hddscope/cmd.h"
#include "hddscope/datafile.h"
#include "hddscope/evidence.h"
#include "hddscope/fit.h"
#include "hddscope/fsutil.h"
#include "hddscope/identity.h"
#include "hddscope/json.h"
#include "hddscope/plot.h"
#include "hddscope/profile_files.h"
#include "hddscope/session.h"
#include "hddscope/stats.h"

#define MAX_ARGS 16

/*
 * One step of a profile.  est() is the step's drive time in seconds for a
 * device whose random access takes acc seconds and whose sequential rate
 * is rate bytes per second, so that the estimate follows the options.
 */
struct step {
	enum hd_profile_file_id file;	/* its data file */
	int (*cmd)(int argc, char **argv);
	int only_write;		/* runs only with --write */
	int pass_write;		/* gets --write when the profile has it */
	int sync;		/* its writes reach the media (--sync): mechanics, not cache */
	const char *args[MAX_ARGS];
	const char *quick[MAX_ARGS];
	double (*est)(int quick, int write, double acc, double rate);
};

static double est_seek_read(int q, int w, double acc, double rate)
{
	(void)w, (void)rate;
	return (q ? 500 : 2000) * 2 * acc;
}

static double est_seek_write(int q, int w, double acc, double rate)
{
	(void)w, (void)rate;
	return (q ? 500 : 2000) * 3 * acc;
}

static double est_response(int q, int w, double acc, double rate)
{
	(void)rate;
	return (q ? 40 * 10 : 48 * 25) * (w ? 5 : 2) * acc;
}

static double est_media(int q, int w, double acc, double rate)
{
	/* Sizes 512 B .. max in powers of two: their sum is about twice the largest. */
	double max = q ? 256 << 10 : 1 << 20;
	int sizes = q ? 10 : 12, reps = q ? 8 : 20;

	(void)w;
	return reps * (sizes * 2 * acc + 2 * max / rate);
}

static double est_queue(int q, int w, double acc, double rate)
{
	(void)w, (void)acc, (void)rate;
	return q ? 3 * 2.0 : 6 * 10.0;
}

static double est_interval(int q, int w, double acc, double rate)
{
	/* Intervals 0..20 ms: 10 ms of idle on average, three accesses each. */
	int n = q ? 21 * 4 : 81 * 5;

	(void)w, (void)rate;
	return n * (0.010 + 3 * acc);
}

static double est_bench(int q, int w, double acc, double rate)
{
	(void)acc, (void)rate;
	return (q ? 1.0 : 3.0) * (w ? 4 : 2) * (w ? 1.5 : 1);
}

static double est_zone(int q, int w, double acc, double rate)
{
	int points = q ? 30 : 100;

	(void)w;
	return points * (acc + (double)(9 << 20) / rate);
}

static const struct step steps[] = {
	{ HD_PF_SEEK_READ, hd_cmd_seek, 0, 0, 0, { NULL }, { "--samples", "500", NULL }, est_seek_read },
	{ HD_PF_SEEK_WRITE, hd_cmd_seek, 1, 1, 0, { "--op", "write", NULL }, { "--op", "write", "--samples", "500", NULL },
	  est_seek_write },
	{ HD_PF_RESPONSE, hd_cmd_response, 0, 1, 1, { NULL }, { "--points", "40", "--reps", "10", NULL }, est_response },
	{ HD_PF_MEDIA, hd_cmd_media, 0, 0, 0, { NULL }, { "--reps", "8", "--max-size", "256k", NULL }, est_media },
	{ HD_PF_QUEUE, hd_cmd_queue, 0, 0, 0, { NULL }, { "--procs", "1,4,16", "--time", "2s", NULL }, est_queue },
	{ HD_PF_INTERVAL, hd_cmd_interval, 1, 1, 0, { NULL }, { "--step", "1", "--reps", "4", NULL }, est_interval },
	{ HD_PF_BENCH, hd_cmd_bench, 0, 1, 0, { NULL }, { "--time", "1s", NULL }, est_bench },
	{ HD_PF_ZONE, hd_cmd_zone, 0, 0, 0, { NULL }, { "--points", "30", NULL }, est_zone },
};
#define NSTEPS (sizeof(steps) / sizeof(steps[0]))

static const char *step_name(const struct step *st)
{
	return hd_profile_files[st->file].name;
}

struct prof_opts {
	struct hd_common c;
	const char *dir;
	int quick, svg, no_charts;
};

static void profile_usage(FILE *f)
{
	fprintf(f,
"Usage: hddscope profile [OPTIONS] [DEVICE] -o DIR\n"
"\n"
"Run every probe that applies (seek, response, media, queue, bench, zone;\n"
"with --write also the write probes: seek writes, response writes (--sync, so\n"
"that they time the mechanics rather than the write cache), interval,\n"
"sequential and random writes), write their data files into DIR, draw every\n"
"chart into DIR/charts/, and write DIR/summary.json.  Prints an estimate of\n"
"the drive time before it starts and the time taken at the end (for a\n"
"simulated drive: the simulated drive time and the CPU time).\n"
"\n"
"  -o, --output DIR    the profile directory (created; required)\n"
"  --quick             fewer samples: a smaller, faster profile\n"
"  --svg               SVG charts instead of PNG\n"
"  --no-charts         data files and summary.json only\n"
"  --write             also the write probes (data-preserving)\n"
"  --write-cache on|off|keep\n"
"                      the drive's write cache for every probe, restored after\n"
"                      each; refuses to start where it cannot be set (keep)\n"
"  --smart-blob FILE   identity and SMART health from saved data\n"
"  --seed N            random seed for every probe (%d)\n"
"  -q, --quiet         no progress lines\n"
"  -h, --help          this help\n"
"\n"
"DEVICE is a block device, a regular file or sim:NAME (default " HD_DEFAULT_TARGET ").\n"
"Exit codes: 0 ok, 1 usage, 2 setup (cannot open, refused), 3 a probe failed\n"
"at run time, 128 + signal when interrupted by HUP, INT, QUIT or TERM (129,\n"
"130, 131, 143; the files measured so far say complete: no).\n",
		HD_DEFAULT_SEED);
}

static int profile_parse(int argc, char **argv, struct prof_opts *o)
{
	enum { O_QUICK = HD_OPT_FIRST_PROBE, O_SVG, O_NOCHARTS };
	static const struct option lo[] = {
		{ "quick", no_argument, NULL, O_QUICK },
		{ "svg", no_argument, NULL, O_SVG },
		{ "no-charts", no_argument, NULL, O_NOCHARTS },
		HD_COMMON_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	int c, k;

	memset(o, 0, sizeof(*o));
	hd_common_init(&o->c);
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, HD_COMMON_SHORTOPTS, lo, NULL)) != -1) {
		k = hd_common_opt(&o->c, c, argv);
		if (k == 2) {
			profile_usage(stdout);
			return 1;
		}
		if (k < 0)
			return -1;
		if (k > 0)
			continue;
		switch (c) {
		case O_QUICK:
			o->quick = 1;
			break;
		case O_SVG:
			o->svg = 1;
			break;
		case O_NOCHARTS:
			o->no_charts = 1;
			break;
		}
	}
	if (hd_common_operands(&o->c, argc, argv))
		return -1;
	if (!o->c.out) {
		hd_err("-o DIR is required: the directory the profile is written to");
		return -1;
	}
	o->dir = o->c.out;
	return 0;
}

/*
 * A short look at the target for the estimate: the mean of 16 random
 * one-block reads and the rate of one sequential read from the middle.
 */
static int profile_look(struct hd_dev *d, double *acc, double *rate)
{
	size_t len = d->size >= (8u << 20) ? (8u << 20) : d->size / d->io_align * d->io_align;
	void *buf = hd_buf_alloc(d, len);
	struct hd_rng rng;
	int64_t sum = 0, lat;
	int n = 0, rc;

	if (!buf)
		return -ENOMEM;
	hd_rng_seed(&rng, 12345);
	for (int i = 0; i < 16; i++) {
		uint64_t off = hd_rng_below(&rng, (d->size - d->io_align) / d->io_align + 1) * d->io_align;
		if (hd_dev_timed(d, HD_OP_READ, buf, d->io_align, off, &lat) == 0) {
			sum += lat;
			n++;
		}
	}
	*acc = n ? (double)sum / n / 1e9 : 0.015;
	rc = hd_dev_timed(d, HD_OP_READ, buf, len, (d->size - len) / 2 / d->io_align * d->io_align, &lat);
	*rate = rc == 0 && lat > 0 ? (double)len / ((double)lat / 1e9) : 50e6;
	hd_buf_free(buf, len);
	return 0;
}

static void put_duration(FILE *f, double s)
{
	if (s < 120)
		fprintf(f, "%.1f s", s);
	else
		fprintf(f, "%.1f min", s / 60);
}

/* The bench figures as members "seq_read": {"mb_s": .., "iops": ..}, ... */
static void bench_members(struct hd_json *j, const struct hd_df *df)
{
	const struct hd_df_col *t = hd_df_col(df, "test"), *m = hd_df_col(df, "mb_s"), *io = hd_df_col(df, "iops");

	for (size_t i = 0; t && m && io && t->type == HD_COL_STR && i < df->nrows; i++) {
		hd_json_obj(j, hd_df_str(t, i));
		hd_json_num(j, "mb_s", m->num[i]);
		hd_json_num(j, "iops", io->num[i]);
		hd_json_end(j);
	}
}

/* Per-file summary for summary.json, from the data file alone. */
static void summarize_file(struct hd_json *j, const char *path)
{
	struct hd_df *df;
	char err[512];
	const struct hd_df_col *lat, *cls;
	const char *v;

	if (hd_df_read(path, &df, err, sizeof(err))) {
		hd_json_str(j, "read_error", err);
		return;
	}
	v = hd_df_meta(df, "complete");
	hd_json_bool(j, "complete", v && strcmp(v, "yes") == 0);
	hd_json_uint(j, "rows", df->nrows);
	if (hd_df_meta(df, "samples_error"))
		hd_json_uint(j, "errors", hd_evidence_error_count(df));
	if ((v = hd_df_meta(df, "drive_time_ms")))
		hd_json_num(j, "drive_time_s", atof(v) / 1e3);
	if ((v = hd_df_meta(df, "cache_threshold_ms")))
		hd_json_str(j, "cache_threshold_ms", v);
	{
		/* Where the drive failed, for whoever reads the summary rather than the data. */
		double at[100];
		size_t n = hd_evidence_error_offsets(df, at, 100);

		if (n) {
			hd_json_arr(j, "failing_offsets");
			for (size_t i = 0; i < n && i < 100; i++)
				hd_json_num(j, NULL, at[i]);
			hd_json_end(j);
			if (n > 100)
				hd_json_uint(j, "failing_offsets_not_listed", n - 100);
		}
	}
	lat = hd_df_col(df, "latency_ms");
	cls = hd_df_col(df, "class");
	if (lat && lat->type == HD_COL_NUM) {
		double *x = malloc((df->nrows ? df->nrows : 1) * sizeof(*x));
		size_t n = 0;

		for (size_t i = 0; x && i < df->nrows; i++)
			if (!cls || cls->type != HD_COL_STR || strcmp(hd_df_str(cls, i), "media") == 0)
				x[n++] = lat->num[i];
		if (x && n) {
			hd_sort_doubles(x, n);
			hd_json_obj(j, "media_latency_ms");
			hd_json_uint(j, "n", n);
			hd_json_num(j, "min", x[0]);
			hd_json_num(j, "p50", hd_percentile_sorted(x, n, 50));
			hd_json_num(j, "p90", hd_percentile_sorted(x, n, 90));
			hd_json_num(j, "p99", hd_percentile_sorted(x, n, 99));
			hd_json_num(j, "max", x[n - 1]);
			hd_json_end(j);
		}
		free(x);
	}
	v = hd_df_meta(df, "test");
	if (strcmp(v, "zone") == 0 && hd_df_col(df, "mb_s")) {
		const struct hd_df_col *m = hd_df_col(df, "mb_s");
		double lo = INFINITY, hi = -INFINITY;
		for (size_t i = 0; i < df->nrows; i++) {
			lo = m->num[i] < lo ? m->num[i] : lo;
			hi = m->num[i] > hi ? m->num[i] : hi;
		}
		hd_json_num(j, "max_mb_s", df->nrows ? hi : NAN);
		hd_json_num(j, "min_mb_s", df->nrows ? lo : NAN);
	} else if (strcmp(v, "queue") == 0 && hd_df_col(df, "procs") && hd_df_col(df, "iops")) {
		const struct hd_df_col *p = hd_df_col(df, "procs"), *io = hd_df_col(df, "iops");
		const struct hd_df_col *p99 = hd_df_col(df, "lat_p99_ms");
		hd_json_arr(j, "by_procs");
		for (size_t i = 0; i < df->nrows; i++) {
			hd_json_obj(j, NULL);
			hd_json_num(j, "procs", p->num[i]);
			hd_json_num(j, "iops", io->num[i]);
			if (p99 && p99->type == HD_COL_NUM)
				hd_json_num(j, "lat_p99_ms", p99->num[i]);
			hd_json_end(j);
		}
		hd_json_end(j);
	} else if (strcmp(v, "bench") == 0) {
		bench_members(j, df);
	}
	hd_df_free(df);
}

static double cpu_seconds(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
	       (double)ru.ru_stime.tv_usec / 1e6;
}

static int write_summary(const struct prof_opts *o, const struct hd_dev *d, const struct hd_identity *ident,
			 const int *rc, int complete, double est, double drive_s, double cpu_s, double wall_s,
			 const char *started)
{
	char path[4096], file[4200], *tmp;
	const char *call;
	struct hd_json j;
	FILE *f;
	int e;

	snprintf(path, sizeof(path), "%s/summary.json", o->dir);
	e = hd_out_fopen(path, &f, &tmp);
	if (e) {
		hd_err("create %s: %s", path, hd_fs_strerror(e));
		return -1;
	}
	hd_json_init(&j, f, 1);
	hd_json_obj(&j, NULL);
	hd_json_str(&j, "hddscope_version", HDDSCOPE_VERSION);
	hd_json_str(&j, "started", started);
	hd_json_bool(&j, "complete", complete);
	hd_identity_json(&j, "device", d, ident, 0);
	hd_json_obj(&j, "parameters");
	hd_json_uint(&j, "seed", o->c.seed);
	hd_json_bool(&j, "quick", o->quick);
	hd_json_bool(&j, "write", o->c.write_ok);
	hd_json_str(&j, "write_cache", o->c.write_cache < 0 ? "keep" : hd_onoff(o->c.write_cache));
	hd_json_str(&j, "smart_blob", o->c.smart_blob);
	hd_json_end(&j);
	hd_json_obj(&j, "time");
	hd_json_num(&j, "estimate_s", est);
	hd_json_num(&j, "drive_s", drive_s);
	hd_json_num(&j, "cpu_s", cpu_s);
	hd_json_num(&j, "wall_s", wall_s);
	hd_json_bool(&j, "simulated", d->kind == HD_DEV_SIM);
	hd_json_end(&j);
	/* The bench row on its own, as the headline figures. */
	snprintf(file, sizeof(file), "%s/bench.tsv", o->dir);
	hd_json_obj(&j, "bench");
	{
		struct hd_df *df;
		char err[512];

		if (access(file, R_OK) == 0 && hd_df_read(file, &df, err, sizeof(err)) == 0) {
			bench_members(&j, df);
			hd_df_free(df);
		}
	}
	hd_json_end(&j);
	hd_json_obj(&j, "probes");
	for (size_t i = 0; i < NSTEPS; i++) {
		if (rc[i] < 0)
			continue;
		snprintf(file, sizeof(file), "%s/%s.tsv", o->dir, step_name(&steps[i]));
		hd_json_obj(&j, step_name(&steps[i]));
		hd_json_str(&j, "file", file + strlen(o->dir) + 1);
		hd_json_int(&j, "exit_code", rc[i]);
		if (access(file, R_OK) == 0)
			summarize_file(&j, file);
		hd_json_end(&j);
	}
	hd_json_end(&j);
	hd_json_end(&j);
	e = hd_out_fclose(f, tmp, path, &call);
	if (e) {
		hd_err("%s %s: %s", call, path, hd_fs_strerror(e));
		return -1;
	}
	return 0;
}

/* Check one output path inside the profile directory; prints why it may not be written. */
static int check_out(const char *dir, const char *name, const char *ext, int is_dir)
{
	char path[4096];
	int e, n = snprintf(path, sizeof(path), "%s/%s%s", dir, name, ext);

	if (n < 0 || (size_t)n >= sizeof(path)) {
		hd_err("%s: path too long", dir);
		return -ENAMETOOLONG;
	}
	e = is_dir ? hd_out_check_dir(path) : hd_out_check_file(path);
	if (e)
		hd_err("%s: %s", path, hd_fs_strerror(e));
	return e;
}

/*
 * Every file the profile will write, checked before the target is opened:
 * a refusal after hours of measuring would lose them all.
 */
static int check_outputs(const struct prof_opts *o)
{
	static const char *const extra[] = { "summary", "seekcurve" };
	const char *ext = o->svg ? ".svg" : ".png";
	char charts[4096];
	struct stat st;
	int e = hd_out_check_dir(o->dir);

	if (e) {
		hd_err("%s: %s", o->dir, hd_fs_strerror(e));
		return -1;
	}
	if (stat(o->dir, &st) < 0)
		return 0;	/* absent: created once the target has been opened */
	for (size_t i = 0; i < NSTEPS; i++)
		if (check_out(o->dir, step_name(&steps[i]), ".tsv", 0))
			return -1;
	for (size_t i = 0; i < sizeof(extra) / sizeof(extra[0]); i++)
		if (check_out(o->dir, extra[i], i ? ".tsv" : ".json", 0))
			return -1;
	/* The files a step writes beside its own (queue-requests.tsv). */
	for (size_t i = 0; i < HD_PF_COUNT; i++)
		if (!(hd_profile_files[i].flags & HD_PF_STEP) && check_out(o->dir, hd_profile_files[i].name, ".tsv", 0))
			return -1;
	if (o->no_charts)
		return 0;
	if (check_out(o->dir, "charts", "", 1))
		return -1;
	snprintf(charts, sizeof(charts), "%s/charts", o->dir);
	if (stat(charts, &st) < 0)
		return 0;
	for (size_t i = 0; i < NSTEPS; i++)
		if (check_out(charts, step_name(&steps[i]), ext, 0))
			return -1;
	return check_out(charts, "seekcurve", ext, 0) ? -1 : 0;
}

int hd_cmd_profile(int argc, char **argv)
{
	struct prof_opts o;
	struct hd_dev *d, info;
	struct hd_identity ident;
	char err[512];
	int rc[NSTEPS], ex = HD_EXIT_OK, r, complete = 1;
	double acc = 0, rate = 0, est = 0, cpu0, wall0;
	char started[32], seed[32], path[4096], charts[4096];

	r = profile_parse(argc, argv, &o);
	if (r)
		return r > 0 ? HD_EXIT_OK : hd_usage_hint("profile");
	/* Ctrl-C during the look at the target ends the profile between steps. */
	hd_install_signals();
	if (check_outputs(&o))
		return HD_EXIT_SETUP;
	/* Refuse up front what the write probes would refuse later. */
	r = hd_open_target(&d, o.c.device, o.c.write_ok ? HD_OPEN_WRITE : 0);
	if (r)
		return r;
	if (hd_identity_of(d, o.c.smart_blob, &ident, err, sizeof(err))) {
		hd_err("%s", err);
		hd_identity_free(&ident);
		hd_dev_close(d);
		return HD_EXIT_SETUP;
	}
	/* Only now, with the target accepted: a refused profile leaves no directory behind. */
	r = hd_out_make_dir(o.dir);
	if (r) {
		hd_err("mkdir %s: %s", o.dir, hd_fs_strerror(r));
		hd_identity_free(&ident);
		hd_dev_close(d);
		return HD_EXIT_SETUP;
	}
	hd_utc_now(started, sizeof(started));
	cpu0 = cpu_seconds();
	wall0 = (double)hd_mono_ns() / 1e9;
	if (profile_look(d, &acc, &rate) == 0) {
		for (size_t i = 0; i < NSTEPS; i++)
			if (!steps[i].only_write || o.c.write_ok)
				est += steps[i].est(o.quick, o.c.write_ok, acc, rate);
	}
	if (!o.c.quiet) {
		fprintf(stderr, "profile of %s (%s%s): random access %.2f ms, sequential %.1f MB/s; estimated drive time ",
			d->path, o.quick ? "quick" : "full", o.c.write_ok ? ", with writes" : "", acc * 1e3, rate / 1e6);
		put_duration(stderr, est);
		fputc('\n', stderr);
	}
	/*
	 * Keep what the summary needs and let go of the device: a probe that
	 * writes opens it with O_EXCL, which our own descriptor would block.
	 */
	info = *d;
	info.path = (char *)o.c.device;
	info.ops = NULL;
	info.priv = NULL;
	hd_dev_close(d);
	d = &info;
	hd_session_total_dev_ns = 0;
	snprintf(seed, sizeof(seed), "%llu", (unsigned long long)o.c.seed);

	for (size_t i = 0; i < NSTEPS; i++) {
		const struct step *st = &steps[i];
		const char *const *args = o.quick ? st->quick : st->args;
		char *av[MAX_ARGS + 16];
		int ac = 0;

		rc[i] = -1;
		if (st->only_write && !o.c.write_ok)
			continue;
		if (hd_interrupted) {
			complete = 0;
			continue;
		}
		snprintf(path, sizeof(path), "%s/%s.tsv", o.dir, step_name(st));
		av[ac++] = (char *)step_name(st);
		for (int k = 0; args[k]; k++)
			av[ac++] = (char *)args[k];
		if (st->pass_write && o.c.write_ok)
			av[ac++] = "--write";
		if (st->sync && o.c.write_ok)
			av[ac++] = "--sync";
		if (o.c.write_cache >= 0) {
			av[ac++] = "--write-cache";
			av[ac++] = o.c.write_cache ? "on" : "off";
		}
		if (o.c.smart_blob) {
			av[ac++] = "--smart-blob";
			av[ac++] = (char *)o.c.smart_blob;
		}
		av[ac++] = "--seed";
		av[ac++] = seed;
		if (o.c.quiet)
			av[ac++] = "--quiet";
		av[ac++] = "-o";
		av[ac++] = path;
		av[ac++] = (char *)o.c.device;
		av[ac] = NULL;
		rc[i] = st->cmd(ac, av);
		if (hd_interrupted) {
			complete = 0;
			ex = hd_interrupt_exit();
		} else if (rc[i] != HD_EXIT_OK) {
			complete = 0;
			hd_err("profile: %s failed (exit %d); going on with the next probe", step_name(st), rc[i]);
			if (ex == HD_EXIT_OK)
				ex = HD_EXIT_RUNTIME;
		}
	}

	if (!o.no_charts) {
		snprintf(charts, sizeof(charts), "%s/charts", o.dir);
		if (!hd_plot_available()) {
			hd_warn("gnuplot not found in PATH: charts skipped (Debian: apt-get install gnuplot-nox)");
		} else if ((r = hd_out_make_dir(charts))) {
			hd_err("mkdir %s: %s", charts, hd_fs_strerror(r));
			ex = ex ? ex : HD_EXIT_RUNTIME;
		} else {
			for (size_t i = 0; i < NSTEPS; i++) {
				if (rc[i] < 0)
					continue;
				snprintf(path, sizeof(path), "%s/%s.tsv", o.dir, step_name(&steps[i]));
				if (access(path, R_OK) == 0 && hd_plot_file(path, charts, o.svg ? "svg" : "png", 0) &&
				    ex == HD_EXIT_OK)
					ex = HD_EXIT_RUNTIME;
			}
		}
	}
	{
		double drive_s = (double)hd_session_total_dev_ns / 1e9, cpu_s = cpu_seconds() - cpu0;
		double wall_s = (double)hd_mono_ns() / 1e9 - wall0;

		if (write_summary(&o, d, &ident, rc, complete, est, drive_s, cpu_s, wall_s, started)) {
			if (ex == HD_EXIT_OK)
				ex = HD_EXIT_RUNTIME;
		} else {
			char err[1024];

			/* A profile without fittable data is still a profile: warn only. */
			if (hd_fit_update_summary(o.dir, err, sizeof(err))) {
				hd_warn("fit %s: %s", o.dir, err);
			} else if (!o.no_charts && hd_plot_available()) {
				snprintf(path, sizeof(path), "%s/seekcurve.tsv", o.dir);
				if (hd_plot_file(path, charts, o.svg ? "svg" : "png", 0) && ex == HD_EXIT_OK)
					ex = HD_EXIT_RUNTIME;
			}
		}
		if (!o.c.quiet) {
			fprintf(stderr, "profile %s: drive time ", complete ? "done" : "incomplete");
			put_duration(stderr, drive_s);
			fprintf(stderr, "%s (estimate ", d->kind == HD_DEV_SIM ? " simulated" : "");
			put_duration(stderr, est);
			fprintf(stderr, "), CPU time %.2f s, wall time ", cpu_s);
			put_duration(stderr, wall_s);
			fprintf(stderr, "; results in %s\n", o.dir);
		}
	}
	hd_identity_free(&ident);
	return ex;
}
