/*
 * Drive model files: parsing (every malformed case with its line number),
 * the layout (LBA <-> CHS across zones, skews, capacity), the seek curve
 * (points, interpolation, extrapolation, seek_model), and the presets.
 */
#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hddscope/preset.h"
#include "hddscope/sim.h"
#include "testutil.h"

/* Three zones with a gap of two spare cylinders between the second and third. */
static const char *const good =
	"# a test drive\n"
	"format = 1\n"
	"name = Test Drive  # trailing comment\n"
	"rpm = 6000\n"
	"sector_bytes = 512\n"
	"surfaces = 3\n"
	"zone = 0 9 100 7 11\n"
	"zone = 10 19 80 5 9\n"
	"zone = 22 29 50\n"
	"seek = 1 1.0\n"
	"seek = 10 2.0\n"
	"seek = 20 4.0\n"
	"head_switch_ms = 0.5\n"
	"bad_sectors = 1000-1007 5000 999\n";

static struct hd_sim_model *parse_ok(const char *text)
{
	struct hd_sim_model *m = NULL;
	char err[256];
	int rc = hd_sim_model_parse(text, strlen(text), "t.drive", &m, err, sizeof(err));

	ck_assert_msg(rc == 0, "parse failed: %s", err);
	return m;
}

START_TEST(test_parse_values)
{
	struct hd_sim_model *m = parse_ok(good);

	ck_assert_str_eq(m->name, "Test Drive");
	ck_assert(m->rpm == 6000);
	ck_assert_uint_eq(m->surfaces, 3);
	ck_assert_uint_eq(m->nzones, 3);
	ck_assert_uint_eq(m->zones[0].track_skew, 7);
	ck_assert_uint_eq(m->zones[0].cyl_skew, 11);
	ck_assert_uint_eq(m->zones[2].track_skew, 0);
	ck_assert_uint_eq(m->nseek, 3);
	ck_assert(m->head_switch_ms == 0.5);
	/* Defaults of the optional keys, as documented. */
	ck_assert(m->read_overhead_ms == 0.3 && m->write_overhead_ms == 0.3);
	ck_assert(m->cache_hit_overhead_ms == 0.1 && m->interface_mb_s == 40);
	ck_assert_uint_eq(m->cache_segments, 1);
	ck_assert_uint_eq(m->cache_segment_kb, 0);
	ck_assert_uint_eq(m->readahead_kb, 0);
	ck_assert_int_eq(m->write_cache, 0);
	ck_assert_uint_eq(m->queue_depth, 1);
	ck_assert(m->seek_stddev_ms == 0 && m->write_retry_probability == 0);
	/* Capacity: sum over zones of cylinders x surfaces x sectors per track. */
	ck_assert_uint_eq(m->sectors, 10 * 3 * 100 + 10 * 3 * 80 + 8 * 3 * 50);
	ck_assert_uint_eq(m->cylinders, 30);
	/* Bad sectors sorted and merged: 999-1007, 5000. */
	ck_assert_uint_eq(m->nbad, 2);
	ck_assert_uint_eq(m->bad[0].first, 999);
	ck_assert_uint_eq(m->bad[0].last, 1007);
	ck_assert_uint_eq(m->bad[1].first, 5000);
	hd_sim_model_free(m);
}
END_TEST

/* The engine's keys: values, pairs, shorthands and the defaults that follow from other keys. */
START_TEST(test_parse_engine_keys)
{
	static const char *const head =
		"format = 1\nrpm = 7200\nsector_bytes = 512\nsurfaces = 1\nzone = 0 9 100\nseek = 1 1\n";
	char text[2048];
	struct hd_sim_model *m = parse_ok(good);

	/* Defaults: the shorthands' values fill both halves of every pair. */
	ck_assert(m->read_miss_ovh_ms[0] == 0.3 && m->read_miss_ovh_ms[1] == 0.3);
	ck_assert(m->read_hit_ovh_ms[0] == 0.1 && m->read_hit_ovh_ms[1] == 0.1);
	ck_assert(m->write_miss_ovh_ms[0] == 0.3 && m->write_hit_ovh_ms[1] == 0.3);
	ck_assert(m->request_overhead_ms == 0 && m->completion_ovh_ms[0] == 0 && m->completion_ovh_ms[1] == 0);
	ck_assert(m->interface_write_mb_s == 40);
	ck_assert_int_eq(m->readahead, HD_SIM_RA_SEGMENT);
	ck_assert_uint_eq(m->readahead_min_blocks, 0);
	ck_assert_uint_eq(m->readahead_max_blocks, 0);
	ck_assert_int_eq(m->readahead_over_requested, 1);
	ck_assert_int_eq(m->readahead_on_hit, 0);
	ck_assert_int_eq(m->read_any_free_blocks, 0);
	ck_assert_int_eq(m->readahead_stop_in_sector, 0);
	ck_assert_int_eq(m->write_cache, HD_SIM_WC_OFF);
	ck_assert_uint_eq(m->write_segments, 1);
	ck_assert_int_eq(m->separate_write_segment, 0);
	ck_assert_int_eq(m->write_settle_on_head_switch, 0);
	ck_assert_int_eq(m->write_combine, HD_SIM_WCOMB_DISKSIM);
	ck_assert(m->destage_low == 0.25 && m->destage_high == 0.75);
	/* DiskSim's disconnection is off unless its keys are given. */
	ck_assert_int_eq(m->read_water_by, HD_SIM_WATER_OFF);
	ck_assert(!m->write_disconnect && !m->extra_write_disconnect && m->min_write_seek_ms == 0);
	hd_sim_model_free(m);

	snprintf(text, sizeof(text), "%s%s", head,
		 "read_miss_overhead_ms = 0.1 0.2\nread_hit_overhead_ms = 0.374 0.335\n"
		 "write_miss_overhead_ms = 0.47828 0.5002\nwrite_hit_overhead_ms = 0.414\n"
		 "request_overhead_ms = 0.05\ncompletion_overhead_ms = 0.01 0.02\n"
		 "interface_mb_s = 4.83 9.66\ncache_segment_blocks = 64\nwrite_segments = 2\n"
		 "readahead = stream\nreadahead_min_blocks = 8\nreadahead_max_blocks = 64\n"
		 "readahead_over_requested = off\nreadahead_on_hit = on\nread_any_free_blocks = on\n"
		 "readahead_stop_in_sector = on\nwrite_cache = flush\nwrite_settle_ms = -0.483\nwrite_settle_on_head_switch = on\n"
		 "reselect_overhead_ms = 0.16249\ndata_prep_overhead_ms = 0.02519\nwrite_combine = stream\n"
		 "read_watermark = 0.75\nread_disconnect_overhead_ms = 0.02266 0.04551\n"
		 "write_disconnect_overhead_ms = 0.16565\nreselect_other_overhead_ms = 0.12883\n"
		 "extra_write_disconnect_ms = 0.64244 0.04551 0.42885 0.13437 0.25\nmin_write_seek_ms = 0.6\n");
	m = parse_ok(text);
	ck_assert(m->read_miss_ovh_ms[0] == 0.1 && m->read_miss_ovh_ms[1] == 0.2);
	ck_assert(m->read_hit_ovh_ms[0] == 0.374 && m->read_hit_ovh_ms[1] == 0.335);
	ck_assert(m->write_miss_ovh_ms[0] == 0.47828 && m->write_miss_ovh_ms[1] == 0.5002);
	ck_assert(m->write_hit_ovh_ms[0] == 0.414 && m->write_hit_ovh_ms[1] == 0.414);
	/* The shorthands' fields report the after-read values. */
	ck_assert(m->read_overhead_ms == 0.1 && m->cache_hit_overhead_ms == 0.374 && m->write_overhead_ms == 0.414);
	ck_assert(m->request_overhead_ms == 0.05);
	ck_assert(m->completion_ovh_ms[0] == 0.01 && m->completion_ovh_ms[1] == 0.02);
	ck_assert(m->interface_mb_s == 4.83 && m->interface_write_mb_s == 9.66);
	ck_assert_uint_eq(m->cache_segment_blocks, 64);
	ck_assert_uint_eq(m->cache_segment_kb, 32);
	ck_assert_int_eq(m->readahead, HD_SIM_RA_STREAM);
	ck_assert_uint_eq(m->readahead_min_blocks, 8);
	ck_assert_uint_eq(m->readahead_max_blocks, 64);
	ck_assert_uint_eq(m->readahead_kb, 32);
	ck_assert(!m->readahead_over_requested && m->readahead_on_hit && m->read_any_free_blocks);
	ck_assert_int_eq(m->readahead_stop_in_sector, 1);
	ck_assert_int_eq(m->write_cache, HD_SIM_WC_FLUSH);
	ck_assert_uint_eq(m->write_segments, 2);
	/* flush without write_cache_kb: its write segments' size. */
	ck_assert_uint_eq(m->write_cache_kb, 64);
	ck_assert(m->write_settle_ms == -0.483 && m->write_settle_on_head_switch);
	ck_assert(m->reselect_overhead_ms == 0.16249 && m->data_prep_overhead_ms == 0.02519);
	ck_assert_int_eq(m->write_combine, HD_SIM_WCOMB_STREAM);
	ck_assert(m->read_water == 0.75 && m->read_water_by == HD_SIM_WATER_REQUEST);
	ck_assert(m->read_disc_ovh_ms[0] == 0.02266 && m->read_disc_ovh_ms[1] == 0.04551);
	ck_assert(m->write_disconnect && m->write_disc_ovh_ms == 0.16565 && m->reselect_other_ms == 0.12883);
	ck_assert(m->extra_write_disconnect && m->xdisc_ms[0] == 0.64244 && m->xdisc_ms[4] == 0.25);
	ck_assert(m->min_write_seek_ms == 0.6);
	hd_sim_model_free(m);

	/* The shorthands, and the defaults that follow from write_cache. */
	snprintf(text, sizeof(text), "%s%s", head,
		 "read_overhead_ms = 0.2\ncache_hit_overhead_ms = 0.05\nwrite_overhead_ms = 0.4\n"
		 "cache_segment_kb = 16\nreadahead_kb = 8\nwrite_cache = on\nwrite_cache_kb = 64\n"
		 "destage_water_marks = 0 1\n");
	m = parse_ok(text);
	ck_assert(m->read_miss_ovh_ms[0] == 0.2 && m->read_miss_ovh_ms[1] == 0.2);
	ck_assert(m->read_hit_ovh_ms[1] == 0.05);
	ck_assert(m->write_miss_ovh_ms[1] == 0.4 && m->write_hit_ovh_ms[0] == 0.4);
	ck_assert_uint_eq(m->cache_segment_blocks, 32);
	ck_assert_uint_eq(m->readahead_max_blocks, 16);
	ck_assert_int_eq(m->write_cache, HD_SIM_WC_ON);
	ck_assert_uint_eq(m->write_segments, 4096);
	ck_assert(m->destage_low == 0 && m->destage_high == 1);
	hd_sim_model_free(m);

	snprintf(text, sizeof(text), "%s%s", head,
		 "cache_segment_blocks = 64\nwrite_cache = append\nwrite_segments = 3\nseparate_write_segment = on\n");
	m = parse_ok(text);
	ck_assert_int_eq(m->write_cache, HD_SIM_WC_APPEND);
	/* A separate write segment is the one segment write data goes to. */
	ck_assert_uint_eq(m->write_segments, 1);
	ck_assert_uint_eq(m->write_cache_kb, 32);
	hd_sim_model_free(m);
}
END_TEST

START_TEST(test_layout_roundtrip)
{
	struct hd_sim_model *m = parse_ok(good);
	struct hd_sim_chs c;
	uint64_t lba, back;

	/* Spot checks at the zone boundaries, computed by hand. */
	ck_assert_int_eq(hd_sim_lba_to_chs(m, 0, &c), 0);
	ck_assert(c.cyl == 0 && c.surface == 0 && c.sector == 0);
	ck_assert_int_eq(hd_sim_lba_to_chs(m, 99, &c), 0);
	ck_assert(c.cyl == 0 && c.surface == 0 && c.sector == 99);
	ck_assert_int_eq(hd_sim_lba_to_chs(m, 100, &c), 0);
	ck_assert(c.cyl == 0 && c.surface == 1 && c.sector == 0);
	ck_assert_int_eq(hd_sim_lba_to_chs(m, 300, &c), 0);
	ck_assert(c.cyl == 1 && c.surface == 0 && c.sector == 0);
	ck_assert_int_eq(hd_sim_lba_to_chs(m, 2999, &c), 0);
	ck_assert(c.cyl == 9 && c.surface == 2 && c.sector == 99);
	ck_assert_int_eq(hd_sim_lba_to_chs(m, 3000, &c), 0);	/* first of zone 2 */
	ck_assert(c.cyl == 10 && c.surface == 0 && c.sector == 0);
	ck_assert_int_eq(hd_sim_lba_to_chs(m, 3000 + 2400, &c), 0);	/* first after the gap */
	ck_assert(c.cyl == 22 && c.surface == 0 && c.sector == 0);
	ck_assert_int_eq(hd_sim_lba_to_chs(m, m->sectors - 1, &c), 0);
	ck_assert(c.cyl == 29 && c.surface == 2 && c.sector == 49);
	ck_assert_int_eq(hd_sim_lba_to_chs(m, m->sectors, &c), -ERANGE);
	/* Every LBA maps to a distinct address and back. */
	for (lba = 0; lba < m->sectors; lba++) {
		ck_assert_int_eq(hd_sim_lba_to_chs(m, lba, &c), 0);
		ck_assert_int_eq(hd_sim_chs_to_lba(m, &c, &back), 0);
		ck_assert_uint_eq(back, lba);
	}
	/* Cylinders in the gap and out-of-range fields hold no LBA. */
	c = (struct hd_sim_chs){ 20, 0, 0 };
	ck_assert_int_eq(hd_sim_chs_to_lba(m, &c, &back), -ERANGE);
	c = (struct hd_sim_chs){ 0, 3, 0 };
	ck_assert_int_eq(hd_sim_chs_to_lba(m, &c, &back), -ERANGE);
	c = (struct hd_sim_chs){ 10, 0, 80 };
	ck_assert_int_eq(hd_sim_chs_to_lba(m, &c, &back), -ERANGE);
	hd_sim_model_free(m);
}
END_TEST

START_TEST(test_skew_angles)
{
	struct hd_sim_model *m = parse_ok(good);
	struct hd_sim_chs c;

	/* First track of a zone starts at the index. */
	c = (struct hd_sim_chs){ 0, 0, 0 };
	ck_assert(hd_sim_sector_angle(m, &c) == 0);
	c = (struct hd_sim_chs){ 0, 0, 25 };
	ck_assert(fabs(hd_sim_sector_angle(m, &c) - 0.25) < 1e-12);
	/* Surface 1: one head switch, 7 sectors of skew. */
	c = (struct hd_sim_chs){ 0, 1, 0 };
	ck_assert(fabs(hd_sim_sector_angle(m, &c) - 0.07) < 1e-12);
	/* Cylinder 1 surface 0: two head switches and one cylinder switch: 7+7+11. */
	c = (struct hd_sim_chs){ 1, 0, 0 };
	ck_assert(fabs(hd_sim_sector_angle(m, &c) - 0.25) < 1e-12);
	/* Cylinder 4 surface 2 sector 90: (4 * 25 + 2 * 7 + 90) mod 100 = 4. */
	c = (struct hd_sim_chs){ 4, 2, 90 };
	ck_assert(fabs(hd_sim_sector_angle(m, &c) - 0.04) < 1e-12);
	/* Zone 2 restarts at the index: cylinder 11 = one cylinder in, (5+5+9) of 80. */
	c = (struct hd_sim_chs){ 11, 0, 0 };
	ck_assert(fabs(hd_sim_sector_angle(m, &c) - 19.0 / 80) < 1e-12);
	hd_sim_model_free(m);
}
END_TEST

START_TEST(test_seek_curve)
{
	struct hd_sim_model *m = parse_ok(good);

	ck_assert(hd_sim_seek_ms(m, 0) == 0);
	/* The listed points. */
	ck_assert(fabs(hd_sim_seek_ms(m, 1) - 1.0) < 1e-12);
	ck_assert(fabs(hd_sim_seek_ms(m, 10) - 2.0) < 1e-12);
	ck_assert(fabs(hd_sim_seek_ms(m, 20) - 4.0) < 1e-12);
	/* Between points: 1 + (4 - 1) / 9. */
	ck_assert(fabs(hd_sim_seek_ms(m, 4) - (1.0 + 3.0 / 9)) < 1e-12);
	ck_assert(fabs(hd_sim_seek_ms(m, 15) - 3.0) < 1e-12);
	/* Past the last point, on the line through the last two. */
	ck_assert(fabs(hd_sim_seek_ms(m, 29) - 5.8) < 1e-12);
	ck_assert(fabs(hd_sim_seek_ms(m, 100) - 20.0) < 1e-12);
	hd_sim_model_free(m);
}
END_TEST

/* A write curve of its own; the vendors' average seek over random pairs. */
START_TEST(test_write_seek_and_average)
{
	const char *text =
		"format = 1\nrpm = 6000\nsector_bytes = 512\nsurfaces = 1\n"
		"zone = 0 3 100\n"
		"seek = 1 1\nseek = 3 3\n"
		"write_seek = 1 2\nwrite_seek = 2 4\n"
		"write_settle_ms = 0.5\n";
	struct hd_sim_model *m = parse_ok(text);

	ck_assert(hd_sim_write_seek_ms(m, 0) == 0);
	ck_assert(fabs(hd_sim_write_seek_ms(m, 1) - 2) < 1e-12);
	/* Past the last point, on the line through the last two. */
	ck_assert(fabs(hd_sim_write_seek_ms(m, 3) - 6) < 1e-12);
	/*
	 * Cylinders 0..3: 3 pairs 1 apart, 2 pairs 2 apart, 1 pair 3 apart.
	 * Reads: (3*1 + 2*2 + 1*3) / 6; writes, settle included: (3*2.5 + 2*4.5 + 6.5) / 6.
	 */
	ck_assert(fabs(hd_sim_seek_avg_ms(m, 0) - 10.0 / 6) < 1e-12);
	ck_assert(fabs(hd_sim_seek_avg_ms(m, 1) - 23.0 / 6) < 1e-12);
	hd_sim_model_free(m);
	/* Without a write curve writes seek as reads do. */
	m = parse_ok(good);
	ck_assert(hd_sim_write_seek_ms(m, 15) == hd_sim_seek_ms(m, 15));
	hd_sim_model_free(m);
}
END_TEST

START_TEST(test_seek_model_form)
{
	const char *text =
		"format = 1\nrpm = 7200\nsector_bytes = 4096\nsurfaces = 2\n"
		"zone = 0 999 300\n"
		"seek_model = 0.5 0.25 100 2.5 0.01\n";
	struct hd_sim_model *m = parse_ok(text);

	ck_assert(m->has_seek_model && m->nseek == 0);
	ck_assert(hd_sim_seek_ms(m, 0) == 0);
	ck_assert(fabs(hd_sim_seek_ms(m, 1) - 0.75) < 1e-12);
	ck_assert(fabs(hd_sim_seek_ms(m, 64) - (0.5 + 0.25 * 8)) < 1e-12);
	ck_assert(fabs(hd_sim_seek_ms(m, 99) - (0.5 + 0.25 * sqrt(99))) < 1e-12);
	ck_assert(fabs(hd_sim_seek_ms(m, 100) - 3.5) < 1e-12);
	ck_assert(fabs(hd_sim_seek_ms(m, 999) - 12.49) < 1e-12);
	/* A nameless model is called after its file. */
	ck_assert_str_eq(m->name, "t.drive");
	hd_sim_model_free(m);
}
END_TEST

/* Every malformed case, with the line it must be reported on. */
static const struct {
	const char *text;
	unsigned line;
	const char *reason;
} bad[] = {
	{ "format = 1\nrpm = 7200\ncolour = red\n", 3, "unknown key 'colour'" },
	{ "format = 1\nrpm 7200\n", 2, "expected KEY = VALUE" },
	{ "format = 2\n", 1, "unsupported format 2" },
	{ "format = 1\nrpm = fast\n", 2, "rpm: 'fast': not a valid number" },
	{ "format = 1\nrpm = 0\n", 2, "rpm: 0 out of range" },
	{ "format = 1\nrpm = -7200\n", 2, "rpm: -7200 out of range" },
	{ "format = 1\nrpm =\n", 2, "rpm: missing value" },
	{ "format = 1\nrpm = 7200 rpm\n", 2, "rpm: expected one value" },
	{ "format = 1\nrpm = 7200\nrpm = 5400\n", 3, "rpm: duplicate key (first on line 2)" },
	{ "format = 1\nsector_bytes = 520\n", 2, "sector_bytes: 520 is not a power of two" },
	{ "format = 1\nsector_bytes = 256\n", 2, "sector_bytes: 256 out of range" },
	{ "format = 1\nsurfaces = 0\n", 2, "surfaces: 0 out of range" },
	{ "format = 1\nsurfaces = 2.5\n", 2, "surfaces: '2.5': not a whole number" },
	{ "format = 1\nzone = 0 10\n", 2, "zone: expected FIRST_CYL" },
	{ "format = 1\nzone = 10 5 100\n", 2, "zone: last cylinder 5 below first cylinder 10" },
	{ "format = 1\nzone = 0 5 0\n", 2, "zone: 0 out of range" },
	{ "format = 1\nzone = 0 5 100 100\n", 2, "zone: 100 out of range (0..99)" },
	{ "format = 1\nzone = 0 5 100 1 1 1\n", 2, "zone: expected FIRST_CYL" },
	{ "format = 1\nzone = 0 10 100\n\nzone = 10 20 90\n", 4, "overlap or precede" },
	{ "format = 1\nzone = 20 30 100\nzone = 0 10 90\n", 3, "overlap or precede" },
	{ "format = 1\nseek = 1 1.5\nseek = 5 2\nseek = 5 3\n", 4, "distance 5 not above the previous distance 5" },
	{ "format = 1\nseek = 10 1.5\nseek = 5 2\n", 3, "distance 5 not above the previous distance 10" },
	{ "format = 1\nseek = 0 1.5\n", 2, "seek: 0 out of range" },
	{ "format = 1\nseek = 1 -2\n", 2, "seek: -2 out of range" },
	{ "format = 1\nseek = 1\n", 2, "seek: expected DISTANCE_CYLINDERS MILLISECONDS" },
	{ "format = 1\nwrite_seek = 4 1\nwrite_seek = 2 2\n", 3, "write_seek: distance 2 not above the previous distance 4" },
	{ "format = 1\nwrite_seek = 1 x\n", 2, "write_seek: 'x': not a valid number" },
	{ "format = 1\nrpm = 7200\nsector_bytes = 512\nsurfaces = 1\nzone = 0 99999 10\n"
	  "seek = 1 1\nseek = 99999 2\nwrite_seek = 1 1\nwrite_seek = 2 3\n", 9, "write seek curve reaches 199997 ms" },
	{ "format = 1\nseek = 1 1\nseek_model = 1 1 1 1 1\n", 3, "seek lines were already given" },
	{ "format = 1\nseek_model = 1 1 1 1 1\nseek = 1 1\n", 3, "seek_model was already given on line 2" },
	{ "format = 1\nseek_model = 1 1 1 1\n", 2, "seek_model: expected A B KNEE C E" },
	{ "format = 1\nwrite_cache = maybe\n", 2, "write_cache: 'maybe': expected off, on, append or flush" },
	/* The engine's keys (DiskSim's controller and cache). */
	{ "format = 1\nread_miss_overhead_ms = 1 2 3\n", 2, "read_miss_overhead_ms: expected one or two values, got 3" },
	{ "format = 1\nwrite_hit_overhead_ms = 0.1 -1\n", 2, "write_hit_overhead_ms: -1 out of range" },
	{ "format = 1\ninterface_mb_s = 40 0\n", 2, "interface_mb_s: 0 out of range" },
	{ "format = 1\nreadahead = always\n", 2,
	  "readahead: 'always': expected off, track, cylinder, segment or stream" },
	{ "format = 1\nreadahead_on_hit = yes\n", 2, "readahead_on_hit: 'yes': expected off or on" },
	{ "format = 1\nreadahead_stop_in_sector = 1\n", 2, "readahead_stop_in_sector: '1': expected off or on" },
	{ "format = 1\nwrite_combine = on\n", 2, "write_combine: 'on': expected disksim or stream" },
	{ "format = 1\nwrite_combine = stream disksim\n", 2, "write_combine: expected disksim or stream" },
	{ "format = 1\nseparate_write_segment = on off\n", 2, "separate_write_segment: expected on or off" },
	{ "format = 1\nwrite_segments = 0\n", 2, "write_segments: 0 out of range (1..4096)" },
	{ "format = 1\nread_watermark = 0.5 request now\n", 2, "read_watermark: expected FRACTION [request|segment] or never" },
	{ "format = 1\nread_watermark = 0.5 sector\n", 2, "read_watermark: 'sector': expected segment or request" },
	{ "format = 1\nread_watermark = 1.5 request\n", 2, "read_watermark: 1.5 out of range" },
	{ "format = 1\nextra_write_disconnect_ms = 1 2 3 4\n", 2,
	  "extra_write_disconnect_ms: expected COMMAND DISCONNECT INTER DISCONNECT2 SEEK_DELTA, got 4 values" },
	{ "format = 1\nmin_write_seek_ms = -1\n", 2, "min_write_seek_ms: -1 out of range" },
	{ "format = 1\ndestage_water_marks = 0.5\n", 2, "destage_water_marks: expected LOW HIGH" },
	{ "format = 1\ndestage_water_marks = 0.8 0.2\n", 2, "destage_water_marks: HIGH 0.2 below LOW 0.8" },
	{ "format = 1\ndestage_water_marks = 0 1.5\n", 2, "destage_water_marks: 1.5 out of range" },
	{ "format = 1\nreadahead = off\nreadahead = track\n", 3, "readahead: duplicate key (first on line 2)" },
	{ "format = 1\nwrite_settle_ms = -1001\n", 2, "write_settle_ms: -1001 out of range" },
	{ "format = 1\nrpm = 7200\nsector_bytes = 512\nsurfaces = 1\nzone = 0 1 10\nseek = 1 1\n"
	  "read_miss_overhead_ms = 0.2\nread_overhead_ms = 0.3\n", 8,
	  "read_overhead_ms: read_miss_overhead_ms was given on line 7 (a shorthand and its full key)" },
	{ "format = 1\nrpm = 7200\nsector_bytes = 512\nsurfaces = 1\nzone = 0 1 10\nseek = 1 1\n"
	  "write_overhead_ms = 0.3\n\nwrite_hit_overhead_ms = 0.2\n", 9,
	  "write_hit_overhead_ms: write_overhead_ms was given on line 7" },
	{ "format = 1\nrpm = 7200\nsector_bytes = 512\nsurfaces = 1\nzone = 0 1 10\nseek = 1 1\n"
	  "cache_segment_kb = 32\ncache_segment_blocks = 64\n", 8, "cache_segment_blocks: cache_segment_kb was given on line 7" },
	{ "format = 1\nrpm = 7200\nsector_bytes = 512\nsurfaces = 1\nzone = 0 1 10\nseek = 1 1\n"
	  "readahead_max_blocks = 64\nreadahead_kb = 32\n", 8, "readahead_kb: readahead_max_blocks was given on line 7" },
	{ "format = 1\nrpm = 7200\nsector_bytes = 512\nsurfaces = 1\nzone = 0 1 10\nseek = 1 1\n"
	  "readahead_min_blocks = 65\nreadahead_max_blocks = 64\n", 7,
	  "readahead_min_blocks: 65 above readahead_max_blocks 64" },
	{ "format = 1\nrpm = 7200\nsector_bytes = 512\nsurfaces = 1\nzone = 0 1 10\nseek = 1 1\n"
	  "write_cache = flush\n", 7, "write_cache: append and flush need a segment size or write_cache_kb > 0" },
	{ "format = 1\nqueue_depth = 0\n", 2, "queue_depth: 0 out of range" },
	{ "format = 1\nwrite_retry_probability = 1.5\n", 2, "write_retry_probability: 1.5 out of range" },
	{ "format = 1\ninterface_mb_s = 0\n", 2, "interface_mb_s: 0 out of range" },
	{ "format = 1\ncache_segments = 0\n", 2, "cache_segments: 0 out of range" },
	{ "format = 1\nbad_sectors = 9-3\n", 2, "range 9-3 is descending" },
	{ "format = 1\nbad_sectors = x\n", 2, "bad_sectors: 'x'" },
	/* Whole-file checks: missing keys are reported at the last line. */
	{ "format = 1\nrpm = 7200\nsector_bytes = 512\n", 3, "missing required key 'surfaces'" },
	{ "rpm = 7200\nsector_bytes = 512\nsurfaces = 1\nzone = 0 1 10\nseek = 1 1\n", 5,
	  "missing required key 'format'" },
	{ "format = 1\nrpm = 7200\nsector_bytes = 512\nsurfaces = 1\nseek = 1 1\n\n", 6,
	  "missing required key 'zone'" },
	{ "format = 1\nrpm = 7200\nsector_bytes = 512\nsurfaces = 1\nzone = 0 1 10\n", 5,
	  "missing the seek curve" },
	{ "format = 1\nrpm = 7200\nsector_bytes = 512\nsurfaces = 1\nzone = 0 1 10\nseek = 1 1\n"
	  "bad_sectors = 5\nbad_sectors = 19 20\n", 8, "bad_sectors: 20 is beyond the last sector 19" },
	{ "format = 1\nrpm = 7200\nsector_bytes = 512\nsurfaces = 1\nwrite_cache = on\nzone = 0 1 10\n"
	  "seek = 1 1\n", 5, "write_cache: on needs write_cache_kb > 0" },
	/* Found by tests/fuzz/fuzz_sim_model.c: times that overflowed the simulator's clock. */
	{ "format = 1\nrpm = 7204e-50\n", 2, "rpm: 7204e-50 out of range" },
	{ "format = 1\ninterface_mb_s = 1e-300\n", 2, "interface_mb_s: 1e-300 out of range" },
	{ "format = 1\nrpm = 7200\nsector_bytes = 512\nsurfaces = 1\nzone = 0 99999 10\n"
	  "seek = 1 1\nseek = 2 3\n", 7, "seek curve reaches 199997 ms" },
	{ "format = 1\nrpm = 7200\nsector_bytes = 512\nsurfaces = 1\nzone = 0 99999 10\n"
	  "seek_model = 1 1 10 1 1\n", 6, "seek curve reaches 100000 ms" },
	{ "format = 1\nrpm = 7200\nsector_bytes = 512\nsurfaces = 1\nzone = 0 99999 10\n"
	  "seek_model = 1 1000 1000 1 0\n", 6, "seek curve reaches 31608 ms" },
	{ "format = 1\nrpm = 7200\nsector_bytes = 65536\nsurfaces = 1024\nzone = 0 16777215 1000000\n"
	  "seek_model = 1 0 1 1 0\n", 3, "capacity of 17179869184000000 sectors of 65536 bytes is too large" },
};

START_TEST(test_malformed)
{
	struct hd_sim_model *m = NULL;
	char err[256], want[64];
	int rc = hd_sim_model_parse(bad[_i].text, strlen(bad[_i].text), "bad.drive", &m, err,
				    sizeof(err));

	ck_assert_int_eq(rc, -EINVAL);
	ck_assert_ptr_null(m);
	snprintf(want, sizeof(want), "bad.drive:%u: ", bad[_i].line);
	ck_assert_msg(strncmp(err, want, strlen(want)) == 0, "case %d: '%s' does not start with '%s'",
		      _i, err, want);
	ck_assert_msg(strstr(err, bad[_i].reason) != NULL, "case %d: '%s' does not say '%s'", _i, err,
		      bad[_i].reason);
}
END_TEST

START_TEST(test_load_errors)
{
	struct hd_sim_model *m = NULL;
	char err[256], path[] = "/tmp/hddscope-test-XXXXXX.drive";
	FILE *f;
	int fd;

	ck_assert_int_eq(hd_sim_model_load("no-such-preset", &m, err, sizeof(err)), -ENOENT);
	ck_assert_ptr_nonnull(strstr(err, "unknown preset 'no-such-preset'"));
	ck_assert_int_eq(hd_sim_model_load("/nonexistent/x.drive", &m, err, sizeof(err)), -ENOENT);
	ck_assert_ptr_nonnull(strstr(err, "/nonexistent/x.drive"));
	fd = mkstemps(path, 6);
	ck_assert_int_ge(fd, 0);
	f = fdopen(fd, "w");
	fputs("format = 1\n\n# comment\nrpm = 7200\nspeed = 3\n", f);
	fclose(f);
	ck_assert_int_eq(hd_sim_model_load(path, &m, err, sizeof(err)), -EINVAL);
	ck_assert_msg(strncmp(err, path, strlen(path)) == 0 && strstr(err, ":5: unknown key 'speed'"),
		      "got '%s'", err);
	unlink(path);
}
END_TEST

/* The presets the issue names, each with its rpm and capacity in sectors. */
static const struct {
	const char *name;
	double rpm;
	uint32_t sector_bytes;
} want_presets[] = {
	{ "atlas3", 7200, 512 },
	{ "cheetah9lp", 10045, 512 },
	{ "dtla307030", 7200, 512 },
	{ "st320420a", 7200, 512 },
	{ "st2000dm001", 7200, 4096 },
	{ "travelstar5k320", 5400, 512 },
};

/* Every .drive in data/drives parses (also those not yet embedded). */
START_TEST(test_preset_files)
{
	struct hd_sim_model *m = NULL;
	char path[512], err[256];

	snprintf(path, sizeof(path), "%s/data/drives/%s.drive", HDDSCOPE_SRC_DIR, want_presets[_i].name);
	ck_assert_msg(hd_sim_model_load(path, &m, err, sizeof(err)) == 0, "%s", err);
	ck_assert(m->rpm == want_presets[_i].rpm);
	ck_assert_uint_eq(m->sector_bytes, want_presets[_i].sector_bytes);
	hd_sim_model_free(m);
}
END_TEST

START_TEST(test_embedded_presets)
{
	struct hd_sim_model *m = NULL;
	char err[256];
	size_t i;

	ck_assert_int_ge(hd_npresets, 1);
	ck_assert_ptr_null(hd_preset_find("nope"));
	for (i = 0; i < hd_npresets; i++) {
		const struct hd_preset *p = hd_preset_find(hd_presets[i].name);

		ck_assert_ptr_eq(p, &hd_presets[i]);
		ck_assert_msg(hd_sim_model_load(p->name, &m, err, sizeof(err)) == 0, "%s", err);
		/* Presets built from DiskSim data carry its license notice. */
		if (strstr(p->text, "DiskSim"))
			ck_assert_ptr_nonnull(strstr(p->text, "NO WARRANTY"));
		hd_sim_model_free(m);
	}
	/* atlas3: the Atlas III zones, 17797944 sectors (DiskSim's layout), and its measured seek curve. */
	ck_assert_int_eq(hd_sim_model_load("atlas3", &m, err, sizeof(err)), 0);
	ck_assert_uint_eq(m->sectors, 17797944);
	ck_assert_uint_eq(m->nzones, 9);
	ck_assert_uint_eq(m->cylinders, 8057);
	ck_assert_uint_eq(m->nseek, 117);
	ck_assert(fabs(hd_sim_seek_ms(m, 1) - 1.663) < 1e-9);
	ck_assert(fabs(hd_sim_seek_ms(m, 7998) - 15.36) < 1e-9);
	ck_assert(fabs(hd_sim_seek_ms(m, 2650) - (8.474 + 8.6) / 2) < 1e-9);
	hd_sim_model_free(m);
}
END_TEST

int main(void)
{
	return tu_main("sim_model", "model", NULL, NULL,
		       TU_TESTS(TU_TEST(test_parse_values), TU_TEST(test_parse_engine_keys), TU_TEST(test_layout_roundtrip), TU_TEST(test_skew_angles),
				TU_TEST(test_seek_curve), TU_TEST(test_write_seek_and_average), TU_TEST(test_seek_model_form), TU_LOOP(test_malformed, bad),
				TU_TEST(test_load_errors), TU_LOOP(test_preset_files, want_presets),
				TU_TEST(test_embedded_presets)));
}
