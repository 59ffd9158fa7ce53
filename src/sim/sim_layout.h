/*
 * The engine's cursor over the layout (src/sim/sim_layout.c): private to
 * src/sim.  A transfer starts with hd_sim_locate() and moves on track by
 * track with hd_sim_next_track(); on each track the cursor says how many
 * LBAs follow one another on consecutive sectors from where it stands.
 */
#ifndef HDDSCOPE_SIM_LAYOUT_H
#define HDDSCOPE_SIM_LAYOUT_H

#include <stdint.h>

#include "hddscope/sim.h"

struct hd_sim_loc {
	const struct hd_sim_zone *z;	/* the zone of cyl */
	uint32_t cyl, surf, sec;	/* sec: the physical sector on the track */
	uint32_t run;			/* LBAs on consecutive sectors from sec to the track's end */
};

/* The place of lba, which must lie on the drive. */
void hd_sim_locate(const struct hd_sim_model *m, uint64_t lba, struct hd_sim_loc *l);
/* The first LBA's place on the track after l's (the next surface, then cylinder). */
void hd_sim_next_track(const struct hd_sim_model *m, struct hd_sim_loc *l);
/* Where l's sector starts, as a fraction of a revolution from the index. */
double hd_sim_loc_angle(const struct hd_sim_model *m, const struct hd_sim_loc *l);

#endif
