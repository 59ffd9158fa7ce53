/*
 * Where each LBA lies on the platters (data/drives/README.md, "Layout"):
 * zones, their cylinders, surfaces and sectors per track, the skews that
 * place each track's first sector, and DiskSim's layout_g1 beyond them:
 * the sparing scheme, spare sectors or tracks, empty space at a zone's
 * front, slipped sectors and remapped defects.  The public mapping (LBA
 * <-> cylinder/surface/sector, a sector's angle) is declared in sim.h; the
 * engine walks transfers with the cursor of sim_layout.h.
 *
 * A zone's physical sectors are numbered slot = ((cyl - first_cyl) *
 * surfaces + surface) * spt + sector.  Each sparing scheme says which slot
 * an LBA of the zone lands on, as DiskSim 4.0's layout_g1 does (the
 * README's table); slips are kept sorted, so that counting the slips
 * before a place is a binary search and nothing is allocated per access.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static const struct hd_sim_zone *zone_of_cyl(const struct hd_sim_model *m, uint32_t cyl)
{
	return zone_search(m, cyl, 1);
}

/* ---- the sparing schemes ---- */

/* The first index whose value is at least key. */
static size_t lower_bound(const uint64_t *a, size_t n, uint64_t key)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (a[mid] < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Slips listed out of order are applied in the order listed (as DiskSim
 * does), which takes a walk over the whole list.  The walk counts a slip
 * at or after the unit's first slot only when it lies within x + (the
 * count so far) of it, so with no slip in [first, first + x + nslips] (j:
 * the first slip at or after first, in ascending order) every slip before
 * first counts and no other does, whatever the order: no walk needed.
 */
static int listed_near(const struct hd_sim_zone *z, size_t j, uint64_t end)
{
	return j < z->nslips && z->slips[j] <= end + z->nslips;
}

/*
 * The slips a place x moves past when each slip at or before it pushes it
 * on by one: the longest prefix of slips with slips[i] <= x + i, found on
 * their running maximum of slips[i] - i.
 */
static size_t skip_count(const struct hd_sim_zone *z, uint64_t x)
{
	size_t lo = 0, hi = z->nslips;

	/*
	 * Slips listed out of order count in the order listed, as DiskSim
	 * counts them; a slip at or before x always counts and one past x +
	 * nslips never does, so the order matters only with a slip in between.
	 */
	if (z->slips_listed && listed_near(z, lower_bound(z->slips, z->nslips, x + 1), x)) {
		for (lo = 0, hi = 0; lo < z->nslips; lo++)
			hi += z->slips_listed[lo] <= x + hi;
		return hi;
	}

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (z->slip_max[mid] <= x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static const struct hd_sim_remap *defect_at(const struct hd_sim_zone *z, uint64_t x)
{
	size_t lo = 0, hi = z->ndefects;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (z->defects[mid].defect < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < z->ndefects && z->defects[lo].defect == x ? &z->defects[lo] : NULL;
}

/* The first defect above x, or UINT64_MAX. */
static uint64_t defect_after(const struct hd_sim_zone *z, uint64_t x)
{
	size_t lo = 0, hi = z->ndefects;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (z->defects[mid].defect <= x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < z->ndefects ? z->defects[lo].defect : UINT64_MAX;
}

static uint64_t min64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/*
 * The sectors sparing 2 and 3 push a track's sector 0 on by: one per slip
 * of the zone before the track's cylinder (2) or before the track (3), as
 * DiskSim's angles have it.
 */
static uint32_t slip_skew(const struct hd_sim_model *m, const struct hd_sim_zone *z, uint64_t crel,
			  uint32_t surf)
{
	uint64_t cut = crel * m->surfaces;

	if (!z->nslips || (m->sparing != HD_SPARE_CYL && m->sparing != HD_SPARE_TRACK_SECT))
		return 0;
	if (m->sparing == HD_SPARE_TRACK_SECT)
		cut += surf;
	return (uint32_t)lower_bound(z->slips, z->nslips, cut * z->spt);
}

/* Sparing 2 and 7: spares at each cylinder's end; 7 counts the slips of every cylinder before. */
static uint64_t map_per_cyl(const struct hd_sim_model *m, const struct hd_sim_zone *z, uint64_t r,
			    int remap, uint64_t *run)
{
	uint64_t C = (uint64_t)z->spt * m->surfaces, L = C - z->spares, cyl = r / L, x = r % L;
	uint64_t first = cyl * C, xv;
	size_t j = lower_bound(z->slips, z->nslips, first), k = j;
	uint64_t c0 = m->sparing == HD_SPARE_AT_END ? j : 0;
	const struct hd_sim_remap *d;

	if (z->slips_listed && listed_near(z, j, first + x)) {
		size_t i, c = 0;

		for (i = 0; i < z->nslips; i++) {
			uint64_t s = z->slips_listed[i];

			c += (m->sparing == HD_SPARE_AT_END && s < first) || (s >= first && s <= first + x + c);
		}
		/* No bound from the next slip (k at the end): zone_place checks the run. */
		j = k = z->nslips;
		c0 = c;
	} else if (z->slips_listed) {
		/* No slip near: the order they are listed in cannot matter. */
		j = k = z->nslips;
	} else {
		while (k < z->nslips && z->slips[k] <= first + x + c0 + (k - j))
			k++;
	}
	xv = x + c0 + (k - j);
	if (remap && (d = defect_at(z, first + xv)) && d->remap != d->defect) {
		*run = 1;
		return d->remap;
	}
	*run = L - x;
	if (k < z->nslips)
		*run = min64(*run, z->slips[k] - (first + xv));
	if (xv < L) {
		*run = min64(*run, L - xv);
		return first + xv;
	}
	/* Slipped past the cylinder's LBAs: on into the next cylinder, as DiskSim has it. */
	return (cyl + xv / L) * C + xv % L;
}

/* Sparing 3: spares at each track's end, slips within the track. */
static uint64_t map_per_track(const struct hd_sim_zone *z, uint64_t r, int remap, uint64_t *run)
{
	uint64_t S = z->spt, L = S - z->spares, t = r / L, x = r % L, first = t * S, slot;
	size_t j = lower_bound(z->slips, z->nslips, first), k = j;
	const struct hd_sim_remap *d;

	if (z->slips_listed && listed_near(z, j, first + x)) {
		size_t i, c = 0;

		for (i = 0; i < z->nslips; i++)
			c += z->slips_listed[i] >= first && z->slips_listed[i] <= first + x + c;
		/* No bound from the next slip (k at the end): zone_place checks the run. */
		j = k = z->nslips;
		slot = first + x + c;
	} else if (z->slips_listed) {
		j = k = z->nslips;
		slot = first + x;
	} else {
		while (k < z->nslips && z->slips[k] <= first + x + (k - j))
			k++;
		slot = first + x + (k - j);
	}
	if (remap && (d = defect_at(z, slot))) {
		*run = 1;
		return d->remap;
	}
	*run = L - x;
	if (k < z->nslips)
		*run = min64(*run, z->slips[k] - slot);
	return slot;
}

/*
 * The slot of the zone's LBA rel (remap: defects go where they were
 * remapped) and the LBAs from it on consecutive slots, at most.
 */
static uint64_t zone_slot(const struct hd_sim_model *m, const struct hd_sim_zone *z, uint64_t rel,
			  int remap, uint64_t *run)
{
	uint64_t r = rel + z->empty, S = z->spt, slot, t;
	const struct hd_sim_remap *d;
	size_t c;

	*run = UINT64_MAX;
	switch (m->sparing) {
	case HD_SPARE_TRACK:
		t = r / S;
		t += skip_count(z, t);
		if (remap && (d = defect_at(z, t)))
			t = d->remap;
		return t * S + r % S;
	case HD_SPARE_TRACK_SECT:
		return map_per_track(z, r, remap, run);
	case HD_SPARE_CYL:
	case HD_SPARE_AT_END:
		return map_per_cyl(m, z, r, remap, run);
	case HD_SPARE_ZONE:
		c = skip_count(z, r);
		slot = r + c;
		if (c < z->nslips && !z->slips_listed)
			*run = z->slips[c] - slot;
		break;
	default:
		slot = r;
		break;
	}
	if (remap && (d = defect_at(z, slot)) && d->remap != d->defect) {
		*run = 1;
		return d->remap;
	}
	return slot;
}

/*
 * With slips listed out of order, an LBA may move on where no slip lies:
 * the run is the longest stretch of at most run LBAs whose slots follow
 * one another (slots rise with the LBA, so the stretch is found by halving).
 */
static uint64_t listed_run(const struct hd_sim_model *m, const struct hd_sim_zone *z, uint64_t rel,
			   uint64_t slot, uint64_t run)
{
	uint64_t lo = 1, hi = run, r;

	if (zone_slot(m, z, rel + run - 1, 0, &r) == slot + run - 1)
		return run;
	while (hi - lo > 1) {
		uint64_t mid = lo + (hi - lo) / 2;

		if (zone_slot(m, z, rel + mid - 1, 0, &r) == slot + mid - 1)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* The zone's LBA rel: its place, and the LBAs on consecutive sectors from it. */
static void zone_place(const struct hd_sim_model *m, const struct hd_sim_zone *z, uint64_t rel,
		       struct hd_sim_loc *l)
{
	uint64_t run, slot = zone_slot(m, z, rel, 1, &run), S = z->spt, C = S * m->surfaces, crel, tr;

	/* Two divisions, not three: the slot within the cylinder, then within the track. */
	crel = slot / C;
	tr = (slot - crel * C) / S;
	l->z = z;
	l->cyl = z->first_cyl + (uint32_t)crel;
	l->surf = (uint32_t)tr;
	l->sec = (uint32_t)(slot - crel * C - tr * S);
	/* A defect further on the track is remapped: the run stops before it. */
	if (run > 1 && m->sparing != HD_SPARE_TRACK)
		run = min64(run, defect_after(z, slot) - slot);
	run = min64(run, S - l->sec);
	run = min64(run, z->lbas - rel);
	if (z->slips_listed && run > 1 && listed_near(z, lower_bound(z->slips, z->nslips, slot), slot + run))
		run = listed_run(m, z, rel, slot, run);
	l->run = (uint32_t)run;
	l->skew = slip_skew(m, z, crel, l->surf);
}

/* ---- the public mapping ---- */

int hd_sim_lba_to_chs(const struct hd_sim_model *m, uint64_t lba, struct hd_sim_chs *chs)
{
	struct hd_sim_loc l;

	if (lba >= m->sectors)
		return -ERANGE;
	hd_sim_locate(m, lba, &l);
	chs->cyl = l.cyl;
	chs->surface = l.surf;
	chs->sector = l.sec;
	return 0;
}

/* The zone's LBA on slot, or -ERANGE: the mapping rises with the LBA, but for remaps. */
static int zone_unslot(const struct hd_sim_model *m, const struct hd_sim_zone *z, uint64_t slot,
		       uint64_t *rel)
{
	int track = m->sparing == HD_SPARE_TRACK;
	uint64_t lo = 0, hi = z->lbas, run, want = slot, unit = track ? slot / z->spt : slot;
	size_t i;

	/* A remap target holds the LBA that would have been on its defect. */
	for (i = 0; i < z->ndefects; i++)
		if (z->defects[i].remap == unit && z->defects[i].defect != unit) {
			want = track ? z->defects[i].defect * z->spt + slot % z->spt : z->defects[i].defect;
			break;
		}
	while (hi - lo > 1) {
		uint64_t mid = lo + (hi - lo) / 2;

		if (zone_slot(m, z, mid, 0, &run) <= want)
			lo = mid;
		else
			hi = mid;
	}
	if (zone_slot(m, z, lo, 0, &run) != want || zone_slot(m, z, lo, 1, &run) != slot)
		return -ERANGE;
	*rel = lo;
	return 0;
}

int hd_sim_chs_to_lba(const struct hd_sim_model *m, const struct hd_sim_chs *chs, uint64_t *lba)
{
	const struct hd_sim_zone *z = zone_of_cyl(m, chs->cyl);
	uint64_t slot, rel;
	int rc;

	if (chs->cyl < z->first_cyl || chs->cyl > z->last_cyl || chs->surface >= m->surfaces ||
	    chs->sector >= z->spt)
		return -ERANGE;
	slot = ((uint64_t)(chs->cyl - z->first_cyl) * m->surfaces + chs->surface) * z->spt + chs->sector;
	if (z->plain) {
		*lba = z->first_lba + slot;
		return 0;
	}
	if ((rc = zone_unslot(m, z, slot, &rel)))
		return rc;
	*lba = z->first_lba + rel;
	return 0;
}

/*
 * Each head switch shifts the next track by track_skew sectors and each
 * cylinder switch by cyl_skew, so that a sequential transfer finds the
 * next track's first sector just arriving after the switch; the zone's
 * first track starts first_offset sectors after the index.
 */
static double angle_of(const struct hd_sim_model *m, const struct hd_sim_zone *z, uint64_t c,
		       uint32_t surf, uint32_t sec, uint32_t skew)
{
	uint64_t off = c * ((uint64_t)(m->surfaces - 1) * z->track_skew + z->cyl_skew) +
		       (uint64_t)surf * z->track_skew + z->first_offset + skew;

	return (double)((off + sec) % z->spt) / z->spt;
}

double hd_sim_sector_angle(const struct hd_sim_model *m, const struct hd_sim_chs *chs)
{
	const struct hd_sim_zone *z = zone_of_cyl(m, chs->cyl);
	uint64_t c = chs->cyl - z->first_cyl;

	return angle_of(m, z, c, chs->surface, chs->sector, slip_skew(m, z, c, chs->surface));
}

/* ---- the engine's cursor ---- */

void hd_sim_locate(const struct hd_sim_model *m, uint64_t lba, struct hd_sim_loc *l)
{
	uint64_t rel, per_cyl;

	l->z = hd_sim_zone_of_lba(m, lba);
	l->lba = lba;
	rel = lba - l->z->first_lba;
	if (!l->z->plain) {
		zone_place(m, l->z, rel, l);
		return;
	}
	per_cyl = (uint64_t)l->z->spt * m->surfaces;
	l->cyl = l->z->first_cyl + (uint32_t)(rel / per_cyl);
	rel %= per_cyl;
	l->surf = (uint32_t)(rel / l->z->spt);
	l->sec = (uint32_t)(rel % l->z->spt);
	l->run = l->z->spt - l->sec;
	l->skew = 0;
}

void hd_sim_next_track(const struct hd_sim_model *m, struct hd_sim_loc *l)
{
	l->lba += l->run;
	if (!l->z->plain) {
		hd_sim_locate(m, l->lba, l);
		return;
	}
	l->sec = 0;
	if (++l->surf >= m->surfaces) {
		l->surf = 0;
		if (++l->cyl > l->z->last_cyl && l->z < m->zones + m->nzones - 1) {
			l->z++;
			if (!l->z->plain) {
				hd_sim_locate(m, l->lba, l);
				return;
			}
			l->cyl = l->z->first_cyl;
		}
	}
	l->run = l->z->spt;
}

double hd_sim_loc_angle(const struct hd_sim_model *m, const struct hd_sim_loc *l)
{
	return angle_of(m, l->z, l->cyl - l->z->first_cyl, l->surf, l->sec, l->skew);
}

/* ---- preparing a model's layout ---- */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int cmp_remap(const void *a, const void *b)
{
	return cmp_u64(&((const struct hd_sim_remap *)a)->defect, &((const struct hd_sim_remap *)b)->defect);
}

/* The sectors a zone's sparing takes from its LBAs, beyond the empty space. */
static uint64_t spare_sectors(const struct hd_sim_model *m, const struct hd_sim_zone *z, uint64_t ncyl)
{
	switch (m->sparing) {
	case HD_SPARE_TRACK: return z->spares * z->spt;
	case HD_SPARE_CYL: return z->spares * ncyl;
	case HD_SPARE_TRACK_SECT: return z->spares * ncyl * m->surfaces;
	case HD_SPARE_AT_END: return z->nslips;
	case HD_SPARE_ZONE: return z->spares;
	default: return 0;
	}
}

/* One zone's checks and computed fields; the reason in why. */
static int zone_prepare(const struct hd_sim_model *m, struct hd_sim_zone *z, char *why, size_t whylen)
{
	uint64_t ncyl = (uint64_t)z->last_cyl - z->first_cyl + 1, slots = ncyl * m->surfaces * z->spt;
	uint64_t units = m->sparing == HD_SPARE_TRACK ? ncyl * m->surfaces : slots, per, taken;
	size_t i;

	per = m->sparing == HD_SPARE_TRACK_SECT ? z->spt :
	      m->sparing == HD_SPARE_CYL || m->sparing == HD_SPARE_AT_END ? slots / ncyl : units;
	if (z->spares >= per && m->sparing != HD_SPARE_NONE && m->sparing != HD_SPARE_AT_END) {
		snprintf(why, whylen, "zone_spares: %llu leave no sector for an LBA",
			 (unsigned long long)z->spares);
		return -EINVAL;
	}
	for (i = 1; i < z->nslips && z->slips[i - 1] <= z->slips[i]; i++)
		;
	if (z->nslips > 1 && i < z->nslips) {
		if (!(z->slips_listed = malloc(z->nslips * sizeof(*z->slips_listed)))) {
			snprintf(why, whylen, "out of memory");
			return -ENOMEM;
		}
		memcpy(z->slips_listed, z->slips, z->nslips * sizeof(*z->slips));
	}
	if (z->nslips)
		qsort(z->slips, z->nslips, sizeof(*z->slips), cmp_u64);
	if (z->ndefects)
		qsort(z->defects, z->ndefects, sizeof(*z->defects), cmp_remap);
	for (i = 0; i < z->nslips; i++)
		if (z->slips[i] >= units) {
			snprintf(why, whylen, "zone_slips: %llu is beyond the zone's %llu %s",
				 (unsigned long long)z->slips[i], (unsigned long long)units,
				 units == slots ? "sectors" : "tracks");
			return -EINVAL;
		}
	for (i = 0; i < z->ndefects; i++)
		if (z->defects[i].defect >= units || z->defects[i].remap >= units ||
		    (i && z->defects[i].defect == z->defects[i - 1].defect)) {
			snprintf(why, whylen, "zone_defects: %llu:%llu is beyond the zone's %llu %s or repeats a defect",
				 (unsigned long long)z->defects[i].defect,
				 (unsigned long long)z->defects[i].remap, (unsigned long long)units,
				 units == slots ? "sectors" : "tracks");
			return -EINVAL;
		}
	taken = spare_sectors(m, z, ncyl);
	if (z->empty >= slots || taken >= slots - z->empty) {
		snprintf(why, whylen, "zone: empty space and spares leave no sector for an LBA");
		return -EINVAL;
	}
	z->lbas = slots - z->empty - taken;
	z->plain = z->lbas == slots && !z->nslips && !z->ndefects;
	if (z->nslips && !(z->slip_max = malloc(z->nslips * sizeof(*z->slip_max)))) {
		snprintf(why, whylen, "out of memory");
		return -ENOMEM;
	}
	for (i = 0; i < z->nslips; i++) {
		uint64_t v = z->slips[i] >= i ? z->slips[i] - i : 0;

		z->slip_max[i] = i && z->slip_max[i - 1] > v ? z->slip_max[i - 1] : v;
	}
	return 0;
}

int hd_sim_layout_prepare(struct hd_sim_model *m, char *why, size_t whylen, size_t *zone)
{
	uint64_t lba = 0;
	size_t i;
	int rc;

	for (i = 0; i < m->nzones; i++) {
		struct hd_sim_zone *z = &m->zones[i];

		*zone = i;
		if ((rc = zone_prepare(m, z, why, whylen)))
			return rc;
		z->first_lba = lba;
		lba += z->lbas;
	}
	m->sectors = lba;
	m->cylinders = m->zones[m->nzones - 1].last_cyl + 1;
	return 0;
}

void hd_sim_layout_free(struct hd_sim_model *m)
{
	size_t i;

	for (i = 0; i < m->nzones; i++) {
		free(m->zones[i].slips);
		free(m->zones[i].slip_max);
		free(m->zones[i].slips_listed);
		free(m->zones[i].defects);
	}
}
