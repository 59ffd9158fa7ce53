/*
 * The simulated drive's engine: what an access costs (seek by distance,
 * head switch, settle, rotation from the layout), read-ahead, the
 * write-back cache, the command queue, faults, data, determinism, and the
 * sim: device backend.  Expected times are computed here from the model.
 */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hddscope/dev.h"
#include "hddscope/sim.h"
#include "hddscope/util.h"
#include "testutil.h"

/*
 * 6000 rpm: one revolution is 10 ms.  Zone 0 has 200 sectors per track
 * (50 us a sector), zone 1 has 100.  The interface moves 4 KiB in 80 us.
 */
#define GEOM \
	"format = 1\n" \
	"rpm = 6000\n" \
	"sector_bytes = 512\n" \
	"surfaces = 4\n" \
	"zone = 0 999 200 10 20\n" \
	"zone = 1000 1999 100 5 10\n" \
	"seek = 1 1.0\n" \
	"seek = 100 3.0\n" \
	"seek = 1000 8.0\n" \
	"head_switch_ms = 0.5\n" \
	"write_settle_ms = 0.25\n"
#define BASE GEOM \
	"read_overhead_ms = 0.2\n" \
	"write_overhead_ms = 0.3\n" \
	"cache_hit_overhead_ms = 0.1\n" \
	"interface_mb_s = 51.2\n"

#define REV_NS 10000000.0
#define IFACE_4K 80000
/*
 * A media read hands sectors to the host as they come off the platter; 8
 * sectors take 400 us or more on the media and 80 us on the interface, so
 * a read completes one sector's host transfer (10 us) after its last sector.
 */
#define IFACE_TAIL 10000
#define K4 4096

struct rig {
	struct hd_sim_model *m;
	struct hd_sim *s;
};

static struct rig rig_text(const char *base, const char *extra, uint64_t seed)
{
	char text[4096], err[256];
	struct rig r;

	snprintf(text, sizeof(text), "%s%s", base, extra);
	ck_assert_msg(hd_sim_model_parse(text, strlen(text), "test.drive", &r.m, err, sizeof(err)) == 0,
		      "%s", err);
	ck_assert_int_eq(hd_sim_new(&r.s, r.m, seed), 0);
	return r;
}

static struct rig rig_new(const char *extra, uint64_t seed)
{
	return rig_text(BASE, extra, seed);
}

static void rig_free(struct rig *r)
{
	hd_sim_free(r->s);
	hd_sim_model_free(r->m);
}

/* LBA of (cyl, surface, sector). */
static uint64_t lba_of(const struct hd_sim_model *m, uint32_t cyl, uint32_t surf, uint32_t sec)
{
	struct hd_sim_chs c = { cyl, surf, sec };
	uint64_t lba;

	ck_assert_int_eq(hd_sim_chs_to_lba(m, &c, &lba), 0);
	return lba;
}

static uint32_t spt_of(const struct hd_sim_model *m, uint32_t cyl)
{
	size_t i;

	for (i = 0; i < m->nzones; i++)
		if (cyl >= m->zones[i].first_cyl && cyl <= m->zones[i].last_cyl)
			return m->zones[i].spt;
	ck_abort_msg("cylinder %u in no zone", cyl);
	return 0;
}

/*
 * The model's cost of a 4 KiB single-track media access at lba starting at
 * t with the head at (hcyl, hsurf): overhead, positioning (seek by
 * distance or head switch, plus settle on a write), rotational wait for the
 * first sector, transfer, and for a read the host transfer of its last sector.
 */
static int64_t expect_done(const struct hd_sim_model *m, uint32_t hcyl, uint32_t hsurf, uint64_t lba,
			   int write, int64_t t)
{
	struct hd_sim_chs c;
	double tt, pos = 0, ph, w;

	ck_assert_int_eq(hd_sim_lba_to_chs(m, lba, &c), 0);
	tt = (double)t + (write ? m->write_overhead_ms : m->read_overhead_ms) * 1e6;
	if (c.cyl != hcyl)
		pos = hd_sim_seek_ms(m, c.cyl > hcyl ? c.cyl - hcyl : hcyl - c.cyl) * 1e6;
	else if (c.surface != hsurf)
		pos = m->head_switch_ms * 1e6;
	/* A write settles after a seek; the skew covers a head switch. */
	if (write && c.cyl != hcyl)
		pos += m->write_settle_ms * 1e6;
	tt += pos;
	ph = fmod(tt, REV_NS) / REV_NS;
	w = hd_sim_sector_angle(m, &c) - ph;
	if (w < 0)
		w += 1;
	tt += w * REV_NS + 8 * REV_NS / spt_of(m, c.cyl);
	if (!write)
		tt += IFACE_TAIL;
	return llround(tt);
}

static int64_t timed(struct hd_sim *s, enum hd_op op, uint64_t lba, size_t len, int *hit, int *rc)
{
	int64_t t0 = hd_sim_now(s);
	int r = hd_sim_io(s, op, NULL, len, lba * 512, hit);

	if (rc)
		*rc = r;
	else
		ck_assert_int_eq(r, 0);
	return hd_sim_now(s) - t0;
}

#define ck_near(a, b, tol) \
	ck_assert_msg(llabs((long long)(a) - (long long)(b)) <= (tol), "%s = %lld, want %lld (+-%d)", #a, \
		      (long long)(a), (long long)(b), (int)(tol))

/*
 * Time a 4 KiB access on track (cyl, surf) right after a read at from, at
 * a sector chosen so that its start falls `margin` sectors after (margin
 * > 0) or before (margin < 0) the moment the positioning should end by the
 * model: pos_ms after the overhead.  Returns the rotational wait in
 * sectors (latency minus overhead, positioning, transfer, interface tail).  A
 * positioning time off by more than a sector shows as a wait near a full
 * revolution where a short one was due, or the other way round.
 */
static double bracket(struct rig *r, uint64_t from, uint32_t cyl, uint32_t surf, int write, double pos_ms,
		      int margin)
{
	struct hd_sim_chs c = { cyl, surf, 0 };
	uint32_t spt = spt_of(r->m, cyl);
	double st = REV_NS / spt, ovh = (write ? r->m->write_overhead_ms : r->m->read_overhead_ms) * 1e6;
	double end, a0, rel;
	int64_t t0, lat;
	long k;
	int tries = 0;

	/*
	 * A read always ends at the same angle; when the chosen sector would
	 * cross the end of the track, start from 8 sectors further on.
	 */
	do {
		timed(r->s, HD_OP_READ, from, K4, NULL, NULL);
		from += 8;
		t0 = hd_sim_now(r->s);
		end = (double)t0 + ovh + pos_ms * 1e6;
		a0 = hd_sim_sector_angle(r->m, &c);
		rel = fmod(end / REV_NS - a0 + 2, 1.0) * spt;	/* sectors past sector 0 then */
		k = margin > 0 ? (long)ceil(rel) + margin - 1 : (long)floor(rel) + margin + 1;
		k = (k % (long)spt + spt) % spt;
	} while (k > (long)spt - 8 && ++tries < 10);
	ck_assert(k <= (long)spt - 8);
	c.sector = (uint32_t)k;
	lat = timed(r->s, write ? HD_OP_WRITE : HD_OP_READ, lba_of(r->m, cyl, surf, c.sector), K4, NULL, NULL);
	return ((double)lat - ovh - pos_ms * 1e6 - 8 * st - (write ? 0 : IFACE_TAIL)) / st;
}

START_TEST(test_seek_costs)
{
	/* Distances on a point, between points (interpolated), past the last (extrapolated). */
	static const uint32_t dists[] = { 1, 50, 100, 550, 1000, 1500 };
	static const double curve[] = { 1.0, 1.0 + 49 * 2.0 / 99, 3.0, 5.5, 8.0, 8.0 + 500 * 5.0 / 900 };
	struct rig r = rig_new("", 1);
	size_t i;
	int w;

	for (i = 0; i < sizeof(dists) / sizeof(dists[0]); i++) {
		uint64_t from = lba_of(r.m, 10, 0, 0), to = lba_of(r.m, 10 + dists[i], 0, 0);
		int64_t t0, lat;

		ck_assert(fabs(hd_sim_seek_ms(r.m, dists[i]) - curve[i]) < 1e-12);
		for (w = 0; w <= 1; w++) {
			/* Seek, plus the settle on a write; a sector just after is caught, */
			double pos = curve[i] + (w ? 0.25 : 0), wait;

			wait = bracket(&r, from, 10 + dists[i], 1, w, pos, 1);
			ck_assert_msg(wait >= -0.01 && wait <= 1.01, "d=%u w=%d: wait %.3f sectors after",
				      dists[i], w, wait);
			/* one just before is missed by a whole revolution. */
			wait = bracket(&r, from, 10 + dists[i], 1, w, pos, -1);
			ck_assert_msg(wait >= spt_of(r.m, 10 + dists[i]) - 1.01 &&
				      wait <= spt_of(r.m, 10 + dists[i]) + 0.01,
				      "d=%u w=%d: wait %.3f sectors before", dists[i], w, wait);
		}
		/* And the whole access, rotation included, as the model computes it. */
		timed(r.s, HD_OP_READ, from, K4, NULL, NULL);
		t0 = hd_sim_now(r.s);
		lat = timed(r.s, HD_OP_READ, to, K4, NULL, NULL);
		ck_near(t0 + lat, expect_done(r.m, 10, 0, to, 0, t0), 4);
		timed(r.s, HD_OP_READ, from, K4, NULL, NULL);
		t0 = hd_sim_now(r.s);
		lat = timed(r.s, HD_OP_WRITE, to, K4, NULL, NULL);
		ck_near(t0 + lat, expect_done(r.m, 10, 0, to, 1, t0), 4);
	}
	rig_free(&r);
}
END_TEST

START_TEST(test_head_switch)
{
	struct rig r = rig_new("", 1);
	uint64_t from = lba_of(r.m, 500, 0, 0), to = lba_of(r.m, 500, 3, 100);
	int64_t t0, lat;

	timed(r.s, HD_OP_READ, from, K4, NULL, NULL);
	t0 = hd_sim_now(r.s);
	lat = timed(r.s, HD_OP_READ, to, K4, NULL, NULL);
	ck_near(t0 + lat, expect_done(r.m, 500, 0, to, 0, t0), 4);
	/* Same cylinder, other surface: the head switch time, bracketed to a sector. */
	ck_assert(bracket(&r, from, 500, 3, 0, 0.5, 1) <= 1.01);
	ck_assert(bracket(&r, from, 500, 3, 0, 0.5, -1) >= 199 - 0.01);
	/* A write switches heads as fast: no settle on a head switch. */
	ck_assert(bracket(&r, from, 500, 3, 1, 0.5, 1) <= 1.01);
	ck_assert(bracket(&r, from, 500, 3, 1, 0.5, -1) >= 199 - 0.01);
	rig_free(&r);
	/* Unless the model settles there too, as DiskSim does. */
	r = rig_new("write_settle_on_head_switch = on\n", 1);
	ck_assert(bracket(&r, from, 500, 3, 1, 0.5 + 0.25, 1) <= 1.01);
	ck_assert(bracket(&r, from, 500, 3, 1, 0.5 + 0.25, -1) >= 199 - 0.01);
	rig_free(&r);
}
END_TEST

START_TEST(test_reread_one_revolution)
{
	struct rig r = rig_new("", 1);
	uint64_t lbas[] = { 0, 12345, lba_of(r.m, 1500, 2, 37) };
	size_t i;
	int hit;

	for (i = 0; i < 3; i++) {
		timed(r.s, HD_OP_READ, lbas[i], K4, NULL, NULL);
		/* Overhead, transfer and interface all pass while the platter turns once. */
		ck_near(timed(r.s, HD_OP_READ, lbas[i], K4, &hit, NULL), REV_NS, 2);
		ck_assert_int_eq(hit, 0);
	}
	rig_free(&r);
}
END_TEST

START_TEST(test_rotation_uniform)
{
	struct rig r = rig_new("", 1);
	struct hd_rng rng;
	uint64_t lba = lba_of(r.m, 700, 1, 0);
	double sum = 0, sq = 0, lo = 1e18, hi = -1, mean, sd;
	int i, n = 4000;

	hd_rng_seed(&rng, 42);
	timed(r.s, HD_OP_READ, lba, K4, NULL, NULL);
	for (i = 0; i < n; i++) {
		double wait;

		hd_sim_idle(r.s, (int64_t)hd_rng_below(&rng, 100000000));
		/* Same track: no positioning, so what is left is the rotational wait. */
		wait = (double)timed(r.s, HD_OP_READ, lba, K4, NULL, NULL) - 200000 - 400000 - IFACE_TAIL;
		sum += wait;
		sq += wait * wait;
		lo = wait < lo ? wait : lo;
		hi = wait > hi ? wait : hi;
	}
	mean = sum / n;
	sd = sqrt(sq / n - mean * mean);
	ck_assert_msg(fabs(mean / REV_NS - 0.5) < 0.02, "mean wait %.4f rev", mean / REV_NS);
	ck_assert_msg(fabs(sd / REV_NS - 1 / sqrt(12)) < 0.01, "wait stddev %.4f rev", sd / REV_NS);
	ck_assert(lo >= -2 && hi < REV_NS);
	rig_free(&r);
}
END_TEST

#define RA "cache_segments = 2\ncache_segment_kb = 64\nreadahead_kb = 32\n"

START_TEST(test_readahead)
{
	struct rig r = rig_new(RA, 1);
	uint64_t l = lba_of(r.m, 300, 1, 0);
	int hit;

	/* 4 KiB at l, then two revolutions idle: the 64 sectors after it are read ahead. */
	timed(r.s, HD_OP_READ, l, K4, &hit, NULL);
	ck_assert_int_eq(hit, 0);
	hd_sim_idle(r.s, 20000000);
	ck_assert_int_eq(timed(r.s, HD_OP_READ, l + 8, K4, &hit, NULL), 100000 + IFACE_4K);
	ck_assert_int_eq(hit, 1);
	ck_assert_int_eq(timed(r.s, HD_OP_READ, l + 64, K4, &hit, NULL), 100000 + IFACE_4K);
	ck_assert_int_eq(hit, 1);
	/* Beyond readahead_kb: a media access. */
	ck_assert(timed(r.s, HD_OP_READ, l + 72, K4, &hit, NULL) >= 200000 + 400000 + IFACE_TAIL);
	ck_assert_int_eq(hit, 0);
	rig_free(&r);
}
END_TEST

START_TEST(test_readahead_preempted)
{
	struct rig r = rig_new(RA, 1);
	uint64_t l = lba_of(r.m, 300, 1, 0), far = lba_of(r.m, 1800, 0, 0);
	int hit;

	/* 1 ms of idle reads 20 sectors ahead; the far read then stops the read-ahead. */
	timed(r.s, HD_OP_READ, l, K4, NULL, NULL);
	hd_sim_idle(r.s, 1000000 - IFACE_4K);
	timed(r.s, HD_OP_READ, far, K4, NULL, NULL);
	hd_sim_idle(r.s, 50000000);
	timed(r.s, HD_OP_READ, l + 8, K4, &hit, NULL);		/* l+8 .. l+16: read ahead */
	ck_assert_int_eq(hit, 1);
	timed(r.s, HD_OP_READ, l + 24, K4, &hit, NULL);	/* l+24 .. l+32: not reached */
	ck_assert_int_eq(hit, 0);
	rig_free(&r);
}
END_TEST

START_TEST(test_sequential_stream)
{
	struct rig r = rig_new(RA, 1);
	uint64_t l = lba_of(r.m, 300, 1, 0);
	int i, hit;

	/* Back-to-back sequential reads keep up with the media: 8 sectors of 50 us each. */
	timed(r.s, HD_OP_READ, l, K4, NULL, NULL);
	for (i = 1; i < 20; i++) {
		ck_near(timed(r.s, HD_OP_READ, l + 8 * i, K4, &hit, NULL), 400000, 2);
		ck_assert_int_eq(hit, 0);
	}
	rig_free(&r);
}
END_TEST

START_TEST(test_no_cache_no_hit)
{
	struct rig r = rig_new("readahead_kb = 32\n", 1);	/* no segment to keep it in */
	uint64_t l = lba_of(r.m, 300, 1, 0);
	int hit;

	timed(r.s, HD_OP_READ, l, K4, NULL, NULL);
	hd_sim_idle(r.s, 20000000);
	ck_assert(timed(r.s, HD_OP_READ, l + 8, K4, &hit, NULL) >= 200000 + 400000 + IFACE_TAIL);
	ck_assert_int_eq(hit, 0);
	rig_free(&r);
}
END_TEST

#define WC "write_cache = on\nwrite_cache_kb = 64\n"

START_TEST(test_write_cache)
{
	struct rig r = rig_new(WC, 1);
	struct hd_sim_stats st;
	struct hd_rng rng;
	int i, hit;
	int64_t lat, sum = 0;

	hd_rng_seed(&rng, 7);
	/* 16 writes of 4 KiB fit 64 KiB: each completes after overhead + interface. */
	for (i = 0; i < 16; i++) {
		ck_assert_int_eq(timed(r.s, HD_OP_WRITE, hd_rng_below(&rng, r.m->sectors / 8) * 8, K4, &hit,
				       NULL), 300000 + IFACE_4K);
		ck_assert_int_eq(hit, 1);
	}
	/*
	 * Destaging runs while the host sends more (the mechanism is free):
	 * a long burst goes at the rate of random media writes, not at the
	 * interface's.  The drive destages the nearest of the 16 oldest first,
	 * which keeps it below a random access (about 5 ms of seek and 5 of
	 * rotation here).
	 */
	for (i = 0; i < 200; i++) {
		lat = timed(r.s, HD_OP_WRITE, hd_rng_below(&rng, r.m->sectors / 8) * 8, K4, &hit, NULL);
		ck_assert(lat >= 300000 + IFACE_4K);
		ck_assert_int_eq(hit, 1);
		sum += lat;
	}
	ck_assert_msg(sum / 200 > 3000000 && sum / 200 < 10000000, "mean %lld", (long long)(sum / 200));
	hd_sim_get_stats(r.s, &st);
	ck_assert_uint_ge(st.destages, 200);
	ck_assert_uint_le(st.destages, 201);
	/* Cached data reads as a hit. */
	timed(r.s, HD_OP_WRITE, 8, K4, &hit, NULL);
	ck_assert_int_eq(timed(r.s, HD_OP_READ, 8, K4, &hit, NULL), 100000 + IFACE_4K);
	ck_assert_int_eq(hit, 1);
	/* Idle time destages the rest in the background; then a burst is fast again. */
	hd_sim_idle(r.s, 1000000000);
	ck_assert_int_eq(timed(r.s, HD_OP_WRITE, 1000, K4, NULL, NULL), 300000 + IFACE_4K);
	hd_sim_get_stats(r.s, &st);
	ck_assert_uint_eq(st.destages, 217);
	ck_assert_uint_eq(st.write_cached, 218);
	rig_free(&r);
}
END_TEST

/*
 * Overheads after a read and after a write, the request and completion
 * overheads, and the interface rate of each direction.
 */
START_TEST(test_overheads)
{
	static const char *const ovh =
		"read_miss_overhead_ms = 0.2 0.6\nread_hit_overhead_ms = 0.1 0.4\nwrite_miss_overhead_ms = 0.3\n"
		"write_hit_overhead_ms = 0.3 0.35\nrequest_overhead_ms = 0.05\ncompletion_overhead_ms = 0.02 0.03\n"
		"interface_mb_s = 51.2 25.6\ncache_segments = 2\ncache_segment_kb = 64\nreadahead = off\n";
	char extra[1024];
	struct rig r = rig_text(GEOM, ovh, 1);
	uint64_t x = lba_of(r.m, 300, 1, 0), y = lba_of(r.m, 1500, 0, 0);
	int hit;

	timed(r.s, HD_OP_READ, x, K4, &hit, NULL);
	ck_assert_int_eq(hit, 0);
	/* A hit after a read: request 50 + hit after read 100 + 4 KiB at 51.2 MB/s 80 + completion 20 us. */
	ck_assert_int_eq(timed(r.s, HD_OP_READ, x, K4, &hit, NULL), 50000 + 100000 + 80000 + 20000);
	ck_assert_int_eq(hit, 1);
	timed(r.s, HD_OP_WRITE, y, K4, &hit, NULL);
	ck_assert_int_eq(hit, 0);
	/* After a write: the hit overhead after a write, 400 us. */
	ck_assert_int_eq(timed(r.s, HD_OP_READ, x, K4, &hit, NULL), 50000 + 400000 + 80000 + 20000);
	rig_free(&r);

	/* A write the cache takes: 4 KiB at 25.6 MB/s is 160 us; completion 30 us. */
	snprintf(extra, sizeof(extra), "%swrite_cache = on\nwrite_cache_kb = 64\n", ovh);
	r = rig_text(GEOM, extra, 1);
	timed(r.s, HD_OP_READ, x, K4, NULL, NULL);
	ck_assert_int_eq(timed(r.s, HD_OP_WRITE, y, K4, &hit, NULL), 50000 + 300000 + 160000 + 30000);
	ck_assert_int_eq(hit, 1);
	ck_assert_int_eq(timed(r.s, HD_OP_WRITE, y + 64, K4, &hit, NULL), 50000 + 350000 + 160000 + 30000);
	rig_free(&r);
}
END_TEST

/*
 * The media time of sectors [lba, lba + n) on one zone's tracks, from t
 * with the head on lba's track: the rotational wait for lba, then every
 * sector; a switch to the next track costs nothing more than its skew
 * when the skew covers it (here head switch 0.5 ms = 10 sectors, seek(1)
 * 1 ms = 20 sectors).
 */
static double media_from(const struct hd_sim_model *m, uint64_t lba, double t)
{
	struct hd_sim_chs c;
	double w;

	ck_assert_int_eq(hd_sim_lba_to_chs(m, lba, &c), 0);
	w = hd_sim_sector_angle(m, &c) - fmod(t, REV_NS) / REV_NS;
	if (w < 0)
		w += 1;
	return t + w * REV_NS;
}

/*
 * A write that crosses tracks runs at the read rate: the write settles
 * after a seek, not at the head and cylinder switches inside it, and it
 * starts on the media once its first sector is in the buffer.
 */
START_TEST(test_write_rate)
{
	struct rig r = rig_new("", 1);
	double st = REV_NS / 200;
	/* 600 sectors from (500, 2, 0): a head switch, then a cylinder switch to (501, 0). */
	uint64_t a = lba_of(r.m, 500, 2, 0);
	int64_t t0, lat;
	double first;

	/* The head on a's track: reading a sector near its end. */
	timed(r.s, HD_OP_READ, lba_of(r.m, 500, 2, 150), 512, NULL, NULL);
	t0 = hd_sim_now(r.s);
	lat = timed(r.s, HD_OP_WRITE, a, 600 * 512, NULL, NULL);
	/* Overhead 300 us, then the first sector crosses the interface in 10 us. */
	first = media_from(r.m, a, (double)t0 + 300000 + 10000);
	/* 600 sectors, a head switch within its 10-sector skew, a cylinder switch within its 20. */
	ck_near(t0 + lat, llround(first + 600 * st + 10 * st + 20 * st), 3);
	rig_free(&r);

	/* As DiskSim does it: settling at the switches too, each switch misses its sector by 0.25 ms. */
	r = rig_new("write_settle_on_head_switch = on\n", 1);
	timed(r.s, HD_OP_READ, lba_of(r.m, 500, 2, 150), 512, NULL, NULL);
	t0 = hd_sim_now(r.s);
	lat = timed(r.s, HD_OP_WRITE, a, 600 * 512, NULL, NULL);
	first = media_from(r.m, a, (double)t0 + 300000 + 10000);
	ck_near(t0 + lat, llround(first + 600 * st + 2 * REV_NS + 10 * st + 20 * st), 3);
	rig_free(&r);
}
END_TEST

#define RA_MODE "cache_segments = 2\ncache_segment_kb = 1024\nreadahead_max_blocks = 4000\n"

/* What is cached after reading n sectors at (cyl, surf, sec) and idling 50 ms. */
static int cached_after(struct rig *r, uint32_t cyl, uint32_t surf, uint32_t sec, size_t n, uint32_t qcyl,
			uint32_t qsurf, uint32_t qsec)
{
	int hit;

	timed(r->s, HD_OP_READ, lba_of(r->m, cyl, surf, sec), n * 512, NULL, NULL);
	hd_sim_idle(r->s, 50000000);
	timed(r->s, HD_OP_READ, lba_of(r->m, qcyl, qsurf, qsec), 512, &hit, NULL);
	return hit;
}

/* readahead = track, cylinder, stream: how far the drive reads on. */
START_TEST(test_readahead_modes)
{
	struct rig r = rig_new(RA_MODE "readahead = track\n", 1);

	ck_assert_int_eq(cached_after(&r, 300, 1, 0, 8, 300, 1, 199), 1);
	ck_assert_int_eq(cached_after(&r, 310, 1, 0, 8, 310, 2, 0), 0);
	rig_free(&r);
	r = rig_new(RA_MODE "readahead = cylinder\n", 1);
	ck_assert_int_eq(cached_after(&r, 300, 1, 0, 8, 300, 3, 199), 1);
	ck_assert_int_eq(cached_after(&r, 310, 1, 0, 8, 311, 0, 0), 0);
	rig_free(&r);
	/* Stream: to the end of the track after the read, and the next one when the read began a track earlier. */
	r = rig_new(RA_MODE "readahead = stream\n", 1);
	ck_assert_int_eq(cached_after(&r, 300, 1, 0, 8, 300, 1, 199), 1);
	ck_assert_int_eq(cached_after(&r, 310, 1, 0, 8, 310, 2, 0), 0);
	ck_assert_int_eq(cached_after(&r, 320, 1, 192, 16, 320, 3, 199), 1);
	ck_assert_int_eq(cached_after(&r, 330, 1, 192, 16, 331, 0, 0), 0);
	rig_free(&r);
	/* readahead_max_blocks bounds track and cylinder read-ahead. */
	r = rig_new("cache_segments = 2\ncache_segment_kb = 1024\nreadahead_max_blocks = 32\nreadahead = cylinder\n", 1);
	ck_assert_int_eq(cached_after(&r, 300, 1, 0, 8, 300, 1, 39), 1);
	ck_assert_int_eq(cached_after(&r, 310, 1, 0, 8, 310, 1, 40), 0);
	rig_free(&r);
	/* Without readahead_over_requested, read-ahead stops when the segment (64 sectors) is full. */
	r = rig_new("cache_segments = 2\ncache_segment_kb = 32\nreadahead_max_blocks = 4000\nreadahead = segment\n"
		    "readahead_over_requested = off\n", 1);
	ck_assert_int_eq(cached_after(&r, 300, 1, 0, 8, 300, 1, 63), 1);
	ck_assert_int_eq(cached_after(&r, 310, 1, 0, 8, 310, 1, 64), 0);
	rig_free(&r);
}
END_TEST

/*
 * Read-ahead goes on while the host takes its data and through the next
 * command's overhead: a read that skips 4 KiB ahead of the last one finds
 * its sectors coming, without waiting for a revolution.
 */
START_TEST(test_readahead_skip)
{
	struct rig r = rig_new(RA, 1);
	uint64_t l = lba_of(r.m, 300, 1, 0);
	int64_t t0, lat;
	int hit;

	timed(r.s, HD_OP_READ, l, K4, NULL, NULL);
	t0 = hd_sim_now(r.s);
	lat = timed(r.s, HD_OP_READ, l + 16, K4, &hit, NULL);
	ck_assert_int_eq(hit, 0);
	/* The previous read's last sector ended IFACE_TAIL before t0; l + 24 ends 16 sectors later. */
	ck_near(t0 + lat, t0 - IFACE_TAIL + 16 * 50000 + IFACE_TAIL, 2);
	rig_free(&r);
}
END_TEST

/*
 * readahead_stop_in_sector (DiskSim's "Stop prefetch in sector"): a read
 * of the sector the read-ahead is reading when it arrives stops the
 * read-ahead there and waits a revolution for that sector; off, it
 * continues the read-ahead.  A read of a later sector continues it either
 * way.  Back-to-back reads: the next arrives IFACE_TAIL into sector l + 8.
 */
START_TEST(test_readahead_stop_in_sector)
{
	static const char *const extra[2] = { RA, RA "readahead_stop_in_sector = on\n" };
	int on;

	for (on = 0; on < 2; on++) {
		struct rig r = rig_new(extra[on], 1);
		uint64_t l = lba_of(r.m, 300, 1, 0);
		int64_t lat;
		int hit;

		timed(r.s, HD_OP_READ, l, K4, NULL, NULL);
		lat = timed(r.s, HD_OP_READ, l + 8, K4, &hit, NULL);
		ck_assert_int_eq(hit, 0);
		/* l + 15 ends 8 sectors after l + 8 began (IFACE_TAIL before the arrival), a revolution later when on. */
		ck_near(lat, -IFACE_TAIL + 8 * 50000 + IFACE_TAIL + (on ? REV_NS : 0), 2);
		/* One sector further on: the read-ahead reaches it. */
		lat = timed(r.s, HD_OP_READ, l + 17, K4, &hit, NULL);
		ck_near(lat, -IFACE_TAIL + 9 * 50000 + IFACE_TAIL, 2);
		rig_free(&r);
	}
}
END_TEST


/*
 * The host transfer of a read (DiskSim's buffer): a sector crosses the
 * interface only once it is wholly in the buffer, and a read miss starts
 * sending once read_watermark of it is in.  An interface of 5.12 MB/s
 * sends a sector in 100 us, twice the 50 us the media takes: 8 sectors
 * from a first sector that begins under the head at F are in from F + 50 us
 * and cross by F + 50 + 8 * 100 us; with the watermark at 1 the last one
 * is in first, F + 8 * 50 us, and with 0.5 the fourth, F + 4 * 50 us.
 */
#define SLOW GEOM "read_overhead_ms = 0.2\nwrite_overhead_ms = 0.3\ncache_hit_overhead_ms = 0.1\ninterface_mb_s = 5.12\n"
#define XS 100000
#define ST 50000

START_TEST(test_read_transfer_pipeline)
{
	static const char *const extra[3] = { "", "read_watermark = 1\n", "read_watermark = 0.5\n" };
	const int64_t start[3] = { ST, 8 * ST, 4 * ST };
	int i;

	for (i = 0; i < 3; i++) {
		struct rig r = rig_text(SLOW, extra[i], 1);
		uint64_t l = lba_of(r.m, 300, 1, 0);
		/* F: when the first sector begins under the head, by the model. */
		int64_t f = expect_done(r.m, 0, 0, l, 0, 0) - 8 * ST - IFACE_TAIL, done;

		/* A transfer that has started is never starved: the media delivers twice as fast. */
		done = f + start[i] + 8 * XS;
		ck_near(timed(r.s, HD_OP_READ, l, K4, NULL, NULL), done, 2);
		rig_free(&r);
	}
}
END_TEST

/*
 * The buffer holds at most a segment of a read that the host has yet to
 * take: sector j of a media read may go into the segment only once sector
 * j - segment has crossed the interface; until then it passes unread and
 * the head waits on the track for it to come round.  A 32 KiB read (64
 * sectors) through a segment of 16 blocks and the slow interface: the
 * media runs ahead of the transfer until a sector finds no room, and waits
 * a revolution, twice.
 */
START_TEST(test_read_segment_window)
{
	struct rig r = rig_text(SLOW, "cache_segment_blocks = 16\nreadahead = off\n", 1);
	uint64_t l = lba_of(r.m, 300, 1, 0);
	double f = (double)(expect_done(r.m, 0, 0, l, 0, 0) - 8 * ST - IFACE_TAIL), tt = f, done = 0, sent[64];
	int j, revs = 0;

	/* The rule, sector by sector, as the model's numbers give it. */
	for (j = 0; j < 64; j++) {
		if (j >= 16 && tt < sent[j - 16]) {
			tt += ceil((sent[j - 16] - tt) / REV_NS) * REV_NS;
			revs++;
		}
		tt += ST;
		done = fmax(done, tt) + XS;
		sent[j] = done;
	}
	ck_assert_int_eq(revs, 2);
	ck_near(timed(r.s, HD_OP_READ, l, 64 * 512, NULL, NULL), llround(done), 2);
	/* More than a revolution later than the transfer-bound read a larger buffer would allow. */
	ck_assert(done > f + ST + 64 * XS + REV_NS);
	rig_free(&r);
}
END_TEST

/*
 * A read-ahead that found no room in the segment waits on the track for
 * its sector to come round; whatever stops it, the head is free at once.
 * 16 sectors through a 16-block segment and the slow interface: the read
 * completes at F + 50 + 1600 us; the read-ahead after it reaches l + 30
 * at F + 1500, while sector l + 14 has yet to cross (F + 1550), and waits
 * a revolution.  A write of l + 20 .. l + 27 when the read completes drops
 * the segment and stops it: the write catches l + 20 when it comes round,
 * at F + 1000 + REV, and ends 8 sectors later.
 */
START_TEST(test_readahead_wait_stops_at_once)
{
	struct rig r = rig_text(SLOW, "cache_segment_blocks = 16\nreadahead_max_blocks = 32\n", 1);
	uint64_t l = lba_of(r.m, 300, 1, 0);
	int64_t f = expect_done(r.m, 0, 0, l, 0, 0) - 8 * ST - IFACE_TAIL;

	ck_near(timed(r.s, HD_OP_READ, l, 16 * 512, NULL, NULL), f + ST + 16 * XS, 2);
	ck_near(timed(r.s, HD_OP_WRITE, l + 20, K4, NULL, NULL), f + 20 * ST + (int64_t)REV_NS + 8 * ST - (f + ST + 16 * XS), 2);
	rig_free(&r);
}
END_TEST

/*
 * A slipped sector ends a run of LBAs inside its track, not the track: the
 * track read-ahead after a read at the track's start reads on to the
 * track's last LBA.  Zone 1 (the zone the keys after its line apply to),
 * surface 0 of cylinder 1300: the slip at its sector 50 leaves it 99 LBAs,
 * and the last of them is a hit once the read-ahead has had a revolution.
 */
START_TEST(test_readahead_track_with_slip)
{
	struct rig r;
	char extra[256];
	uint64_t l, last;
	int hit;

	snprintf(extra, sizeof(extra), "cache_segments = 1\ncache_segment_kb = 128\nreadahead = track\n"
		 "readahead_max_blocks = 256\nsparing = sectors_at_end\nzone_slips = %u\n", 300u * 4 * 100 + 50);
	r = rig_new(extra, 1);
	l = lba_of(r.m, 1300, 0, 0);
	last = lba_of(r.m, 1300, 1, 0) - 1;
	ck_assert_uint_eq(last - l + 1, 99);
	timed(r.s, HD_OP_READ, l, K4, NULL, NULL);
	hd_sim_idle(r.s, (int64_t)REV_NS);
	timed(r.s, HD_OP_READ, last, 512, &hit, NULL);
	ck_assert_int_eq(hit, 1);
	rig_free(&r);
}
END_TEST

/*
 * readahead_join (DiskSim's "Allow almost read hits"): a read that arrives
 * IFACE_TAIL into the sector l + 8 the read-ahead is reading, and begins
 * there, continues the read-ahead with `window` and `next`; with `off` it
 * is a miss, stops the read-ahead, and waits a revolution for that sector.
 */
START_TEST(test_readahead_join)
{
	static const char *const join[3] = { "window", "next", "off" };
	int i;

	for (i = 0; i < 3; i++) {
		char extra[256];
		struct rig r;
		uint64_t l;
		int hit;

		snprintf(extra, sizeof(extra), RA "readahead_join = %s\n", join[i]);
		r = rig_new(extra, 1);
		l = lba_of(r.m, 300, 1, 0);
		timed(r.s, HD_OP_READ, l, K4, NULL, NULL);
		ck_near(timed(r.s, HD_OP_READ, l + 8, K4, &hit, NULL), 8 * ST + (i == 2 ? REV_NS : 0), 2);
		ck_assert_int_eq(hit, 0);
		rig_free(&r);
	}
}
END_TEST

/*
 * read_partial_hits (DiskSim's "Immed transfer partial hit"): a read whose
 * first sectors a segment holds pays the hit overhead (0.1 ms, not the
 * miss's 0.2) and sends them at once.  Right after a read of [l, l + 8)
 * with read-ahead, [l + 4, l + 12): the read-ahead reads l + 8 .. l + 11,
 * the last ending 190 us after the arrival, and the tail follows.  On a
 * segment with no read-ahead, after an idle time that puts the head at
 * l + 5 when the overhead ends, the rest comes from the segment's end,
 * l + 8, three sectors on; without partial hits the read waits a
 * revolution for l + 4.
 */
START_TEST(test_read_partial_hits)
{
	int on;

	for (on = 0; on < 2; on++) {
		char extra[256];
		struct rig r;
		uint64_t l;

		snprintf(extra, sizeof(extra), RA "read_partial_hits = %s\n", on ? "on" : "off");
		r = rig_new(extra, 1);
		l = lba_of(r.m, 300, 1, 0);
		timed(r.s, HD_OP_READ, l, K4, NULL, NULL);
		/* On, the media bounds it (l + 11 ends 190 us on, and crosses in 10); off, 0.2 ms and 8 transfers. */
		ck_near(timed(r.s, HD_OP_READ, l + 4, K4, NULL, NULL), on ? 190000 + IFACE_TAIL : 200000 + IFACE_4K, 2);
		rig_free(&r);

		snprintf(extra, sizeof(extra), "cache_segments = 2\ncache_segment_kb = 64\nreadahead = off\n"
			 "read_partial_hits = %s\n", on ? "on" : "off");
		r = rig_new(extra, 1);
		l = lba_of(r.m, 300, 1, 0);
		timed(r.s, HD_OP_READ, l, K4, NULL, NULL);
		/*
		 * l + 8 begins under the head IFACE_TAIL before now, at c; the
		 * read arrives so that its miss overhead (0.2 ms) ends as l + 5
		 * comes round, at c + REV - 3 sectors.  On: l + 8 .. l + 11 from
		 * c + REV; off: l + 4 .. l + 11 a revolution after that.
		 */
		hd_sim_idle(r.s, (int64_t)REV_NS - 3 * ST - 200000 - IFACE_TAIL);
		ck_near(timed(r.s, HD_OP_READ, l + 4, K4, NULL, NULL),
			(on ? 0 : (int64_t)REV_NS) + 4 * ST + IFACE_TAIL + 3 * ST + 200000, 2);
		rig_free(&r);
	}
}
END_TEST

/*
 * readahead_preempt: every request takes the mechanism from the
 * read-ahead when it arrives; a read served from one segment stops the
 * read-ahead on another.  After reads of X (segment 0) and Y
 * (segment 1, read-ahead after it), X again is a hit; then Y + 8: off, the
 * read-ahead has gone on and the read joins it, ending 400 us after Y's
 * end; on, it had stopped at the hit, and Y + 8 waits a revolution.
 */
START_TEST(test_readahead_preempt)
{
	int on;

	for (on = 0; on < 2; on++) {
		char extra[256];
		struct rig r;
		uint64_t x, y;
		int hit;

		snprintf(extra, sizeof(extra), RA "readahead_preempt = %s\n", on ? "on" : "off");
		r = rig_new(extra, 1);
		x = lba_of(r.m, 300, 1, 0);
		y = lba_of(r.m, 800, 2, 50);
		timed(r.s, HD_OP_READ, x, K4, NULL, NULL);
		timed(r.s, HD_OP_READ, y, K4, NULL, NULL);
		ck_assert_int_eq(timed(r.s, HD_OP_READ, x, K4, &hit, NULL), 100000 + IFACE_4K);
		ck_assert_int_eq(hit, 1);
		/*
		 * Y + 8 began under the head IFACE_TAIL before X's hit arrived.
		 * Off: the read-ahead has it all by the end of the miss overhead,
		 * 0.2 ms after the arrival, 180 us after the hit's.  On: it comes
		 * round a revolution later, 8 sectors and the tail.
		 */
		ck_near(timed(r.s, HD_OP_READ, y + 8, K4, &hit, NULL),
			on ? (int64_t)REV_NS - IFACE_TAIL + 8 * ST + IFACE_TAIL - (100000 + IFACE_4K) : 200000 + IFACE_4K, 2);
		rig_free(&r);

		/*
		 * A miss elsewhere right after a read of X: off, the read-ahead
		 * reads on through its 0.2 ms overhead, X + 8 .. X + 11 (the last
		 * ends 190 us on); on, it stops when the miss arrives, inside X + 8.
		 */
		r = rig_new(extra, 1);
		timed(r.s, HD_OP_READ, x, K4, NULL, NULL);
		timed(r.s, HD_OP_READ, y, K4, NULL, NULL);
		timed(r.s, HD_OP_READ, x + 8, 2048, &hit, NULL);
		ck_assert_int_eq(hit, !on);
		rig_free(&r);
	}
}
END_TEST

#define SEGS "cache_segments = 2\ncache_segment_blocks = 64\n"

/* DiskSim's fast write levels: flush (2) and append (1), with one write segment of 64 blocks. */
START_TEST(test_fast_write_levels)
{
	struct rig r = rig_new(SEGS "write_cache = flush\n", 1);
	uint64_t x = lba_of(r.m, 300, 1, 0), y = lba_of(r.m, 1500, 2, 50);
	int hit;

	ck_assert_int_eq(timed(r.s, HD_OP_WRITE, x, K4, &hit, NULL), 300000 + IFACE_4K);
	ck_assert_int_eq(hit, 1);
	/* Appending to the segment before its media write begins. */
	ck_assert_int_eq(timed(r.s, HD_OP_WRITE, x + 8, K4, &hit, NULL), 300000 + IFACE_4K);
	/* Anywhere else: only once all dirty data is on the media, a seek away (>= 1 ms) at least. */
	ck_assert(timed(r.s, HD_OP_WRITE, y, K4, &hit, NULL) > 300000 + IFACE_4K + 1000000);
	ck_assert_int_eq(hit, 1);
	/* A read waits for the flush too. */
	ck_assert(timed(r.s, HD_OP_READ, x + 64, K4, &hit, NULL) > 200000 + 1000000 + 8 * 50000);
	rig_free(&r);

	r = rig_new(SEGS "write_cache = append\n", 1);
	/* The first write of a stream goes to the media; the ones that append to it are cached. */
	ck_assert(timed(r.s, HD_OP_WRITE, x, K4, &hit, NULL) > 300000 + 8 * 50000);
	ck_assert_int_eq(hit, 0);
	ck_assert_int_eq(timed(r.s, HD_OP_WRITE, x + 8, K4, &hit, NULL), 300000 + IFACE_4K);
	ck_assert_int_eq(hit, 1);
	ck_assert_int_eq(timed(r.s, HD_OP_WRITE, x + 16, K4, &hit, NULL), 300000 + IFACE_4K);
	ck_assert(timed(r.s, HD_OP_WRITE, y, K4, &hit, NULL) > 300000 + 1000000 + 8 * 50000);
	ck_assert_int_eq(hit, 0);
	rig_free(&r);
}
END_TEST

/*
 * DiskSim's combined sequential writes (write_combine = disksim, fast write
 * level 2): a write that continues the segment joins it while its media
 * writes go on, and the access under way writes it too; the joined write's
 * own access finds its sectors just written and waits for them to come
 * round.  A write that finds a joined one still waiting for its own access
 * waits until the segment is on the media.
 */
START_TEST(test_write_combine_disksim)
{
	struct rig r = rig_new(SEGS "write_cache = flush\n", 1);
	uint64_t x = lba_of(r.m, 300, 1, 0);
	double st = REV_NS / 200, first, end;
	int64_t t0, t;
	int hit;

	/* The head on x's track: reading a sector near its end. */
	timed(r.s, HD_OP_READ, lba_of(r.m, 300, 1, 150), 512, NULL, NULL);
	t0 = hd_sim_now(r.s);
	ck_assert_int_eq(timed(r.s, HD_OP_WRITE, x, K4, &hit, NULL), 300000 + IFACE_4K);
	/* Its media write: once the overhead is done and the first sector is in (10 us), on x's turn. */
	first = media_from(r.m, x, (double)t0 + 300000 + 10000);
	/* Joins: the access writes x .. x + 16 in one pass. */
	ck_assert_int_eq(timed(r.s, HD_OP_WRITE, x + 8, K4, &hit, NULL), 300000 + IFACE_4K);
	ck_assert_int_eq(hit, 1);
	/* The second write's own access rewrites x + 8 a revolution later; the next write waits for it. */
	t = hd_sim_now(r.s);
	t += timed(r.s, HD_OP_WRITE, x + 16, K4, &hit, NULL);
	end = first + 16 * st + REV_NS;
	ck_near(t, llround(end + IFACE_4K), 3);
	ck_assert_int_eq(hit, 1);
	rig_free(&r);

	/* A write that arrives while the joined write's own access goes on joins that access. */
	r = rig_new(SEGS "write_cache = flush\n", 1);
	timed(r.s, HD_OP_READ, lba_of(r.m, 300, 1, 150), 512, NULL, NULL);
	t0 = hd_sim_now(r.s);
	timed(r.s, HD_OP_WRITE, x, K4, NULL, NULL);
	timed(r.s, HD_OP_WRITE, x + 8, K4, NULL, NULL);
	first = media_from(r.m, x, (double)t0 + 300000 + 10000);
	/* Half a revolution into the own access of x + 8 (it begins at first + 16 st), after the overhead. */
	hd_sim_idle(r.s, llround(first + 16 * st + REV_NS / 2) - 300000 - hd_sim_now(r.s));
	ck_assert_int_eq(timed(r.s, HD_OP_WRITE, x + 16, K4, &hit, NULL), 300000 + IFACE_4K);
	ck_assert_int_eq(hit, 1);
	/* That access writes x + 8 .. x + 24; then x + 16 gets its own; only then does x + 24 go in. */
	t = hd_sim_now(r.s);
	t += timed(r.s, HD_OP_WRITE, x + 24, K4, &hit, NULL);
	end = first + 24 * st + 2 * REV_NS;
	ck_near(t, llround(end + IFACE_4K), 3);
	rig_free(&r);
}
END_TEST

/*
 * test_write_combine_part's two writes: the head on x's track near its end,
 * 24 sectors at x (into the cache: 300 us overhead, 10 us a sector), then
 * 64 at x + 24, taken as a hit.  *first: when x's first media write starts.
 * Returns when the second write completes.
 */
static int64_t part_writes(struct rig *r, uint64_t x, double *first)
{
	int64_t t0, t;
	int hit;

	timed(r->s, HD_OP_READ, lba_of(r->m, 300, 1, 150), 512, NULL, NULL);
	t0 = hd_sim_now(r->s);
	ck_assert_int_eq(timed(r->s, HD_OP_WRITE, x, 24 * 512, &hit, NULL), 300000 + 240000);
	*first = media_from(r->m, x, (double)t0 + 300000 + 10000);
	ck_assert((double)t0 + 540000 + 300000 + 400000 < *first);
	t = hd_sim_now(r->s);
	t += timed(r->s, HD_OP_WRITE, x + 24, 64 * 512, &hit, NULL);
	ck_assert_int_eq(hit, 1);
	return t;
}

/*
 * DiskSim's combined sequential writes with a write larger than the room
 * left in the segment: it sends what fits (40 of 64 sectors behind 24) and
 * disconnects; the access under way writes on through those; the write
 * reconnects once its own access, a revolution later, has written all but
 * the last of them, and then sends the rest (10 us a sector); also when
 * the segment's data goes on to the next track.
 */
START_TEST(test_write_combine_part)
{
	struct rig r = rig_new(SEGS "write_cache = flush\n", 1);
	uint64_t x = lba_of(r.m, 300, 1, 0);
	double st = REV_NS / 200, first;
	int64_t t;

	/* The head on x's track near its end: x comes round 2.45 ms on, after the second write's first part is in. */
	t = part_writes(&r, x, &first);
	/* Its own access writes x + 24 .. x + 64 from x + 24's next turn; x + 63 begins at first + 63 st + REV. */
	ck_near(t, llround(first + 63 * st + REV_NS + 24 * 10000), 3);
	rig_free(&r);

	/*
	 * The same when the segment's data goes on to the next track: the first
	 * write (24 sectors from sector 190) is written 10 sectors, a head
	 * switch (covered by the skew), then 14; the second sends 40 and waits.
	 */
	r = rig_new(SEGS "write_cache = flush\n", 1);
	x = lba_of(r.m, 300, 1, 190);
	ck_assert_uint_eq(x + 10, lba_of(r.m, 300, 2, 0));
	t = part_writes(&r, x, &first);
	/* x + 24 passes under the head in the first access, and again a revolution later for the second's own. */
	first = media_from(r.m, x + 10, first + 10 * st) + 14 * st;
	ck_near(t, llround(first + 39 * st + REV_NS + 24 * 10000), 3);
	rig_free(&r);
}
END_TEST

/*
 * DiskSim's access writes a joined write's data only as far as it has
 * arrived when the head gets there (at 5.12 MB/s a sector takes 100 us to
 * cross the interface and 50 us to pass under the head), and the joined
 * write's own access begins right after: a write arriving then joins that
 * one, instead of waiting for the segment to be written.
 */
START_TEST(test_write_combine_partial)
{
	struct rig r = rig_text(GEOM, "read_overhead_ms = 0.2\nwrite_overhead_ms = 0.3\ninterface_mb_s = 5.12\n"
				SEGS "write_cache = flush\n", 1);
	struct hd_sim_chs c = { 300, 1, 0 };
	double st = REV_NS / 200, first, end1, e2, e3, rel;
	uint64_t x;
	int64_t t0, t;
	long k;
	int hit;

	timed(r.s, HD_OP_READ, lba_of(r.m, 300, 1, 100), 512, NULL, NULL);
	t0 = hd_sim_now(r.s);
	/* x: the sector that starts 1.25 ms from now, so that the join below is partial. */
	rel = fmod(((double)t0 + 1250000) / REV_NS - hd_sim_sector_angle(r.m, &c) + 2, 1.0) * 200;
	c.sector = (uint32_t)ceil(rel) % 200;
	ck_assert_uint_le(c.sector, 200 - 32);
	x = lba_of(r.m, 300, 1, c.sector);
	ck_assert_int_eq(timed(r.s, HD_OP_WRITE, x, K4, &hit, NULL), 300000 + 800000);
	/* In one pass once its last sector is in: from 300 + 100 + 7 * 50 us on. */
	first = media_from(r.m, x, (double)t0 + 300000 + 450000);
	end1 = first + 8 * st;
	/*
	 * The second write's data comes in from t0 + 1.4 ms, sector i at
	 * + (i + 1) 100 us, under the head at end1 + i st: k sectors get
	 * written; its own access goes from there, all 8 sectors once they are
	 * in (t0 + 1.85 ms on), on x + 8's next turn.
	 */
	ck_assert_int_eq(timed(r.s, HD_OP_WRITE, x + 8, K4, &hit, NULL), 300000 + 800000);
	k = (long)floor((end1 - 1 - ((double)t0 + 1500000)) / (100000 - st)) + 1;
	ck_assert_msg(k > 0 && k < 8, "k %ld", k);
	e2 = media_from(r.m, x + 8, fmax(end1 + (double)k * st, (double)t0 + 1850000)) + 8 * st;
	/* The third joins that access while it waits for x + 8 (not a revolution and more later). */
	t = hd_sim_now(r.s);
	ck_assert(t + 300000 > end1 + (double)k * st && t + 300000 < e2 - 8 * st);
	ck_assert_int_eq(timed(r.s, HD_OP_WRITE, x + 16, K4, &hit, NULL), 300000 + 800000);
	ck_assert_int_eq(hit, 1);
	/* That access writes on through x + 16 .. x + 24; its own comes round for it; the fourth waits. */
	e3 = media_from(r.m, x + 16, e2 + 8 * st) + 8 * st;
	t = hd_sim_now(r.s);
	t += timed(r.s, HD_OP_WRITE, x + 24, K4, &hit, NULL);
	ck_near(t, llround(e3 + 800000), 3);
	rig_free(&r);
}
END_TEST

/*
 * write_combine = stream: writes that continue the segment join it while
 * there is room, and the head writes on through them, at the media rate;
 * a write larger than the segment streams through it.  A read elsewhere
 * waits until all is on the media.
 */
START_TEST(test_write_combine_stream)
{
	struct rig r = rig_new(SEGS "write_cache = flush\nwrite_combine = stream\n", 1);
	uint64_t x = lba_of(r.m, 300, 1, 0), y = lba_of(r.m, 1500, 2, 50);
	double st = REV_NS / 200, first;
	int64_t t0, t, lat;
	int hit;

	timed(r.s, HD_OP_READ, lba_of(r.m, 300, 1, 150), 512, NULL, NULL);
	t0 = hd_sim_now(r.s);
	/* Eight 4 KiB writes fill the 64-block segment: each completes after overhead and interface. */
	for (int i = 0; i < 8; i++) {
		ck_assert_int_eq(timed(r.s, HD_OP_WRITE, x + 8 * i, K4, &hit, NULL), 300000 + IFACE_4K);
		ck_assert_int_eq(hit, 1);
	}
	/* One pass over 64 sectors from x's turn; the read waits for its end, then seeks. */
	first = media_from(r.m, x, (double)t0 + 300000 + 10000);
	t = hd_sim_now(r.s);
	lat = timed(r.s, HD_OP_READ, y, K4, NULL, NULL);
	ck_near(t + lat, expect_done(r.m, 300, 1, y, 0, llround(first + 64 * st) - 200000), 3);
	rig_free(&r);

	/* 256 sectors in one write: through the segment a quarter at a time, the head never stopping. */
	r = rig_new(SEGS "write_cache = flush\nwrite_combine = stream\n", 1);
	timed(r.s, HD_OP_READ, lba_of(r.m, 300, 1, 150), 512, NULL, NULL);
	t0 = hd_sim_now(r.s);
	lat = timed(r.s, HD_OP_WRITE, x, 256 * 512, &hit, NULL);
	ck_assert_int_eq(hit, 1);
	first = media_from(r.m, x, (double)t0 + 300000 + 10000);
	/* A head switch to (300, 2) within its 10-sector skew; the write completes before the last 48 sectors go. */
	ck_assert(t0 + lat < first + (256 + 10 - 48) * st);
	t = hd_sim_now(r.s);
	lat = timed(r.s, HD_OP_READ, y, K4, NULL, NULL);
	ck_near(t + lat, expect_done(r.m, 300, 2, y, 0, llround(first + (256 + 10) * st) - 200000), 3);
	rig_free(&r);
}
END_TEST

/*
 * The criterion for the datasheet presets (every
 * data/drives/datasheet/NAME.sheet): back-to-back sequential writes of
 * 64 KiB and of 2 MiB through the engine go at 90% of the rate of the same
 * reads or better, both measured here over the same 64 MiB from LBA 0.
 */
static double seq_rate(const struct hd_sim_model *m, enum hd_op op, size_t len)
{
	struct hd_sim *s;
	uint64_t n = (64u << 20) / len;
	int64_t t0;

	ck_assert_int_eq(hd_sim_new(&s, m, 1), 0);
	t0 = hd_sim_now(s);
	for (uint64_t i = 0; i < n; i++)
		ck_assert_int_eq(hd_sim_io(s, op, NULL, len, i * len, NULL), 0);
	t0 = hd_sim_now(s) - t0;
	hd_sim_free(s);
	return (double)(n * len) / ((double)t0 / 1e9);
}

START_TEST(test_preset_seq_writes)
{
	DIR *d = opendir(HDDSCOPE_SRC_DIR "/data/drives/datasheet");
	struct dirent *de;
	int sheets = 0;

	ck_assert_ptr_nonnull(d);
	while ((de = readdir(d))) {
		static const size_t lens[] = { 64 << 10, 2 << 20 };
		char name[256], err[256];
		struct hd_sim_model *m;
		size_t nl = strlen(de->d_name);

		if (nl < 7 || nl >= sizeof(name) || strcmp(de->d_name + nl - 6, ".sheet"))
			continue;
		memcpy(name, de->d_name, nl - 6);
		name[nl - 6] = '\0';
		ck_assert_msg(hd_sim_model_load(name, &m, err, sizeof(err)) == 0, "%s", err);
		for (size_t i = 0; i < 2; i++) {
			double rd = seq_rate(m, HD_OP_READ, lens[i]), wr = seq_rate(m, HD_OP_WRITE, lens[i]);

			ck_assert_msg(wr >= 0.9 * rd, "%s: sequential writes of %zu KiB at %.2f MB/s, reads %.2f",
				      name, lens[i] >> 10, wr / 1e6, rd / 1e6);
		}
		hd_sim_model_free(m);
		sheets++;
	}
	closedir(d);
	ck_assert_int_ge(sheets, 4);
}
END_TEST

/* 12 random 4 KiB writes back to back into 64 KiB, then a far read: its latency. */
static int64_t read_after_burst(const char *marks)
{
	char extra[256];
	struct rig r;
	struct hd_rng rng;
	int64_t lat;

	snprintf(extra, sizeof(extra), "write_cache = on\nwrite_cache_kb = 64\ndestage_water_marks = %s\n", marks);
	r = rig_new(extra, 1);
	hd_rng_seed(&rng, 11);
	for (int i = 0; i < 12; i++)
		timed(r.s, HD_OP_WRITE, hd_rng_below(&rng, r.m->sectors / 8) * 8, K4, NULL, NULL);
	lat = timed(r.s, HD_OP_READ, lba_of(r.m, 1999, 3, 0), K4, NULL, NULL);
	rig_free(&r);
	return lat;
}

/*
 * Under load the drive destages once dirty data passes the high water mark
 * (here 48 KiB against 32 KiB), down to the low one, before a read; below
 * it the read goes first, after the piece of destaging under way at most.
 */
START_TEST(test_water_marks)
{
	int64_t drain = read_after_burst("0.25 0.5"), first = read_after_burst("0.9 0.95");

	ck_assert_msg(first < 2 * (8000000 + 2 * 10000000), "read first: %lld", (long long)first);
	ck_assert_msg(drain > first + 20000000, "drained first: %lld, read first %lld", (long long)drain,
		      (long long)first);
}
END_TEST

/* The latency of a 4 KiB read at `ahead` sectors past the one under the head once its overhead is done. */
static int64_t read_ahead_of_head(const char *extra, int ahead)
{
	struct rig r = rig_new(extra, 1);
	struct hd_sim_chs c = { 300, 1, 0 };
	double rel;
	int64_t t0, lat;
	long k;

	timed(r.s, HD_OP_READ, lba_of(r.m, 300, 1, 100), K4, NULL, NULL);
	t0 = hd_sim_now(r.s);
	rel = fmod(fmod((double)t0 + 200000, REV_NS) / REV_NS - hd_sim_sector_angle(r.m, &c) + 2, 1.0) * 200;
	k = ((long)ceil(rel) + ahead) % 200;
	if (k > 192)
		k = (k + 8) % 200;
	lat = timed(r.s, HD_OP_READ, lba_of(r.m, 300, 1, (uint32_t)k), K4, NULL, NULL);
	rig_free(&r);
	return lat;
}

/*
 * DiskSim's SCSI reselection (0.3 ms here): a first sector that comes
 * round sooner after positioning is missed, a revolution; one that comes
 * later is not.  Data preparation adds to a hit.
 */
START_TEST(test_reselect)
{
	struct rig r = rig_new("reselect_overhead_ms = 0.3\ndata_prep_overhead_ms = 0.05\ncache_segments = 2\n"
			       "cache_segment_kb = 64\nreadahead = off\n", 1);
	uint64_t x = lba_of(r.m, 300, 1, 0);
	int hit;

	ck_near(read_ahead_of_head("reselect_overhead_ms = 0.3\n", 2) - read_ahead_of_head("", 2), REV_NS, 2);
	ck_near(read_ahead_of_head("reselect_overhead_ms = 0.3\n", 30), read_ahead_of_head("", 30), 2);
	timed(r.s, HD_OP_READ, x, K4, NULL, NULL);
	ck_assert_int_eq(timed(r.s, HD_OP_READ, x, K4, &hit, NULL), 100000 + 50000 + IFACE_4K);
	ck_assert_int_eq(hit, 1);
	rig_free(&r);
}
END_TEST

/* The time at or after t when the sector of lba starts under the head. */
static double at_sector(const struct hd_sim_model *m, uint64_t lba, double t)
{
	struct hd_sim_chs c;
	double w;

	ck_assert_int_eq(hd_sim_lba_to_chs(m, lba, &c), 0);
	w = hd_sim_sector_angle(m, &c) - fmod(t, REV_NS) / REV_NS;
	if (w < 0)
		w += 1;
	return t + w * REV_NS;
}

/* The latency of the first request of a fresh drive: a 4 KiB access at lba. */
static int64_t first_access(const char *base, const char *extra, enum hd_op op, uint64_t lba)
{
	struct rig r = rig_text(base, extra, 1);
	int64_t lat = timed(r.s, op, lba, K4, NULL, NULL);

	rig_free(&r);
	return lat;
}

/*
 * DiskSim's read water mark: a read miss reaches the host once the water
 * mark's sectors are in (here 6 of 8, 50 us each), the reselection (0.3 ms)
 * and data preparation (0.05 ms) done, and then its 8 sectors' host
 * transfer or the media, whichever is later.  With the interface faster
 * than the media (10 us a sector), the read ends one sector's transfer
 * after its last sector without the key; with it, 6 sectors, the
 * reselection and the 8 sectors' transfer after its first sector began.
 * With the interface slower (100 us a sector), the key adds the 5 sectors
 * after the first (without it the transfer starts as the first is in) and
 * the reselection.  "never" changes nothing here: the media is later
 * than the interface.
 */
#define SLOW_DISC GEOM "read_overhead_ms = 0.2\ninterface_mb_s = 5.12\n"

START_TEST(test_read_watermark)
{
	const char *key = "read_watermark = 0.75\nreselect_overhead_ms = 0.3\ndata_prep_overhead_ms = 0.05\n"
			  "read_disconnect_overhead_ms = 0.02\n";
	struct rig r = rig_new("", 1);
	uint64_t x = lba_of(r.m, 300, 1, 40);
	double st = REV_NS / spt_of(r.m, 300), fast = 10000;
	int64_t plain, water;

	rig_free(&r);
	plain = first_access(BASE, "", HD_OP_READ, x);
	water = first_access(BASE, key, HD_OP_READ, x);
	/* Without the key: the last sector, then its host transfer (8 st + x after the first began). */
	ck_near(water - plain, llround(6 * st + 300000 + 50000 + 8 * fast - (8 * st + fast)), 2);
	ck_near(first_access(BASE, "read_watermark = never\n", HD_OP_READ, x), plain, 2);
	plain = first_access(SLOW_DISC, "", HD_OP_READ, x);
	water = first_access(SLOW_DISC, key, HD_OP_READ, x);
	/* Without the key the transfer starts as the first sector is in (the pipe): 5 sectors later with it. */
	ck_near(water - plain, llround(5 * st + 300000 + 50000), 2);
	/* A fraction of the segment: 0.5 of a 4 KiB segment is 4 sectors, 3 after the first. */
	ck_near(first_access(SLOW_DISC, "read_watermark = 0.5 segment\ncache_segment_kb = 4\ncache_segments = 2\n"
			     "readahead = off\n", HD_OP_READ, x) -
		first_access(SLOW_DISC, "cache_segment_kb = 4\ncache_segments = 2\nreadahead = off\n", HD_OP_READ, x),
		llround(3 * st), 2);
}
END_TEST

/*
 * A partial hit under read_watermark: of an 8 KiB read whose first 4 KiB
 * are cached, the media reads the other 4 KiB (from where the head is,
 * right past them: nearly a revolution's wait) while the host takes the
 * cached ones at once; with the interface slower than the media (100 us
 * a sector against 50), the read ends 8 sectors' host transfer after the
 * first new sector is in.  As a miss it would wait for 12 of 16 sectors
 * (the water mark) before sending any.
 */
START_TEST(test_partial_hit)
{
	struct rig r = rig_text(SLOW_DISC, "read_watermark = 0.75\ncache_segments = 2\ncache_segment_kb = 64\n"
				"readahead = off\nread_partial_hits = on\n", 1);
	uint64_t x = lba_of(r.m, 300, 1, 40);
	double st = REV_NS / spt_of(r.m, 300), t0, t;
	int64_t lat;

	timed(r.s, HD_OP_READ, x, K4, NULL, NULL);
	t0 = (double)hd_sim_now(r.s);
	lat = timed(r.s, HD_OP_READ, x, 2 * K4, NULL, NULL);
	t = at_sector(r.m, x + 8, t0 + 200000) + st + 8 * 100000;
	if (t < t0 + 100000 + 16 * 100000)
		t = t0 + 100000 + 16 * 100000;
	ck_near(lat, llround(t - t0), 2);
	rig_free(&r);
}
END_TEST

/*
 * Read-ahead on a hit under read_watermark starts at the end of the read
 * miss overhead (0.2 ms), not at the end of the hit's transfer (0.9 ms at
 * 100 us a sector): with the next sector due 0.5 ms after the hit
 * arrives, the read-ahead has the next 4 KiB before the read that asks
 * for them, a hit; started at the hit's end it would have missed it.
 */
START_TEST(test_hit_readahead_start)
{
	struct rig r = rig_text(SLOW_DISC, "read_watermark = 0.75\ncache_segments = 2\ncache_segment_kb = 64\n"
				"readahead_max_blocks = 8\nreadahead_on_hit = on\n", 1);
	uint64_t x = lba_of(r.m, 300, 1, 40);
	double tn;
	int hit;

	timed(r.s, HD_OP_READ, x, K4, NULL, NULL);
	tn = at_sector(r.m, x + 16, (double)hd_sim_now(r.s) + 20e6);
	hd_sim_idle(r.s, llround(tn - 500000) - hd_sim_now(r.s));
	ck_assert_int_eq(timed(r.s, HD_OP_READ, x + 8, K4, &hit, NULL), 100000 + 8 * 100000);
	ck_assert_int_eq(hit, 1);
	ck_assert_int_eq(timed(r.s, HD_OP_READ, x + 16, K4, &hit, NULL), 100000 + 8 * 100000);
	ck_assert_int_eq(hit, 1);
	rig_free(&r);
}
END_TEST

/*
 * DiskSim's write disconnection: after the media write the drive
 * reselects the host (0.3 ms) before the completion; the minimum seek
 * (2 ms) holds a write on the track the head is on; the extra write
 * disconnect of a write after a write that does not continue it: the
 * mechanism waits COMMAND + SEEK_DELTA, the data comes COMMAND +
 * DISCONNECT + INTER + the reselection later, all 8 sectors before the
 * first is written, and the completion waits for DISCONNECT2 after the
 * data and the other reselection.
 */
START_TEST(test_write_disconnect)
{
	struct rig r = rig_new("", 1);
	uint64_t x = lba_of(r.m, 300, 1, 40), y;
	double st = REV_NS / spt_of(r.m, 300), sec = 10000, t0, t, go, d0;
	int64_t plain, lat;

	rig_free(&r);
	plain = first_access(BASE, "", HD_OP_WRITE, x);
	ck_near(first_access(BASE, "write_disconnect_overhead_ms = 0.1\nreselect_overhead_ms = 0.3\n", HD_OP_WRITE, x),
		plain + 300000, 2);

	/* The minimum seek: a write on the track a read just left. */
	r = rig_new("write_disconnect_overhead_ms = 0\nmin_write_seek_ms = 2\n", 1);
	timed(r.s, HD_OP_READ, lba_of(r.m, 300, 1, 0), K4, NULL, NULL);
	t0 = (double)hd_sim_now(r.s);
	lat = timed(r.s, HD_OP_WRITE, x, K4, NULL, NULL);
	t = at_sector(r.m, x, t0 + 300000 + 2e6);
	ck_near(lat, llround(t + 8 * st - t0), 2);
	rig_free(&r);

	/* The extra write disconnect: a write after a write elsewhere (one cylinder on, 1 ms). */
	r = rig_new("write_disconnect_overhead_ms = 0.1\nreselect_overhead_ms = 0.3\nreselect_other_overhead_ms = 0.2\n"
		    "data_prep_overhead_ms = 0.05\nextra_write_disconnect_ms = 1 0.05 0.4 0.1 0.25\n", 1);
	timed(r.s, HD_OP_WRITE, x, K4, NULL, NULL);
	y = lba_of(r.m, 301, 1, 0);
	t0 = (double)hd_sim_now(r.s);
	lat = timed(r.s, HD_OP_WRITE, y, K4, NULL, NULL);
	go = t0 + 1e6 + 250000;
	d0 = t0 + 1e6 + 50000 + 400000 + 300000 + 50000;
	t = go + hd_sim_write_positioning_ms(r.m, 1) * 1e6;
	if (t < d0 + 8 * sec)
		t = d0 + 8 * sec;
	t = at_sector(r.m, y, t) + 8 * st;
	if (t < d0 + 8 * sec + 100000)
		t = d0 + 8 * sec + 100000;
	ck_near(lat, llround(t + 200000 - t0), 2);
	/* A write that continues it takes no extra disconnect: it completes after the first reselection. */
	t0 = (double)hd_sim_now(r.s);
	lat = timed(r.s, HD_OP_WRITE, y + 8, K4, NULL, NULL);
	d0 = t0 + r.m->write_miss_ovh_ms[1] * 1e6 + 50000;
	t = at_sector(r.m, y + 8, t0 + r.m->write_miss_ovh_ms[1] * 1e6 + hd_sim_write_positioning_ms(r.m, 0) * 1e6);
	if (t < d0 + sec)
		t = at_sector(r.m, y + 8, d0 + sec);
	ck_near(lat, llround(t + 8 * st + 300000 - t0), 2);
	rig_free(&r);
}
END_TEST

/* Random 4 KiB reads from 8 clients, one outstanding each; returns IOPS. */
static double queued_iops(const char *extra, int check_fifo)
{
	struct rig r = rig_new(extra, 1);
	struct hd_rng rng;
	struct hd_req q;
	uint64_t tags = 0, next_expected = 0;
	int64_t t0, last_done = 0;
	int i, n = 3000;
	double iops;

	hd_rng_seed(&rng, 3);
	ck_assert_int_eq(hd_sim_reap(r.s, &q), -EAGAIN);
	t0 = hd_sim_now(r.s);
	for (i = 0; i < 8; i++) {
		q = (struct hd_req){ .tag = tags++, .op = HD_OP_READ, .len = K4,
				     .off = hd_rng_below(&rng, r.m->sectors / 8) * K4 };
		ck_assert_int_eq(hd_sim_submit(r.s, &q), 0);
	}
	for (i = 0; i < n; i++) {
		ck_assert_int_eq(hd_sim_reap(r.s, &q), 0);
		ck_assert_int_eq(q.result, 0);
		ck_assert(q.done_ns >= last_done && q.done_ns >= q.submit_ns);
		ck_assert_int_eq(hd_sim_now(r.s), q.done_ns);
		last_done = q.done_ns;
		if (check_fifo)
			ck_assert_uint_eq(q.tag, next_expected++);
		q = (struct hd_req){ .tag = tags++, .op = HD_OP_READ, .len = K4,
				     .off = hd_rng_below(&rng, r.m->sectors / 8) * K4 };
		ck_assert_int_eq(hd_sim_submit(r.s, &q), 0);
	}
	iops = n / ((double)(hd_sim_now(r.s) - t0) / 1e9);
	for (i = 0; i < 8; i++)
		ck_assert_int_eq(hd_sim_reap(r.s, &q), 0);
	ck_assert_int_eq(hd_sim_reap(r.s, &q), -EAGAIN);
	rig_free(&r);
	return iops;
}

START_TEST(test_queue_depth)
{
	double d1 = queued_iops("queue_depth = 1\n", 1), d8 = queued_iops("queue_depth = 8\n", 0);

	/* Serving the closest of eight beats arrival order by a wide margin. */
	ck_assert_msg(d8 > 1.25 * d1, "depth 8: %.1f IOPS, depth 1: %.1f IOPS", d8, d1);
}
END_TEST

START_TEST(test_sync_with_queue)
{
	struct rig r = rig_new("queue_depth = 4\n", 1);
	struct hd_req q = { .tag = 9, .op = HD_OP_READ, .len = K4, .off = 1 << 20 };
	int hit;

	/* A synchronous access while a queued one is outstanding: both complete. */
	ck_assert_int_eq(hd_sim_submit(r.s, &q), 0);
	ck_assert_int_eq(hd_sim_io(r.s, HD_OP_READ, NULL, K4, 1 << 28, &hit), 0);
	ck_assert_int_eq(hd_sim_reap(r.s, &q), 0);
	ck_assert_uint_eq(q.tag, 9);
	ck_assert_int_eq(hd_sim_reap(r.s, &q), -EAGAIN);
	rig_free(&r);
}
END_TEST

START_TEST(test_bad_sectors)
{
	struct rig r = rig_new("bad_sectors = 1000-1007\n", 1);
	int rc;

	/* Touching a bad sector fails after the retries; the neighbours read fine. */
	ck_assert(timed(r.s, HD_OP_READ, 1000, K4, NULL, &rc) >= 128 * REV_NS);
	ck_assert_int_eq(rc, -EIO);
	timed(r.s, HD_OP_READ, 1007, 512, NULL, &rc);
	ck_assert_int_eq(rc, -EIO);
	timed(r.s, HD_OP_READ, 996, K4, NULL, &rc);	/* 996..1003 */
	ck_assert_int_eq(rc, -EIO);
	timed(r.s, HD_OP_READ, 992, K4, NULL, &rc);
	ck_assert_int_eq(rc, 0);
	timed(r.s, HD_OP_READ, 1008, K4, NULL, &rc);
	ck_assert_int_eq(rc, 0);
	timed(r.s, HD_OP_READ, 999, 512, NULL, &rc);
	ck_assert_int_eq(rc, 0);
	timed(r.s, HD_OP_WRITE, 1004, 512, NULL, &rc);
	ck_assert_int_eq(rc, -EIO);
	rig_free(&r);
}
END_TEST

START_TEST(test_data)
{
	static const char *const variants[] = { "", RA WC, "sector_bytes_is_4k" };
	struct rig r;
	unsigned char *a = malloc(65536), *b = malloc(65536), *z = malloc(65536);
	size_t i;
	int v;

	for (v = 0; v < 3; v++) {
		if (v == 2) {
			char err[256];
			const char *text = "format = 1\nrpm = 7200\nsector_bytes = 4096\nsurfaces = 2\n"
					   "zone = 0 99 100\nseek = 1 1\nwrite_cache = on\nwrite_cache_kb = 16\n";

			ck_assert_int_eq(hd_sim_model_parse(text, strlen(text), "4k", &r.m, err, sizeof(err)), 0);
			ck_assert_int_eq(hd_sim_new(&r.s, r.m, 1), 0);
		} else {
			r = rig_new(variants[v], 1);
		}
		/* Unwritten blocks read as the fill pattern, different for every block. */
		ck_assert_int_eq(hd_sim_io(r.s, HD_OP_READ, a, 65536, 1 << 20, NULL), 0);
		hd_sim_fill(z, 1 << 20, 65536);
		ck_assert(memcmp(a, z, 65536) == 0);
		ck_assert(memcmp(a, a + 512, 512) != 0);
		/* Written blocks read back, next to unwritten ones; 512-byte writes too. */
		for (i = 0; i < 65536; i++)
			b[i] = (unsigned char)(i * 7 + v);
		ck_assert_int_eq(hd_sim_io(r.s, HD_OP_WRITE, b, 8192, (1 << 20) + 4096, NULL), 0);
		ck_assert_int_eq(hd_sim_io(r.s, HD_OP_WRITE, b + 40000, 512, (1 << 20) + 512, NULL), 0);
		hd_sim_idle(r.s, 1000000000);
		ck_assert_int_eq(hd_sim_io(r.s, HD_OP_READ, a, 65536, 1 << 20, NULL), 0);
		ck_assert(memcmp(a, z, 512) == 0);
		ck_assert(memcmp(a + 512, b + 40000, 512) == 0);
		ck_assert(memcmp(a + 1024, z + 1024, 3072) == 0);
		ck_assert(memcmp(a + 4096, b, 8192) == 0);
		ck_assert(memcmp(a + 12288, z + 12288, 65536 - 12288) == 0);
		/* Bounds and alignment. */
		ck_assert_int_eq(hd_sim_io(r.s, HD_OP_READ, a, 100, 0, NULL), -EINVAL);
		ck_assert_int_eq(hd_sim_io(r.s, HD_OP_READ, a, 512, r.m->sectors * r.m->sector_bytes, NULL),
				 -ERANGE);
		rig_free(&r);
	}
	free(a);
	free(b);
	free(z);
}
END_TEST

/* 500 random reads; returns the sum of latencies, fills lat[]. */
static int64_t run_random(struct rig *r, int64_t *lat, int n)
{
	struct hd_rng rng;
	int64_t sum = 0;
	int i;

	hd_rng_seed(&rng, 11);
	for (i = 0; i < n; i++) {
		lat[i] = timed(r->s, HD_OP_READ, hd_rng_below(&rng, r->m->sectors / 8) * 8, K4, NULL, NULL);
		sum += lat[i];
	}
	return sum;
}

START_TEST(test_determinism_and_jitter)
{
	int64_t a[500], b[500], c[500], d[500];
	struct rig r1 = rig_new("seek_stddev_ms = 0.5\n", 5), r2 = rig_new("seek_stddev_ms = 0.5\n", 5);
	struct rig r3 = rig_new("seek_stddev_ms = 0.5\n", 6), r4 = rig_new("", 5);
	int64_t sa = run_random(&r1, a, 500), sd = run_random(&r4, d, 500);

	/* Same model and seed: the same timings, bit for bit; another seed: others. */
	run_random(&r2, b, 500);
	run_random(&r3, c, 500);
	ck_assert(memcmp(a, b, sizeof(a)) == 0);
	ck_assert(memcmp(a, c, sizeof(a)) != 0);
	ck_assert(memcmp(a, d, sizeof(a)) != 0);
	/* Zero-mean jitter leaves the mean where it was (rotation averages out). */
	ck_assert_msg(fabs((double)(sa - sd) / 500) < 0.6e6, "mean shift %.0f ns", (double)(sa - sd) / 500);
	rig_free(&r1);
	rig_free(&r2);
	rig_free(&r3);
	rig_free(&r4);
}
END_TEST

START_TEST(test_write_retry)
{
	struct rig r0 = rig_new("write_retry_probability = 0\n", 1);
	struct rig r1 = rig_new("write_retry_probability = 1\n", 1);
	uint64_t lba = lba_of(r0.m, 900, 2, 50);

	/* An unstable writer goes round once more. */
	ck_near(timed(r1.s, HD_OP_WRITE, lba, K4, NULL, NULL) - timed(r0.s, HD_OP_WRITE, lba, K4, NULL, NULL),
		REV_NS, 2);
	rig_free(&r0);
	rig_free(&r1);
}
END_TEST

START_TEST(test_dev_backend)
{
	struct hd_dev *d;
	char err[512];
	void *buf;
	int64_t lat;

	ck_assert_int_eq(hd_dev_open(&d, "sim:atlas3,seed=7", 0, err, sizeof(err)), 0);
	ck_assert_int_eq(d->kind, HD_DEV_SIM);
	ck_assert_uint_eq(d->size, 17797944ULL * 512);
	ck_assert_uint_eq(d->logical_sector_bytes, 512);
	ck_assert_uint_eq(d->physical_sector_bytes, 512);
	ck_assert_int_eq(d->rotational, 1);
	ck_assert_int_eq(d->direct, 1);
	ck_assert_int_eq(d->writable, 0);
	ck_assert_str_eq(d->model, "QUANTUM_QM39100TD-SW");
	ck_assert(hd_dev_can_queue(d));
	buf = hd_buf_alloc(d, K4);
	ck_assert_int_eq(hd_dev_timed(d, HD_OP_READ, buf, K4, 0, &lat), 0);
	/* The first access from cylinder 0: no seek, at most one revolution. */
	ck_assert(lat > 0 && lat < 8400000 + 1000000);
	hd_dev_idle(d, 5000000);
	ck_assert_int_eq(hd_dev_now(d), lat + 5000000);
	hd_buf_free(buf, K4);
	hd_dev_close(d);

	ck_assert_int_eq(hd_dev_open(&d, "sim:st2000dm001", HD_OPEN_WRITE, err, sizeof(err)), 0);
	ck_assert_uint_eq(d->physical_sector_bytes, 4096);
	ck_assert_uint_eq(d->logical_sector_bytes, 512);
	ck_assert_int_eq(d->writable, 1);
	hd_dev_close(d);

	ck_assert_int_lt(hd_dev_open(&d, "sim:nosuch", 0, err, sizeof(err)), 0);
	ck_assert_ptr_nonnull(strstr(err, "unknown preset 'nosuch'"));
	ck_assert_int_eq(hd_dev_open(&d, "sim:/nonexistent/a.drive", 0, err, sizeof(err)), -ENOENT);
	ck_assert_ptr_nonnull(strstr(err, "/nonexistent/a.drive"));
	ck_assert_int_eq(hd_dev_open(&d, "sim:atlas3,seed=x", 0, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "bad seed"));
}
END_TEST

int main(void)
{
	return tu_main("sim", "engine", NULL, NULL,
		       TU_TESTS(TU_TEST(test_seek_costs), TU_TEST(test_head_switch), TU_TEST(test_reread_one_revolution),
				TU_TEST(test_rotation_uniform), TU_TEST(test_readahead), TU_TEST(test_readahead_preempted),
				TU_TEST(test_sequential_stream), TU_TEST(test_no_cache_no_hit), TU_TEST(test_write_cache),
				TU_TEST(test_queue_depth), TU_TEST(test_sync_with_queue), TU_TEST(test_bad_sectors),
				TU_TEST(test_data), TU_TEST(test_determinism_and_jitter), TU_TEST(test_write_retry),
				TU_TEST(test_dev_backend), TU_TEST(test_overheads), TU_TEST(test_write_rate),
				TU_TEST(test_readahead_modes), TU_TEST(test_readahead_skip),
				TU_TEST(test_readahead_stop_in_sector), TU_TEST(test_read_transfer_pipeline),
				TU_TEST(test_read_segment_window), TU_TEST(test_readahead_wait_stops_at_once),
				TU_TEST(test_readahead_track_with_slip), TU_TEST(test_readahead_join),
				TU_TEST(test_read_partial_hits), TU_TEST(test_readahead_preempt),
				TU_TEST(test_fast_write_levels),
				TU_TEST(test_water_marks), TU_TEST(test_reselect),
				TU_TEST(test_write_combine_disksim), TU_TEST(test_write_combine_part), TU_TEST(test_write_combine_partial),
				TU_TEST(test_write_combine_stream), TU_TEST(test_preset_seq_writes),
				TU_TEST(test_read_watermark), TU_TEST(test_write_disconnect),
				TU_TEST(test_partial_hit), TU_TEST(test_hit_readahead_start)));
}
