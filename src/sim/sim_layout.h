/*
 * The engine's cursor over the layout (src/sim/sim_layout.c): private to
 * src/sim.  A transfer starts with hd_sim_locate() and moves on run by run
 * with hd_sim_next_track(); the cursor says how many LBAs follow one
 * another on consecutive physical sectors from where it stands.
 *
 * A run ends at the track's end, and earlier where the layout interrupts
 * the LBAs: a slipped sector, a spare, a remapped defect (whose LBA is a
 * run of 1 on the track it was remapped to), the zone's end.  The next run
 * may therefore lie on the same track further on (after a slip or spare),
 * on another track altogether (a defect's remap and back), or on the next
 * track; the engine positions for every run (a seek, a head switch, or
 * nothing) and waits for its first sector's angle.  On a zone without
 * slips, spares, defects or empty space (z->plain) every run reaches the
 * track's end and the next run is the next track's sector 0, as before.
 */
#ifndef HDDSCOPE_SIM_LAYOUT_H
#define HDDSCOPE_SIM_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#include "hddscope/sim.h"

struct hd_sim_loc {
	const struct hd_sim_zone *z;	/* the zone of cyl */
	uint32_t cyl, surf, sec;	/* sec: the physical sector on the track */
	uint32_t run;			/* LBAs on consecutive sectors from sec (>= 1) */
	uint64_t lba;			/* the LBA at sec */
	uint32_t skew;			/* sectors the track's sector 0 lies further on for slips before it */
};

/* The place of lba, which must lie on the drive. */
void hd_sim_locate(const struct hd_sim_model *m, uint64_t lba, struct hd_sim_loc *l);
/* The place of the LBA after l's run (l->lba + l->run, which must lie on the drive). */
void hd_sim_next_track(const struct hd_sim_model *m, struct hd_sim_loc *l);
/* Where l's sector starts, as a fraction of a revolution from the index. */
double hd_sim_loc_angle(const struct hd_sim_model *m, const struct hd_sim_loc *l);

/*
 * For the model parser, once every zone is read: sorts each zone's slips
 * and defects, counts its LBAs and first LBA, sets m->sectors and
 * m->cylinders.  Returns 0, or -EINVAL with the reason in why and the
 * index of the zone at fault in *zone.
 */
int hd_sim_layout_prepare(struct hd_sim_model *m, char *why, size_t whylen, size_t *zone);
/* Frees what the zones hold (slips, defects), not the zones. */
void hd_sim_layout_free(struct hd_sim_model *m);

#endif
