/*
 * Importing DiskSim 4.0 drive models (src/sim/sim_import.c): a .parv or
 * .diskspecs file, with the files it sources and the seek curves its
 * models name, read into the text of a drive model (format 1).  What each
 * DiskSim parameter becomes is the table below, documented in
 * data/drives/README.md, "Importing DiskSim models".
 */
#ifndef HDDSCOPE_SIM_IMPORT_H
#define HDDSCOPE_SIM_IMPORT_H

#include <stddef.h>

/*
 * Import the disk of path: disk names a disksim_disk block or an instance
 * of one (NULL: the one instantiated, or the only one defined).  Returns 0
 * and *text (malloc'd, NUL-terminated model text of *len bytes), or
 * -EINVAL (malformed or unsupported input), -ENOMEM, another -errno or an
 * fsutil.h HD_E* code for a file that cannot be read, with
 * "FILE:LINE: reason" (or "FILE: reason") in err.
 */
int hd_sim_import(const char *path, const char *disk, char **text, size_t *len, char *err, size_t errlen);

/* One row of the table: a DiskSim parameter and what it becomes. */
struct hd_sim_import_row {
	const char *block;		/* disk, model, layout, zone, mech, bus, ctlr */
	const char *param;		/* DiskSim's name */
	const char *key;		/* the .drive key; "-": nothing to express; NULL: not expressed */
	const char *note;
};

const struct hd_sim_import_row *hd_sim_import_table(size_t *n);

#endif
