/*
 * Where each LBA lies on the platters (data/drives/README.md, "Layout"):
 * zones, their cylinders, surfaces and sectors per track, and the skews
 * that place each track's first sector.  The public mapping (LBA <->
 * cylinder/surface/sector, a sector's angle) is declared in sim.h; the
 * engine walks transfers with the cursor below.
 */
#include <errno.h>
#include <stdint.h>

#include "hddscope/sim.h"
#include "sim_layout.h"

/*
 * The last zone whose first LBA (by_cyl: first cylinder) is at most key:
 * zones lie in the order of both.
 */
static const struct hd_sim_zone *zone_search(const struct hd_sim_model *m, uint64_t key, int by_cyl)
{
	size_t lo = 0, hi = m->nzones;

	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;
		uint64_t first = by_cyl ? m->zones[mid].first_cyl : m->zones[mid].first_lba;

		if (first <= key)
			lo = mid;
		else
			hi = mid;
	}
	return &m->zones[lo];
}

const struct hd_sim_zone *hd_sim_zone_of_lba(const struct hd_sim_model *m, uint64_t lba)
{
	return zone_search(m, lba, 0);
}

int hd_sim_lba_to_chs(const struct hd_sim_model *m, uint64_t lba, struct hd_sim_chs *chs)
{
	const struct hd_sim_zone *z;
	uint64_t rel, per_cyl;

	if (lba >= m->sectors)
		return -ERANGE;
	z = hd_sim_zone_of_lba(m, lba);
	rel = lba - z->first_lba;
	per_cyl = (uint64_t)z->spt * m->surfaces;
	chs->cyl = z->first_cyl + (uint32_t)(rel / per_cyl);
	rel %= per_cyl;
	chs->surface = (uint32_t)(rel / z->spt);
	chs->sector = (uint32_t)(rel % z->spt);
	return 0;
}

static const struct hd_sim_zone *zone_of_cyl(const struct hd_sim_model *m, uint32_t cyl)
{
	return zone_search(m, cyl, 1);
}

int hd_sim_chs_to_lba(const struct hd_sim_model *m, const struct hd_sim_chs *chs, uint64_t *lba)
{
	const struct hd_sim_zone *z = zone_of_cyl(m, chs->cyl);

	if (chs->cyl < z->first_cyl || chs->cyl > z->last_cyl || chs->surface >= m->surfaces ||
	    chs->sector >= z->spt)
		return -ERANGE;
	*lba = z->first_lba + ((uint64_t)(chs->cyl - z->first_cyl) * m->surfaces + chs->surface) * z->spt +
	       chs->sector;
	return 0;
}

double hd_sim_sector_angle(const struct hd_sim_model *m, const struct hd_sim_chs *chs)
{
	const struct hd_sim_zone *z = zone_of_cyl(m, chs->cyl);
	uint64_t c = chs->cyl - z->first_cyl;
	/*
	 * Each head switch shifts the next track by track_skew sectors and each
	 * cylinder switch by cyl_skew, so that a sequential transfer finds the
	 * next track's first sector just arriving after the switch.
	 */
	uint64_t off = c * ((uint64_t)(m->surfaces - 1) * z->track_skew + z->cyl_skew) +
		       (uint64_t)chs->surface * z->track_skew;

	return (double)((off + chs->sector) % z->spt) / z->spt;
}

/* ---- the engine's cursor ---- */

void hd_sim_locate(const struct hd_sim_model *m, uint64_t lba, struct hd_sim_loc *l)
{
	uint64_t rel, per_cyl;

	l->z = hd_sim_zone_of_lba(m, lba);
	rel = lba - l->z->first_lba;
	per_cyl = (uint64_t)l->z->spt * m->surfaces;
	l->cyl = l->z->first_cyl + (uint32_t)(rel / per_cyl);
	rel %= per_cyl;
	l->surf = (uint32_t)(rel / l->z->spt);
	l->sec = (uint32_t)(rel % l->z->spt);
	l->run = l->z->spt - l->sec;
}

void hd_sim_next_track(const struct hd_sim_model *m, struct hd_sim_loc *l)
{
	l->sec = 0;
	if (++l->surf >= m->surfaces) {
		l->surf = 0;
		if (++l->cyl > l->z->last_cyl && l->z < m->zones + m->nzones - 1) {
			l->z++;
			l->cyl = l->z->first_cyl;
		}
	}
	l->run = l->z->spt;
}

double hd_sim_loc_angle(const struct hd_sim_model *m, const struct hd_sim_loc *l)
{
	const struct hd_sim_zone *z = l->z;
	uint64_t c = l->cyl - z->first_cyl;
	uint64_t off = c * ((uint64_t)(m->surfaces - 1) * z->track_skew + z->cyl_skew) +
		       (uint64_t)l->surf * z->track_skew;

	return (double)((off + l->sec) % z->spt) / z->spt;
}
