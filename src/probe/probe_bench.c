/*
 * The bench probe: the classic summary figures.  Sequential read in 2 MiB
 * O_DIRECT reads for at least --time (as hdparm -t), sequential write (with
 * --write: a window is read into memory, untimed, and only its write-back
 * is timed, window by window), and 4K random read and write within a
 * --span region (as iozone -i 2 -r 4k -s 100m; the random writes write
 * back bytes read beforehand).  Time is the device's clock: virtual time
 * on a simulated drive.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hddscope/cli.h"
#include "hddscope/msg.h"
#include "hddscope/probes.h"
#include "hddscope/session.h"
#include "hddscope/stats.h"

#define BENCH_SEQ_IO (2u << 20)
#define BENCH_SEQ_WINDOW (32u << 20)
/* The default --max-time, in multiples of --time. */
#define BENCH_MAX_TIMES 8
/* Two windows of random writes whose rates differ by at most this fraction are steady. */
#define BENCH_STEADY 0.2
/*
 * Random writes this many times faster than random reads of the same span
 * go to a cache: the media's own reordering of a destage gains less (3.7x
 * on a simulated st2000dm001 with 4096 dirty extents, 2.4x on dtla307030).
 */
#define BENCH_CACHE_FACTOR 4

#define O(member) offsetof(struct hd_bench_opts, member)

static const struct hd_option bench_options[] = {
	{ .name = "time", .kind = HD_OPT_DURATION, .arg = "DURATION", .off = O(time_ns), .def = "3s",
	  .help = "duration of each test, simulated time on sim:; ms, s\n"
		  "or m suffix, seconds without one" },
	{ .name = "max-time", .kind = HD_OPT_DURATION, .arg = "DURATION", .off = O(max_time_ns),
	  .given = HD_OPT_GIVEN(struct hd_bench_opts, have_max_time), .shown = "8 x --time",
	  .help = "random writes run on past --time until their rate is\n"
		  "steady, at most this long (a write cache filling up)" },
	{ .name = "span", .kind = HD_OPT_SIZE, .arg = "SIZE", .off = O(span), .def = "100m",
	  .help = "region of the random tests" },
	HD_BLOCK_OPTION("block", struct hd_bench_opts, rblock, "4k", "random access size"),
	{ .kind = HD_OPT_END },
};

/* The random tests draw whole blocks from the region: it holds at least two. */
static int bench_check(void *vo)
{
	const struct hd_bench_opts *o = vo;

	if (o->have_max_time && o->max_time_ns < o->time_ns) {
		hd_err("--max-time: must be at least --time");
		return -1;
	}

	if (o->span < 2 * o->rblock) {
		hd_err("--span %llu: must be at least two blocks (%llu bytes with --block %llu)",
		       (unsigned long long)o->span, (unsigned long long)(2 * o->rblock),
		       (unsigned long long)o->rblock);
		return -1;
	}
	return 0;
}

static const struct hd_cmdspec bench_spec = {
	HD_PROBE_SPEC("bench", "[OPTIONS] [DEVICE]"),
	.intro = "The classic summary figures: sequential read (2 MiB O_DIRECT reads from the\n"
		 "start of the device, as hdparm -t), sequential write (with --write), and\n"
		 "random reads and writes (with --write) of --block within the first --span\n"
		 "bytes (as iozone -i 2 -r 4k -s 100m).  Each runs for --time; random writes\n"
		 "run on until their rate is steady: for 2 x --time at least, doubling up to\n"
		 "--max-time until the second half of the run is within 20% of the quarter\n"
		 "before it, so that a write cache that outlasts --time is not taken for the\n"
		 "drive's rate.  Writes are data-preserving: the bytes are read first,\n"
		 "untimed, and written back.\n"
		 "\n",
	.opts = bench_options,
	.outro = "\n"
		 "Prints one row: device | seq read | seq write | rand read | rand write, in\n"
		 "MB/s (10^6 bytes/s) and IOPS (- for a test not asked for, \"not run\" for one\n"
		 "an interruption kept from starting).  A random test whose first second (first\n"
		 "third of a shorter --time) ran over twice as fast as its second half, as\n"
		 "a write cache filling up does, also prints both: \"burst N, sustained M\" IOPS;\n"
		 "random writes not steady by --max-time say so.  The data file holds each\n"
		 "test's median latency, burst_iops and sustained_iops (the second half of the\n"
		 "run), and rand_write_steady.  Output: bench.tsv unless -o is given.\n",
	.writes = 1,
	.check = bench_check,
};

/* One sub-test's tally. */
struct bench_res {
	const char *name;
	int ran;		/* made at least one access */
	uint64_t requests, bytes;
	int64_t ns;		/* time spent in the timed accesses */
	int64_t *lat;		/* every successful access's latency, for the median */
	size_t nlat, cap;
	/* Burst: the accesses that completed within the test's first window. */
	uint64_t burst_requests;
	int64_t burst_ns;
	/* Sustained: the accesses that started in the second half of the test's time. */
	uint64_t late_requests;
	int64_t late_ns;
	int windows;		/* late_* hold the last window of bench_rand_writes instead */
};

struct bench {
	struct hd_session *s;
	struct hd_dev *d;
	int64_t limit_ns;
	int64_t burst_window_ns;	/* the first second, or the first third of a shorter test */
};

/* Account and time one access; returns 1 when the run must stop. */
static int bench_io(struct bench *b, struct bench_res *r, enum hd_op op, void *buf, size_t len, uint64_t off)
{
	enum hd_class cls;
	int64_t lat, before = r->ns;
	int rc = hd_dev_timed(b->d, op, buf, len, off, &lat);

	/* A test ran once it made an access: one interrupted before that has no figure. */
	r->ran = 1;
	if (rc == 0) {
		r->requests++;
		r->bytes += len;
		/* Kept outside the timed call; should memory run out the median covers fewer accesses. */
		if (r->nlat == r->cap) {
			size_t ncap = r->cap ? 2 * r->cap : 4096;
			int64_t *p = realloc(r->lat, ncap * sizeof(*p));

			if (p) {
				r->lat = p;
				r->cap = ncap;
			}
		}
		if (r->nlat < r->cap)
			r->lat[r->nlat++] = lat;
	}
	r->ns += lat;
	if (rc == 0 && r->ns <= b->burst_window_ns) {
		r->burst_requests++;
		r->burst_ns = r->ns;
	}
	if (before >= b->limit_ns / 2 && !r->windows) {
		r->late_ns += lat;
		r->late_requests += rc == 0;
	}
	return hd_session_sample(b->s, rc, op, off, lat, &cls) || hd_interrupted;
}

static void bench_seq_read(struct bench *b, struct bench_res *r, void *buf)
{
	uint64_t off = 0;

	while (r->ns < b->limit_ns && !hd_session_stop(b->s)) {
		if (off + BENCH_SEQ_IO > b->d->size)
			off = 0;
		if (bench_io(b, r, HD_OP_READ, buf, BENCH_SEQ_IO, off))
			break;
		off += BENCH_SEQ_IO;
		hd_run_progress(&b->s->run, (uint64_t)(r->ns / 1000000), (uint64_t)(b->limit_ns / 1000000));
	}
}

static void bench_seq_write(struct bench *b, struct bench_res *r, uint8_t *win, uint64_t winlen)
{
	uint64_t off = 0;

	while (r->ns < b->limit_ns && !hd_session_stop(b->s)) {
		uint64_t n;

		/* The last window ends where whole 2 MiB writes end; then start over. */
		if (off + BENCH_SEQ_IO > b->d->size)
			off = 0;
		n = b->d->size - off < winlen ? (b->d->size - off) / BENCH_SEQ_IO * BENCH_SEQ_IO : winlen;
		/* The window's current bytes, untimed: exactly these are written back. */
		if (hd_dev_io(b->d, HD_OP_READ, win, n, off)) {
			enum hd_class cls;
			if (hd_session_sample(b->s, -EIO, HD_OP_READ, off, 0, &cls))
				break;
			off += n;
			continue;
		}
		for (uint64_t k = 0; k < n && r->ns < b->limit_ns; k += BENCH_SEQ_IO)
			if (bench_io(b, r, HD_OP_WRITE, win + k, BENCH_SEQ_IO, off + k))
				return;
		off += n;
		hd_run_progress(&b->s->run, (uint64_t)(r->ns / 1000000), (uint64_t)(b->limit_ns / 1000000));
	}
}

static double mb_s(const struct bench_res *r)
{
	return r->ns > 0 ? (double)r->bytes / 1e6 / ((double)r->ns / 1e9) : 0;
}

static double rate(uint64_t requests, int64_t ns)
{
	return ns > 0 ? (double)requests / ((double)ns / 1e9) : 0;
}

static double iops(const struct bench_res *r)
{
	return rate(r->requests, r->ns);
}

/*
 * Random accesses of block bytes within [0, spanlen).  Reads go to buf
 * (one block); writes write back buf + offset, the region's own bytes.
 */
static void bench_rand(struct bench *b, struct bench_res *r, enum hd_op op, uint8_t *buf, uint64_t spanlen,
		       uint64_t block, int64_t until_ns)
{
	uint64_t units = spanlen / block;

	while (r->ns < until_ns && !hd_session_stop(b->s)) {
		uint64_t off = hd_rng_below(&b->s->run.rng, units) * block;

		if (bench_io(b, r, op, op == HD_OP_WRITE ? buf + off : buf, block, off))
			break;
		if (r->requests % 64 == 0)
			hd_run_progress(&b->s->run, (uint64_t)(r->ns / 1000000), (uint64_t)(until_ns / 1000000));
	}
}

/* How the random writes ended: steady or not, and the windows that decided. */
struct bench_steady {
	int steady;		/* 1 steady, 0 not by --max-time, -1 stopped before a verdict */
	int64_t from_ns, mid_ns, end_ns;	/* the last two windows: [from, mid) and [mid, end) */
	double before, last;	/* their rates */
	int cached;		/* the last window still ran at the first one's rate, faster than the media */
	int fell;		/* the last window ran slower than the first: a cache filled */
};

/*
 * Random writes until their rate is steady.  A write cache takes writes
 * far faster than the media until it fills, however long that takes, so
 * the figure of a fixed --time is the cache's whenever the cache outlasts
 * it.  The run is cut in windows that double ([0, T), [T, 2T), [2T, 4T),
 * ...; T is --time): it stops at the end of the first window whose rate is
 * within BENCH_STEADY of the window before (the second half of the run
 * against the quarter before it), at 2T at the earliest, or at max_ns.
 * The last window is the sustained figure.  A cache that takes writes at
 * one rate for longer than 2T still passes for the drive: a drive-managed
 * SMR disk's persistent cache can hold minutes of random writes, which is
 * why the header also says when the drive reports itself zoned.
 */
static void bench_rand_writes(struct bench *b, struct bench_res *r, uint8_t *span, uint64_t spanlen,
			      uint64_t block, int64_t max_ns, int64_t media_ns, struct bench_steady *st)
{
	double first = -1;

	int64_t edge = b->limit_ns > 0 ? b->limit_ns : 1, t0 = 0, from = 0;
	uint64_t n0 = 0;
	double before = -1;

	st->steady = -1;
	for (;;) {
		double last;

		bench_rand(b, r, HD_OP_WRITE, span, spanlen, block, edge);
		if (hd_session_stop(b->s) || r->ns < edge)
			return;
		last = rate(r->requests - n0, r->ns - t0);
		*st = (struct bench_steady){ 0, from, t0, r->ns, before, last, 0, 0 };
		/* The sustained figure is the last window's: the second half of the run. */
		r->windows = 1;
		r->late_requests = r->requests - n0;
		r->late_ns = r->ns - t0;
		if (first < 0)
			first = last;
		/*
		 * Still at the first window's rate, BENCH_CACHE_FACTOR times as
		 * fast as random reads of the media: a cache is taking the
		 * writes and has not filled yet.  That is no sustained rate.
		 */
		st->cached = last >= (1 - BENCH_STEADY) * first && media_ns > 0 &&
			     last * (double)media_ns > BENCH_CACHE_FACTOR * 1e9;
		st->fell = last < first / (1 + BENCH_STEADY);
		if (before > 0 && fabs(last / before - 1) <= BENCH_STEADY && !st->cached) {
			st->steady = 1;
			return;
		}
		/* The windows end at T x 2^k whatever the last access overran by, so that max_ns = 8T runs to 8T. */
		if (edge > max_ns / 2)
			return;
		before = last;
		from = t0;
		t0 = r->ns;
		n0 = r->requests;
		edge *= 2;
	}
}

/*
 * A write cache takes a burst of writes far faster than the media can, and
 * then the drive runs at the rate its destaging allows: the whole test's
 * IOPS then depends on --time.  The burst and sustained figures differ
 * by far more than a busy machine's noise: twice; or random writes ran on
 * until steady after their rate fell (fell).
 */
static int bench_two_rates(const struct bench_res *r, int fell)
{
	double burst = rate(r->burst_requests, r->burst_ns), late = rate(r->late_requests, r->late_ns);

	return late > 0 && (burst > 2 * late || (fell && burst > late));
}

/*
 * One test's figure for the printed row: "-" for a test not asked for
 * (writes without --write), "not run" for one an interruption or a failure
 * kept from starting, never a 0 that was not measured; random writes (st)
 * that did not become steady say so.
 */
static void bench_figure(char *buf, size_t len, const struct bench_res *r, int with_iops, int not_asked,
			 const struct bench_steady *st)
{
	char unsteady[48] = "";

	if (st && st->steady == 0)
		snprintf(unsteady, sizeof(unsteady), "; not steady in %.0f s", (double)st->end_ns / 1e9);
	if (not_asked)
		snprintf(buf, len, "-");
	else if (!r->ran)
		snprintf(buf, len, "not run");
	else if (with_iops && bench_two_rates(r, st && st->fell))
		snprintf(buf, len, "%.3f (%.0f IOPS; burst %.0f, sustained %.0f%s)", mb_s(r), iops(r),
			 rate(r->burst_requests, r->burst_ns), rate(r->late_requests, r->late_ns), unsteady);
	else if (with_iops)
		snprintf(buf, len, "%.3f (%.0f IOPS%s)", mb_s(r), iops(r), unsteady);
	else
		snprintf(buf, len, "%.2f", mb_s(r));
}

/* The median latency of the successful accesses (nearest rank), 0 when none. */
static int64_t lat_p50(struct bench_res *r)
{
	hd_sort_i64(r->lat, r->nlat);
	return hd_percentile_i64(r->lat, r->nlat, 50);
}

/* How the random writes ended, in the header; and what a zoned drive's figures may be. */
static void steady_header(struct hd_session *s, const struct bench_steady *st, int64_t max_ns)
{
	if (st->steady == 1)
		hd_dfw_meta(s->w, "rand_write_steady", "yes: %.1f IOPS over %.3f-%.3f s, %.1f over %.3f-%.3f s before, "
			    "within %.0f%%", st->last, (double)st->mid_ns / 1e9, (double)st->end_ns / 1e9, st->before,
			    (double)st->from_ns / 1e9, (double)st->mid_ns / 1e9, BENCH_STEADY * 100);
	else if (st->steady == 0 && st->before > 0)
		hd_dfw_meta(s->w, "rand_write_steady", "no: %.1f IOPS over %.3f-%.3f s, %.1f over %.3f-%.3f s before; "
			    "--max-time %.3f s reached%s", st->last, (double)st->mid_ns / 1e9, (double)st->end_ns / 1e9,
			    st->before, (double)st->from_ns / 1e9, (double)st->mid_ns / 1e9, (double)max_ns / 1e9,
			    st->cached ? "; still at the first window's rate and over four times the random reads': "
					 "the writes may all have gone to a write cache" : "");
	else
		hd_dfw_meta(s->w, "rand_write_steady", "unknown: stopped before two windows were timed");
	/*
	 * A drive-managed SMR disk takes random writes into a persistent cache
	 * of gigabytes: it may outlast any --max-time, and a steady rate be
	 * the cache's.
	 */
	if (s->id.ata_zoned == HD_ATA_ZONED_DEVICE_MANAGED || s->id.ata_zoned == HD_ATA_ZONED_HOST_AWARE ||
	    (s->id.zoned[0] && strcmp(s->id.zoned, "none") != 0))
		hd_dfw_meta(s->w, "rand_write_zoned", "the drive is zoned (ATA %s, queue/zoned %s): random writes may "
			    "go to a persistent cache larger than this test wrote", hd_ata_zoned_word(&s->id),
			    hd_queue_zoned_word(&s->id));
}

static int bench_run(void *vo)
{
	struct hd_bench_opts o = *(const struct hd_bench_opts *)vo;
	struct hd_session s;
	struct bench b;
	struct bench_res res[4] = { { .name = "seq_read" }, { .name = "seq_write" }, { .name = "rand_read" },
				    { .name = "rand_write" } };
	uint8_t *seqbuf = NULL, *span = NULL, *rbuf = NULL;
	uint64_t spanlen = 0, winlen = 0;
	int rc, ex, all;
	struct bench_steady steady = { .steady = -1 };
	int64_t max_ns = o.have_max_time ? o.max_time_ns
			 : o.time_ns <= INT64_MAX / BENCH_MAX_TIMES ? BENCH_MAX_TIMES * o.time_ns : INT64_MAX;

	ex = hd_session_begin(&s, "bench", &o.c, o.c.write_ok, "bench.tsv");
	if (ex)
		return ex;
	/* The run is bounded by time: the number of samples is not known in advance. */
	s.timed = 1;
	b.s = &s;
	b.d = s.dev;
	b.limit_ns = o.time_ns;
	b.burst_window_ns = o.time_ns / 3 < 1000000000 ? o.time_ns / 3 : 1000000000;
	s.run.unit = "ms of this test";
	if (o.rblock % b.d->io_align) {
		hd_err("--block %llu: not a multiple of the %u-byte access unit of %s", (unsigned long long)o.rblock,
		       (unsigned)b.d->io_align, b.d->path);
		hd_session_abort(&s);
		return HD_EXIT_USAGE;
	}
	if (b.d->size < BENCH_SEQ_IO || b.d->size < 2 * o.rblock) {
		hd_err("%s: device too small (%llu bytes) for 2 MiB sequential reads", b.d->path,
		       (unsigned long long)b.d->size);
		hd_session_abort(&s);
		return HD_EXIT_SETUP;
	}
	spanlen = (o.span < b.d->size ? o.span : b.d->size) / o.rblock * o.rblock;
	winlen = b.d->size < BENCH_SEQ_WINDOW ? b.d->size / BENCH_SEQ_IO * BENCH_SEQ_IO : BENCH_SEQ_WINDOW;
	seqbuf = hd_buf_alloc(b.d, o.c.write_ok ? winlen : BENCH_SEQ_IO);
	/*
	 * Random reads all land in one block: only the random writes need the
	 * region's bytes, and a region-sized buffer would cost --span of memory
	 * and a cold destination for every read.
	 */
	rbuf = hd_buf_alloc(b.d, o.rblock);
	if (o.c.write_ok)
		span = hd_buf_alloc(b.d, spanlen);
	if (!seqbuf || !rbuf || (o.c.write_ok && !span)) {
		hd_err("%s: out of memory for the %llu-byte random region", b.d->path, (unsigned long long)spanlen);
		hd_session_abort(&s);
		ex = HD_EXIT_SETUP;
		goto out;
	}
	hd_dfw_meta(s.w, "params", "time_ms=%.3f span=%llu block=%llu seq_io=%u ops=%s seed=%llu",
		    (double)o.time_ns / 1e6, (unsigned long long)spanlen, (unsigned long long)o.rblock,
		    BENCH_SEQ_IO, o.c.write_ok ? "read,write" : "read", (unsigned long long)o.c.seed);
	hd_dfw_meta(s.w, "mb", "10^6 bytes");
	hd_dfw_meta(s.w, "phase", "random by placement for the random reads and writes (independent offsets within "
		    "the span); none for the sequential ones, which stream");

	bench_seq_read(&b, &res[0], seqbuf);
	if (o.c.write_ok && !hd_session_stop(&s))
		bench_seq_write(&b, &res[1], seqbuf, winlen);
	if (!hd_session_stop(&s))
		bench_rand(&b, &res[2], HD_OP_READ, rbuf, spanlen, o.rblock, b.limit_ns);
	if (o.c.write_ok && !hd_session_stop(&s)) {
		/* The random writes write back what the region holds now. */
		rc = hd_dev_io(b.d, HD_OP_READ, span, spanlen, 0);
		if (rc) {
			hd_err_access(b.d, HD_OP_READ, 0, rc);
			hd_err("%s: cannot read the random-write region; random writes skipped", b.d->path);
		} else {
			bench_rand_writes(&b, &res[3], span, spanlen, o.rblock, max_ns,
					  res[2].nlat ? lat_p50(&res[2]) : 0, &steady);
		}
	}
	all = res[0].ran && res[2].ran && (!o.c.write_ok || (res[1].ran && res[3].ran)) && res[0].ns >= b.limit_ns &&
	      res[2].ns >= b.limit_ns;
	for (int k = 0; k < 4; k++) {
		if (!res[k].ran)
			continue;
		fprintf(s.rows, "%s\t%.3f\t%.1f\t%" PRIu64 "\t%" PRIu64 "\t%.6f\t", res[k].name, mb_s(&res[k]),
			iops(&res[k]), res[k].requests, res[k].bytes, (double)res[k].ns / 1e9);
		hd_put_ms(s.rows, lat_p50(&res[k]));
		fprintf(s.rows, "\t%.1f\t%.1f\n", rate(res[k].burst_requests, res[k].burst_ns),
			rate(res[k].late_requests, res[k].late_ns));
	}
	{
		/* The figures are the command's result: printed whatever --quiet says. */
		char f[4][128];

		for (int k = 0; k < 4; k++)
			bench_figure(f[k], sizeof(f[k]), &res[k], k >= 2, (k & 1) && !o.c.write_ok, k == 3 ? &steady : NULL);
		printf("device | seq read MB/s | seq write MB/s | %s rand read MB/s | %s rand write MB/s\n",
		       o.rblock == 4096 ? "4K" : "block", o.rblock == 4096 ? "4K" : "block");
		printf("%s | %s | %s | %s | %s\n", b.d->path, f[0], f[1], f[2], f[3]);
	}
	if (res[3].ran)
		steady_header(&s, &steady, max_ns);
	ex = hd_session_end(&s, "test mb_s iops requests bytes seconds lat_p50_ms burst_iops sustained_iops", all);
out:
	for (int k = 0; k < 4; k++)
		free(res[k].lat);
	hd_buf_free(seqbuf, winlen);
	hd_buf_free(span, spanlen);
	hd_buf_free(rbuf, o.rblock);
	return ex;
}

const struct hd_probe hd_probe_bench = { "bench", &bench_spec, sizeof(struct hd_bench_opts), bench_run };

int hd_cmd_bench(int argc, char **argv)
{
	return hd_probe_main(&hd_probe_bench, argc, argv);
}
