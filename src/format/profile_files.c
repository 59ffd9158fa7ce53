/* The one table of a profile directory's data files (profile_files.h). */
#include "hddscope/profile_files.h"

const struct hd_profile_file hd_profile_files[HD_PF_COUNT] = {
	[HD_PF_SEEK_READ] = { "seek-read", "seek", HD_PF_STEP | HD_PF_ACCESSES },
	[HD_PF_SEEK_WRITE] = { "seek-write", "seek", HD_PF_STEP | HD_PF_ACCESSES },
	[HD_PF_RESPONSE] = { "response", "response", HD_PF_STEP | HD_PF_ACCESSES },
	[HD_PF_MEDIA] = { "media", "media", HD_PF_STEP },
	[HD_PF_QUEUE_REQUESTS] = { "queue-requests", "queue", 0 },
	[HD_PF_QUEUE] = { "queue", "queue", HD_PF_STEP },
	[HD_PF_INTERVAL] = { "interval", "interval", HD_PF_STEP | HD_PF_ACCESSES },
	[HD_PF_BENCH] = { "bench", "bench", HD_PF_STEP },
	[HD_PF_ZONE] = { "zone", "zone", HD_PF_STEP },
	[HD_PF_INTERVAL_READ] = { "interval-read", "interval", HD_PF_STEP | HD_PF_ACCESSES },
	[HD_PF_CACHE] = { "cache", "cache", HD_PF_STEP },
	[HD_PF_LAYOUT] = { "layout", "layout", HD_PF_STEP },
};
