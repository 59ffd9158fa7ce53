/*
 * hddscope sim import's reader of DiskSim parameter files (sim_import.c):
 * blocks, nested blocks, lists and ranges, "source" relative to the file
 * that names it, comments, instantiate and topology (the disk's bus and
 * controller); what each parameter becomes; errors as FILE:LINE: reason.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "hddscope/sim.h"
#include "hddscope/sim_import.h"
#include "testutil.h"

/* A dm_disk of 2 surfaces, one zone of 5 cylinders of 4 sectors, an extracted seek curve. */
static const char model_txt[] =
	"# the model\n"
	"dm_disk M {\n"
	"  Block count = 40,\n"
	"  Number of data surfaces = 2,\n"
	"  Number of cylinders = 5,\n"
	"  Layout Model = dm_layout_g1 {\n"
	"    LBN-to-PBN mapping scheme = 0,\n"
	"    Sparing scheme used = 9,\n"
	"    Rangesize for sparing = 1,\n"
	"    Zones = [\n"
	"      dm_layout_g1_zone { First cylinder number = 0, Last cylinder number = 4,\n"
	"        Blocks per track = 4, Offset of first block = 1, Empty space at zone front = 0,\n"
	"        Skew for track switch = 1.0, Skew for cylinder switch = 2,\n"
	"        Number of spares = 3, slips = [ 3, 7 ], defects = [ 10, 38 ] }\n"
	"    ]\n"
	"  },\n"
	"  Mechanical Model = dm_mech_g1 {\n"
	"    Access time type = trackSwitchPlusRotation,\n"
	"    Seek type = extracted,\n"
	"    Full seek curve = c.seek,\n"
	"    Add. write settling delay = 0.5,\n"
	"    Head switch time = 0.25,\n"
	"    Rotation speed (in rpms) = 6000,\n"
	"    Percent error in rpms = 0.1\n"
	"  }\n"
	"}\n";

static const char diskspecs_txt[] =
	"disksim_disk D1 {\n"
	"  Model = source sub/m.model,   # a comment after a value\n"
	"  Bulk sector transfer time = 0.1,\n"
	"  Read hit over. after read = 0.2,\n"
	"  Allow sneaky full read hits = 0,\n"
	"  Number of buffer segments = 4,\n"
	"  Segment size (in blks) = 64,\n"
	"  Fast write level = 0,\n"
	"  Scheduler = disksim_ioqueue { Scheduling policy = 1 }\n"
	"}\n";

static void setup(void)
{
	char sub[4096];

	tu_mkdir();
	snprintf(sub, sizeof(sub), "%s/sub", tu_dir);
	ck_assert_int_eq(mkdir(sub, 0755), 0);
	tu_writef("sub/m.model", "%s", model_txt);
	tu_writef("sub/c.seek", "Seek distances measured: 2\n1,\t1.5\n10,\t4.0\n");
	tu_writef("d.diskspecs", "%s", diskspecs_txt);
}

static char *import_ok(const char *path, const char *disk)
{
	char err[1024], *text = NULL;
	size_t len;
	int rc = hd_sim_import(path, disk, &text, &len, err, sizeof(err));

	ck_assert_msg(rc == 0, "import %s: %d %s", path, rc, err);
	ck_assert_uint_eq(strlen(text), len);
	return text;
}

static void has_line(const char *text, const char *line)
{
	const char *p = text;
	size_t n = strlen(line);

	while ((p = strstr(p, line)))
		if ((p == text || p[-1] == '\n') && (p[n] == '\n' || p[n] == '\0'))
			return;
		else
			p += n;
	ck_abort_msg("no line '%s' in:\n%s", line, text);
}

START_TEST(test_diskspecs)
{
	char *t = import_ok(tu_path("d.diskspecs"), NULL);
	static const char *const lines[] = {
		"format = 1", "name = D1", "rpm = 6000", "sector_bytes = 512", "surfaces = 2",
		"sparing = sectors_per_zone", "zone = 0 4 4 1 2", "zone_offset = 1", "zone_spares = 3",
		"zone_slips = 3 7", "zone_defects = 10:38", "seek = 1 1.5", "seek = 10 4.0",
		"head_switch_ms = 0.25", "write_settle_ms = 0.5", "interface_mb_s = 5.12",
		"read_hit_overhead_ms = 0.2 0", "cache_segments = 4", "cache_segment_blocks = 64",
		"write_settle_on_head_switch = on", "readahead = off",
		"write_cache = off", "queue_depth = 1",
		"# not expressed: Allow sneaky full read hits = 0",
		"# not expressed: Percent error in rpms = 0.1",
	};
	struct hd_sim_model *m;
	char err[256];
	size_t i;

	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		has_line(t, lines[i]);
	/* The output is a model: 40 sectors less 3 spares. */
	ck_assert_msg(hd_sim_model_parse(t, strlen(t), "imported", &m, err, sizeof(err)) == 0, "%s", err);
	ck_assert_uint_eq(m->sectors, 37);
	hd_sim_model_free(m);
	free(t);
}
END_TEST

START_TEST(test_parv)
{
	char *t;

	tu_writef("p.parv",
		  "disksim_bus B0 { Read block transfer time = 0.0, Write block transfer time = 0.0 }\n"
		  "disksim_bus B1 {\n  Read block transfer time = 0.2,\n  Write block transfer time = 0.25\n}\n"
		  "disksim_ctlr C0 { Bulk sector transfer time = 0.0, Scale for delays = 0.0 }\n"
		  "source d.diskspecs\n"
		  "disksim_disk D2 { Model = source sub/m.model, Bulk sector transfer time = 0.1 }\n"
		  "instantiate [ bus0 ] as B0\n"
		  "instantiate [ bus1 ] as B1\n"
		  "instantiate [ ctlr0 ] as C0\n"
		  "instantiate [ disk0 .. disk2 ] as D2\n"
		  "topology disksim_iodriver driver0 [\n"
		  "  disksim_bus bus0 [ disksim_ctlr ctlr0 [ disksim_bus bus1 [ disksim_disk disk0 [] ] ] ]\n"
		  "]\n");
	/* The instantiated disk; its bus's block time (0.2 ms) is the largest. */
	t = import_ok(tu_path("p.parv"), NULL);
	has_line(t, "name = D2");
	/* Writes at the bus's write block time (0.25 ms). */
	has_line(t, "interface_mb_s = 2.56 2.048");
	free(t);
	/* --disk names another block, or an instance of the range. */
	t = import_ok(tu_path("p.parv"), "D1");
	has_line(t, "name = D1");
	free(t);
	t = import_ok(tu_path("p.parv"), "disk2");
	has_line(t, "name = D2");
	free(t);
}
END_TEST

START_TEST(test_hplplus10)
{
	char *t, *m = strdup(model_txt), *p = strstr(m, "    Seek type = extracted,\n    Full seek curve = c.seek,\n");
	char buf[4096];

	ck_assert_ptr_nonnull(p);
	*p = '\0';
	snprintf(buf, sizeof(buf), "%s    Seek type = hplplus10,\n"
		 "    HPL seek equation values = [ 300, 3.81, 0.33, 7.75, 0.0059, -1.0 ],\n"
		 "    First ten seek times = [ 2.89, 3.68, 3.81, 3.98, 4.27, 4.65, 4.52, 4.65, 4.82, 4.99 ],\n%s",
		 m, p + strlen("    Seek type = extracted,\n    Full seek curve = c.seek,\n"));
	free(m);
	tu_writef("sub/m.model", "%s", buf);
	t = import_ok(tu_path("d.diskspecs"), NULL);
	has_line(t, "seek_model = 3.81 0.33 300 7.75 0.0059");
	has_line(t, "seek_first10 = 2.89 3.68 3.81 3.98 4.27 4.65 4.52 4.65 4.82 4.99");
	free(t);
}
END_TEST

/* Inputs (d.diskspecs, or the model in sub/m.model) and the error they give. */
static const struct {
	const char *file, *text;
	const char *where;		/* the file named in the message */
	unsigned line;
	const char *reason;
} bad[] = {
	{ "d.diskspecs", "disksim_disk D {\n  Model = 3\n  X = 1\n}\n", "d.diskspecs", 3,
	  "expected ',' or '}' after 'Model', found a word" },
	{ "d.diskspecs", "disksim_disk D {\n  Model = [ 1, 2\n}\n", "d.diskspecs", 3,
	  "expected ',' or ']' in a list, found '}'" },
	{ "d.diskspecs", "disksim_disk D {\n  Model = 3,\n", "d.diskspecs", 2,
	  "expected a parameter name, found the end of the file" },
	{ "d.diskspecs", "# nothing\n  source\n", "d.diskspecs", 2, "source: missing the file name" },
	{ "d.diskspecs", "disksim_disk D { = 1 }\n", "d.diskspecs", 1, "expected a parameter name, found '='" },
	{ "d.diskspecs", "disksim_disk D { }\ndisksim_disk E { }\n", "d.diskspecs", 0,
	  "several disksim_disk blocks (D, E, ...): choose one with --disk NAME" },
	{ "d.diskspecs", "disksim_disk D {\n  Model = dm_disk M { Number of data surfaces = 2 }\n}\n",
	  "d.diskspecs", 2, "dm_disk: missing 'Layout Model'" },
	{ "d.diskspecs", "source d.diskspecs\n", "d.diskspecs", 1, "source: files nested more than 16 deep" },
	{ "sub/m.model", "dm_disk M { Number of data surfaces = 2,\n Layout Model = dm_layout_g1 {\n  Sparing scheme used = 8,\n",
	  "sub/m.model", 3, "Sparing scheme used = 8: not supported (0, 1, 2, 3, 7 and 9 are)" },
};

START_TEST(test_errors)
{
	char err[1024], want[2048], *text = NULL;
	size_t len;
	int rc;

	tu_writef(bad[_i].file, "%s", bad[_i].text);
	if (strcmp(bad[_i].file, "sub/m.model") == 0) {
		/* A model cut short is read up to the error: complete it for the parser. */
		tu_writef(bad[_i].file, "%s  Zones = [ ] },\n Mechanical Model = dm_mech_g1 { Rotation speed (in rpms) = 1 }\n}\n",
			  bad[_i].text);
	}
	rc = hd_sim_import(tu_path("d.diskspecs"), NULL, &text, &len, err, sizeof(err));
	ck_assert_int_eq(rc, -EINVAL);
	if (bad[_i].line)
		snprintf(want, sizeof(want), "%s:%u: %s", tu_path(bad[_i].where), bad[_i].line, bad[_i].reason);
	else
		snprintf(want, sizeof(want), "%s: %s", tu_path(bad[_i].where), bad[_i].reason);
	ck_assert_str_eq(err, want);
}
END_TEST

START_TEST(test_missing_files)
{
	char err[1024], want[2048], *text = NULL;
	size_t len;

	ck_assert_int_eq(hd_sim_import(tu_path("none.parv"), NULL, &text, &len, err, sizeof(err)), -ENOENT);
	snprintf(want, sizeof(want), "open %s: No such file or directory", tu_path("none.parv"));
	ck_assert_str_eq(err, want);
	tu_writef("d.diskspecs", "disksim_disk D { Model = source sub/none.model }\n");
	ck_assert_int_eq(hd_sim_import(tu_path("d.diskspecs"), NULL, &text, &len, err, sizeof(err)), -ENOENT);
	snprintf(want, sizeof(want), "open %s: No such file or directory", tu_path("sub/none.model"));
	ck_assert_str_eq(err, want);
}
END_TEST

START_TEST(test_layout_refused)
{
	const char *p = strstr(model_txt, "slips = [ 3, 7 ]");
	char err[1024], want[2048], *text = NULL;
	size_t len;

	ck_assert_ptr_nonnull(p);
	/* The zone has 40 sectors. */
	tu_writef("sub/m.model", "%.*sslips = [ 3, 40 ]%s", (int)(p - model_txt), model_txt,
		  p + strlen("slips = [ 3, 7 ]"));
	ck_assert_int_eq(hd_sim_import(tu_path("d.diskspecs"), NULL, &text, &len, err, sizeof(err)), -EINVAL);
	snprintf(want, sizeof(want), "%s:14: slips: 40 lies beyond the zone's 40 sectors", tu_path("sub/m.model"));
	ck_assert_str_eq(err, want);
}
END_TEST

START_TEST(test_two_instantiated)
{
	char err[1024], want[2048], *text = NULL;
	size_t len;

	tu_writef("p.parv", "source d.diskspecs\n"
		  "disksim_disk D2 { Model = source sub/m.model }\n"
		  "instantiate [ disk0 ] as D1\ninstantiate [ disk1 ] as D2\n");
	ck_assert_int_eq(hd_sim_import(tu_path("p.parv"), NULL, &text, &len, err, sizeof(err)), -EINVAL);
	snprintf(want, sizeof(want), "%s: disks D1 and D2 are both instantiated: choose one with --disk NAME",
		 tu_path("p.parv"));
	ck_assert_str_eq(err, want);
	text = import_ok(tu_path("p.parv"), "disk1");
	has_line(text, "name = D2");
	free(text);
}
END_TEST

/* A line that must not be in text. */
static void no_line(const char *text, const char *line)
{
	const char *p = text;
	size_t n = strlen(line);

	while ((p = strstr(p, line))) {
		ck_assert_msg(!((p == text || p[-1] == '\n') && (p[n] == '\n' || p[n] == '\0')),
			      "line '%s' in:\n%s", line, text);
		p += n;
	}
}

/*
 * DiskSim's disconnection: the water mark, the disconnect and reselect
 * overheads (times the Time scale for overheads, not the inter-disconnect
 * delay nor the minimum seek), the extra write disconnect; without holding
 * the bus for a read no read_watermark, and the parameters listed as not
 * expressed; Never disconnect: never.
 */
START_TEST(test_disconnects)
{
	static const char *const want[] = {
		"read_watermark = 0.75", "read_disconnect_overhead_ms = 0.04 0.08",
		"write_disconnect_overhead_ms = 0.32", "reselect_other_overhead_ms = 0.24",
		"extra_write_disconnect_ms = 1.2 0.1 0.4 0.2 0.5", "min_write_seek_ms = 0.6",
	};
	const char *d = "disksim_disk D1 {\n  Model = source sub/m.model,\n  Time scale for overheads = 2,\n"
			"  Hold bus entire read xfer = %d,\n  Never disconnect = %d,\n  High (read) water mark = 0.75,\n"
			"  Set watermark by reqsize = 1,\n  Read disconnect afterread = 0.02,\n"
			"  Read disconnect afterwrite = 0.04,\n  Write disconnect overhead = 0.16,\n"
			"  Other reselect overhead = 0.12,\n  Extra write disconnect = 1,\n"
			"  Extradisc command overhead = 0.6,\n  Extradisc disconnect overhead = 0.05,\n"
			"  Extradisc inter-disconnect delay = 0.4,\n  Extradisc 2nd disconnect overhead = 0.1,\n"
			"  Extradisc seek delta = 0.25,\n  Minimum seek delay = 0.6,\n  Calc sector by sector = 1\n}\n";
	char *t;
	size_t i;

	tu_writef("x.diskspecs", d, 1, 0);
	t = import_ok(tu_path("x.diskspecs"), NULL);
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		has_line(t, want[i]);
	ck_assert_ptr_null(strstr(t, "not expressed: Calc sector by sector"));
	ck_assert_ptr_null(strstr(t, "not expressed: Minimum seek delay"));
	free(t);
	tu_writef("x.diskspecs", d, 0, 0);
	t = import_ok(tu_path("x.diskspecs"), NULL);
	no_line(t, "read_watermark = 0.75");
	has_line(t, "# not expressed: Hold bus entire read xfer = 0");
	has_line(t, "# not expressed: High (read) water mark = 0.75");
	has_line(t, "write_disconnect_overhead_ms = 0.32");
	free(t);
	tu_writef("x.diskspecs", d, 0, 1);
	t = import_ok(tu_path("x.diskspecs"), NULL);
	has_line(t, "read_watermark = never");
	free(t);
}
END_TEST

/* Every row of the import table is documented in data/drives/README.md. */
START_TEST(test_table_documented)
{
	FILE *f = fopen(HDDSCOPE_SRC_DIR "/data/drives/README.md", "r");
	static char doc[1 << 20];
	size_t n, i, rows;
	const struct hd_sim_import_row *r = hd_sim_import_table(&rows);

	ck_assert_ptr_nonnull(f);
	n = fread(doc, 1, sizeof(doc) - 1, f);
	doc[n] = '\0';
	fclose(f);
	ck_assert_ptr_nonnull(strstr(doc, "## Importing DiskSim models"));
	for (i = 0; i < rows; i++) {
		char row[512];

		snprintf(row, sizeof(row), "| %s | %s | ", r[i].block, r[i].param);
		ck_assert_msg(strstr(doc, row), "README has no row '%s'", row);
		if (r[i].key && strcmp(r[i].key, "-") != 0) {
			char key[128];

			snprintf(key, sizeof(key), "`%s`", r[i].key);
			ck_assert_msg(strstr(strstr(doc, row), key) < strstr(strstr(doc, row), "\n"),
				      "README's row '%s' does not name %s", row, key);
		}
	}
}
END_TEST

int main(void)
{
	return tu_main("sim_import", "import", setup, tu_rmdir,
		       TU_TESTS(TU_TEST(test_diskspecs), TU_TEST(test_parv), TU_TEST(test_hplplus10),
				TU_LOOP(test_errors, bad), TU_TEST(test_missing_files),
				TU_TEST(test_layout_refused), TU_TEST(test_two_instantiated), TU_TEST(test_table_documented),
				TU_TEST(test_disconnects)));
}
