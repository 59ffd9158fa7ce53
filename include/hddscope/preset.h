/* Drive model files compiled into the binary from data/drives/. */
#ifndef HDDSCOPE_PRESET_H
#define HDDSCOPE_PRESET_H

#include <stddef.h>

struct hd_preset {
	const char *name;	/* file name without ".drive" */
	const char *text;	/* the whole model file, NUL-terminated */
	size_t len;
};

extern const struct hd_preset hd_presets[];	/* terminated by a NULL name */
extern const size_t hd_npresets;

/* The preset called name, or NULL. */
const struct hd_preset *hd_preset_find(const char *name);

#endif
