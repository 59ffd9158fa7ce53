/*
 * Drive model files (format 1, see data/drives/README.md): the parser, the
 * embedded presets, and the mechanics that follow from a model: the seek
 * curve and the revolution.  Where each LBA lies is sim_layout.c's.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hddscope/fsutil.h"
#include "hddscope/preset.h"
#include "hddscope/sim.h"
#include "hddscope/util.h"
#include "sim_layout.h"

const struct hd_preset *hd_preset_find(const char *name)
{
	size_t i;

	for (i = 0; hd_presets[i].name; i++)
		if (strcmp(hd_presets[i].name, name) == 0)
			return &hd_presets[i];
	return NULL;
}

/* ---- parser ---- */

/* Keys that take one value and may appear once. */
enum key {
	K_FORMAT, K_NAME, K_RPM, K_SECTOR_BYTES, K_SURFACES, K_HEAD_SWITCH, K_WRITE_SETTLE,
	K_READ_OVH, K_WRITE_OVH, K_HIT_OVH, K_IFACE, K_SEGMENTS, K_SEGMENT_KB, K_READAHEAD_KB,
	K_WRITE_CACHE, K_WRITE_CACHE_KB, K_QUEUE_DEPTH, K_SEEK_STDDEV, K_WRITE_RETRY,
	/* faults that come with time, and the SMART that shows them */
	K_RETRY_GROWTH, K_BAD_AFTER, K_BAD_COUNT, K_SMART,
	/* layout */
	K_SPARING,
	K_NSCALAR,
	/* repeatable */
	K_ZONE = K_NSCALAR, K_SEEK, K_SEEK_MODEL, K_BAD,
	K_WRITE_SEEK,
	/* layout: each applies to the zone line above it */
	K_ZONE_OFFSET, K_ZONE_EMPTY, K_ZONE_SPARES, K_ZONE_SLIPS, K_ZONE_DEFECTS,
	/* seek */
	K_SEEK_FIRST10,
};

static const char *const key_names[] = {
	[K_FORMAT] = "format", [K_NAME] = "name", [K_RPM] = "rpm",
	[K_SECTOR_BYTES] = "sector_bytes", [K_SURFACES] = "surfaces",
	[K_HEAD_SWITCH] = "head_switch_ms", [K_WRITE_SETTLE] = "write_settle_ms",
	[K_READ_OVH] = "read_overhead_ms", [K_WRITE_OVH] = "write_overhead_ms",
	[K_HIT_OVH] = "cache_hit_overhead_ms", [K_IFACE] = "interface_mb_s",
	[K_SEGMENTS] = "cache_segments", [K_SEGMENT_KB] = "cache_segment_kb",
	[K_READAHEAD_KB] = "readahead_kb", [K_WRITE_CACHE] = "write_cache",
	[K_WRITE_CACHE_KB] = "write_cache_kb", [K_QUEUE_DEPTH] = "queue_depth",
	[K_SEEK_STDDEV] = "seek_stddev_ms", [K_WRITE_RETRY] = "write_retry_probability",
	[K_RETRY_GROWTH] = "write_retry_growth_per_hour", [K_BAD_AFTER] = "bad_sectors_after_hours",
	[K_BAD_COUNT] = "bad_sectors_count", [K_SMART] = "smart",
	[K_ZONE] = "zone", [K_SEEK] = "seek", [K_SEEK_MODEL] = "seek_model",
	[K_BAD] = "bad_sectors",
	[K_WRITE_SEEK] = "write_seek",
	/* layout */
	[K_SPARING] = "sparing", [K_ZONE_OFFSET] = "zone_offset", [K_ZONE_EMPTY] = "zone_empty",
	[K_ZONE_SPARES] = "zone_spares", [K_ZONE_SLIPS] = "zone_slips", [K_ZONE_DEFECTS] = "zone_defects",
	/* seek */
	[K_SEEK_FIRST10] = "seek_first10",
};

#define NKEYS (sizeof(key_names) / sizeof(key_names[0]))
#define MAX_TOKENS 64

struct parser {
	const char *fname;
	char *err;
	size_t errlen;
	unsigned line;
	struct hd_sim_model *m;
	unsigned seen[K_NSCALAR];	/* line of each scalar key, 0 = absent */
	unsigned eseen[32];		/* line of each engine key (enum ekey), 0 = absent */
	unsigned seek_line, seek_model_line, write_seek_line;
	unsigned *bad_lines;		/* line of each bad range, for the capacity check */
	char quoted[96];		/* file text quoted for a message, by pq() */
	size_t zcap, scap, bcap, wcap;
	/* layout */
	unsigned *zone_lines;		/* line of each zone */
	unsigned zone_seen;		/* bits (1 << key) of the zone_* keys given for the last zone */
	size_t slcap, dfcap;		/* the last zone's slips and defects */
	/* seek */
	unsigned seek_first10_line;
};

static int perr(struct parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int perr(struct parser *p, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(p->err, p->errlen, "%s:%u: ", p->fname, p->line);

	if (n >= 0 && (size_t)n < p->errlen) {
		va_start(ap, fmt);
		vsnprintf(p->err + n, p->errlen - n, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* Text of the file quoted for a message: it may not be text at all. */
static const char *pq(struct parser *p, const char *s)
{
	return hd_quote(p->quoted, sizeof(p->quoted), s);
}

static int get_u64(struct parser *p, const char *key, const char *tok, uint64_t lo, uint64_t hi,
		   uint64_t *out)
{
	int rc = hd_parse_u64(tok, out);

	if (rc)
		return perr(p, "%s: '%s': %s", key, pq(p, tok),
			    rc == -EDOM ? "not a whole number" : hd_parse_strerror(rc));
	if (*out < lo || *out > hi)
		return perr(p, "%s: %s out of range (%llu..%llu)", key, tok,
			    (unsigned long long)lo, (unsigned long long)hi);
	return 0;
}

static int get_u32(struct parser *p, const char *key, const char *tok, uint32_t lo, uint32_t hi,
		   uint32_t *out)
{
	uint64_t v;
	int rc = get_u64(p, key, tok, lo, hi, &v);

	if (!rc)
		*out = (uint32_t)v;
	return rc;
}

/* A finite number in [lo, hi]; hi_open makes the upper end exclusive. */
static int get_dbl(struct parser *p, const char *key, const char *tok, double lo, double hi,
		   int lo_open, double *out)
{
	if (hd_parse_double(tok, out))
		return perr(p, "%s: '%s': not a valid number", key, pq(p, tok));
	if (*out < lo || *out > hi || (lo_open && *out <= lo))
		return perr(p, "%s: %s out of range", key, tok);
	return 0;
}

static int grow(struct parser *p, void **arr, size_t *cap, size_t n, size_t elem)
{
	void *na;
	size_t nc;

	if (n < *cap)
		return 0;
	nc = *cap ? *cap * 2 : 16;
	na = realloc(*arr, nc * elem);
	if (!na) {
		snprintf(p->err, p->errlen, "%s:%u: out of memory", p->fname, p->line);
		return -ENOMEM;
	}
	*arr = na;
	*cap = nc;
	return 0;
}

static int parse_zone(struct parser *p, char **tok, int ntok)
{
	struct hd_sim_model *m = p->m;
	struct hd_sim_zone z = { 0 };
	int rc;

	if (ntok < 3 || ntok > 5)
		return perr(p, "zone: expected FIRST_CYL LAST_CYL SECTORS_PER_TRACK "
			    "[TRACK_SKEW [CYLINDER_SKEW]], got %d value%s", ntok, ntok == 1 ? "" : "s");
	if ((rc = get_u32(p, "zone", tok[0], 0, 16777215, &z.first_cyl)) ||
	    (rc = get_u32(p, "zone", tok[1], 0, 16777215, &z.last_cyl)) ||
	    (rc = get_u32(p, "zone", tok[2], 1, 1000000, &z.spt)))
		return rc;
	if (z.last_cyl < z.first_cyl)
		return perr(p, "zone: last cylinder %u below first cylinder %u", z.last_cyl, z.first_cyl);
	if (ntok > 3 && (rc = get_u32(p, "zone", tok[3], 0, z.spt - 1, &z.track_skew)))
		return rc;
	if (ntok > 4 && (rc = get_u32(p, "zone", tok[4], 0, z.spt - 1, &z.cyl_skew)))
		return rc;
	if (m->nzones) {
		const struct hd_sim_zone *prev = &m->zones[m->nzones - 1];

		if (z.first_cyl <= prev->last_cyl)
			return perr(p, "zone: cylinders %u-%u overlap or precede the previous zone (%u-%u)",
				    z.first_cyl, z.last_cyl, prev->first_cyl, prev->last_cyl);
	}
	if ((rc = grow(p, (void **)&m->zones, &p->zcap, m->nzones, sizeof(z))))
		return rc;
	{
		unsigned *nl = realloc(p->zone_lines, p->zcap * sizeof(*nl));

		if (!nl)
			return -ENOMEM;
		p->zone_lines = nl;
	}
	p->zone_lines[m->nzones] = p->line;
	p->zone_seen = 0;
	p->slcap = p->dfcap = 0;
	m->zones[m->nzones++] = z;
	return 0;
}

/* One point of a seek curve: key "seek" (the curve of reads) or "write_seek". */
static int parse_seek_point(struct parser *p, const char *key, char **tok, int ntok, struct hd_sim_seekpt **pts,
			    size_t *n, size_t *cap)
{
	struct hd_sim_seekpt s;
	int rc;

	if (ntok != 2)
		return perr(p, "%s: expected DISTANCE_CYLINDERS MILLISECONDS", key);
	if ((rc = get_u32(p, key, tok[0], 1, 16777215, &s.dist)) ||
	    (rc = get_dbl(p, key, tok[1], 0, 10000, 0, &s.ms)))
		return rc;
	if (*n && s.dist <= (*pts)[*n - 1].dist)
		return perr(p, "%s: distance %u not above the previous distance %u", key, s.dist,
			    (*pts)[*n - 1].dist);
	if ((rc = grow(p, (void **)pts, cap, *n, sizeof(s))))
		return rc;
	(*pts)[(*n)++] = s;
	return 0;
}

/* ---- layout: the zone_* keys and sparing ---- */

static const struct { const char *name; enum hd_sim_sparing v; } sparings[] = {
	{ "none", HD_SPARE_NONE }, { "tracks", HD_SPARE_TRACK },
	{ "sectors_per_cylinder", HD_SPARE_CYL }, { "sectors_per_track", HD_SPARE_TRACK_SECT },
	{ "sectors_at_end", HD_SPARE_AT_END }, { "sectors_per_zone", HD_SPARE_ZONE },
};

const char *hd_sim_sparing_name(enum hd_sim_sparing s)
{
	size_t i;

	for (i = 0; i < sizeof(sparings) / sizeof(sparings[0]); i++)
		if (sparings[i].v == s)
			return sparings[i].name;
	return "?";
}

static int parse_sparing(struct parser *p, const char *tok)
{
	size_t i;

	for (i = 0; i < sizeof(sparings) / sizeof(sparings[0]); i++)
		if (strcmp(tok, sparings[i].name) == 0) {
			p->m->sparing = sparings[i].v;
			return 0;
		}
	return perr(p, "sparing: '%s': expected none, tracks, sectors_per_cylinder, "
		    "sectors_per_track, sectors_at_end or sectors_per_zone", pq(p, tok));
}

static int parse_zone_list(struct parser *p, struct hd_sim_zone *z, int defects, char **tok, int ntok)
{
	const char *key = defects ? "zone_defects" : "zone_slips";
	int i, rc;

	for (i = 0; i < ntok; i++) {
		uint64_t a, b = 0;
		char *colon = strchr(tok[i], ':');

		if (defects && !colon)
			return perr(p, "%s: '%s': expected DEFECT:REMAP", key, pq(p, tok[i]));
		if (colon)
			*colon = '\0';
		if ((rc = get_u64(p, key, tok[i], 0, UINT64_MAX / 2, &a)) ||
		    (colon && (rc = get_u64(p, key, colon + 1, 0, UINT64_MAX / 2, &b))))
			return rc;
		if (defects) {
			if ((rc = grow(p, (void **)&z->defects, &p->dfcap, z->ndefects, sizeof(*z->defects))))
				return rc;
			z->defects[z->ndefects++] = (struct hd_sim_remap){ a, b };
		} else {
			if ((rc = grow(p, (void **)&z->slips, &p->slcap, z->nslips, sizeof(*z->slips))))
				return rc;
			z->slips[z->nslips++] = a;
		}
	}
	return 0;
}

static int parse_zone_key(struct parser *p, enum key k, char **tok, int ntok)
{
	struct hd_sim_zone *z;
	uint64_t v;
	int rc;

	if (!p->m->nzones)
		return perr(p, "%s: no zone line before it", key_names[k]);
	z = &p->m->zones[p->m->nzones - 1];
	if (k == K_ZONE_SLIPS || k == K_ZONE_DEFECTS)
		return parse_zone_list(p, z, k == K_ZONE_DEFECTS, tok, ntok);
	if (p->zone_seen & (1u << (k - K_ZONE_OFFSET)))
		return perr(p, "%s: duplicate for the zone of line %u", key_names[k],
			    p->zone_lines[p->m->nzones - 1]);
	p->zone_seen |= 1u << (k - K_ZONE_OFFSET);
	if (ntok != 1)
		return perr(p, "%s: expected one value, got %d", key_names[k], ntok);
	if ((rc = get_u64(p, key_names[k], tok[0], 0, k == K_ZONE_OFFSET ? z->spt - 1 : UINT32_MAX, &v)))
		return rc;
	if (k == K_ZONE_OFFSET)
		z->first_offset = (uint32_t)v;
	else if (k == K_ZONE_EMPTY)
		z->empty = v;
	else
		z->spares = v;
	return 0;
}

static int parse_seek(struct parser *p, char **tok, int ntok)
{
	int rc;

	if (p->seek_model_line)
		return perr(p, "seek: seek_model was already given on line %u", p->seek_model_line);
	if ((rc = parse_seek_point(p, "seek", tok, ntok, &p->m->seek, &p->m->nseek, &p->scap)))
		return rc;
	p->seek_line = p->line;
	return 0;
}

static int parse_write_seek(struct parser *p, char **tok, int ntok)
{
	int rc;

	if ((rc = parse_seek_point(p, "write_seek", tok, ntok, &p->m->wseek, &p->m->nwseek, &p->wcap)))
		return rc;
	p->write_seek_line = p->line;
	return 0;
}

static int parse_seek_model(struct parser *p, char **tok, int ntok)
{
	struct hd_sim_model *m = p->m;
	double v[5];
	int i, rc;

	if (p->seek_line)
		return perr(p, "seek_model: seek lines were already given (line %u)", p->seek_line);
	if (p->seek_model_line)
		return perr(p, "seek_model: duplicate (first on line %u)", p->seek_model_line);
	if (ntok != 5)
		return perr(p, "seek_model: expected A B KNEE C E");
	for (i = 0; i < 5; i++)
		if ((rc = get_dbl(p, "seek_model", tok[i], 0, 1e7, 0, &v[i])))
			return rc;
	m->has_seek_model = 1;
	m->sm_a = v[0];
	m->sm_b = v[1];
	m->sm_knee = v[2];
	m->sm_c = v[3];
	m->sm_e = v[4];
	p->seek_model_line = p->line;
	return 0;
}

/* The times of distances 1 to 10, which seek_model's equation does not give (DiskSim hplplus10). */
static int parse_seek_first10(struct parser *p, char **tok, int ntok)
{
	int i, rc;

	if (p->seek_first10_line)
		return perr(p, "seek_first10: duplicate (first on line %u)", p->seek_first10_line);
	if (ntok != 10)
		return perr(p, "seek_first10: expected 10 times (ms), got %d", ntok);
	for (i = 0; i < 10; i++)
		if ((rc = get_dbl(p, "seek_first10", tok[i], 0, 10000, 0, &p->m->seek_first10[i])))
			return rc;
	p->m->has_seek_first10 = 1;
	p->seek_first10_line = p->line;
	return 0;
}

/* Asked of the parser itself, so that every key table it has answers. */
int hd_sim_model_key_known(const char *key)
{
	struct hd_sim_model *m = NULL;
	char text[256], err[512];
	int n = snprintf(text, sizeof(text), "%s = ?\n", key);

	if (n < 0 || (size_t)n >= sizeof(text) || strchr(key, '\n') || strchr(key, '#') || strchr(key, '='))
		return 0;
	if (hd_sim_model_parse(text, (size_t)n, "k", &m, err, sizeof(err)) == 0) {
		hd_sim_model_free(m);
		return 1;
	}
	return strstr(err, "unknown key") == NULL;
}

static int parse_bad(struct parser *p, char **tok, int ntok)
{
	struct hd_sim_model *m = p->m;
	int i, rc;

	if (ntok < 1)
		return perr(p, "bad_sectors: expected LBA or FIRST-LAST values");
	for (i = 0; i < ntok; i++) {
		struct hd_sim_badrange b;
		char *dash = strchr(tok[i], '-');

		if (dash) {
			*dash = '\0';
			if ((rc = get_u64(p, "bad_sectors", tok[i], 0, UINT64_MAX / 2, &b.first)) ||
			    (rc = get_u64(p, "bad_sectors", dash + 1, 0, UINT64_MAX / 2, &b.last)))
				return rc;
			if (b.last < b.first)
				return perr(p, "bad_sectors: range %llu-%llu is descending",
					    (unsigned long long)b.first, (unsigned long long)b.last);
		} else {
			if ((rc = get_u64(p, "bad_sectors", tok[i], 0, UINT64_MAX / 2, &b.first)))
				return rc;
			b.last = b.first;
		}
		if ((rc = grow(p, (void **)&m->bad, &p->bcap, m->nbad, sizeof(b))))
			return rc;
		/* bad_lines grows in step with bad: same capacity, realloc'ed here. */
		{
			unsigned *nl = realloc(p->bad_lines, p->bcap * sizeof(*nl));

			if (!nl)
				return -ENOMEM;
			p->bad_lines = nl;
		}
		p->bad_lines[m->nbad] = p->line;
		m->bad[m->nbad++] = b;
	}
	return 0;
}

/* ---- the engine's keys: DiskSim's controller and cache (data/drives/README.md) ---- */

enum ekey {
	E_RMISS, E_RHIT, E_WMISS, E_WHIT, E_REQ_OVH, E_COMPL_OVH, E_SEG_BLOCKS, E_WRITE_SEGS,
	E_SEP_WSEG, E_RA, E_RA_MIN, E_RA_MAX, E_RA_OVER, E_RA_HIT, E_RA_FREE, E_WATER,
	E_SETTLE_HS, E_RESELECT, E_PREP, E_RA_STOP, E_WCOMB, E_RA_JOIN, E_PARTIAL, E_RA_PREEMPT, E_RWATER,
	E_RDISC, E_WDISC, E_RESEL2, E_XDISC, E_MINSEEK, E_N
};

static const char *const ekey_names[E_N] = {
	[E_RMISS] = "read_miss_overhead_ms", [E_RHIT] = "read_hit_overhead_ms",
	[E_WMISS] = "write_miss_overhead_ms", [E_WHIT] = "write_hit_overhead_ms",
	[E_REQ_OVH] = "request_overhead_ms", [E_COMPL_OVH] = "completion_overhead_ms",
	[E_SEG_BLOCKS] = "cache_segment_blocks", [E_WRITE_SEGS] = "write_segments",
	[E_SEP_WSEG] = "separate_write_segment", [E_RA] = "readahead",
	[E_RA_MIN] = "readahead_min_blocks", [E_RA_MAX] = "readahead_max_blocks",
	[E_RA_OVER] = "readahead_over_requested", [E_RA_HIT] = "readahead_on_hit",
	[E_RA_FREE] = "read_any_free_blocks", [E_WATER] = "destage_water_marks",
	[E_SETTLE_HS] = "write_settle_on_head_switch", [E_RESELECT] = "reselect_overhead_ms",
	[E_PREP] = "data_prep_overhead_ms", [E_RA_STOP] = "readahead_stop_in_sector",
	[E_WCOMB] = "write_combine", [E_RA_JOIN] = "readahead_join",
	[E_PARTIAL] = "read_partial_hits", [E_RA_PREEMPT] = "readahead_preempt",
	[E_RWATER] = "read_watermark",
	[E_RDISC] = "read_disconnect_overhead_ms", [E_WDISC] = "write_disconnect_overhead_ms",
	[E_RESEL2] = "reselect_other_overhead_ms", [E_XDISC] = "extra_write_disconnect_ms",
	[E_MINSEEK] = "min_write_seek_ms",
};

/* struct parser's eseen has room for every engine key. */
typedef char ekeys_fit[E_N <= 32 ? 1 : -1];

/* One of the words in names[0..n), as its index. */
static int get_word(struct parser *p, const char *key, const char *tok, const char *const *names,
		    int n, int *out)
{
	char list[96] = "";
	int i;

	for (i = 0; i < n; i++)
		if (strcmp(tok, names[i]) == 0) {
			*out = i;
			return 0;
		}
	for (i = 0; i < n; i++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
			 i ? (i == n - 1 ? " or " : ", ") : "", names[i]);
	return perr(p, "%s: '%s': expected %s", key, pq(p, tok), list);
}

static int get_onoff(struct parser *p, const char *key, char **tok, int ntok, int *out)
{
	static const char *const oo[] = { "off", "on" };

	if (ntok != 1)
		return perr(p, "%s: expected on or off", key);
	return get_word(p, key, tok[0], oo, 2, out);
}

/* "A [B]": B defaults to A. */
static int get_pair(struct parser *p, const char *key, char **tok, int ntok, double lo, double hi,
		    int lo_open, double *a, double *b)
{
	int rc;

	if (ntok < 1 || ntok > 2)
		return perr(p, "%s: expected one or two values, got %d", key, ntok);
	if ((rc = get_dbl(p, key, tok[0], lo, hi, lo_open, a)))
		return rc;
	*b = *a;
	return ntok == 2 ? get_dbl(p, key, tok[1], lo, hi, lo_open, b) : 0;
}

static int parse_ekey(struct parser *p, enum ekey k, char **tok, int ntok)
{
	struct hd_sim_model *m = p->m;
	const char *name = ekey_names[k];
	static const char *const ra[] = { [HD_SIM_RA_OFF] = "off", [HD_SIM_RA_TRACK] = "track",
					  [HD_SIM_RA_CYLINDER] = "cylinder", [HD_SIM_RA_SEGMENT] = "segment",
					  [HD_SIM_RA_STREAM] = "stream" };
	uint64_t u;
	int rc;

	if (p->eseen[k])
		return perr(p, "%s: duplicate key (first on line %u)", name, p->eseen[k]);
	p->eseen[k] = p->line;
	switch (k) {
	case E_RMISS:
		return get_pair(p, name, tok, ntok, 0, 1000, 0, &m->read_miss_ovh_ms[0], &m->read_miss_ovh_ms[1]);
	case E_RHIT:
		return get_pair(p, name, tok, ntok, 0, 1000, 0, &m->read_hit_ovh_ms[0], &m->read_hit_ovh_ms[1]);
	case E_WMISS:
		return get_pair(p, name, tok, ntok, 0, 1000, 0, &m->write_miss_ovh_ms[0], &m->write_miss_ovh_ms[1]);
	case E_WHIT:
		return get_pair(p, name, tok, ntok, 0, 1000, 0, &m->write_hit_ovh_ms[0], &m->write_hit_ovh_ms[1]);
	case E_COMPL_OVH:
		return get_pair(p, name, tok, ntok, 0, 1000, 0, &m->completion_ovh_ms[0], &m->completion_ovh_ms[1]);
	case E_SEP_WSEG: return get_onoff(p, name, tok, ntok, &m->separate_write_segment);
	case E_RA_OVER: return get_onoff(p, name, tok, ntok, &m->readahead_over_requested);
	case E_RA_HIT: return get_onoff(p, name, tok, ntok, &m->readahead_on_hit);
	case E_RA_FREE: return get_onoff(p, name, tok, ntok, &m->read_any_free_blocks);
	case E_RA_STOP: return get_onoff(p, name, tok, ntok, &m->readahead_stop_in_sector);
	case E_SETTLE_HS: return get_onoff(p, name, tok, ntok, &m->write_settle_on_head_switch);
	case E_PARTIAL: return get_onoff(p, name, tok, ntok, &m->read_partial_hits);
	case E_RA_PREEMPT: return get_onoff(p, name, tok, ntok, &m->readahead_preempt);
	case E_RA_JOIN: {
		static const char *const join[] = { [HD_SIM_JOIN_WINDOW] = "window", [HD_SIM_JOIN_NEXT] = "next",
						    [HD_SIM_JOIN_OFF] = "off" };

		if (ntok != 1)
			return perr(p, "%s: expected window, next or off", name);
		return get_word(p, name, tok[0], join, 3, &m->readahead_join);
	}
	case E_WCOMB: {
		static const char *const wcomb[] = { [HD_SIM_WCOMB_DISKSIM] = "disksim",
						     [HD_SIM_WCOMB_STREAM] = "stream" };

		if (ntok != 1)
			return perr(p, "%s: expected disksim or stream", name);
		return get_word(p, name, tok[0], wcomb, 2, &m->write_combine);
	}
	case E_RDISC:
		return get_pair(p, name, tok, ntok, 0, 1000, 0, &m->read_disc_ovh_ms[0], &m->read_disc_ovh_ms[1]);
	case E_RWATER: {
		static const char *const by[] = { [HD_SIM_WATER_SEGMENT] = "segment",
						  [HD_SIM_WATER_REQUEST] = "request" };

		if (ntok == 1 && strcmp(tok[0], "never") == 0) {
			m->read_water_by = HD_SIM_WATER_NEVER;
			return 0;
		}
		if (ntok < 1 || ntok > 2)
			return perr(p, "%s: expected FRACTION [request|segment] or never", name);
		if ((rc = get_dbl(p, name, tok[0], 0, 1, 0, &m->read_water)))
			return rc;
		m->read_water_by = HD_SIM_WATER_REQUEST;
		return ntok == 2 ? get_word(p, name, tok[1], by, 2, &m->read_water_by) : 0;
	}
	case E_XDISC:
		if (ntok != 5)
			return perr(p, "%s: expected COMMAND DISCONNECT INTER DISCONNECT2 SEEK_DELTA, got %d values",
				    name, ntok);
		for (int i = 0; i < 5; i++)
			if ((rc = get_dbl(p, name, tok[i], 0, 1000, 0, &m->xdisc_ms[i])))
				return rc;
		m->extra_write_disconnect = 1;
		return 0;
	case E_WATER:
		if (ntok != 2)
			return perr(p, "%s: expected LOW HIGH", name);
		if ((rc = get_dbl(p, name, tok[0], 0, 1, 0, &m->destage_low)) ||
		    (rc = get_dbl(p, name, tok[1], 0, 1, 0, &m->destage_high)))
			return rc;
		if (m->destage_high < m->destage_low)
			return perr(p, "%s: HIGH %s below LOW %s", name, tok[1], tok[0]);
		return 0;
	default:
		break;
	}
	if (ntok != 1)
		return perr(p, "%s: expected one value, got %d", name, ntok);
	switch (k) {
	case E_REQ_OVH: return get_dbl(p, name, tok[0], 0, 1000, 0, &m->request_overhead_ms);
	case E_PREP: return get_dbl(p, name, tok[0], 0, 1000, 0, &m->data_prep_overhead_ms);
	case E_RESELECT: return get_dbl(p, name, tok[0], 0, 1000, 0, &m->reselect_overhead_ms);
	case E_RESEL2: return get_dbl(p, name, tok[0], 0, 1000, 0, &m->reselect_other_ms);
	case E_WDISC:
		m->write_disconnect = 1;
		return get_dbl(p, name, tok[0], 0, 1000, 0, &m->write_disc_ovh_ms);
	case E_MINSEEK: return get_dbl(p, name, tok[0], 0, 1000, 0, &m->min_write_seek_ms);
	case E_SEG_BLOCKS: return get_u64(p, name, tok[0], 0, 1u << 23, &m->cache_segment_blocks);
	case E_WRITE_SEGS:
		if ((rc = get_u64(p, name, tok[0], 1, 4096, &u)))
			return rc;
		m->write_segments = (uint32_t)u;
		return 0;
	case E_RA: return get_word(p, name, tok[0], ra, 5, &m->readahead);
	case E_RA_MIN: return get_u64(p, name, tok[0], 0, 1u << 23, &m->readahead_min_blocks);
	case E_RA_MAX: return get_u64(p, name, tok[0], 0, 1u << 23, &m->readahead_max_blocks);
	default: return perr(p, "internal: unhandled key %s", name);
	}
}

/* A shorthand and its full key together is an error, reported at the later line. */
static int shorthand_check(struct parser *p, enum key shortk, enum ekey fullk)
{
	unsigned a = p->seen[shortk], b = p->eseen[fullk];

	if (!a || !b)
		return 0;
	p->line = a > b ? a : b;
	if (a > b)
		return perr(p, "%s: %s was given on line %u (a shorthand and its full key)",
			    key_names[shortk], ekey_names[fullk], b);
	return perr(p, "%s: %s was given on line %u (a shorthand and its full key)",
		    ekey_names[fullk], key_names[shortk], a);
}

/* The engine keys' defaults that depend on other keys, and their whole-file checks. */
static int finish_engine(struct parser *p)
{
	struct hd_sim_model *m = p->m;
	unsigned *e = p->eseen;
	int rc;

	if ((rc = shorthand_check(p, K_READ_OVH, E_RMISS)) || (rc = shorthand_check(p, K_HIT_OVH, E_RHIT)) ||
	    (rc = shorthand_check(p, K_WRITE_OVH, E_WMISS)) || (rc = shorthand_check(p, K_WRITE_OVH, E_WHIT)) ||
	    (rc = shorthand_check(p, K_SEGMENT_KB, E_SEG_BLOCKS)) ||
	    (rc = shorthand_check(p, K_READAHEAD_KB, E_RA_MAX)))
		return rc;
	if (!e[E_RMISS])
		m->read_miss_ovh_ms[0] = m->read_miss_ovh_ms[1] = m->read_overhead_ms;
	if (!e[E_RHIT])
		m->read_hit_ovh_ms[0] = m->read_hit_ovh_ms[1] = m->cache_hit_overhead_ms;
	if (!e[E_WMISS])
		m->write_miss_ovh_ms[0] = m->write_miss_ovh_ms[1] = m->write_overhead_ms;
	if (!e[E_WHIT])
		m->write_hit_ovh_ms[0] = m->write_hit_ovh_ms[1] = m->write_overhead_ms;
	m->read_overhead_ms = m->read_miss_ovh_ms[0];
	m->cache_hit_overhead_ms = m->read_hit_ovh_ms[0];
	m->write_overhead_ms = m->write_hit_ovh_ms[0];
	if (!p->seen[K_IFACE])
		m->interface_write_mb_s = m->interface_mb_s;
	if (e[E_SEG_BLOCKS])
		m->cache_segment_kb = m->cache_segment_blocks / 2;
	else
		m->cache_segment_blocks = m->cache_segment_kb * 2;
	if (e[E_RA_MAX])
		m->readahead_kb = m->readahead_max_blocks / 2;
	else
		m->readahead_max_blocks = m->readahead_kb * 2;
	if (m->readahead_min_blocks > m->readahead_max_blocks) {
		p->line = e[E_RA_MIN];
		return perr(p, "readahead_min_blocks: %llu above readahead_max_blocks %llu",
			    (unsigned long long)m->readahead_min_blocks,
			    (unsigned long long)m->readahead_max_blocks);
	}
	if (!m->write_segments)
		m->write_segments = m->write_cache == HD_SIM_WC_ON ? 4096 : 1;
	if (m->separate_write_segment)
		m->write_segments = 1;
	if ((m->write_cache == HD_SIM_WC_APPEND || m->write_cache == HD_SIM_WC_FLUSH) && !m->write_cache_kb)
		m->write_cache_kb = m->write_segments * m->cache_segment_blocks / 2;
	if (m->write_cache != HD_SIM_WC_OFF && m->write_cache_kb == 0) {
		p->line = p->seen[K_WRITE_CACHE];
		return perr(p, m->write_cache == HD_SIM_WC_ON ? "write_cache: on needs write_cache_kb > 0" :
			    "write_cache: append and flush need a segment size or write_cache_kb > 0");
	}
	return 0;
}

static void engine_defaults(struct hd_sim_model *m)
{
	m->readahead = HD_SIM_RA_SEGMENT;
	m->readahead_over_requested = 1;
	m->destage_low = 0.25;
	m->destage_high = 0.75;
	m->read_water_by = HD_SIM_WATER_OFF;
}

static int parse_scalar(struct parser *p, enum key k, const char *val, char **tok, int ntok)
{
	struct hd_sim_model *m = p->m;
	const char *name = key_names[k];
	uint64_t u;
	int rc;

	if (p->seen[k])
		return perr(p, "%s: duplicate key (first on line %u)", name, p->seen[k]);
	p->seen[k] = p->line;
	if (k == K_NAME) {
		if (*val == '\0')
			return perr(p, "name: empty");
		if (strlen(val) >= sizeof(m->name))
			return perr(p, "name: longer than %zu characters", sizeof(m->name) - 1);
		/* The name goes into data file headers and onto the terminal. */
		for (const char *c = val; *c; c++)
			if ((unsigned char)*c < 0x20 || *c == 0x7f)
				return perr(p, "name: '%s': control character", pq(p, val));
		strcpy(m->name, val);
		return 0;
	}
	if (k == K_IFACE)
		return get_pair(p, name, tok, ntok, 0.1, 1e6, 1, &m->interface_mb_s, &m->interface_write_mb_s);
	if (ntok != 1)
		return perr(p, "%s: expected one value, got %d", name, ntok);
	switch (k) {
	case K_FORMAT:
		if ((rc = get_u64(p, name, tok[0], 0, UINT32_MAX, &u)))
			return rc;
		if (u != 1)
			return perr(p, "format: unsupported format %llu (this hddscope reads format 1)",
				    (unsigned long long)u);
		return 0;
	case K_RPM:
		/*
		 * At least 1 rpm: a revolution of a minute is absurd but its
		 * nanoseconds still fit the simulator's int64_t clock; a rpm of
		 * 7204e-50 made them overflow (found by tests/fuzz/fuzz_sim_model.c).
		 */
		return get_dbl(p, name, tok[0], 1, 100000, 0, &m->rpm);
	case K_SECTOR_BYTES:
		if ((rc = get_u32(p, name, tok[0], 512, 65536, &m->sector_bytes)))
			return rc;
		if (m->sector_bytes & (m->sector_bytes - 1))
			return perr(p, "sector_bytes: %u is not a power of two", m->sector_bytes);
		return 0;
	case K_SURFACES:
		return get_u32(p, name, tok[0], 1, 1024, &m->surfaces);
	case K_HEAD_SWITCH:
		return get_dbl(p, name, tok[0], 0, 1000, 0, &m->head_switch_ms);
	case K_WRITE_SETTLE:
		/* DiskSim's models have negative ones: a write settles faster than a read. */
		return get_dbl(p, name, tok[0], -1000, 1000, 0, &m->write_settle_ms);
	case K_READ_OVH:
		return get_dbl(p, name, tok[0], 0, 1000, 0, &m->read_overhead_ms);
	case K_WRITE_OVH:
		return get_dbl(p, name, tok[0], 0, 1000, 0, &m->write_overhead_ms);
	case K_HIT_OVH:
		return get_dbl(p, name, tok[0], 0, 1000, 0, &m->cache_hit_overhead_ms);
	case K_SEGMENTS:
		return get_u32(p, name, tok[0], 1, 256, &m->cache_segments);
	case K_SEGMENT_KB:
		return get_u64(p, name, tok[0], 0, 1u << 22, &m->cache_segment_kb);
	case K_READAHEAD_KB:
		return get_u64(p, name, tok[0], 0, 1u << 22, &m->readahead_kb);
	case K_WRITE_CACHE: {
		static const char *const wc[] = { [HD_SIM_WC_OFF] = "off", [HD_SIM_WC_ON] = "on",
						  [HD_SIM_WC_APPEND] = "append", [HD_SIM_WC_FLUSH] = "flush" };

		return get_word(p, name, tok[0], wc, 4, &m->write_cache);
	}
	case K_WRITE_CACHE_KB:
		return get_u64(p, name, tok[0], 0, 1u << 22, &m->write_cache_kb);
	case K_QUEUE_DEPTH:
		return get_u32(p, name, tok[0], 1, 256, &m->queue_depth);
	case K_SEEK_STDDEV:
		return get_dbl(p, name, tok[0], 0, 1000, 0, &m->seek_stddev_ms);
	case K_WRITE_RETRY:
		return get_dbl(p, name, tok[0], 0, 1, 0, &m->write_retry_probability);
	case K_RETRY_GROWTH:
		return get_dbl(p, name, tok[0], 0, 1, 0, &m->write_retry_growth_per_hour);
	case K_BAD_AFTER:
		/* Ten years of power-on time at most. */
		return get_dbl(p, name, tok[0], 0, 87600, 0, &m->bad_sectors_after_hours);
	case K_BAD_COUNT:
		return get_u64(p, name, tok[0], 0, UINT32_MAX, &m->bad_sectors_count);
	case K_SMART: {
		static const char *const oo[] = { "off", "on" };

		return get_word(p, name, tok[0], oo, 2, &m->smart);
	}
	/* layout */
	case K_SPARING:
		return parse_sparing(p, tok[0]);
	default:
		return perr(p, "internal: unhandled key %s", name);
	}
}

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t' || *s == '\r')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		*--e = '\0';
	return s;
}

static int parse_line(struct parser *p, char *line)
{
	char *hash = strchr(line, '#'), *eq, *key, *val, *tok[MAX_TOKENS], *s, valcopy[1024];
	int ntok = 0;
	size_t k;

	if (hash)
		*hash = '\0';
	line = trim(line);
	if (*line == '\0')
		return 0;
	eq = strchr(line, '=');
	if (!eq)
		return perr(p, "expected KEY = VALUE");
	*eq = '\0';
	key = trim(line);
	val = trim(eq + 1);
	for (k = 0; k < NKEYS; k++)
		if (strcmp(key, key_names[k]) == 0)
			break;
	if (k == NKEYS) {
		for (k = 0; k < E_N; k++)
			if (strcmp(key, ekey_names[k]) == 0)
				break;
		if (k == E_N)
			return perr(p, "unknown key '%s'", pq(p, key));
		k += NKEYS;
	}
	if (*val == '\0')
		return perr(p, "%s: missing value", key);
	/* Keep the value whole for name, split a copy into tokens for the rest. */
	snprintf(valcopy, sizeof(valcopy), "%s", val);
	for (s = strtok(valcopy, " \t"); s; s = strtok(NULL, " \t")) {
		if (ntok == MAX_TOKENS)
			return perr(p, "%s: too many values", key);
		tok[ntok++] = s;
	}
	if (k >= NKEYS)
		return parse_ekey(p, (enum ekey)(k - NKEYS), tok, ntok);
	switch ((enum key)k) {
	case K_ZONE: return parse_zone(p, tok, ntok);
	case K_SEEK: return parse_seek(p, tok, ntok);
	case K_SEEK_MODEL: return parse_seek_model(p, tok, ntok);
	case K_BAD: return parse_bad(p, tok, ntok);
	case K_WRITE_SEEK: return parse_write_seek(p, tok, ntok);
	case K_ZONE_OFFSET: case K_ZONE_EMPTY: case K_ZONE_SPARES: case K_ZONE_SLIPS:
	case K_ZONE_DEFECTS: return parse_zone_key(p, (enum key)k, tok, ntok);
	case K_SEEK_FIRST10: return parse_seek_first10(p, tok, ntok);
	default: return parse_scalar(p, (enum key)k, val, tok, ntok);
	}
}

static int cmp_bad(const void *a, const void *b)
{
	const struct hd_sim_badrange *x = a, *y = b;

	return x->first < y->first ? -1 : x->first > y->first;
}

/*
 * No seek may take longer than a seek point may (10 s): the curve's
 * extrapolation past its last point, or a seek_model's linear part, could
 * reach 1e20 ns at a full stroke and overflow the simulator's int64_t clock
 * (found by tests/fuzz/fuzz_sim_model.c).  The curve rises between its
 * points and beyond the last two, and a seek_model's parts rise, so the
 * longest seek is at a listed point, just below the knee, or at a full
 * stroke.
 */
static int longest_seek_check(struct parser *p)
{
	const struct hd_sim_model *m = p->m;
	uint64_t full = m->cylinders - 1, d[3] = { full, full, full };
	double worst = 0;

	if (full == 0)
		return 0;
	if (m->has_seek_model && m->sm_knee > 1 && m->sm_knee - 1 < (double)full)
		d[1] = (uint64_t)ceil(m->sm_knee) - 1;
	for (size_t i = 0; i < 3; i++)
		worst = fmax(worst, hd_sim_seek_ms(m, d[i]));
	for (size_t i = 0; i < m->nseek && m->seek[i].dist <= full; i++)
		worst = fmax(worst, hd_sim_seek_ms(m, m->seek[i].dist));
	if (!(worst <= 10000)) {
		p->line = m->has_seek_model ? p->seek_model_line : p->seek_line;
		return perr(p, "the seek curve reaches %.6g ms within the drive's %llu cylinders (at most 10000)",
			    worst, (unsigned long long)m->cylinders);
	}
	worst = m->nwseek ? hd_sim_write_seek_ms(m, full) : 0;
	for (size_t i = 0; i < m->nwseek && m->wseek[i].dist <= full; i++)
		worst = fmax(worst, hd_sim_write_seek_ms(m, m->wseek[i].dist));
	if (!(worst <= 10000)) {
		p->line = p->write_seek_line;
		return perr(p, "the write seek curve reaches %.6g ms within the drive's %llu cylinders (at most 10000)",
			    worst, (unsigned long long)m->cylinders);
	}
	return 0;
}

/* Checks that need the whole file: required keys, capacity, bad sectors. */
static int finish(struct parser *p)
{
	static const enum key required[] = { K_FORMAT, K_RPM, K_SECTOR_BYTES, K_SURFACES };
	struct hd_sim_model *m = p->m;
	size_t i, j;
	int rc;

	for (i = 0; i < sizeof(required) / sizeof(required[0]); i++)
		if (!p->seen[required[i]])
			return perr(p, "missing required key '%s'", key_names[required[i]]);
	if (!m->nzones)
		return perr(p, "missing required key 'zone' (at least one zone)");
	if (!m->nseek && !m->has_seek_model)
		return perr(p, "missing the seek curve ('seek' lines or 'seek_model')");
	if (m->has_seek_first10 && !m->has_seek_model) {
		p->line = p->seek_first10_line;
		return perr(p, "seek_first10: only with seek_model");
	}
	if ((rc = finish_engine(p)))
		return rc;
	{
		char why[160];
		size_t zi;

		if ((rc = hd_sim_layout_prepare(m, why, sizeof(why), &zi))) {
			p->line = p->zone_lines[zi];
			if (rc == -ENOMEM)
				return perr(p, "%s", why), -ENOMEM;
			return perr(p, "%s", why);
		}
	}
	/* Byte offsets are int64_t (off_t) past the model: the capacity must fit. */
	if (m->sectors > (uint64_t)INT64_MAX / m->sector_bytes) {
		p->line = p->seen[K_SECTOR_BYTES];
		return perr(p, "capacity of %llu sectors of %u bytes is too large",
			    (unsigned long long)m->sectors, m->sector_bytes);
	}
	if ((rc = longest_seek_check(p)))
		return rc;
	for (i = 0; i < m->nbad; i++)
		if (m->bad[i].last >= m->sectors) {
			p->line = p->bad_lines[i];
			return perr(p, "bad_sectors: %llu is beyond the last sector %llu",
				    (unsigned long long)m->bad[i].last,
				    (unsigned long long)(m->sectors - 1));
		}
	/* Sorted and merged, so that a lookup is one binary search. */
	if (m->nbad)
		qsort(m->bad, m->nbad, sizeof(*m->bad), cmp_bad);
	for (i = 0, j = 0; i < m->nbad; i++) {
		if (j && m->bad[i].first <= m->bad[j - 1].last + 1) {
			if (m->bad[i].last > m->bad[j - 1].last)
				m->bad[j - 1].last = m->bad[i].last;
		} else {
			m->bad[j++] = m->bad[i];
		}
	}
	m->nbad = j;
	return 0;
}

int hd_sim_model_parse(const char *text, size_t len, const char *fname,
		       struct hd_sim_model **out, char *err, size_t errlen)
{
	struct parser p = { .fname = fname, .err = err, .errlen = errlen };
	struct hd_sim_model *m = calloc(1, sizeof(*m));
	char line[1024];
	size_t pos = 0;
	int rc = 0;

	if (errlen)
		err[0] = '\0';
	if (!m) {
		snprintf(err, errlen, "%s: out of memory", fname);
		return -ENOMEM;
	}
	p.m = m;
	/* The defaults of every optional key, as documented. */
	m->read_overhead_ms = 0.3;
	m->write_overhead_ms = 0.3;
	m->cache_hit_overhead_ms = 0.1;
	m->interface_mb_s = 40;
	m->cache_segments = 1;
	m->queue_depth = 1;
	engine_defaults(m);
	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - (text + pos)) : len - pos;

		p.line++;
		if (n >= sizeof(line)) {
			rc = perr(&p, "line longer than %zu characters", sizeof(line) - 1);
			break;
		}
		memcpy(line, text + pos, n);
		line[n] = '\0';
		if (memchr(line, '\0', n)) {
			rc = perr(&p, "NUL byte in line");
			break;
		}
		pos += n + (nl != NULL);
		if ((rc = parse_line(&p, line)))
			break;
	}
	if (!rc)
		rc = finish(&p);
	/* A drive whose faults come with time shows them in SMART, unless the model says it has none. */
	if (!rc && !p.seen[K_SMART] && (m->write_retry_growth_per_hour > 0 || m->bad_sectors_count > 0))
		m->smart = 1;
	free(p.bad_lines);
	free(p.zone_lines);
	if (rc) {
		hd_sim_model_free(m);
		return rc;
	}
	if (!m->name[0])
		snprintf(m->name, sizeof(m->name), "%s", fname);
	*out = m;
	return 0;
}

void hd_sim_smart_counts(const struct hd_sim_model *m, int64_t now_ns, uint64_t *reallocated, uint64_t *pending)
{
	int gone = m->bad_sectors_count > 0 && (double)now_ns >= m->bad_sectors_after_hours * 3.6e12;

	*reallocated = gone ? m->bad_sectors_count : 0;
	*pending = *reallocated;
}

static int ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && strcmp(s + a - b, suffix) == 0;
}

/*
 * The bounds of a .drive file: lines as long as the parser takes, and a
 * whole that even thousands of bad_sectors lines stay far below.
 */
#define MODEL_MAX_LINE 1023
#define MODEL_MAX_FILE (4u << 20)

/*
 * The text of a .drive file, read in bounded lines.  A CRLF line is read
 * like an LF one: only the simulator reads a model.
 */
static int model_read(const char *path, char **text, size_t *len, char *err, size_t errlen)
{
	struct hd_lines l;
	FILE *f;
	int rc = hd_in_open(path, &f);

	if (rc) {
		hd_in_strerror(err, errlen, path, rc);
		return rc;
	}
	rc = hd_lines_init(&l, f, MODEL_MAX_LINE);
	if (!rc)
		rc = hd_lines_slurp(&l, MODEL_MAX_FILE, text, len);
	if (rc)
		hd_lines_strerror(err, errlen, &l, path, rc);
	hd_lines_free(&l);
	fclose(f);
	/* What the file holds is the trouble, not the reading of it. */
	return rc == -HD_ELONGLINE || rc == -HD_ENUL ? -EINVAL : rc;
}

int hd_sim_model_load(const char *spec, struct hd_sim_model **out, char *err, size_t errlen)
{
	const struct hd_preset *pr;
	char *buf;
	size_t n;
	int rc;

	if (!ends_with(spec, ".drive")) {
		pr = hd_preset_find(spec);
		if (!pr) {
			snprintf(err, errlen, "unknown preset '%s' (see 'hddscope sim list')", spec);
			return -ENOENT;
		}
		return hd_sim_model_parse(pr->text, pr->len, spec, out, err, errlen);
	}
	rc = model_read(spec, &buf, &n, err, errlen);
	if (rc)
		return rc;
	rc = hd_sim_model_parse(buf, n, spec, out, err, errlen);
	free(buf);
	return rc;
}

void hd_sim_model_free(struct hd_sim_model *m)
{
	if (!m)
		return;
	hd_sim_layout_free(m);
	free(m->zones);
	free(m->seek);
	free(m->bad);
	free(m->wseek);
	free(m);
}

/* ---- mechanics ---- */

/* The piecewise-linear curve through (0, 0) and the n points s at dist. */
static double curve_ms(const struct hd_sim_seekpt *s, size_t n, uint64_t dist)
{
	double d = (double)dist, x0, y0, x1, y1, v;
	size_t lo, hi;

	/* Between (0, 0) and the first point, between points, or past the last two. */
	if (dist <= s[0].dist || n == 1) {
		x0 = 0, y0 = 0, x1 = s[0].dist, y1 = s[0].ms;
	} else if (dist >= s[n - 1].dist) {
		x0 = s[n - 2].dist, y0 = s[n - 2].ms;
		x1 = s[n - 1].dist, y1 = s[n - 1].ms;
	} else {
		lo = 0, hi = n - 1;	/* s[lo].dist < dist <= s[hi].dist */
		while (hi - lo > 1) {
			size_t mid = (lo + hi) / 2;

			if (s[mid].dist < dist)
				lo = mid;
			else
				hi = mid;
		}
		x0 = s[lo].dist, y0 = s[lo].ms, x1 = s[hi].dist, y1 = s[hi].ms;
	}
	v = y0 + (y1 - y0) * (d - x0) / (x1 - x0);
	/* A falling last segment must not extrapolate below zero. */
	return v > 0 ? v : 0;
}

double hd_sim_seek_ms(const struct hd_sim_model *m, uint64_t dist)
{
	double d = (double)dist;

	if (dist == 0)
		return 0;
	if (m->has_seek_first10 && dist <= 10)
		return m->seek_first10[dist - 1];
	if (m->has_seek_model)
		return d < m->sm_knee ? m->sm_a + m->sm_b * sqrt(d) : m->sm_c + m->sm_e * d;
	return curve_ms(m->seek, m->nseek, dist);
}

double hd_sim_write_seek_ms(const struct hd_sim_model *m, uint64_t dist)
{
	if (dist == 0 || !m->nwseek)
		return hd_sim_seek_ms(m, dist);
	return curve_ms(m->wseek, m->nwseek, dist);
}

double hd_sim_write_positioning_ms(const struct hd_sim_model *m, uint64_t dist)
{
	return dist ? hd_sim_write_seek_ms(m, dist) + m->write_settle_ms : 0;
}

double hd_sim_seek_avg_ms(const struct hd_sim_model *m, int write)
{
	uint64_t full = m->cylinders - 1, n;
	double sum = 0;

	if (full == 0)
		return 0;
	for (n = 1; n <= full; n++)
		sum += (double)(full + 1 - n) *
		       (write ? hd_sim_write_positioning_ms(m, n) : hd_sim_seek_ms(m, n));
	return sum / ((double)full * (double)(full + 1) / 2);
}

double hd_sim_rev_ms(const struct hd_sim_model *m)
{
	return 60000.0 / m->rpm;
}
