/*
 * hddscope profile: every probe that applies, one after another on the same
 * target, their data files in one directory, every chart, and summary.json.
 * Each probe runs through its own entry (probes.h) with its option struct
 * filled by the table below, so a profile measures exactly what the single
 * commands measure.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
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
#include "hddscope/probes.h"
#include "hddscope/profile_files.h"
#include "hddscope/session.h"
#include "hddscope/stats.h"

/*
 * One step of a profile.  est() is the step's drive time in seconds for a
 * device whose random access takes acc seconds and whose sequential rate
 * is rate bytes per second, so that the estimate follows the options.
 */
struct step {
	enum hd_profile_file_id file;	/* its data file */
	const struct hd_probe *probe;
	int only_write;		/* runs only with --write */
	int pass_write;		/* gets --write when the profile has it */
	int sync;		/* its writes reach the media (--sync): mechanics, not cache */
	/*
	 * Set the probe's own options (o holds its defaults): the full or the
	 * quick profile's; rate is the target's sequential rate as the profile
	 * measured it at the start (bytes/s).
	 */
	void (*fill)(void *o, int quick, double rate);
	double (*est)(int quick, int write, double acc, double rate);
};

/*
 * The quick profile's probes take fewer samples; the full one's take the
 * probes' defaults.  The quick one is held to a minute of drive time at
 * 7200 rpm, the Atlas III's 4.8 MB/s bus included (73 s before its zone
 * probe kept to its 5 s with two positions, the cache probe's window and
 * even read-ahead trials were halved, the media probe's sizes stopped at
 * 128 KiB, the response took 9 reads a point for 10, the queue 0.8 s a
 * depth for 1.5 and bench 0.75 s a test for 1): 56.6 to 59.8 s over
 * seeds 1 to 10, the other 7200 rpm presets 45 to 53 s.
 */
/*
 * The read seek curve takes two and a half times the probe's default at
 * 7200 rpm, in proportion to the revolution elsewhere: some 80 samples a
 * bin (a third of an octave).  With 4000 (65 a bin), 615 of 675 bins of
 * four DiskSim models of measured drives, seeds 1 to 3, were within
 * max(0.2 ms, 3%) of the model's curve; with 5000, 634; with 6000, 631
 * (and with the bins' slope taken out, 630 and 650).  The zone probe gives
 * up some of its time on a slow interface to pay for it.
 */
#define PROFILE_SEEK_SAMPLES 5000

/*
 * The quick profile's: some 30 a bin over the 36 bins from 256 KiB to
 * 1 GiB.  With 500 (about 14 a bin, both directions) a third of the bins
 * from 1 MB to 1 GB had too few samples to be drawn, and of those drawn
 * 15% to 100% (median 80%) were within max(0.3 ms, 5%) of the model's
 * curve on the six presets, seeds 1 and 2; with 1000 every bin is drawn
 * and 60% to 100% (median 93%) are, the low ones where the overhead came
 * out wrong (1200 gained little more); since the overhead is taken from
 * the reads that join the read-ahead, 75% to 100% (median 97%, seeds 1 to
 * 3); with distances in tracks and the bins' slope taken out (for the
 * full profile's sake), 80% to 100% (median 95%); with the budget's
 * trims (above), 93% to 100% (median 96%); against the model's mean over
 * the reference jitter (seekcurve_truth.bash) and with the rows shorter
 * than a cylinder from the layout's figures, 92% to 100% (median 97%), and
 * 93% to 100% of all bins.  The zone and queue probes give up some of
 * their time to pay for it.
 */
#define QUICK_SEEK_SAMPLES 1000

/* The quick profile's queue probe: seconds at each of its three depths. */
#define QUICK_QUEUE_S 0.8

/*
 * The zone probe's positions: 100 (30 quick), fewer where reading 9 MiB
 * at each would take the profile past its budget (a drive behind a slow
 * interface: the Atlas III's 4.8 MB/s bus makes 2.2 s a position), so
 * that its reads take at most about 35 s (5 s quick); at least 14 (2:
 * the outer and inner rates).
 */
static uint64_t zone_points(int quick, double rate)
{
	double per = (double)(9 << 20) / (rate > 0 ? rate : 50e6) + 0.02, cap = quick ? 5.0 : 35.0;
	uint64_t most = quick ? 30 : 100, least = quick ? 2 : 14, n = (uint64_t)(cap / per);

	return n > most ? most : n < least ? least : n;
}

static void fill_seek_read(void *vo, int quick, double rate)
{
	struct hd_seek_opts *o = vo;

	(void)rate;

	o->samples = quick ? QUICK_SEEK_SAMPLES : PROFILE_SEEK_SAMPLES;
	o->per_rev = !quick;
}

static void fill_seek_write(void *vo, int quick, double rate)
{
	struct hd_seek_opts *o = vo;

	(void)rate;

	o->op = HD_OP_WRITE;
	if (quick)
		o->samples = 500;
}

static void fill_response(void *vo, int quick, double rate)
{
	struct hd_response_opts *o = vo;

	(void)rate;

	if (quick) {
		o->points = 40;
		o->reps = 9;
	}
	/* Writes go on, up to four times the plan's, until write stability is decided. */
	o->write_cap = 4 * o->points * o->reps;
}

static void fill_media(void *vo, int quick, double rate)
{
	struct hd_media_opts *o = vo;

	(void)rate;

	if (quick) {
		o->reps = 8;
		o->max_size = 128 << 10;
	}
}

static void fill_queue(void *vo, int quick, double rate)
{
	static const unsigned procs[] = { 1, 4, 16 };
	struct hd_queue_opts *o = vo;

	(void)rate;

	if (quick) {
		memcpy(o->procs, procs, sizeof(procs));
		o->nprocs = sizeof(procs) / sizeof(procs[0]);
		o->time_ns = (int64_t)(QUICK_QUEUE_S * 1e9);
		o->have_time = 1;
	}
}

static void fill_interval(void *vo, int quick, double rate)
{
	struct hd_interval_opts *o = vo;

	(void)rate;

	if (quick) {
		o->step = 1;
		o->have_step = 1;
		o->reps = 4;
	}
}

/* The read sawtooth for the revolution: idle times over almost five revolutions, once each. */
static void fill_interval_read(void *vo, int quick, double rate)
{
	struct hd_interval_opts *o = vo;

	(void)rate;

	o->op = HD_OP_READ;
	o->intervals = quick ? "0:40:0.5" : "0:40:0.25";
	o->have_iv = 1;
	o->reps = 1;
}

static void fill_bench(void *vo, int quick, double rate)
{
	struct hd_bench_opts *o = vo;

	(void)rate;

	if (quick)
		o->time_ns = 750000000LL;
}

static void fill_zone(void *vo, int quick, double rate)
{
	struct hd_zone_opts *o = vo;

	o->points = zone_points(quick, rate);
}

static void fill_cache(void *vo, int quick, double rate)
{
	struct hd_cache_opts *o = vo;

	(void)rate;

	if (quick) {
		o->reps = 1;
		o->span = 16 << 20;
		o->even = 32;
		o->window_points = 16;
	}
}

static void fill_layout(void *vo, int quick, double rate)
{
	struct hd_layout_opts *o = vo;

	(void)rate;

	if (quick) {
		o->points = 16;
		o->tracks = 40;
		o->cylinders = 8;
		o->wcylinders = 8;
		o->refine = 2;
	}
}

/* Room for any probe's options. */
union probe_opts {
	struct hd_common c;
	struct hd_seek_opts seek;
	struct hd_response_opts response;
	struct hd_media_opts media;
	struct hd_queue_opts queue;
	struct hd_interval_opts interval;
	struct hd_bench_opts bench;
	struct hd_zone_opts zone;
	struct hd_cache_opts cache;
	struct hd_layout_opts layout;
};

/*
 * A positioned sample also waits its phase delay: half a revolution on
 * average, about a third of a random access (PHASE accesses).
 */
#define PHASE 0.35

static double est_seek_read(int q, int w, double acc, double rate)
{
	(void)w, (void)rate;
	return (q ? QUICK_SEEK_SAMPLES : PROFILE_SEEK_SAMPLES) * (2 + PHASE) * acc;
}

static double est_seek_write(int q, int w, double acc, double rate)
{
	(void)w, (void)rate;
	return (q ? 500 : 2000) * (3 + PHASE) * acc;
}

static double est_response(int q, int w, double acc, double rate)
{
	/* About 6 grid points lie from 2 to 16 blocks, which take four times the samples. */
	double near = 6 * 3 * (q ? 9 : 25);

	(void)rate;
	return ((q ? 40 * 9 : 48 * 25) + near) * (w ? 5 + 2 * PHASE : 2 + PHASE) * acc;
}

static double est_media(int q, int w, double acc, double rate)
{
	/* Sizes 512 B .. max in powers of two: their sum is about twice the largest. */
	double max = q ? 128 << 10 : 1 << 20;
	int sizes = q ? 9 : 12, reps = q ? 8 : 20;

	(void)w;
	return reps * (sizes * 2 * acc + 2 * max / rate);
}

static double est_queue(int q, int w, double acc, double rate)
{
	(void)w, (void)acc, (void)rate;
	return q ? 3 * QUICK_QUEUE_S : 6 * 10.0;
}

static double est_interval(int q, int w, double acc, double rate)
{
	/* Intervals 0..20 ms: 10 ms of idle on average, three accesses each. */
	int n = q ? 21 * 4 : 81 * 5;

	(void)w, (void)rate;
	return n * (0.010 + 3 * acc);
}

static double est_interval_read(int q, int w, double acc, double rate)
{
	/* Intervals 0..40 ms: 20 ms of idle on average, two accesses each. */
	int n = q ? 81 : 161;

	(void)w, (void)rate;
	return n * (0.020 + 2 * acc);
}

static double est_bench(int q, int w, double acc, double rate)
{
	(void)acc, (void)rate;
	/* Random writes run for twice --time at least, until steady (up to 8 times: a cache that fills late). */
	return (q ? 0.75 : 3.0) * (w ? 5 : 2) * (w ? 1.5 : 1);
}

static double est_zone(int q, int w, double acc, double rate)
{
	(void)w;
	return (double)zone_points(q, rate) * (acc + (double)(9 << 20) / rate);
}

static double est_cache(int q, int w, double acc, double rate)
{
	/*
	 * Read-ahead trials: two accesses and an idle wait of about five
	 * revolutions each, 60 per --reps (3, or 1 with --quick); the streams
	 * about 300 accesses, the segment's sizes and window and the reads
	 * past a read about 240 more (some 60 fewer with --quick's halved
	 * window and even trials); the write-cache part some 300 accesses and
	 * a region of a few MiB read.
	 */
	double reads = (q ? 1 : 3) * 60 * (2 * acc + 0.042) + (q ? 480 : 540) * acc;

	return reads + (w ? (double)(8 << 20) / rate + 300 * acc : 0);
}

static double est_layout(int q, int w, double acc, double rate)
{
	/*
	 * Most accesses follow the one before within a revolution (some 0.4 of
	 * a random access): nine at each position, 2.3 a track walked, 3.5 a
	 * cylinder crossed, six a cylinder written, five a bisection of each of
	 * some sixteen zone boundaries (sim:atlas3: 6 s, 8 s with --write).
	 */
	double points = q ? 16 : 64, tracks = q ? 40 : 120, cyls = q ? 8 : 24, wcyls = q ? 8 : 20;
	double refine = q ? 2 : 6;

	(void)rate;
	return (points * 9 + tracks * 2.3 + cyls * 3.5 + 16 * refine * 5 + (w ? wcyls * 6 : 0)) * 0.4 * acc;
}

static const struct step steps[] = {
	{ HD_PF_SEEK_READ, &hd_probe_seek, 0, 0, 0, fill_seek_read, est_seek_read },
	{ HD_PF_SEEK_WRITE, &hd_probe_seek, 1, 1, 1, fill_seek_write, est_seek_write },
	{ HD_PF_RESPONSE, &hd_probe_response, 0, 1, 1, fill_response, est_response },
	{ HD_PF_MEDIA, &hd_probe_media, 0, 0, 0, fill_media, est_media },
	{ HD_PF_QUEUE, &hd_probe_queue, 0, 0, 0, fill_queue, est_queue },
	{ HD_PF_INTERVAL, &hd_probe_interval, 1, 1, 0, fill_interval, est_interval },
	{ HD_PF_BENCH, &hd_probe_bench, 0, 1, 0, fill_bench, est_bench },
	{ HD_PF_ZONE, &hd_probe_zone, 0, 0, 0, fill_zone, est_zone },
	{ HD_PF_INTERVAL_READ, &hd_probe_interval, 0, 0, 0, fill_interval_read, est_interval_read },
	{ HD_PF_CACHE, &hd_probe_cache, 0, 1, 0, fill_cache, est_cache },
	{ HD_PF_LAYOUT, &hd_probe_layout, 0, 1, 1, fill_layout, est_layout },
};
#define NSTEPS (sizeof(steps) / sizeof(steps[0]))

static const char *step_name(const struct step *st)
{
	return hd_profile_files[st->file].name;
}

struct prof_opts {
	struct hd_common c;
	const char *dir;
	int quick, svg, no_charts, axis;
	double rate;	/* the sequential rate measured before the first step, bytes/s */
};

#define O(member) offsetof(struct prof_opts, member)

static const struct hd_option profile_options[] = {
	{ .name = "output", .letter = 'o', .kind = HD_OPT_FILE, .arg = "DIR", .off = O(c.out),
	  .help = "the profile directory (created; required)" },
	{ .name = "quick", .kind = HD_OPT_FLAG, .off = O(quick), .help = "fewer samples: a smaller, faster profile" },
	{ .name = "svg", .kind = HD_OPT_FLAG, .off = O(svg), .help = "SVG charts instead of PNG" },
	{ .name = "no-charts", .kind = HD_OPT_FLAG, .off = O(no_charts), .help = "data files and summary.json only" },
	HD_PLOT_AXIS_OPTION(struct prof_opts, axis),
	{ .name = "write", .kind = HD_OPT_FLAG, .off = O(c.write_ok), .help = "also the write probes (data-preserving)" },
	/* Taken and not listed: the write probes that time the mechanics have --sync already. */
	{ .name = "sync", .kind = HD_OPT_FLAG, .off = O(c.sync) },
	HD_WRITE_CACHE_OPTION(struct prof_opts, c.write_cache,
			      "the drive's write cache for every probe, restored after\n"
			      "each; refuses to start where it cannot be set"),
	{ .name = "allow-idle", .kind = HD_OPT_FLAG, .off = O(c.allow_idle),
	  .help = "leave the CPUs' idle states alone (by default every probe\n"
		  "keeps them polling, so that a wake-up is not timed)" },
	{ .name = "smart-blob", .kind = HD_OPT_FILE, .arg = "FILE", .off = O(c.smart_blob),
	  .help = "identity and SMART health from saved data" },
	{ .name = "seed", .kind = HD_OPT_COUNT, .arg = "N", .off = O(c.seed), .def = HD_DEFAULT_SEED,
	  .help = "random seed for every probe" },
	{ .name = "quiet", .letter = 'q', .kind = HD_OPT_FLAG, .off = O(c.quiet), .help = "no progress lines" },
	HD_OPT_HELP_END,
};

static int profile_check(void *vo)
{
	const struct prof_opts *o = vo;

	if (!o->c.out) {
		hd_err("-o DIR is required: the directory the profile is written to");
		return -1;
	}
	return 0;
}

static const struct hd_cmdspec profile_spec = {
	.name = "profile",
	.intro = "Usage: hddscope profile [OPTIONS] [DEVICE] -o DIR\n"
		 "\n"
		 "Run every probe that applies (seek, response, media, queue, bench, zone,\n"
		 "the read-interval probe the revolution is measured from, cache and layout;\n"
		 "with --write also the write probes: seek writes, response writes (--sync,\n"
		 "so that they time the mechanics rather than the write cache), interval,\n"
		 "sequential and random writes, the cache probe's write-cache fill and the\n"
		 "layout's FUA writes), write their data files into DIR, draw every chart\n"
		 "into DIR/charts/, and write DIR/summary.json.  Prints an estimate of the\n"
		 "drive time before it starts and the time taken at the end (for a\n"
		 "simulated drive: the simulated drive time and the CPU time).\n"
		 "\n",
	.opts = profile_options,
	.outro = "\n"
		 "With --write the response writes go on in rounds, up to four times the\n"
		 "plan's (4800; 1600 with --quick), until the sequential write-stability test\n"
		 "tells a healthy drive from an unstable one (response --write-cap); the\n"
		 "header line write_decision of response.tsv says how it ended.\n"
		 "\n"
		 "DEVICE is a block device, a regular file or sim:NAME (default " HD_DEFAULT_TARGET ").\n"
		 "Exit codes: 0 ok, 1 usage, 2 setup (cannot open, refused), 3 a probe failed\n"
		 "at run time, 128 + signal when interrupted by HUP, INT, QUIT or TERM (129,\n"
		 "130, 131, 143; the files measured so far say complete: no).\n",
	.check = profile_check,
};

/* HD_OPT_GO with o filled, or the exit code to end with. */
static int profile_parse(int argc, char **argv, struct prof_opts *o)
{
	int ex = hd_opt_parse(&profile_spec, o, sizeof(*o), argc, argv);

	if (ex != HD_OPT_GO)
		return ex;
	if (hd_common_operands(&o->c, argc, argv))
		return hd_usage_hint("profile");
	/* The check saw -o: the profile's DIR. */
	o->dir = o->c.out;
	return HD_OPT_GO;
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

/*
 * One step: the probe's options at their defaults, the step's own (fill),
 * then the profile's common ones; run.  Returns its exit code and adds its
 * drive time to *drive_ns.
 */
static int run_step(const struct prof_opts *o, const struct step *st, int64_t *drive_ns)
{
	union probe_opts u;
	char path[4096];
	int64_t ns = 0;
	int rc;

	snprintf(path, sizeof(path), "%s/%s.tsv", o->dir, step_name(st));
	hd_opt_defaults(st->probe->spec, &u, sizeof(u));
	st->fill(&u, o->quick, o->rate);
	u.c.write_ok = st->pass_write && o->c.write_ok;
	u.c.sync = st->sync && o->c.write_ok;
	u.c.write_cache = o->c.write_cache;
	u.c.smart_blob = o->c.smart_blob;
	u.c.allow_idle = o->c.allow_idle;
	u.c.seed = o->c.seed;
	u.c.quiet = o->c.quiet;
	u.c.out = path;
	u.c.device = o->c.device;
	rc = hd_probe_run(st->probe, &u, &ns);
	*drive_ns += ns;
	return rc;
}

/*
 * Every step that applies, one after another, going on after a failure.
 * rc[i] is step i's exit code, -1 when it did not run; *complete is
 * cleared when one failed or was interrupted.  Returns the profile's exit
 * code so far.
 */
static int run_steps(const struct prof_opts *o, int *rc, int *complete, int64_t *drive_ns)
{
	int ex = HD_EXIT_OK;

	for (size_t i = 0; i < NSTEPS; i++) {
		const struct step *st = &steps[i];

		rc[i] = -1;
		if (st->only_write && !o->c.write_ok)
			continue;
		if (hd_interrupted) {
			*complete = 0;
			continue;
		}
		rc[i] = run_step(o, st, drive_ns);
		if (hd_interrupted) {
			*complete = 0;
			ex = hd_interrupt_exit();
		} else if (rc[i] != HD_EXIT_OK) {
			*complete = 0;
			hd_err("profile: %s failed (exit %d); going on with the next probe", step_name(st), rc[i]);
			if (ex == HD_EXIT_OK)
				ex = HD_EXIT_RUNTIME;
		}
	}
	return ex;
}

int hd_cmd_profile(int argc, char **argv)
{
	struct prof_opts o;
	struct hd_dev *d, info;
	struct hd_identity ident;
	char err[512];
	int rc[NSTEPS], ex = HD_EXIT_OK, r, complete = 1;
	double acc = 0, rate = 0, est = 0, cpu0, wall0;
	char started[32], path[4096], charts[4096];
	int64_t drive_ns = 0;

	r = profile_parse(argc, argv, &o);
	if (r != HD_OPT_GO)
		return r;
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
		o.rate = rate;
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

	ex = run_steps(&o, rc, &complete, &drive_ns);

	if (!o.no_charts) {
		hd_plot_set_axis((enum hd_plot_axis)o.axis);
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
		double drive_s = (double)drive_ns / 1e9, cpu_s = cpu_seconds() - cpu0;
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
