/*
 * The interval probe (write-interval delay): write a block at X, stay idle
 * for t, write the block X' right after it, and time the second write.
 * With the drive's write cache off, the second write waits for X' to come
 * round under the head, so its latency falls as t grows and jumps up by a
 * revolution each time X' has just been missed: a sawtooth whose period is
 * the revolution time.  With the cache on it shows how soon the cache
 * takes the next write.
 *
 * With --op read it reads instead, and needs no --write: a block at X,
 * idle for t, then the block X' just before X, which has passed the head
 * and is in no read-ahead, so the second read waits for it to come round:
 * the same sawtooth, whatever the write cache does.  X is drawn from a
 * wider window (256 MiB) so that the blocks before it are seldom still in
 * a cache segment from an earlier sample; a read the cache served anyway
 * is labelled as such.
 *
 * Writes are data-preserving: X and X' are read (untimed) first and the
 * same bytes are written back.  The idle gap goes through the device's
 * idle_ns (an absolute-deadline sleep and a short spin on a real device,
 * virtual time on the simulated drive) and the gap actually obtained is
 * measured and recorded beside the one asked for.
 */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hddscope/cli.h"
#include "hddscope/msg.h"
#include "hddscope/probes.h"
#include "hddscope/session.h"
#include "hddscope/stats.h"

/* Intervals are kept in nanoseconds; at most this many distinct ones. */
#define IV_MAX_INTERVALS 100000
/* The longest idle time (ms) and the finest step (ms): intervals are whole nanoseconds. */
#define IV_MAX_MS 60000.0
#define IV_MIN_STEP_MS 1e-6

static int iv_add(struct hd_interval_opts *o, double ms, size_t *cap)
{
	if (!(ms >= 0) || ms > IV_MAX_MS) {
		hd_err("--intervals: %g ms: must be between 0 and %.0f", ms, IV_MAX_MS);
		return -1;
	}
	if (o->niv == IV_MAX_INTERVALS) {
		hd_err("--intervals: more than %d intervals", IV_MAX_INTERVALS);
		return -1;
	}
	if (o->niv == *cap) {
		size_t nc = *cap ? *cap * 2 : 128;
		int64_t *p = realloc(o->iv, nc * sizeof(*p));

		if (!p) {
			hd_err("--intervals: out of memory");
			return -1;
		}
		o->iv = p;
		*cap = nc;
	}
	o->iv[o->niv++] = llround(ms * 1e6);
	return 0;
}

/* "FROM:TO:STEP" (inclusive of TO within rounding) or "A,B,C", in ms. */
static int parse_intervals(const char *arg, struct hd_interval_opts *o)
{
	char *s = strdup(arg), *tok, *save = NULL;
	size_t cap = 0;
	int rc = -1;

	if (!s)
		return -1;
	o->niv = 0;
	if (strchr(s, ':')) {
		char *a = s, *b = strchr(a, ':'), *c;
		double from, to, step, count;
		uint64_t k, n;

		*b++ = '\0';
		c = strchr(b, ':');
		if (!c)
			goto bad;
		*c++ = '\0';
		if (hd_parse_double(a, &from) || hd_parse_double(b, &to) || hd_parse_double(c, &step) ||
		    !(step > 0) || to < from)
			goto bad;
		/* Range-checked as doubles: a count beyond uint64_t's range would not convert. */
		if (!(from >= 0 && to <= IV_MAX_MS && step >= IV_MIN_STEP_MS && step <= IV_MAX_MS)) {
			hd_err("--intervals '%s': FROM and TO must be between 0 and %.0f ms, STEP between %g and %.0f",
			       arg, IV_MAX_MS, IV_MIN_STEP_MS, IV_MAX_MS);
			goto out;
		}
		count = floor((to - from) / step + 1e-9) + 1;
		if (count > IV_MAX_INTERVALS) {
			hd_err("--intervals '%s': %.0f intervals, at most %d", arg, count, IV_MAX_INTERVALS);
			goto out;
		}
		n = (uint64_t)count;
		for (k = 0; k < n; k++)
			if (iv_add(o, from + (double)k * step, &cap))
				goto out;
		rc = 0;
		goto out;
	}
	for (tok = strtok_r(s, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		double v;

		if (hd_parse_double(tok, &v))
			goto bad;
		if (iv_add(o, v, &cap))
			goto out;
	}
	if (o->niv)
		rc = 0;
	else
		goto bad;
	goto out;
bad:
	hd_err("--intervals '%s': must be FROM:TO:STEP or a comma-separated list, in milliseconds", arg);
out:
	free(s);
	return rc;
}

/* --intervals: checked here, listed by the run (iv_build). */
static int iv_opt_intervals(void *vo, const char *arg)
{
	struct hd_interval_opts *o = vo;
	int rc = parse_intervals(arg, o);

	free(o->iv);
	o->iv = NULL;
	o->niv = 0;
	o->intervals = arg;
	return rc;
}

/* The intervals of o, in o->iv (freed by the caller): --step's range or --intervals' list. */
static int iv_build(struct hd_interval_opts *o)
{
	char range[64];

	if (!o->have_step)
		return parse_intervals(o->intervals, o);
	snprintf(range, sizeof(range), "0:20:%.17g", o->step);
	return parse_intervals(range, o);
}

static int iv_check(void *vo)
{
	struct hd_interval_opts *o = vo;
	uint64_t n;

	if (o->have_step && o->have_iv) {
		hd_err("--step and --intervals exclude each other (--step N is --intervals 0:20:N)");
		return -1;
	}
	if (iv_build(o)) {
		free(o->iv);
		o->iv = NULL;
		return -1;
	}
	n = o->niv * o->reps;
	free(o->iv);
	o->iv = NULL;
	o->niv = 0;
	if (n > 100000000) {
		hd_err("--intervals x --reps: %llu samples, at most 100000000", (unsigned long long)n);
		return -1;
	}
	return 0;
}

#define O(member) offsetof(struct hd_interval_opts, member)

static const char *const op_words[] = { "write", "read", NULL };
static const int op_values[] = { HD_OP_WRITE, HD_OP_READ };

static const struct hd_option interval_options[] = {
	{ .name = "op", .kind = HD_OPT_ENUM, .off = O(op), .words = op_words, .values = op_values, .def = "write",
	  .help = "write: the write-interval delay (needs --write);\n"
		  "read: the same sawtooth with reads, the block before X" },
	{ .name = "intervals", .kind = HD_OPT_CALL, .arg = "LIST", .call = iv_opt_intervals, .def = "0:20:0.25",
	  .given = HD_OPT_GIVEN(struct hd_interval_opts, have_iv),
	  .help = "idle times in ms: FROM:TO:STEP or a comma list" },
	/* From 1 us (20001 intervals) to the whole 20 ms: a longer step would leave the single interval 0. */
	{ .name = "step", .kind = HD_OPT_DOUBLE, .arg = "MS", .off = O(step), .dlo = 0.001, .dhi = 20.0,
	  .must = "between 0.001 and 20 milliseconds", .given = HD_OPT_GIVEN(struct hd_interval_opts, have_step),
	  .help = "shorthand for --intervals 0:20:MS" },
	{ .name = "reps", .kind = HD_OPT_COUNT, .arg = "N", .off = O(reps), .def = "5", .lo = 1, .hi = 1000000,
	  .help = "samples per interval" },
	{ .name = "offset", .kind = HD_OPT_SIZE, .arg = "OFFSET", .off = O(ref),
	  .given = HD_OPT_GIVEN(struct hd_interval_opts, have_ref), .shown = "middle of the device",
	  .help = "where X lies: within 1 MiB of here" },
	HD_BLOCK_OPTION("block", struct hd_interval_opts, block, "4k", "bytes per write, a multiple of the sector"),
	{ .kind = HD_OPT_END },
};

static const struct hd_cmdspec interval_spec = {
	HD_PROBE_SPEC("interval", "--write [OPTIONS] [DEVICE] | --op read [OPTIONS] [DEVICE]"),
	.intro = "Write-interval delay: write a block at X, stay idle for t, write the next\n"
		 "block X' and time that second write, for t over --intervals in random order.\n"
		 "With the drive's write cache off, latency against t is a sawtooth whose\n"
		 "period is one revolution; with it on, it shows when the cache takes the\n"
		 "next write.  Needs --write: every block is read first and the same bytes\n"
		 "are written back.  With --op read: read X, stay idle for t, read the\n"
		 "block before X (gone by, in no read-ahead): the same sawtooth, read only.\n"
		 "\n"
		 "Pattern:\n",
	.opts = interval_options,
	.outro = "\n"
		 "Output: interval.tsv (interval-read.tsv with --op read) unless -o is given.\n",
	.writes = 1,
	.check = iv_check,
};

/*
 * The window X is drawn from: 1 MiB (256 MiB for reads; less on a small
 * device) starting at the reference, so that X and X' always fit (a read's
 * X' is the block before X, X from the window's second block on).
 * Returns 0 or an exit code.
 */
static int iv_setup(const struct hd_interval_opts *o, const struct hd_dev *d, uint64_t *lo, uint64_t *nslots)
{
	uint64_t al = d->io_align, win, ref, most = o->op == HD_OP_READ ? 256u << 20 : 1u << 20;

	if (o->block % al) {
		hd_err("--block %llu: not a multiple of the %u-byte access unit of %s",
		       (unsigned long long)o->block, (unsigned)al, d->path);
		return HD_EXIT_USAGE;
	}
	if (d->size < 2 * o->block) {
		hd_err("%s: device too small (%llu bytes; two blocks of %llu are needed)", d->path,
		       (unsigned long long)d->size, (unsigned long long)o->block);
		return HD_EXIT_SETUP;
	}
	ref = o->have_ref ? o->ref / o->block * o->block : d->size / 2 / o->block * o->block;
	if (ref > d->size - 2 * o->block) {
		hd_err("--offset %llu: X and the block after it do not fit in %s (%llu bytes)",
		       (unsigned long long)o->ref, d->path, (unsigned long long)d->size);
		return HD_EXIT_USAGE;
	}
	win = d->size - ref - 2 * o->block;
	win = win < most ? win : most;
	*lo = ref;
	*nslots = win / o->block + 1;
	return 0;
}

/* Repeated writes timed by the write calibration. */
#define IV_CAL_N 12

/*
 * The read calibration says what a read-cache hit costs; a write that
 * lands in the write cache costs something else (overhead plus the
 * interface transfer).  Its guaranteed case: the same block written twice
 * in a row, the second write cannot have reached the media sooner than a
 * revolution later unless the cache took it.  When those second writes are
 * far cheaper than a media read (a quarter of its median), a write faster
 * than their p90 plus a margin is labelled cache; otherwise every write is
 * media.  Data-preserving like the run: each block is read first.
 * Returns the threshold in ns, or -1.
 */
static int64_t iv_calibrate_writes(struct hd_session *s, unsigned char *buf, uint64_t block, uint64_t lo,
				   uint64_t nslots, int64_t *p50)
{
	struct hd_dev *d = s->dev;
	int64_t v[IV_CAL_N], lat, h90, margin;
	int n = 0;

	*p50 = -1;
	for (int i = 0; i < IV_CAL_N && !hd_interrupted; i++) {
		uint64_t x = lo + hd_rng_below(&s->run.rng, nslots) * block;

		if (hd_dev_io(d, HD_OP_READ, buf, block, x) || hd_dev_io(d, HD_OP_WRITE, buf, block, x) ||
		    hd_dev_timed(d, HD_OP_WRITE, buf, block, x, &lat))
			continue;
		v[n++] = lat;
	}
	if (n < 4 || s->run.cal_media_p50_ns <= 0)
		return -1;
	hd_sort_i64(v, (size_t)n);
	*p50 = hd_percentile_i64(v, (size_t)n, 50);
	h90 = hd_percentile_i64(v, (size_t)n, 90);
	margin = *p50 / 4 > 100000 ? *p50 / 4 : 100000;
	if (4 * h90 >= s->run.cal_media_p50_ns || h90 + margin >= s->run.cal_media_p50_ns / 2)
		return -1;
	return h90 + margin;
}

#define IV_INTERRUPTED 1

/*
 * The timed pair: op on the block at x (from b1), idle until want has
 * passed since it returned, op on the block at off (from b2) timed into
 * *lat, the idle time obtained in *gap; *where is the block of the row
 * (x when the first access failed).  Returns 0, the failure's -errno, or
 * IV_INTERRUPTED when a signal came during the idle time.
 */
static int iv_pair(struct hd_dev *d, enum hd_op op, unsigned char *b1, uint64_t x, unsigned char *b2, uint64_t off,
		   uint64_t block, int64_t want, int64_t *lat, int64_t *gap, uint64_t *where, int64_t *late)
{
	int64_t t1, t2, w0 = hd_dev_host_wait(d), w1, w2;
	int rc = hd_dev_timed(d, op, b1, block, x, lat);

	*where = rc ? x : off;
	if (rc)
		return rc;
	t1 = hd_dev_now(d);
	w1 = hd_dev_host_wait(d);
	hd_dev_idle(d, t1 + want - hd_dev_now(d));
	if (hd_interrupted)
		return IV_INTERRUPTED;
	w2 = hd_dev_host_wait(d);
	t2 = hd_dev_now(d);
	*gap = t2 - t1;
	rc = hd_dev_timed(d, op, b2, block, off, lat);
	/* The idle time is measured whatever the host did in it; the two accesses are not. */
	*late = w0 >= 0 && w1 >= 0 && w2 >= 0 ? w1 - w0 + hd_dev_host_wait(d) - w2 : -1;
	return rc;
}

/*
 * A sample whose accesses the host kept waiting for a CPU longer than
 * HD_HOST_LATE_NS (a completion seen late, an access issued late) is taken
 * again, up to IV_RETRIES times, and labelled unknown if still late: the
 * sum of idle time and latency it gives is off the sawtooth by that much.
 */
#define IV_RETRIES 3

/* One row: the planned idle time and what the sample gave. */
struct iv_row {
	int64_t want, lat, gap, late;
	uint64_t where;
	enum hd_op op;		/* HD_OP_READ where a write sample's first read failed */
	int tries;		/* times taken again */
};

/*
 * One sample at a block of the window drawn from the plan: for reads X
 * from the window's second block on and X' the block before it; for
 * writes X and X' the block after, their bytes read first (only they are
 * written back, also when the sample is taken again).  Returns as iv_pair.
 */
static int iv_sample(struct hd_session *s, const struct hd_interval_opts *o, uint64_t lo, uint64_t nslots,
		     unsigned char *b, struct iv_row *r)
{
	struct hd_dev *d = s->dev;
	uint64_t x;
	int rc;

	if (r->op == HD_OP_READ) {
		x = lo + (nslots > 1 ? 1 + hd_rng_below(&s->run.rng, nslots - 1) : 1) * o->block;
		do
			rc = iv_pair(d, r->op, b, x, b, x - o->block, o->block, r->want, &r->lat, &r->gap, &r->where,
				     &r->late);
		while (rc == 0 && r->late > HD_HOST_LATE_NS && r->tries++ < IV_RETRIES && !hd_interrupted);
		return rc;
	}
	x = lo + hd_rng_below(&s->run.rng, nslots) * o->block;
	rc = hd_dev_timed(d, HD_OP_READ, b, 2 * o->block, x, &r->lat);
	if (rc) {
		r->op = HD_OP_READ;
		r->where = x;
		return rc;
	}
	do
		rc = iv_pair(d, r->op, b, x, b + o->block, x + o->block, o->block, r->want, &r->lat, &r->gap,
			     &r->where, &r->late);
	while (rc == 0 && r->late > HD_HOST_LATE_NS && r->tries++ < IV_RETRIES && !hd_interrupted);
	return rc;
}

static int interval_run(void *vo)
{
	struct hd_interval_opts o = *(const struct hd_interval_opts *)vo;
	struct hd_session s;
	struct hd_dev *d;
	uint32_t *order = NULL;
	uint64_t lo = 0, nslots = 0, total = 0, i;
	void *buf = NULL;
	int rc, ex;

	/* Checked when parsed: only a lack of memory fails here, and says so. */
	if (iv_build(&o)) {
		free(o.iv);
		return HD_EXIT_USAGE;
	}
	if (o.op == HD_OP_WRITE && !o.c.write_ok) {
		hd_err("interval writes to %s; add --write to allow it (the probe writes back exactly the "
		       "bytes it read)", o.c.device);
		free(o.iv);
		return HD_EXIT_SETUP;
	}
	ex = hd_session_begin(&s, "interval", &o.c, o.op == HD_OP_WRITE,
			      o.op == HD_OP_WRITE ? "interval.tsv" : "interval-read.tsv");
	if (ex) {
		free(o.iv);
		return ex;
	}
	d = s.dev;
	ex = iv_setup(&o, d, &lo, &nslots);
	total = o.niv * o.reps;
	if (!ex) {
		buf = hd_buf_alloc(d, 2 * o.block);
		order = malloc(total * sizeof(*order));
		if (!buf || !order) {
			hd_err("%s: cannot allocate buffers for %llu samples", d->path, (unsigned long long)total);
			ex = HD_EXIT_SETUP;
		}
	}
	if (ex) {
		hd_session_abort(&s);
		goto done;
	}
	hd_dfw_meta(s.w, "window_bytes", "%llu+%llu", (unsigned long long)lo,
		    (unsigned long long)((nslots - 1) * o.block));
	hd_dfw_meta(s.w, "op", "%s", o.op == HD_OP_WRITE ? "write" : "read");
	hd_dfw_meta(s.w, "phase", "set by the plan, not random: the second %s follows the first after the planned "
		    "interval, the sawtooth this probe measures", o.op == HD_OP_WRITE ? "write" : "read");
	hd_dfw_meta(s.w, "params", "op=%s intervals=%.6f..%.6fms(%zu) reps=%llu block=%llu offset=%llu seed=%llu",
		    o.op == HD_OP_WRITE ? "write" : "read", (double)o.iv[0] / 1e6, (double)o.iv[o.niv - 1] / 1e6,
		    o.niv, (unsigned long long)o.reps, (unsigned long long)o.block, (unsigned long long)lo,
		    (unsigned long long)o.c.seed);
	s.run.total = total;
	hd_session_calibrate(&s, buf, o.block);
	if (o.op == HD_OP_WRITE) {
		int64_t p50, thr = iv_calibrate_writes(&s, buf, o.block, lo, nslots, &p50);

		/* Every timed row is a write: label them against the write threshold. */
		s.run.cache_threshold_ns = thr;
		if (thr >= 0)
			hd_dfw_meta(s.w, "write_cache_threshold_ms", "%.6f", (double)thr / 1e6);
		else
			hd_dfw_meta(s.w, "write_cache_threshold_ms", "none");
		hd_dfw_meta(s.w, "write_calibration", "repeat_write_p50_ms=%.6f", (double)p50 / 1e6);
	}

	/* Every interval reps times, shuffled: drift over the run spreads evenly. */
	for (i = 0; i < total; i++)
		order[i] = (uint32_t)(i % o.niv);
	for (i = total; i > 1; i--) {
		uint64_t j = hd_rng_below(&s.run.rng, i);
		uint32_t t = order[i - 1];

		order[i - 1] = order[j];
		order[j] = t;
	}

	for (i = 0; i < total && !hd_session_stop(&s); i++) {
		struct iv_row r = { .want = o.iv[order[i]], .op = o.op };
		enum hd_class cls;

		rc = iv_sample(&s, &o, lo, nslots, buf, &r);
		s.host_retaken += r.tries > 0;
		if (rc == IV_INTERRUPTED)
			break;
		hd_session_sample(&s, rc, r.op, r.where, r.lat, &cls);
		if (rc == 0 && r.late > HD_HOST_LATE_NS) {
			hd_session_relabel(&s, &cls, HD_CLASS_UNKNOWN);
			s.host_late++;
		}
		hd_put_ms(s.rows, r.want);
		fputc('\t', s.rows);
		hd_put_ms(s.rows, r.gap);
		fputc('\t', s.rows);
		hd_put_ms(s.rows, r.lat);
		fprintf(s.rows, "\t%s\t%llu\n", hd_class_name(cls), (unsigned long long)r.where);
		hd_run_progress(&s.run, i + 1, total);
	}
	ex = hd_session_end(&s, "interval_ms actual_interval_ms latency_ms class offset_bytes", i == total);
done:
	hd_buf_free(buf, 2 * o.block);
	free(order);
	free(o.iv);
	return ex;
}

const struct hd_probe hd_probe_interval = { "interval", &interval_spec, sizeof(struct hd_interval_opts),
					    interval_run };

int hd_cmd_interval(int argc, char **argv)
{
	return hd_probe_main(&hd_probe_interval, argc, argv);
}
