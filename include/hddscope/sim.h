/*
 * The simulated drive (data/drives/README.md): a drive model parsed from a
 * ".drive" file (format 1, documented in data/drives/README.md), the
 * geometry and mechanics computed from it, an engine that costs every
 * access on a virtual clock, and trace replay against that engine.
 *
 * Units: LBAs and sector numbers count the model's sectors (sector_bytes
 * each); the device backend (src/dev/simdev.c) exposes 512-byte logical
 * sectors on top of them.  Times are nanoseconds unless a name says _ms.
 */
#ifndef HDDSCOPE_SIM_H
#define HDDSCOPE_SIM_H

#include <stddef.h>
#include <stdint.h>

#include "hddscope/ioreq.h"

/* ---- the model ---- */

struct hd_sim_zone {
	uint32_t first_cyl, last_cyl;	/* inclusive */
	uint32_t spt;			/* sectors per track */
	uint32_t track_skew;		/* sectors, applied at each head switch */
	uint32_t cyl_skew;		/* sectors, applied at each cylinder switch */
	uint64_t first_lba;		/* computed: first LBA of the zone */
	/*
	 * The zone's layout beyond its tracks (DiskSim's layout_g1; see
	 * data/drives/README.md, "Layout"): zone_offset, zone_empty,
	 * zone_spares, zone_slips, zone_defects.  A slip or defect is a
	 * physical sector of the zone, (cyl - first_cyl) * surfaces * spt +
	 * surface * spt + sector, or a track of the zone, (cyl - first_cyl) *
	 * surfaces + surface, under track sparing.
	 */
	uint32_t first_offset;		/* sectors from the index to the first track's sector 0 */
	uint64_t empty;			/* physical sectors at the zone's front that hold no LBA */
	uint64_t spares;		/* spare sectors (tracks) per the model's sparing */
	uint64_t *slips;		/* sorted */
	size_t nslips;
	uint64_t *slip_max;		/* computed: max over j <= i of slips[j] - j */
	uint64_t *slips_listed;		/* computed: the slips as listed when not in ascending order, else NULL */
	struct hd_sim_remap *defects;	/* sorted by defect */
	size_t ndefects;
	uint64_t lbas;			/* computed: LBAs in the zone */
	int plain;			/* computed: LBA i of the zone on its physical sector i */
};

/* A remapped defect: the sector (track) and where its LBAs went instead. */
struct hd_sim_remap {
	uint64_t defect, remap;
};

/* How spare sectors are laid out: DiskSim's "Sparing scheme used" (number). */
enum hd_sim_sparing {
	HD_SPARE_NONE = 0,		/* no spares */
	HD_SPARE_TRACK = 1,		/* zone_spares whole tracks at the zone's end; slips are tracks */
	HD_SPARE_CYL = 2,		/* zone_spares sectors at the end of each cylinder */
	HD_SPARE_TRACK_SECT = 3,	/* zone_spares sectors at the end of each track */
	HD_SPARE_AT_END = 7,		/* per cylinder, slips pushed on to the zone's end */
	HD_SPARE_ZONE = 9,		/* zone_spares sectors at the zone's end */
};

struct hd_sim_seekpt {
	uint32_t dist;			/* cylinders, > 0, ascending */
	double ms;
};

struct hd_sim_badrange {
	uint64_t first, last;		/* inclusive, sorted, merged */
};

/* write_cache: off, on (a modern drive's write-back cache), DiskSim's fast write levels 1 and 2. */
enum hd_sim_wc { HD_SIM_WC_OFF, HD_SIM_WC_ON, HD_SIM_WC_APPEND, HD_SIM_WC_FLUSH };
/* write_combine: how append and flush take a write that continues the segment being written. */
enum hd_sim_wcomb { HD_SIM_WCOMB_DISKSIM, HD_SIM_WCOMB_STREAM };
/* readahead_join: which reads continue the read-ahead under way (DiskSim's "Allow almost read hits"). */
enum hd_sim_join { HD_SIM_JOIN_WINDOW, HD_SIM_JOIN_NEXT, HD_SIM_JOIN_OFF };
/*
 * read_watermark: how a read miss's data goes to the host (DiskSim's
 * disconnection and reselection): off (the key absent: from the first
 * sector on), never (the drive never disconnects), or once a fraction of
 * the segment or of the request is in the buffer.
 */
enum hd_sim_water { HD_SIM_WATER_SEGMENT, HD_SIM_WATER_REQUEST, HD_SIM_WATER_NEVER, HD_SIM_WATER_OFF };
/* readahead: DiskSim's "Buffer continuous read" 0..4. */
enum hd_sim_readahead { HD_SIM_RA_OFF, HD_SIM_RA_TRACK, HD_SIM_RA_CYLINDER, HD_SIM_RA_SEGMENT,
			HD_SIM_RA_STREAM };

struct hd_sim_model {
	char name[128];
	double rpm;
	uint32_t sector_bytes;
	uint32_t surfaces;
	struct hd_sim_zone *zones;
	size_t nzones;
	struct hd_sim_seekpt *seek;	/* NULL when seek_model is used */
	size_t nseek;
	struct hd_sim_seekpt *wseek;	/* the seek curve of writes; NULL: the read curve */
	size_t nwseek;
	int has_seek_model;
	double sm_a, sm_b, sm_knee, sm_c, sm_e;	/* A + B*sqrt(d) below KNEE, else C + E*d */
	double head_switch_ms, write_settle_ms;
	double read_overhead_ms, write_overhead_ms, cache_hit_overhead_ms;
	double interface_mb_s;		/* MB = 10^6 bytes */
	uint32_t cache_segments;
	uint64_t cache_segment_kb, readahead_kb;
	int write_cache;		/* enum hd_sim_wc */
	uint64_t write_cache_kb;
	uint32_t queue_depth;
	double seek_stddev_ms;
	double write_retry_probability;
	/*
	 * Faults that come with time (virtual hours since the drive was
	 * opened): the write-retry probability grows by
	 * write_retry_growth_per_hour each hour; bad_sectors_count sectors go
	 * bad at bad_sectors_after_hours (SMART shows them reallocated and
	 * pending); smart: the drive reports SMART (on where either fault is
	 * given).
	 */
	double write_retry_growth_per_hour;
	double bad_sectors_after_hours;
	uint64_t bad_sectors_count;
	int smart;
	struct hd_sim_badrange *bad;
	size_t nbad;
	/* the layout's spares (zones carry the rest) */
	enum hd_sim_sparing sparing;
	/* seek: the times of distances 1 to 10, with seek_model (DiskSim's hplplus10) */
	int has_seek_first10;
	double seek_first10[10];
	/*
	 * The controller and cache as DiskSim's disk has them (the engine's
	 * keys in data/drives/README.md).  Pairs: [0] after a read request or
	 * for reads, [1] after a write request or for writes.  The shorthands
	 * above (read_overhead_ms, ...) hold the [0] values after parsing.
	 */
	double read_miss_ovh_ms[2], read_hit_ovh_ms[2];	/* after a read, after a write */
	double write_miss_ovh_ms[2], write_hit_ovh_ms[2];
	double request_overhead_ms, completion_ovh_ms[2];	/* read, write */
	double interface_write_mb_s;	/* interface_mb_s is the read direction */
	int write_settle_on_head_switch;
	uint64_t cache_segment_blocks;	/* 512-byte blocks per segment, from either key */
	uint32_t write_segments;	/* resolved: segments or extents holding write data */
	int separate_write_segment;
	int readahead;			/* enum hd_sim_readahead */
	uint64_t readahead_min_blocks, readahead_max_blocks;
	int readahead_over_requested, readahead_on_hit, read_any_free_blocks;
	int readahead_stop_in_sector;	/* a read of the sector being read ahead stops it there */
	int readahead_join;		/* enum hd_sim_join */
	int read_partial_hits;		/* a read beginning in the read-ahead's data is a hit for that part */
	int readahead_preempt;		/* every request takes the mechanism from read-ahead on arrival */
	int write_combine;		/* enum hd_sim_wcomb */
	double destage_low, destage_high;	/* fractions of the write cache */
	double reselect_overhead_ms;	/* DiskSim's first SCSI reselection of a request */
	double data_prep_overhead_ms;
	/*
	 * DiskSim's disconnection and reselection (data/drives/README.md):
	 * read_watermark, its disconnect overheads after a read and after a
	 * write; the write's disconnect (write_disconnect: the key is
	 * given), the other reselection, the extra write disconnect
	 * (command, disconnect, inter-disconnect delay, second disconnect,
	 * seek delta) and a write's minimum seek.
	 */
	double read_water;
	int read_water_by;		/* enum hd_sim_water */
	double read_disc_ovh_ms[2];
	int write_disconnect;
	double write_disc_ovh_ms, reselect_other_ms;
	int extra_write_disconnect;
	double xdisc_ms[5];
	double min_write_seek_ms;

	/* computed */
	uint64_t sectors;		/* capacity in sectors */
	uint32_t cylinders;		/* last zone's last cylinder + 1 */
};

/*
 * Parse a model file held in text (len bytes; need not be NUL-terminated).
 * fname is used in messages only.  Returns 0, or -EINVAL (malformed) /
 * -ENOMEM with "FNAME:LINE: reason" in err.
 */
int hd_sim_model_parse(const char *text, size_t len, const char *fname,
		       struct hd_sim_model **out, char *err, size_t errlen);
/*
 * Load a preset by name, or a model file when spec ends in ".drive".
 * Returns 0, -ENOENT (no such preset, or the file is missing: err says
 * which), another -errno from reading the file, or -EINVAL with
 * "FILE:LINE: reason" in err.
 */
int hd_sim_model_load(const char *spec, struct hd_sim_model **out, char *err, size_t errlen);
void hd_sim_model_free(struct hd_sim_model *m);
/* The model file's word for a sparing scheme ("none", "tracks", ...). */
const char *hd_sim_sparing_name(enum hd_sim_sparing s);
/* 1 when key is a key of the model format this parser reads. */
int hd_sim_model_key_known(const char *key);

/* A physical address: cylinder, surface (head), sector within the track. */
struct hd_sim_chs {
	uint32_t cyl, surface, sector;
};

/* The zone holding lba: the last zone whose first LBA is at or below it. */
const struct hd_sim_zone *hd_sim_zone_of_lba(const struct hd_sim_model *m, uint64_t lba);

/*
 * LBA <-> CHS across zones, by the layout (data/drives/README.md, "Layout");
 * -ERANGE outside the drive, in a gap between zones, or on a sector that
 * holds no LBA (empty space, a spare, a slip, a defect).  Where DiskSim's
 * sectors_per_cylinder layout puts two LBAs on one sector, chs_to_lba
 * gives one of them.
 */
int hd_sim_lba_to_chs(const struct hd_sim_model *m, uint64_t lba, struct hd_sim_chs *chs);
int hd_sim_chs_to_lba(const struct hd_sim_model *m, const struct hd_sim_chs *chs, uint64_t *lba);
/*
 * Where on the platter a sector starts, as a fraction of a revolution in
 * [0, 1), counted from the index at virtual time 0.  The first track of a
 * zone starts at 0; every later track is shifted by the skews of the head
 * and cylinder switches before it.
 */
double hd_sim_sector_angle(const struct hd_sim_model *m, const struct hd_sim_chs *chs);
/* Seek time in ms for a distance in cylinders, without jitter or settle. */
double hd_sim_seek_ms(const struct hd_sim_model *m, uint64_t dist);
/* The same for a write: the write_seek curve, or the read curve where the model has none. */
double hd_sim_write_seek_ms(const struct hd_sim_model *m, uint64_t dist);
/* A write's move to a cylinder dist away: its seek and the write settle (0 at dist 0). */
double hd_sim_write_positioning_ms(const struct hd_sim_model *m, uint64_t dist);
/*
 * The average seek as drive vendors define it: over every distance n from 1
 * to the last cylinder M, weighted by the M + 1 - n pairs of cylinders that
 * far apart.  write: the write curve, write_settle_ms included.
 */
double hd_sim_seek_avg_ms(const struct hd_sim_model *m, int write);
/* One revolution in ms. */
double hd_sim_rev_ms(const struct hd_sim_model *m);

/* ---- the engine ---- */

struct hd_sim;

/* Counters since hd_sim_new(). */
struct hd_sim_stats {
	uint64_t reads, writes;
	uint64_t read_hits;		/* served from the read cache or write cache */
	uint64_t write_cached;		/* completed into the write-back cache */
	uint64_t destages;		/* background media writes */
	uint64_t errors;
};

/*
 * A drive running model m (which must outlive it) with the given seed
 * (seek jitter, write retries).  Returns 0 or -ENOMEM.
 */
int hd_sim_new(struct hd_sim **out, const struct hd_sim_model *m, uint64_t seed);
void hd_sim_free(struct hd_sim *s);
const struct hd_sim_model *hd_sim_model_of(const struct hd_sim *s);
int64_t hd_sim_now(const struct hd_sim *s);
/*
 * The simulated SMART counters at virtual time now_ns: sectors
 * reallocated and pending (bad_sectors_count from bad_sectors_after_hours
 * on, else 0).
 */
void hd_sim_smart_counts(const struct hd_sim_model *m, int64_t now_ns, uint64_t *reallocated, uint64_t *pending);
/* Let ns pass without I/O; background work (read-ahead, destaging) progresses. */
void hd_sim_idle(struct hd_sim *s, int64_t ns);
/*
 * A synchronous access of len bytes at byte offset off (multiples of 512,
 * inside the drive): the clock advances to its completion.  buf may be NULL
 * (timing only).  *hit (if not NULL) says whether the cache served it.
 * Returns 0 or -EIO (bad sector), -EINVAL/-ERANGE for a bad request.
 */
int hd_sim_io(struct hd_sim *s, enum hd_op op, void *buf, size_t len, uint64_t off, int *hit);
/*
 * The queued interface: submit queues r and stamps submit_ns; reap waits
 * for the next completion, fills r in and returns 0, or -EAGAIN when
 * nothing is outstanding (the contract of dev.h's submit/reap hooks).
 */
int hd_sim_submit(struct hd_sim *s, struct hd_req *r);
int hd_sim_reap(struct hd_sim *s, struct hd_req *r);
/*
 * The drive served in real time (hddscope emulate): the caller's clock is
 * the drive's, requests are submitted at their arrival (hd_sim_run_to the
 * arrival, then hd_sim_submit), and completions are taken as soon as they
 * are known, before the clock reaches them.
 *
 * run_to: every piece of work that starts before T (destaging, the choice
 * and service of a pending request) is done; the clock goes to T.
 * take: a completion already known (its done_ns may lie ahead of the
 * clock), earliest first: 0, or -EAGAIN when none is; the clock stays.
 * next_work: when the drive next starts a piece of work on its own (a
 * pending request or destaging), INT64_MAX when it has none.
 * flush: the write-back cache written out, as SYNCHRONIZE CACHE does,
 * once the mechanism is free; returns when that is done.
 */
void hd_sim_run_to(struct hd_sim *s, int64_t T);
int hd_sim_take(struct hd_sim *s, struct hd_req *r);
int64_t hd_sim_next_work(const struct hd_sim *s);
int64_t hd_sim_flush(struct hd_sim *s);
/*
 * Switch the write-back cache as a drive does on SET FEATURES: off writes
 * out what it holds first (the clock advances); on gives it the model's
 * size, or 1 MiB where the model has none.  0 or -ENOMEM.
 */
int hd_sim_set_write_cache(struct hd_sim *s, int on);
/* 1 when the write-back cache is on. */
int hd_sim_write_cache(const struct hd_sim *s);
/* Forced unit access: every write goes to the media before it completes. */
void hd_sim_set_fua(struct hd_sim *s, int on);
void hd_sim_get_stats(const struct hd_sim *s, struct hd_sim_stats *st);
/*
 * The 512-byte blocks written so far (kept in memory), and of those the
 * ones whose bytes differ from what they held before any write (a
 * data-preserving write leaves a block unchanged).
 */
void hd_sim_store_count(const struct hd_sim *s, uint64_t *written, uint64_t *changed);
/* The bytes an unwritten 512-byte block at byte offset off reads as. */
void hd_sim_fill(void *buf, uint64_t off, size_t len);

/* ---- trace replay ---- */

struct hd_trace_req {
	int write;
	uint64_t lba;			/* 512-byte blocks */
	uint32_t blocks;
	double idle_us;			/* host idle time after completion */
	double measured_us;		/* measured service time, < 0 when absent */
	double sim_us;			/* filled by hd_trace_run */
	int hit;			/* filled: served from cache */
	int result;			/* filled: 0 or -errno */
};

struct hd_trace {
	struct hd_trace_req *req;
	size_t n;
	int has_measured;		/* every line carried a service time */
};

/*
 * Read a trace: lines "R|W LBA BLOCKS [IDLE_US]", or the DiskSim validate
 * format "R|W Hit|Miss|Doub|Trip LBN BLOCKS SERVICE_US NEXT_INTERARRIVAL_US"; blank
 * lines and '#' comments are skipped.  Returns 0, or -errno / -EINVAL with
 * "FILE:LINE: reason" in err.
 */
int hd_trace_load(const char *path, struct hd_trace **out, char *err, size_t errlen);
void hd_trace_free(struct hd_trace *t);
/*
 * Replay t on a fresh drive running m: each request is issued when the
 * previous one has completed and its idle time has passed (a closed loop,
 * as DiskSim's validate mode does).  Fills sim_us, hit and result.
 * Returns 0, -ENOMEM, or -ERANGE when a request lies outside the drive
 * (err names the line).
 */
int hd_trace_run(struct hd_trace *t, const struct hd_sim_model *m, uint64_t seed,
		 char *err, size_t errlen);
/*
 * The RMS horizontal distance between the empirical CDFs of a and b (same
 * unit as the values): the quantile functions are compared at p = 0.0001,
 * 0.0002, ..., 1 (DiskSim's rms metric, on exact rather than binned CDFs).
 * Returns a negative value when either set is empty or memory runs out.
 */
double hd_cdf_rms(const double *a, size_t na, const double *b, size_t nb);

#endif
