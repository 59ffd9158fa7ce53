/*
 * Fuzz harness: the drive-model parser (hd_sim_model_parse), which reads
 * "sim:FILE.drive" models written by users.  A model it accepts is one the
 * simulator will run, so beyond the parse the harness checks what the rest
 * of hddscope relies on: a non-empty drive whose capacity in bytes fits the
 * device interface's 63-bit offsets, zones in order, bad ranges sorted,
 * merged and inside the drive, LBA -> CHS -> LBA round trips, angles in
 * [0, 1), finite seek and revolution times; then a few timed accesses on a
 * fresh simulated drive must complete and move its clock forward by a
 * finite amount.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fuzz.h"
#include "hddscope/sim.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

static void check_lba(const struct hd_sim_model *m, uint64_t lba)
{
	struct hd_sim_chs chs;
	uint64_t back = 0;
	double a;

	FUZZ_CHECK(hd_sim_lba_to_chs(m, lba, &chs) == 0);
	FUZZ_CHECK(chs.cyl < m->cylinders && chs.surface < m->surfaces);
	FUZZ_CHECK(hd_sim_chs_to_lba(m, &chs, &back) == 0 && back == lba);
	a = hd_sim_sector_angle(m, &chs);
	FUZZ_CHECK(a >= 0 && a < 1);
}

/* A few accesses on a fresh drive; every one completes in finite, positive time. */
static void run_sim(const struct hd_sim_model *m, const uint8_t *data, size_t size)
{
	uint64_t sb = m->sector_bytes, bytes = m->sectors * sb;
	struct hd_sim *s;
	int64_t t = 0;

	FUZZ_CHECK(hd_sim_new(&s, m, 1) == 0);
	for (int i = 0; i < 8; i++) {
		/* Offsets spread over the drive, picked by the input's bytes. */
		uint64_t pick = size ? data[(size_t)i * 7919 % size] : 0;
		uint64_t off = (m->sectors - 1) / 255 * pick * sb;
		size_t len = (size_t)sb * (1 + (pick & 7));
		int rc, hit = 0;

		if (off + len > bytes)
			len = (size_t)sb;
		rc = hd_sim_io(s, i & 1 ? HD_OP_WRITE : HD_OP_READ, NULL, len, off, &hit);
		FUZZ_CHECK(rc == 0 || rc == -EIO);
		FUZZ_CHECK(hd_sim_now(s) >= t);
		t = hd_sim_now(s);
		hd_sim_idle(s, 1000000);
	}
	hd_sim_free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hd_sim_model *m = NULL;
	char err[512] = "";
	int rc;

	rc = hd_sim_model_parse((const char *)data, size, "fuzz.drive", &m, err, sizeof(err));
	if (rc) {
		FUZZ_CHECK(rc == -EINVAL || rc == -ENOMEM);
		FUZZ_CHECK(strncmp(err, "fuzz.drive:", 11) == 0);
		return 0;
	}
	FUZZ_CHECK(memchr(data, '\0', size) == NULL);
	FUZZ_CHECK(m->name[0] != '\0');
	FUZZ_CHECK(m->sectors > 0 && m->nzones > 0 && m->surfaces > 0);
	FUZZ_CHECK(m->sector_bytes >= 512 && (m->sector_bytes & (m->sector_bytes - 1)) == 0);
	/* Byte offsets are int64_t/off_t everywhere past the model. */
	FUZZ_CHECK(m->sectors <= (uint64_t)INT64_MAX / m->sector_bytes);
	FUZZ_CHECK(isfinite(hd_sim_rev_ms(m)) && hd_sim_rev_ms(m) > 0);
	for (size_t i = 0; i < m->nzones; i++) {
		const struct hd_sim_zone *z = &m->zones[i];

		FUZZ_CHECK(z->first_cyl <= z->last_cyl && z->spt > 0);
		FUZZ_CHECK(z->track_skew < z->spt && z->cyl_skew < z->spt);
		if (i) {
			FUZZ_CHECK(z->first_cyl > m->zones[i - 1].last_cyl);
			FUZZ_CHECK(z->first_lba > m->zones[i - 1].first_lba);
		}
	}
	FUZZ_CHECK(m->zones[0].first_lba == 0);
	FUZZ_CHECK(m->cylinders == m->zones[m->nzones - 1].last_cyl + 1);
	for (size_t i = 0; i < m->nbad; i++) {
		FUZZ_CHECK(m->bad[i].first <= m->bad[i].last && m->bad[i].last < m->sectors);
		/* Merged: adjacent or overlapping ranges are one. */
		if (i)
			FUZZ_CHECK(m->bad[i].first > m->bad[i - 1].last + 1);
	}
	check_lba(m, 0);
	check_lba(m, m->sectors - 1);
	check_lba(m, m->sectors / 2);
	for (size_t i = 0; i < m->nzones; i++)
		check_lba(m, m->zones[i].first_lba);
	for (uint64_t d = 1; d <= m->cylinders; d = d * 3 + 1) {
		double ms = hd_sim_seek_ms(m, d);

		FUZZ_CHECK(isfinite(ms) && ms >= 0);
	}
	run_sim(m, data, size);
	hd_sim_model_free(m);
	return 0;
}
