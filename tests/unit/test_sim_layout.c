/*
 * The layout beyond zones and skews (sim_layout.c): each sparing scheme,
 * empty space, slips and defects on small models whose sectors can be
 * counted by hand (each checked against DiskSim 4.0's own placement);
 * the public mapping both ways and the engine's cursor
 * (runs that stop at slips, spares and remaps).
 */
#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "hddscope/sim.h"
#include "../../src/sim/sim_layout.h"
#include "testutil.h"

/* A model of 2 surfaces and 4 sectors a track (8 a cylinder) with the layout lines given. */
static struct hd_sim_model *model(const char *layout)
{
	char text[2048], err[256];
	struct hd_sim_model *m = NULL;

	snprintf(text, sizeof(text), "format = 1\nrpm = 6000\nsector_bytes = 512\nsurfaces = 2\nseek = 1 1\n%s",
		 layout);
	ck_assert_msg(hd_sim_model_parse(text, strlen(text), "t.drive", &m, err, sizeof(err)) == 0, "%s", err);
	return m;
}

/* The zone's physical sector (slot) of each LBA, and back. */
static void check_slots(const struct hd_sim_model *m, const uint64_t *slot, size_t n)
{
	size_t i;

	ck_assert_uint_eq(m->sectors, n);
	for (i = 0; i < n; i++) {
		struct hd_sim_chs c;
		uint64_t lba = 99, s;

		ck_assert_int_eq(hd_sim_lba_to_chs(m, i, &c), 0);
		s = ((uint64_t)c.cyl * 2 + c.surface) * 4 + c.sector;
		ck_assert_msg(s == slot[i], "LBA %zu on slot %llu, want %llu", i, (unsigned long long)s,
			      (unsigned long long)slot[i]);
		ck_assert_int_eq(hd_sim_chs_to_lba(m, &c, &lba), 0);
		ck_assert_uint_eq(lba, i);
	}
	ck_assert_int_eq(hd_sim_lba_to_chs(m, n, &(struct hd_sim_chs){ 0 }), -ERANGE);
}

/* A slot that holds no LBA maps back to none. */
static void check_hole(const struct hd_sim_model *m, uint64_t slot)
{
	struct hd_sim_chs c = { (uint32_t)(slot / 8), (uint32_t)(slot % 8 / 4), (uint32_t)(slot % 4) };
	uint64_t lba;

	ck_assert_msg(hd_sim_chs_to_lba(m, &c, &lba) == -ERANGE, "slot %llu holds LBA %llu",
		      (unsigned long long)slot, (unsigned long long)lba);
}

START_TEST(test_sectors_per_zone)
{
	/* 16 slots, 2 spares at the zone's end, slips at 1 and 5: 14 LBAs. */
	struct hd_sim_model *m = model("sparing = sectors_per_zone\nzone = 0 1 4\nzone_spares = 2\nzone_slips = 1 5\n");
	static const uint64_t want[] = { 0, 2, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 };

	check_slots(m, want, 14);
	check_hole(m, 1);
	check_hole(m, 5);
	hd_sim_model_free(m);
}
END_TEST

START_TEST(test_slips_listed_out_of_order)
{
	/*
	 * DiskSim counts slips in the order listed: with "5 1", LBA 4 (place
	 * 4, slip 1 before it) lands on slot 5, since slip 5 was looked at
	 * when nothing had moved it yet; LBA 5 then passes both (DiskSim 4.0
	 * places them so).  A run ends where the LBAs jump.
	 */
	struct hd_sim_model *m = model("sparing = sectors_per_zone\nzone = 0 1 4\nzone_spares = 2\nzone_slips = 5 1\n");
	static const uint64_t want[] = { 0, 2, 3, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14, 15 };
	struct hd_sim_loc l;

	check_slots(m, want, 14);
	check_hole(m, 1);
	check_hole(m, 6);
	hd_sim_locate(m, 3, &l);
	ck_assert_uint_eq(l.sec, 0);
	ck_assert_uint_eq(l.run, 2);
	hd_sim_next_track(m, &l);
	ck_assert_uint_eq(l.lba, 5);
	ck_assert_uint_eq(l.sec, 3);
	ck_assert_uint_eq(l.run, 1);
	hd_sim_model_free(m);
}
END_TEST

START_TEST(test_sectors_per_track)
{
	/* 1 spare a track: 3 LBAs a track; a slip at slot 1 (track 0) and 6 (track 1). */
	struct hd_sim_model *m = model("sparing = sectors_per_track\nzone = 0 0 4\nzone_spares = 1\nzone_slips = 1 6\n");
	static const uint64_t want[] = { 0, 2, 3, 4, 5, 7 };

	check_slots(m, want, 6);
	check_hole(m, 1);
	check_hole(m, 6);
	hd_sim_model_free(m);
}
END_TEST

START_TEST(test_sectors_per_cylinder)
{
	/*
	 * 1 spare a cylinder (7 LBAs a cylinder).  A slip at slot 9 (cylinder
	 * 1) moves the cylinder's LBAs on; its last one, pushed past the 7th
	 * place, goes on to the next cylinder's first sector rather than to
	 * the spare, as DiskSim 4.0 places it.
	 */
	struct hd_sim_model *m = model("sparing = sectors_per_cylinder\nzone = 0 2 4\nzone_spares = 1\nzone_slips = 9\n");
	static const uint64_t want[] = { 0, 1, 2, 3, 4, 5, 6, 8, 10, 11, 12, 13, 14 };
	struct hd_sim_chs c;

	ck_assert_uint_eq(m->sectors, 21);
	for (size_t i = 0; i < 13; i++) {
		ck_assert_int_eq(hd_sim_lba_to_chs(m, i, &c), 0);
		ck_assert_uint_eq(((uint64_t)c.cyl * 2 + c.surface) * 4 + c.sector, want[i]);
	}
	/* LBA 13 and cylinder 2's first LBA, 14, share its sector 0. */
	for (uint64_t lba = 13; lba <= 14; lba++) {
		ck_assert_int_eq(hd_sim_lba_to_chs(m, lba, &c), 0);
		ck_assert_uint_eq(c.cyl, 2);
		ck_assert_uint_eq(c.surface, 0);
		ck_assert_uint_eq(c.sector, 0);
	}
	check_hole(m, 7);
	check_hole(m, 9);
	hd_sim_model_free(m);
}
END_TEST

START_TEST(test_sectors_at_end)
{
	/* 2 empty sectors at the front, slips at 5 and 9 push everything after them on. */
	struct hd_sim_model *m = model("sparing = sectors_at_end\nzone = 0 1 4\nzone_empty = 2\nzone_slips = 5 9\n");
	static const uint64_t want[] = { 2, 3, 4, 6, 7, 8, 10, 11, 12, 13, 14, 15 };

	check_slots(m, want, 12);
	check_hole(m, 0);
	check_hole(m, 5);
	hd_sim_model_free(m);
}
END_TEST

START_TEST(test_tracks)
{
	/* 3 cylinders = 6 tracks, 2 spare tracks; track 1 slipped, track 3 remapped to track 5. */
	struct hd_sim_model *m = model("sparing = tracks\nzone = 0 2 4\nzone_spares = 2\nzone_slips = 1\n"
				       "zone_defects = 3:5\n");
	static const uint64_t want[] = { 0, 1, 2, 3, 8, 9, 10, 11, 20, 21, 22, 23, 16, 17, 18, 19 };
	struct hd_sim_chs c;
	uint64_t lba;
	size_t i;

	ck_assert_uint_eq(m->sectors, 16);
	for (i = 0; i < 16; i++) {
		ck_assert_int_eq(hd_sim_lba_to_chs(m, i, &c), 0);
		ck_assert_uint_eq(((uint64_t)c.cyl * 2 + c.surface) * 4 + c.sector, want[i]);
		ck_assert_int_eq(hd_sim_chs_to_lba(m, &c, &lba), 0);
		ck_assert_uint_eq(lba, i);
	}
	check_hole(m, 4);	/* the slipped track */
	check_hole(m, 12);	/* the defect track */
	hd_sim_model_free(m);
}
END_TEST

START_TEST(test_defect_remap)
{
	/* Sector 3 is remapped to the spare at the zone's end (15). */
	struct hd_sim_model *m = model("sparing = sectors_per_zone\nzone = 0 1 4\nzone_spares = 1\nzone_defects = 3:15\n");
	static const uint64_t want[] = { 0, 1, 2, 15, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14 };
	struct hd_sim_loc l;

	check_slots(m, want, 15);
	check_hole(m, 3);
	/* The cursor: a run stops before the defect, the defect is a run of 1, then on. */
	hd_sim_locate(m, 0, &l);
	ck_assert_uint_eq(l.run, 3);
	hd_sim_next_track(m, &l);
	ck_assert_uint_eq(l.lba, 3);
	ck_assert_uint_eq(l.cyl, 1);
	ck_assert_uint_eq(l.surf, 1);
	ck_assert_uint_eq(l.sec, 3);
	ck_assert_uint_eq(l.run, 1);
	hd_sim_next_track(m, &l);
	ck_assert_uint_eq(l.lba, 4);
	ck_assert_uint_eq(l.surf, 1);
	ck_assert_uint_eq(l.sec, 0);
	ck_assert_uint_eq(l.run, 4);
	hd_sim_model_free(m);
}
END_TEST

START_TEST(test_cursor_runs)
{
	/* Slips at 1 and 5: runs 1 (slot 0), 2 (2-3, the track's end), 1 (4), 2 (6-7), 4, 4. */
	struct hd_sim_model *m = model("sparing = sectors_per_zone\nzone = 0 1 4\nzone_spares = 2\nzone_slips = 1 5\n");
	static const uint32_t runs[] = { 1, 2, 1, 2, 4, 4 };
	struct hd_sim_loc l;
	size_t i;

	hd_sim_locate(m, 0, &l);
	for (i = 0; i < 6; i++) {
		ck_assert_msg(l.run == runs[i], "run %zu: %u, want %u", i, l.run, runs[i]);
		if (i < 5)
			hd_sim_next_track(m, &l);
	}
	ck_assert_uint_eq(l.lba + l.run, m->sectors);
	/* After a slip the next run is on the same track further on: slot 2 after slot 0. */
	hd_sim_locate(m, 0, &l);
	hd_sim_next_track(m, &l);
	ck_assert_uint_eq(l.cyl, 0);
	ck_assert_uint_eq(l.surf, 0);
	ck_assert_uint_eq(l.sec, 2);
	hd_sim_model_free(m);
}
END_TEST

START_TEST(test_offset_and_skew)
{
	/* zone_offset moves the zone's first track; a slip before a track (per track sparing) moves it one more. */
	struct hd_sim_model *m = model("sparing = sectors_per_track\nzone = 0 1 4 1 2\nzone_offset = 3\n"
				       "zone_spares = 1\nzone_slips = 0\n");
	struct hd_sim_chs c0 = { 0, 0, 0 }, c1 = { 0, 1, 0 }, c2 = { 1, 0, 0 };

	ck_assert(hd_sim_sector_angle(m, &c0) == 3.0 / 4);
	/* surface 1: offset 3 + track skew 1 + one slip before the track = 5 = 1 (mod 4) */
	ck_assert(hd_sim_sector_angle(m, &c1) == 1.0 / 4);
	/* cylinder 1: 3 + (2 - 1) * 1 + 2 + 1 slip = 7 = 3 */
	ck_assert(hd_sim_sector_angle(m, &c2) == 3.0 / 4);
	hd_sim_model_free(m);
}
END_TEST

/* Layout lines the parser refuses, with the line at fault. */
static const struct {
	const char *text, *err;
} bad[] = {
	{ "zone_empty = 3\nzone = 0 1 4\n", "t.drive:6: zone_empty: no zone line before it" },
	{ "zone = 0 1 4\nzone_slips = 16\n", "t.drive:6: zone_slips: 16 is beyond the zone's 16 sectors" },
	{ "sparing = tracks\nzone = 0 1 4\nzone_slips = 4\n", "t.drive:7: zone_slips: 4 is beyond the zone's 4 tracks" },
	{ "zone = 0 1 4\nzone_defects = 3\n", "t.drive:7: zone_defects: '3': expected DEFECT:REMAP" },
	{ "zone = 0 1 4\nzone_offset = 4\n", "t.drive:7: zone_offset: 4 out of range (0..3)" },
	{ "zone = 0 1 4\nzone_empty = 1\nzone_empty = 2\n", "t.drive:8: zone_empty: duplicate for the zone of line 6" },
	{ "sparing = sectors_per_track\nzone = 0 1 4\nzone_spares = 4\n", "t.drive:7: zone_spares: 4 leave no sector for an LBA" },
	{ "zone = 0 1 4\nzone_empty = 16\n", "t.drive:6: zone: empty space and spares leave no sector for an LBA" },
	{ "sparing = 8\nzone = 0 1 4\n", "t.drive:6: sparing: '8': expected none, tracks, sectors_per_cylinder, "
	  "sectors_per_track, sectors_at_end or sectors_per_zone" },
	{ "zone = 0 1 4\nseek_first10 = 1 2 3 4 5 6 7 8 9 10\n", "t.drive:7: seek_first10: only with seek_model" },
};

START_TEST(test_bad_layout)
{
	char text[1024], err[256];
	struct hd_sim_model *m = NULL;

	snprintf(text, sizeof(text), "format = 1\nrpm = 6000\nsector_bytes = 512\nsurfaces = 2\nseek = 1 1\n%s",
		 bad[_i].text);
	ck_assert_int_eq(hd_sim_model_parse(text, strlen(text), "t.drive", &m, err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, bad[_i].err);
}
END_TEST

START_TEST(test_seek_first10)
{
	struct hd_sim_model *m = model("zone = 0 99 4\n");
	char text[512], err[256];

	hd_sim_model_free(m);
	snprintf(text, sizeof(text), "format = 1\nrpm = 6000\nsector_bytes = 512\nsurfaces = 2\nzone = 0 999 4\n"
		 "seek_model = 3.81 0.33 300 7.75 0.0059\nseek_first10 = 2.89 3.68 3.81 3.98 4.27 4.65 4.52 4.65 4.82 4.99\n");
	ck_assert_msg(hd_sim_model_parse(text, strlen(text), "t.drive", &m, err, sizeof(err)) == 0, "%s", err);
	ck_assert(hd_sim_seek_ms(m, 1) == 2.89);
	ck_assert(hd_sim_seek_ms(m, 10) == 4.99);
	ck_assert(hd_sim_seek_ms(m, 100) == 3.81 + 0.33 * 10);
	ck_assert(hd_sim_seek_ms(m, 300) == 7.75 + 0.0059 * 300);
	hd_sim_model_free(m);
}
END_TEST

int main(void)
{
	return tu_main("sim_layout", "layout", NULL, NULL,
		       TU_TESTS(TU_TEST(test_sectors_per_zone), TU_TEST(test_slips_listed_out_of_order), TU_TEST(test_sectors_per_track),
				TU_TEST(test_sectors_per_cylinder), TU_TEST(test_sectors_at_end), TU_TEST(test_tracks),
				TU_TEST(test_defect_remap), TU_TEST(test_cursor_runs), TU_TEST(test_offset_and_skew),
				TU_LOOP(test_bad_layout, bad), TU_TEST(test_seek_first10)));
}
