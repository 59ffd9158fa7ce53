/*
 * How an access is labelled (hd_run_classify): reads by the read
 * calibration; writes by the write calibration once it ran (cache below
 * its threshold, unknown above it, media when the repeats were not hits);
 * before it, writes as reads are.  And the write calibration itself on
 * simulated drives, whose model says which writes the cache takes.
 */
#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "hddscope/dev.h"
#include "hddscope/probe.h"
#include "testutil.h"

START_TEST(test_reads_by_read_threshold)
{
	struct hd_run r = { .cache_threshold_ns = 240000, .wcache_threshold_ns = 440000, .wcal = 1 };

	ck_assert_int_eq(hd_run_classify(&r, 0, HD_OP_READ, 140000), HD_CLASS_CACHE);
	ck_assert_int_eq(hd_run_classify(&r, 0, HD_OP_READ, 340000), HD_CLASS_MEDIA);
	ck_assert_int_eq(hd_run_classify(&r, -EIO, HD_OP_READ, 100), HD_CLASS_ERROR);
	r.cache_threshold_ns = -1;
	ck_assert_int_eq(hd_run_classify(&r, 0, HD_OP_READ, 1), HD_CLASS_MEDIA);
}
END_TEST

START_TEST(test_writes_by_write_threshold)
{
	struct hd_run r = { .cache_threshold_ns = 240000, .wcache_threshold_ns = 440000, .wcal = 1 };

	/* A write-cache hit slower than a read hit is a hit all the same. */
	ck_assert_int_eq(hd_run_classify(&r, 0, HD_OP_WRITE, 340000), HD_CLASS_CACHE);
	/* The cache takes writes, yet this one waited: for room, or for the media. */
	ck_assert_int_eq(hd_run_classify(&r, 0, HD_OP_WRITE, 9000000), HD_CLASS_UNKNOWN);
	ck_assert_int_eq(hd_run_classify(&r, -EIO, HD_OP_WRITE, 9000000), HD_CLASS_ERROR);
	/* Repeats that were not hits: every write reached the media. */
	r.wcache_threshold_ns = -1;
	ck_assert_int_eq(hd_run_classify(&r, 0, HD_OP_WRITE, 100000), HD_CLASS_MEDIA);
	/* No write calibration: the read threshold, as before it existed. */
	r.wcal = 0;
	ck_assert_int_eq(hd_run_classify(&r, 0, HD_OP_WRITE, 100000), HD_CLASS_CACHE);
	ck_assert_int_eq(hd_run_classify(&r, 0, HD_OP_WRITE, 340000), HD_CLASS_MEDIA);
	ck_assert_str_eq(hd_class_name(HD_CLASS_UNKNOWN), "unknown");
}
END_TEST

/* Calibrate reads and writes on sim:NAME opened as flags say, the write cache as wc (-1: the model's). */
static struct hd_run calibrated(const char *spec, int flags, int wc)
{
	struct hd_dev *d;
	struct hd_run r;
	char err[256];
	void *buf;

	ck_assert_msg(hd_dev_open(&d, spec, flags, err, sizeof(err)) == 0, "%s", err);
	if (wc >= 0)
		ck_assert_int_eq(hd_dev_set_write_cache(d, wc, err, sizeof(err)), 0);
	buf = hd_buf_alloc(d, 4096);
	ck_assert_ptr_nonnull(buf);
	hd_run_init(&r, d, "test", 1, 1);
	ck_assert_int_eq(hd_calibrate_cache(&r, buf, 4096), 0);
	ck_assert_int_eq(hd_calibrate_writes(&r, buf, 4096), 0);
	hd_buf_free(buf, 4096);
	hd_dev_close(d);
	r.dev = NULL;
	return r;
}

START_TEST(test_write_calibration_on_models)
{
	static const char *const presets[] = { "sim:atlas3", "sim:dtla307030", "sim:st2000dm001" };

	for (size_t i = 0; i < sizeof(presets) / sizeof(presets[0]); i++) {
		/* The models' write caches are on: plain writes are hits, FUA writes a revolution. */
		struct hd_run r = calibrated(presets[i], HD_OPEN_WRITE, -1);

		ck_assert_msg(r.wcache_threshold_ns > 0, "%s: no write threshold", presets[i]);
		ck_assert_msg(r.cal_wfua_p50_ns > 4 * r.cal_wrepeat_p50_ns, "%s: FUA %lld ns, plain %lld ns",
			      presets[i], (long long)r.cal_wfua_p50_ns, (long long)r.cal_wrepeat_p50_ns);
		/* Every write of a --sync run reaches the media: no threshold. */
		r = calibrated(presets[i], HD_OPEN_WRITE | HD_OPEN_SYNC, -1);
		ck_assert_int_eq(r.wcache_threshold_ns, -1);
		ck_assert_int_eq(hd_run_classify(&r, 0, HD_OP_WRITE, 1000), HD_CLASS_MEDIA);
		/* Nor with the write cache off. */
		r = calibrated(presets[i], HD_OPEN_WRITE, 0);
		ck_assert_int_eq(r.wcache_threshold_ns, -1);
	}
}
END_TEST

/*
 * A drive of scripted latencies for the calibrations: a read of the
 * block just read is a hit (1 ms), any other a media read (10 ms); the
 * first `late` hits the host kept waiting (4 ms), and with `busy` every
 * busy-th hit after them found the drive reading ahead (6 ms); writes below.
 */
struct fake {
	int64_t t;
	uint64_t last;
	int hits, late, reads, wlate, writes, busy;
};

static int fake_read(struct hd_dev *d, void *buf, size_t len, uint64_t off)
{
	struct fake *f = d->priv;

	(void)buf;
	(void)len;
	f->reads++;
	if (off == f->last) {
		f->hits++;
		f->t += f->hits <= f->late ? 4000000 : f->busy && f->hits % f->busy == 0 ? 6000000 : 1000000;
	} else
		f->t += 10000000;
	f->last = off;
	return 0;
}

static int64_t fake_now(struct hd_dev *d)
{
	return ((struct fake *)d->priv)->t;
}

/* Writes: the same block again goes to the cache (0.3 ms; the first `late` such writes 4 ms), with FUA to the media (8 ms). */
static int fake_write(struct hd_dev *d, const void *buf, size_t len, uint64_t off)
{
	struct fake *f = d->priv;

	(void)buf;
	(void)len;
	f->writes++;
	f->t += off == f->last ? (f->wlate-- > 0 ? 4000000 : 300000) : 10000000;
	f->last = off;
	return 0;
}

static int fake_write_fua(struct hd_dev *d, const void *buf, size_t len, uint64_t off)
{
	struct fake *f = d->priv;

	(void)buf;
	(void)len;
	f->t += 8000000;
	f->last = off;
	return 0;
}

static const struct hd_dev_ops fake_ops = { .name = "fake",
					    .read = fake_read,
					    .write = fake_write,
					    .write_fua = fake_write_fua,
					    .now_ns = fake_now };

/*
 * The threshold the read calibration (writes 0) or the write calibration
 * (writes 1) sets on the fake drive with `late` slow hits or repeats; *ios
 * the reads or writes it took.
 */
static int64_t fake_threshold_busy(int writes, int late, int busy, int *ios)
{
	struct fake f = { 0, UINT64_MAX, 0, writes ? 0 : late, 0, writes ? late : 0, 0, busy };
	struct hd_dev d = {
		.ops = &fake_ops, .path = "fake", .size = 1ULL << 34, .io_align = 4096, .writable = 1, .priv = &f
	};
	struct hd_run r;
	static char buf[4096];

	hd_run_init(&r, &d, "test", 1, 1);
	ck_assert_int_eq(writes ? hd_calibrate_writes(&r, buf, sizeof(buf)) : hd_calibrate_cache(&r, buf, sizeof(buf)),
			 0);
	*ios = writes ? f.writes : f.reads;
	return writes ? r.wcache_threshold_ns : r.cache_threshold_ns;
}

static int64_t fake_threshold(int writes, int late, int *ios)
{
	return fake_threshold_busy(writes, late, 0, ios);
}

/*
 * A hit's cost is steady: where a host kept a third of the hits waiting
 * (8 of the first round's 24 at 4 ms), the hits are taken again and the
 * threshold sits above the steady ones (1.25 ms: their upper quartile and
 * a quarter of their median), not above the slow ones (5 ms, which would
 * call media reads up to that hits).  Steady hits take one round.
 */
START_TEST(test_read_calibration_steady_hits)
{
	int steady, again;

	ck_assert_int_eq(fake_threshold(0, 0, &steady), 1250000);
	ck_assert_int_eq(fake_threshold(0, 8, &again), 1250000);
	ck_assert_int_gt(again, steady);
	/* Every round slow: the least upper quartile of them, never below the hits it saw. */
	ck_assert_int_eq(fake_threshold(0, 1000, &again), 5000000);
}
END_TEST

/*
 * A drive busy with its read-ahead when a hit arrives keeps it waiting, in
 * every round: with one hit in three (a third of the hits, 8 of 24 a round)
 * at 6 ms for 1, the upper quartile lay on the slow ones and no threshold
 * was set (6.25 ms, not below half the 10 ms media reads).  The threshold
 * sits above the hits' own cluster (within the margin of their lower
 * quartile): 1.25 ms, as with steady hits, at one in three, four or five.
 */
START_TEST(test_read_calibration_busy_hits)
{
	int ios;

	ck_assert_int_eq(fake_threshold_busy(0, 0, 3, &ios), 1250000);
	ck_assert_int_eq(fake_threshold_busy(0, 0, 4, &ios), 1250000);
	ck_assert_int_eq(fake_threshold_busy(0, 0, 5, &ios), 1250000);
}
END_TEST

/*
 * The write calibration's repeats, as the read calibration's hits: where
 * the host kept the first 8 writes of a block just written waiting (4 ms
 * for 0.3; 3 of the first round's 24 timed ones, the top of their 90th
 * percentile), the places are taken again and the threshold sits above
 * the steady repeats (0.4 ms: their 90th percentile and the 0.1 ms
 * margin); with one round it was none (4.1 ms, over half the FUA writes'
 * 8 ms: no write labelled cached).
 */
START_TEST(test_write_calibration_steady_repeats)
{
	int steady, again;

	ck_assert_int_eq(fake_threshold(1, 0, &steady), 400000);
	ck_assert_int_eq(fake_threshold(1, 8, &again), 400000);
	ck_assert_int_gt(again, steady);
}
END_TEST

int main(void)
{
	return tu_main("classify", "classify", NULL, NULL,
		       TU_TESTS(TU_TEST(test_reads_by_read_threshold), TU_TEST(test_writes_by_write_threshold),
				TU_TEST(test_write_calibration_on_models), TU_TEST(test_read_calibration_steady_hits),
				TU_TEST(test_read_calibration_busy_hits),
				TU_TEST(test_write_calibration_steady_repeats)));
}
