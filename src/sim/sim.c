/*
 * The simulated drive's engine (its device backend, "sim:NAME", is
 * src/dev/simdev.c).
 *
 * A virtual clock in nanoseconds: every access advances it by what the
 * model says the access costs, and nothing sleeps.  The drive keeps the
 * head's cylinder and surface; the platter's angle follows from the clock
 * and the rpm, so rotational waits come out of the layout and its skews.
 * Background work is evaluated lazily, when the next request (or reap)
 * asks for the drive: read-ahead is a stream that reads on from where the
 * last media read ended for as long as the drive is idle, destaging of
 * the write-back cache starts whenever the drive is idle and dirty.
 *
 * Per access the cost is O(log zones + log seek points + cache segments),
 * and for a read a step per sector it moves (the host transfer follows the
 * media sector by sector, and a track with slipped sectors is counted
 * sector by sector when read-ahead needs its LBAs); nothing is allocated
 * on the read path.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hddscope/sim.h"
#include "hddscope/util.h"
#include "sim_layout.h"

#define BLK 512u
/* A read or write over a bad sector gives up after this many revolutions of retries. */
#define RETRY_REVS 128
/* Pending write extents the write-back cache tracks at most. */
#define MAX_DIRTY 4096

struct seg {
	uint64_t start, end;	/* cached sectors [start, end); empty when equal */
	uint64_t used;		/* LRU stamp */
};

/*
 * Write data waiting in the cache: sectors [start, end), whose data began
 * to arrive at t0.  Its last write began at sector p: from pt0 on, one
 * sector every psec ns (the sectors before p had arrived by then).
 */
struct extent {
	uint64_t start, end, p;
	int64_t t0, pt0;
	double psec;
	int cover;		/* the media access before it writes it too, as it goes on */
};

/* A queued request: the caller's request plus what the engine needs. */
struct qent {
	struct hd_req r;
	int sync;		/* issued by hd_sim_io(), not to be reaped */
	int hit;
};

/* Written data, one 512-byte block per entry, in an open-addressing table. */
struct store {
	uint64_t *keys;		/* block + 1; 0 = empty slot */
	uint32_t *vals;		/* index into pool */
	size_t cap, n;		/* cap is a power of two */
	unsigned char *pool;
	size_t pool_cap;
};

/*
 * The places of the last two LBAs located: a read locates its end several
 * times over (its read-ahead's limits, the stream), and on a layout with
 * slips or spares each locate costs a search.  The last track walked to
 * its end, too: LBAs [te_lo, te_hi) lie on one track, which ends at te_hi
 * and holds te_n LBAs (0: not counted yet).
 */
struct loc_cache {
	uint64_t lba[2];
	struct hd_sim_loc l[2];		/* l[i].z NULL: empty */
	unsigned next;
	uint64_t te_lo, te_hi, te_n;
};

struct hd_sim {
	const struct hd_sim_model *m;
	struct loc_cache *lc;		/* &lcache: written through a const engine too */
	struct loc_cache lcache;
	struct hd_rng rng;
	int64_t now;		/* the host's clock */
	int fua;		/* every write goes to the media before it completes */
	int wc;			/* enum hd_sim_wc: the model's, until switched */
	int64_t free_at;	/* the mechanism is busy until then */
	int64_t ctl_at;		/* the controller is busy until then (the last completion) */
	uint32_t cyl, surf;	/* where the head is */
	int last_write;		/* the last request completed was a write */
	uint64_t prev_end;	/* where the last request ended, +1 (0: none) */
	int prev_write;

	/* constants from the model; [0] after a read or for a read, [1] after a write or for a write */
	double rev_ns, iface_ns_per_byte, iface_w_ns_per_byte, seek_sd_ns;
	double *seek_ns;	/* a read's seek time by distance, [0, cylinders), 0 until first needed; or NULL */
	int64_t head_switch_ns, settle_ns, req_ovh_ns;
	int64_t rmiss_ns[2], rhit_ns[2], wmiss_ns[2], whit_ns[2], compl_ns[2], resel_ns[1], prep_ns;
	int64_t rdisc_ns[2], wdisc_ns, resel2_ns, xdisc_ns[5], min_wseek_ns;
	uint64_t wend;		/* where the last write ended, +1 (0: none) */
	uint64_t seg_sectors, ra_sectors, ra_min_sectors, wc_bytes, wseg_sectors;
	uint64_t lo_bytes, hi_bytes;	/* destage water marks */
	uint32_t wsegs;		/* extents (segments) that may hold write data */
	uint32_t sb;		/* sector bytes */

	/* read cache and the read-ahead stream */
	struct seg *segs;
	uint32_t nsegs;
	uint64_t stamp;
	int ra_on, ra_fresh;		/* ra_fresh: the head must get to ra_next first */
	uint64_t ra_next, ra_limit;	/* next sector to read, where to stop */
	uint64_t ra_min;		/* read-ahead not to be interrupted before this sector */
	/*
	 * The read the segments owe the host: sectors [own_a, own_b), until
	 * own_until (its completion).  Until then the buffer holds no sector
	 * a segment or more past the next one to be sent (own_sent).  Its
	 * first own_lin sectors cross the interface one every own_xs ns from
	 * own_x0 on; when the later ones up to own_rec had crossed, sent[]
	 * says (the last seg_sectors of them, by index from own_a).
	 */
	uint64_t own_a, own_b, own_lin, own_rec;
	int64_t own_x0, own_until;
	double own_xs;
	uint32_t own_seg;		/* the segment that holds it */
	int64_t ra_t;			/* when sector ra_next starts under the head */
	int64_t ra_idle;		/* the head has waited since then for sector ra_next (0: it is reading) */
	int64_t ra_moved;		/* when the stream's last switch (or seek) ended */
	int64_t wait0;			/* the last media access's rotational wait on its first track */
	uint64_t media_next;		/* the sector after the last media access */
	int64_t media_end;		/* when it ended */
	uint32_t ra_seg;
	int pipe_on;			/* a read's host transfer is being counted (pipe_begin) */
	uint64_t pipe_wait, pipe_held;	/* sectors to come before it starts, and those come so far */
	double *sent;			/* a ring of seg_sectors: see own_a */
	double pipe_done;		/* when what has come off the platter so far has crossed */
	/*
	 * The transfer of a read miss of a model with read_watermark starts
	 * pipe_add after the watermark's sector is in, not before pipe_floor
	 * (DiskSim's disconnection and reselection).
	 */
	int64_t pipe_floor, pipe_add;

	/* write-back cache: a ring of extents waiting to be destaged, oldest first */
	struct extent *dirty;
	size_t dhead, dn;
	uint64_t dirty_bytes;
	int draining;		/* destaging under load, down to the low water mark */
	int64_t infl_end;	/* the last piece of destaging ends then, */
	uint64_t infl_bytes;	/* holding this much room until then */
	int infl_ext;		/* and the extent it emptied; */
	int64_t infl_first;	/* its first sector went under the head then; */
	uint64_t infl_start;	/* that sector */
	uint64_t infl_next;	/* the sector after it */

	/* command queue */
	struct qent *pend, *done;
	size_t npend, ndone, pcap, dcap;

	struct store store;
	struct hd_sim_stats st;
};

/* ---- data ---- */

static uint64_t mix64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return x;
}

/* Word i of a block is the block's hash xor fill_tab[i]: cheap, and it vectorizes. */
static uint64_t fill_tab[BLK / 8];
static pthread_once_t fill_once = PTHREAD_ONCE_INIT;

static void fill_init(void)
{
	size_t i;

	for (i = 0; i < BLK / 8; i++)
		fill_tab[i] = mix64(i + 1);
}

void hd_sim_fill(void *buf, uint64_t off, size_t len)
{
	unsigned char *p = buf;
	uint64_t blk = off / BLK;
	size_t i, b;

	pthread_once(&fill_once, fill_init);
	for (b = 0; b < len / BLK; b++, blk++) {
		uint64_t h = mix64(blk + 0x5eed);
		unsigned char *q = p + b * BLK;

		/*
		 * Straight into the buffer (no block on the stack to copy), eight
		 * words a turn: the loop vectorizes, and its count and branch
		 * cost little beside the stores.
		 */
		for (i = 0; i < BLK / 8; i += 8) {
			uint64_t w[8];
			size_t j;

			for (j = 0; j < 8; j++)
				w[j] = h ^ fill_tab[i + j];
			memcpy(q + 8 * i, w, sizeof(w));
		}
	}
}

static size_t store_slot(const struct store *st, uint64_t key)
{
	size_t mask = st->cap - 1, i = (size_t)((key * 0x9e3779b97f4a7c15ULL) >> 20) & mask;

	while (st->keys[i] && st->keys[i] != key)
		i = (i + 1) & mask;
	return i;
}

static const unsigned char *store_get(const struct store *st, uint64_t blk)
{
	size_t i;

	if (!st->n)
		return NULL;
	i = store_slot(st, blk + 1);
	return st->keys[i] ? st->pool + (size_t)st->vals[i] * BLK : NULL;
}

static int store_grow(struct store *st)
{
	struct store nt = *st;
	size_t i;

	nt.cap = st->cap ? st->cap * 2 : 1024;
	nt.keys = calloc(nt.cap, sizeof(*nt.keys));
	nt.vals = malloc(nt.cap * sizeof(*nt.vals));
	if (!nt.keys || !nt.vals) {
		free(nt.keys);
		free(nt.vals);
		return -ENOMEM;
	}
	for (i = 0; i < st->cap; i++)
		if (st->keys[i]) {
			size_t j = store_slot(&nt, st->keys[i]);

			nt.keys[j] = st->keys[i];
			nt.vals[j] = st->vals[i];
		}
	free(st->keys);
	free(st->vals);
	*st = nt;
	return 0;
}

static int store_put(struct store *st, uint64_t blk, const unsigned char *data)
{
	size_t i;

	if ((st->n + 1) * 2 > st->cap && store_grow(st))
		return -ENOMEM;
	i = store_slot(st, blk + 1);
	if (!st->keys[i]) {
		if (st->n >= UINT32_MAX)
			return -ENOSPC;
		if ((st->n + 1) * BLK > st->pool_cap) {
			size_t nc = st->pool_cap ? st->pool_cap * 2 : 64 * BLK;
			unsigned char *np = realloc(st->pool, nc);

			if (!np)
				return -ENOMEM;
			st->pool = np;
			st->pool_cap = nc;
		}
		st->keys[i] = blk + 1;
		st->vals[i] = (uint32_t)st->n++;
	}
	memcpy(st->pool + (size_t)st->vals[i] * BLK, data, BLK);
	return 0;
}

static void data_read(struct hd_sim *s, void *buf, uint64_t off, size_t len)
{
	unsigned char *p = buf;
	size_t b;

	if (!buf)
		return;
	if (!s->store.n) {
		hd_sim_fill(buf, off, len);
		return;
	}
	for (b = 0; b < len / BLK; b++) {
		const unsigned char *d = store_get(&s->store, off / BLK + b);

		if (d)
			memcpy(p + b * BLK, d, BLK);
		else
			hd_sim_fill(p + b * BLK, off + b * BLK, BLK);
	}
}

static int data_write(struct hd_sim *s, const void *buf, uint64_t off, size_t len)
{
	const unsigned char *p = buf;
	size_t b;
	int rc;

	if (!buf)
		return 0;
	for (b = 0; b < len / BLK; b++) {
		uint64_t blk = off / BLK + b;
		unsigned char fill[BLK];

		/*
		 * A block written back with the bytes it reads as unwritten needs
		 * no room (data-preserving writes rewrite what they read).
		 */
		if (!s->store.n || !store_get(&s->store, blk)) {
			hd_sim_fill(fill, blk * BLK, BLK);
			if (memcmp(fill, p + b * BLK, BLK) == 0)
				continue;
		}
		if ((rc = store_put(&s->store, blk, p + b * BLK)))
			return rc;
	}
	return 0;
}

/*
 * hd_sim_locate() through the engine's cache of the last two places: an
 * LBA inside a cached place's run lies on the same track, that many
 * sectors further on, with the rest of the run.
 */
static void locate(const struct hd_sim *s, uint64_t lba, struct hd_sim_loc *l)
{
	struct loc_cache *c = s->lc;

	for (int i = 0; i < 2; i++)
		if (c->l[i].z && lba >= c->lba[i] && lba - c->lba[i] < c->l[i].run) {
			uint32_t k = (uint32_t)(lba - c->lba[i]);

			*l = c->l[i];
			l->lba = lba;
			l->sec += k;
			l->run -= k;
			return;
		}
	hd_sim_locate(s->m, lba, l);
	c->lba[c->next] = lba;
	c->l[c->next] = *l;
	c->next ^= 1;
}

/* ---- mechanics ---- */

/* The most cylinders whose read seek times the engine tables (8 MiB of them). */
#define SEEK_TAB_MAX (1u << 20)

/* Round to whole nanoseconds; cheaper than llround() on this hot path. */
static int64_t rnd(double x)
{
	return (int64_t)(x >= 0 ? x + 0.5 : x - 0.5);
}

/* Which positionings of a write settle: none (a read), a seek that starts an access, every one. */
enum settle { SETTLE_NONE, SETTLE_SEEK, SETTLE_ALL };

/* Positioning time from the head's place to (cyl, surf), without moving it. */
static double move_ns(const struct hd_sim *s, uint32_t cyl, uint32_t surf, enum settle settle, int jitter,
		      struct hd_rng *rng)
{
	double ns = 0;

	if (cyl != s->cyl) {
		uint64_t d = cyl > s->cyl ? cyl - s->cyl : s->cyl - cyl;

		/* A write's own seek curve where the model has one. */
		if (settle != SETTLE_NONE)
			ns = hd_sim_write_seek_ms(s->m, d) * 1e6;
		else if (!s->seek_ns)
			ns = hd_sim_seek_ms(s->m, d) * 1e6;
		/* Filled as distances come up: a big drive's table is not computed whole for a short run. */
		else if ((ns = s->seek_ns[d]) == 0)
			ns = s->seek_ns[d] = hd_sim_seek_ms(s->m, d) * 1e6;
		if (jitter && s->seek_sd_ns > 0) {
			ns += s->seek_sd_ns * hd_rng_gauss(rng);
			if (ns < 0)
				ns = 0;
		}
		/* Writing needs the head settled more precisely than reading does. */
		if (settle != SETTLE_NONE)
			ns += (double)s->settle_ns;
	} else if (surf != s->surf) {
		/* A head switch: DiskSim settles a write here too. */
		ns = (double)s->head_switch_ns;
		if (settle == SETTLE_ALL)
			ns += (double)s->settle_ns;
	}
	return ns > 0 ? ns : 0;
}

/* The time at or after t when a sector at angle (revolutions) starts under the head. */
static int64_t rot_wait(const struct hd_sim *s, double angle, int64_t t)
{
	double td = (double)t, ph = td / s->rev_ns, w, wns;

	ph -= floor(ph);
	w = angle - ph;
	if (w < 0)
		w += 1;
	wns = w * s->rev_ns;
	/* Rounding to whole nanoseconds must not turn "just arriving" into a full turn. */
	if (s->rev_ns - wns < 2)
		wns = 0;
	return t + rnd(wns);
}

static void pipe_run(struct hd_sim *s, int64_t t, double st, uint64_t k);

/* No host data to wait for: a read, or a write whose data is all in the buffer. */
#define DATA_HERE INT64_MIN

/*
 * What a media write of DiskSim's disconnecting disk (write_disconnected)
 * adds: min_move, the shortest positioning before the first sector (a
 * write's minimum seek); data_min, no sector is written before it (0:
 * none).  A read's host transfer is the pipe's (pipe_begin).
 */
struct xfer {
	int64_t min_move;
	int64_t data_min;
};

/*
 * The rotational wait for l's sector from t; for a transfer's first
 * sector (at_first) it is recorded in wait0 and the time it begins in
 * *first (when not NULL).  Returns when the sector begins.
 */
static int64_t wait_for(struct hd_sim *s, const struct hd_sim_loc *l, int64_t t, int at_first, int64_t *first)
{
	int64_t w = rot_wait(s, hd_sim_loc_angle(s->m, l), t);

	if (at_first) {
		s->wait0 = w - t;
		if (first)
			*first = w;
	}
	return w;
}

/*
 * Transfer sectors [lba, lba + n) between media and buffer, starting at t
 * with the head wherever it is: per track, positioning (a seek, or a head
 * switch), then the rotational wait for the first sector, then the
 * sectors.  A write's data crosses the interface from data0 on, one sector
 * every sec_ns (data0 = DATA_HERE: it is all in the buffer): the media
 * write of a sector cannot start before that sector has arrived, and a
 * track's sectors are written in one pass.  Returns the time the last
 * sector has passed under the head; *first (if not NULL) receives the time
 * the first one began to; xf (if not NULL) holds a write's limits (struct
 * xfer).
 */
static int64_t media(struct hd_sim *s, uint64_t lba, uint64_t n, int write, int64_t t,
		     int64_t data0, double sec_ns, int64_t *first, struct xfer *xf)
{
	const struct hd_sim_model *m = s->m;
	struct hd_sim_loc l;
	uint64_t done = 0;
	/*
	 * A write settles after the seek that starts it, not at the track
	 * switches inside it, where the skews cover the switch (unless the
	 * model settles everywhere, as DiskSim does); a write that goes on
	 * where the last media access ended, without a pause, is inside it.
	 */
	enum settle settle = !write ? SETTLE_NONE : m->write_settle_on_head_switch ? SETTLE_ALL :
			     lba == s->media_next && t <= s->media_end ? SETTLE_NONE : SETTLE_SEEK;

	locate(s, lba, &l);
	while (n > 0) {
		uint64_t k = l.run;
		double st, mv;

		if (k > n)
			k = n;
		st = s->rev_ns / l.z->spt;
		mv = move_ns(s, l.cyl, l.surf, settle, 1, &s->rng);
		if (!done && xf && mv < (double)xf->min_move)
			mv = (double)xf->min_move;
		t += rnd(mv);
		if (settle == SETTLE_SEEK)
			settle = SETTLE_NONE;
		s->cyl = l.cyl;
		s->surf = l.surf;
		if (data0 != DATA_HERE) {
			/* Sector done + i arrives at data0 + (done + i + 1) sec_ns, is written at t + i st. */
			double need = (double)data0 + (double)(done + 1) * sec_ns;

			if (sec_ns > st)
				need += (double)(k - 1) * (sec_ns - st);
			if (xf && need < (double)xf->data_min)
				need = (double)xf->data_min;
			if ((double)t < need)
				t = (int64_t)ceil(need);
		}
		t = wait_for(s, &l, t, !done, first);
		if (!write)
			pipe_run(s, t, st, k);
		t += rnd((double)k * st);
		n -= k;
		done += k;
		if (n)
			hd_sim_next_track(m, &l);
	}
	s->media_next = lba + done;
	s->media_end = t;
	return t;
}

/*
 * An unstable writer: now and then a write has to go round once more;
 * with write_retry_growth_per_hour, more often the longer the drive has
 * run (virtual time t, in hours), as a wearing writer does.
 */
static int64_t write_retry(struct hd_sim *s, int64_t t)
{
	double p = s->m->write_retry_probability + s->m->write_retry_growth_per_hour * ((double)t / 3.6e12);

	if (p > 0 && hd_rng_uniform(&s->rng) < p)
		t += rnd(s->rev_ns);
	return t;
}

static int64_t iface_ns(const struct hd_sim *s, size_t len)
{
	return rnd((double)len * s->iface_ns_per_byte);
}

static int64_t iface_w_ns(const struct hd_sim *s, size_t len)
{
	return rnd((double)len * s->iface_w_ns_per_byte);
}

/* The model has DiskSim's disconnection and reselection (the key read_watermark). */
static int disconnects(const struct hd_sim *s)
{
	return s->m->read_water_by != HD_SIM_WATER_OFF;
}

/*
 * DiskSim's read water mark: the sectors of an n-sector read miss that
 * must be in the buffer before the drive reconnects (1-based; 0: it never
 * disconnected), a fraction of the request (at least one sector) or of
 * the segment, at most the request.
 */
static uint64_t read_water(const struct hd_sim *s, uint64_t n)
{
	const struct hd_sim_model *m = s->m;
	uint64_t seg = s->seg_sectors ? s->seg_sectors : n, w;

	if (m->read_water_by == HD_SIM_WATER_NEVER)
		return 0;
	if (m->read_water_by == HD_SIM_WATER_REQUEST) {
		w = (uint64_t)(m->read_water * (double)(n < seg ? n : seg));
		if (w < 1)
			w = 1;
	} else {
		w = (uint64_t)ceil(m->read_water * (double)seg - 1e-9);
	}
	return w < n ? w : n;
}

/*
 * The host transfer of a read: the buffer passes sectors to the host while
 * the platter delivers them, but a sector crosses the interface only once
 * it is in the buffer and after the sector before it (when the transfer
 * catches up with the media, DiskSim's drive disconnects and reselects as
 * the next sector comes in).  pipe_begin starts counting a read whose
 * transfer has crossed c sectors' worth by done (the cached part from x0
 * on: x0 + c sector times); each run of k sectors the media delivers, the
 * first ending at t + st, goes through pipe_run; pipe_end stops counting
 * and returns when the whole of len bytes has crossed from x0 on, or the
 * last sector has, whichever is later.
 */
static void pipe_begin(struct hd_sim *s, int64_t x0, uint64_t c)
{
	s->pipe_on = 1;
	s->pipe_wait = s->pipe_held = 0;
	s->pipe_floor = s->pipe_add = 0;
	s->pipe_done = (double)x0 + (double)c * (double)s->sb * s->iface_ns_per_byte;
	s->own_x0 = x0;
	s->own_lin = s->own_rec = c;
}

/*
 * A read miss of n sectors arriving at ts.  Without read_watermark its
 * transfer starts as its first sector is in.  With it, as DiskSim's disk
 * does: the drive disconnects after the command (read_miss_overhead_ms
 * and read_disconnect_overhead_ms), reconnects once the water mark's
 * sectors are in the buffer (read_water) and it has disconnected, and
 * reselects the host (reselect_overhead_ms and data_prep_overhead_ms);
 * one that never disconnects sends from the end of the command and its
 * data preparation on.  Either way the bus is held while the rest follows
 * the media sector by sector.
 */
static void pipe_begin_miss(struct hd_sim *s, uint64_t n, int64_t ts)
{
	int lw = s->last_write;
	uint64_t w = disconnects(s) ? read_water(s, n) : 1;

	if (!w) {
		pipe_begin(s, ts + s->rmiss_ns[lw] + s->prep_ns, 0);
		return;
	}
	pipe_begin(s, 0, 0);
	s->pipe_wait = w;
	if (disconnects(s)) {
		s->pipe_floor = ts + s->rmiss_ns[lw] + s->rdisc_ns[lw];
		s->pipe_add = s->resel_ns[0] + s->prep_ns;
	}
}

/* The next sector of the read is in the buffer at time in: when it crosses, recorded in sent[]. */
static void pipe_sector(struct hd_sim *s, double in)
{
	double xs = (double)s->sb * s->iface_ns_per_byte, d = s->pipe_done > in ? s->pipe_done : in;
	uint64_t q, n = 1;

	if (s->pipe_wait) {
		/* The sectors pile up in the buffer until the watermark's is in. */
		s->pipe_held++;
		if (--s->pipe_wait)
			return;
		n = s->pipe_held;
		s->pipe_held = 0;
		/* The drive reconnects: not before it has disconnected, then it reselects. */
		d = (in > (double)s->pipe_floor ? in : (double)s->pipe_floor) + (double)s->pipe_add;
		if (d < s->pipe_done)
			d = s->pipe_done;
	}
	for (q = 0; q < n; q++) {
		d += xs;
		if (s->sent)
			s->sent[(s->own_rec + q) % s->seg_sectors] = d;
	}
	s->own_rec += n;
	s->pipe_done = d;
}

/* A run of k sectors off the platter, the first ending at t + st. */
static void pipe_run(struct hd_sim *s, int64_t t, double st, uint64_t k)
{
	uint64_t i;

	if (!s->pipe_on)
		return;
	for (i = 1; i <= k; i++)
		pipe_sector(s, (double)t + (double)i * st);
}

static int64_t pipe_end(struct hd_sim *s, int64_t x0, size_t len)
{
	int64_t all = x0 + iface_ns(s, len), d = (int64_t)ceil(s->pipe_done - 0.5);

	s->pipe_on = 0;
	return d > all ? d : all;
}

/* ---- read cache and read-ahead ---- */

static void seg_trim(struct hd_sim *s, struct seg *g)
{
	if (g->end - g->start > s->seg_sectors)
		g->start = g->end - s->seg_sectors;
}

/*
 * The first LBA past the track holding lba: run by run, since a slipped or
 * spare sector ends a run inside the track.
 */
/* LBAs run in slot order along a track: all of [from, end) lie on it.  Keeps that, returns end. */
static uint64_t te_keep(struct loc_cache *c, uint64_t from, uint64_t end)
{
	c->te_lo = from;
	c->te_hi = end;
	c->te_n = 0;
	return end;
}

static uint64_t track_end(const struct hd_sim *s, uint64_t lba)
{
	struct loc_cache *c = s->lc;
	struct hd_sim_loc l;
	uint64_t from = lba;
	uint32_t cyl, surf;

	if (lba >= c->te_lo && lba < c->te_hi)
		return c->te_hi;
	locate(s, lba, &l);
	/*
	 * A run that reaches the track's last sector ends the track where the
	 * zone remaps nothing and its slips are in order: slots rise with the
	 * LBA, so the next LBA lies on a later track.
	 */
	if (l.sec + l.run == l.z->spt && !l.z->ndefects && !l.z->slips_listed)
		return te_keep(c, from, lba + l.run < s->m->sectors ? lba + l.run : s->m->sectors);
	cyl = l.cyl;
	surf = l.surf;
	for (;;) {
		lba += l.run;
		if (lba < s->m->sectors)
			locate(s, lba, &l);
		if (lba >= s->m->sectors || l.cyl != cyl || l.surf != surf) {
			return te_keep(c, from, lba < s->m->sectors ? lba : s->m->sectors);
		}
	}
}

/*
 * How many LBAs the track holding lba has: its sectors, less those that
 * hold none.  LBAs run in slot order along a track, so they are those from
 * the track's first LBA (its first slot that holds one) to track_end: a
 * few runs located, not every slot mapped.
 */
static uint64_t track_lbas(const struct hd_sim *s, uint64_t lba)
{
	struct hd_sim_loc l;
	struct hd_sim_chs c;
	uint64_t first;

	locate(s, lba, &l);
	if (l.z->plain)
		return l.z->spt;
	c.cyl = l.cyl;
	c.surface = l.surf;
	if (s->lc->te_n && lba >= s->lc->te_lo && lba < s->lc->te_hi)
		return s->lc->te_n;
	for (c.sector = 0; c.sector < l.z->spt; c.sector++)
		if (hd_sim_chs_to_lba(s->m, &c, &first) == 0) {
			uint64_t n = track_end(s, first) - first;

			/* track_end(first) has just cached the whole track from its first LBA. */
			s->lc->te_n = n;
			return n;
		}
	return 0;
}

/* The first LBA past the cylinder holding lba. */
static uint64_t cyl_end(const struct hd_sim *s, uint64_t lba)
{
	struct hd_sim_loc l;
	uint32_t cyl;

	locate(s, lba, &l);
	cyl = l.cyl;
	for (;;) {
		lba += l.run;
		if (lba >= s->m->sectors)
			return s->m->sectors;
		locate(s, lba, &l);
		if (l.cyl != cyl)
			return lba;
	}
}

/* Do two LBAs lie on the same track? */
static int same_track(const struct hd_sim *s, uint64_t x, uint64_t y)
{
	struct hd_sim_loc lx, ly;

	locate(s, x, &lx);
	locate(s, y, &ly);
	return lx.cyl == ly.cyl && lx.surf == ly.surf;
}

/*
 * Where read-ahead after a read of [a, b) stops (the key readahead in
 * data/drives/README.md); seg_start is where the segment's data begins.
 */
static uint64_t ra_limit_for(const struct hd_sim *s, uint64_t a, uint64_t b, uint64_t seg_start)
{
	const struct hd_sim_model *m = s->m;
	uint64_t lim, cap;

	if (b >= m->sectors || !s->nsegs)
		return b;
	switch (m->readahead) {
	case HD_SIM_RA_TRACK:
		lim = track_end(s, b - 1);
		break;
	case HD_SIM_RA_CYLINDER:
		lim = cyl_end(s, b - 1);
		break;
	case HD_SIM_RA_SEGMENT:
		lim = (m->readahead_over_requested ? b : a) + s->seg_sectors;
		break;
	case HD_SIM_RA_STREAM:
		/*
		 * As DiskSim's stream detector: to the end of the track holding b,
		 * and when the segment's data began on an earlier track, on by as
		 * many LBAs as the track holding a has.
		 */
		lim = track_end(s, b);
		if (!same_track(s, seg_start, b))
			lim += track_lbas(s, a);
		break;
	default:
		return b;
	}
	/* As in DiskSim, readahead_max_blocks does not bound the stream detector's read-ahead. */
	if (m->readahead != HD_SIM_RA_STREAM && lim > b + s->ra_sectors)
		lim = b + s->ra_sectors;
	/* Keeping the request's data, read-ahead stops when the segment is full. */
	cap = a + s->seg_sectors;
	if (!m->readahead_over_requested && lim > cap)
		lim = cap;
	if (lim < b + s->ra_min_sectors)
		lim = b + s->ra_min_sectors;
	return lim < m->sectors ? lim : m->sectors;
}

/* When sector own_a + j of the read the segments owe the host has crossed the interface. */
static int64_t own_sent(const struct hd_sim *s, uint64_t j)
{
	if (j >= s->own_b - s->own_a)
		return s->own_until;
	if (j < s->own_lin || j >= s->own_rec || j + s->seg_sectors < s->own_rec || !s->sent)
		return s->own_x0 + rnd((double)(j + 1) * s->own_xs);
	return (int64_t)ceil(s->sent[j % s->seg_sectors] - 0.5);
}

/*
 * The segments owe the host the read [own_a, own_b) until own_until: a
 * sector of read-ahead whose pass under the head begins at t may go into
 * the segment only if it lies less than a segment past the next sector
 * to be sent then (DiskSim's buffer: data not yet sent is never pushed
 * out).  Of the *k sectors from ra_next on, starting under the head at
 * ra_t, one every st ns, how many may be read in a row: *k is cut to
 * them (to a segment at most while the read is owed, so that what its
 * sectors wait for has been recorded).  Returns ra_t when the first may
 * be read, else the earliest time it may (INT64_MAX: not before the read
 * completes, which is not known yet).
 */
/* The first i < n whose sector, of those starting under the head at t0 + i st, starts at T or later; else n. */
static uint64_t first_from(int64_t t0, double st, int64_t T, uint64_t n)
{
	double est = (double)(T - t0) / st;
	uint64_t i = est <= 0 ? 0 : est >= (double)n ? n : (uint64_t)est;

	while (i > 0 && t0 + rnd((double)(i - 1) * st) >= T)
		i--;
	while (i < n && t0 + rnd((double)i * st) < T)
		i++;
	return i;
}

static int64_t stream_room(const struct hd_sim *s, double st, uint64_t *k)
{
	uint64_t x = s->ra_next, i, lim, n = *k, seg = s->seg_sectors;

	if (s->own_until <= s->ra_t || s->own_seg != s->ra_seg || x + n <= s->own_a + seg)
		return s->ra_t;
	if (n > seg)
		n = seg;
	/* Sectors from lim on begin once the read is sent; before i the segment has room. */
	lim = first_from(s->ra_t, st, s->own_until, n);
	i = x < s->own_a + seg ? s->own_a + seg - x : 0;
	for (i = i < lim ? i : lim; i < lim; i++)
		if (s->ra_t + rnd((double)i * st) < own_sent(s, x + i - seg - s->own_a))
			break;
	if (i) {
		*k = i;
		return s->ra_t;
	}
	{
		int64_t need = own_sent(s, x - seg - s->own_a);

		return need < s->own_until ? need : s->own_until;
	}
}

/*
 * Let the read-ahead stream read on until time T (or until its sector
 * target is reached), following the track and cylinder switches.  A
 * switch that has begun before T is completed: the head has moved.
 */
static void stream_run(struct hd_sim *s, int64_t T, uint64_t target)
{
	const struct hd_sim_model *m = s->m;
	struct seg *g;

	/* Without read-ahead there may be no segments at all. */
	if (!s->ra_on)
		return;
	g = &s->segs[s->ra_seg];
	while (s->ra_next < target && s->ra_t < T) {
		struct hd_sim_loc l;
		uint64_t k, lim = s->ra_limit;
		double st;
		int64_t end, ok;

		if (s->ra_next >= lim)
			break;
		locate(s, s->ra_next, &l);
		if (s->ra_fresh || l.cyl != s->cyl || l.surf != s->surf) {
			int64_t t = s->ra_t + rnd(move_ns(s, l.cyl, l.surf, SETTLE_NONE, 1, &s->rng));

			s->cyl = l.cyl;
			s->surf = l.surf;
			s->ra_moved = t;
			s->ra_t = rot_wait(s, hd_sim_loc_angle(m, &l), t);
			s->ra_idle = t;
			s->ra_fresh = 0;
			continue;
		}
		k = l.run;
		if (k > lim - s->ra_next)
			k = lim - s->ra_next;
		if (k > target - s->ra_next)
			k = target - s->ra_next;
		st = s->rev_ns / l.z->spt;
		if ((ok = stream_room(s, st, &k)) > s->ra_t) {
			/*
			 * The sector under the head would push out data the host
			 * has yet to take: it passes unread, and the head waits on
			 * the track for it to come round again.
			 */
			if (ok == INT64_MAX)
				break;
			if (!s->ra_idle)
				s->ra_idle = s->ra_t;
			s->ra_t += rnd(ceil((double)(ok - s->ra_t) / s->rev_ns) * s->rev_ns);
			continue;
		}
		s->ra_idle = 0;
		end = s->ra_t + rnd((double)k * st);
		if (end > T) {
			k = (uint64_t)((double)(T - s->ra_t) / st);
			end = s->ra_t + rnd((double)k * st);
		}
		pipe_run(s, s->ra_t, st, k);
		s->ra_next += k;
		s->ra_t = end;
		if (k == 0)
			break;
	}
	g->end = s->ra_next;
	seg_trim(s, g);
}

/*
 * Stop the read-ahead at t, once its minimum is read: the mechanism is
 * free from the end of the sector (or switch) it was on.
 */
/*
 * The read-ahead, run up to t, ends there: the mechanism is free from the
 * end of the sector (or switch) it was on, and a head waiting for its next
 * sector to come round (or for room in the segment) at once, or once it is
 * on the track.
 */
static void stream_halt(struct hd_sim *s, int64_t t)
{
	s->ra_on = 0;
	if (s->ra_idle && s->ra_t > t) {
		int64_t f = s->ra_idle > t ? s->ra_idle : t;

		if (s->free_at < f)
			s->free_at = f;
	} else if (s->free_at < s->ra_t) {
		s->free_at = s->ra_t;
	}
	s->ra_idle = 0;
}

static void stream_stop(struct hd_sim *s, int64_t t)
{
	if (!s->ra_on)
		return;
	stream_run(s, t, UINT64_MAX);
	if (s->ra_next < s->ra_min)
		stream_run(s, INT64_MAX, s->ra_min);
	stream_halt(s, t);
}

/*
 * DiskSim's disk with readahead_stop_in_sector stops read-ahead in the
 * sector as a command arrives at ts; a switch under way completes, and
 * the command's mechanism, free from t0 on, waits as long again as the
 * switch had to go.
 */
static void stream_stop_arrival(struct hd_sim *s, int64_t ts, int64_t t0)
{
	int64_t stop = ts;

	if (!s->ra_on || !s->m->readahead_stop_in_sector)
		return;
	stream_run(s, ts, UINT64_MAX);
	if (s->ra_next < s->ra_limit && s->ra_t > ts && s->ra_moved > ts)
		stop = s->ra_moved;
	s->ra_on = 0;
	s->ra_idle = 0;
	if (s->free_at < t0 + (stop - ts))
		s->free_at = t0 + (stop - ts);
}

/*
 * A command arriving at ts, its overhead for the mechanism done at t0,
 * takes the mechanism from the read-ahead: with readahead_stop_in_sector
 * (a model with read_watermark) in the sector as it arrives, else once
 * the read-ahead's minimum is read (readahead_preempt: from the arrival
 * on; otherwise read-ahead goes on through the command overhead).
 */
static void stream_take(struct hd_sim *s, int64_t ts, int64_t t0)
{
	if (disconnects(s))
		stream_stop_arrival(s, ts, t0);
	stream_stop(s, s->m->readahead_preempt ? ts : t0);
}

/* Start read-ahead into segment i from sector next, where the head is at t (fresh: not there yet). */
static void stream_start(struct hd_sim *s, uint32_t i, uint64_t next, uint64_t limit, uint64_t min,
			 int64_t t, int fresh)
{
	if (next >= limit)
		return;
	s->ra_on = 1;
	s->ra_idle = 0;
	s->ra_fresh = fresh;
	s->ra_seg = i;
	s->ra_next = next;
	s->ra_t = t;
	s->ra_limit = limit;
	s->ra_min = min < limit ? min : limit;
}

/*
 * The read [a, b) that the stream's segment serves crosses the interface
 * from x0 on, a sector at a time, until its completion at until: read-ahead
 * may not push out what the host has yet to take (stream_room).
 */
static void stream_owner(struct hd_sim *s, uint32_t i, uint64_t a, uint64_t b, int64_t x0, int64_t until)
{
	s->own_seg = i;
	s->own_a = a;
	s->own_b = b;
	s->own_x0 = x0;
	s->own_xs = (double)s->sb * s->iface_ns_per_byte;
	s->own_until = until;
	s->own_lin = s->own_rec = b - a;
}

/*
 * Move the stream's limit on to lim at t.  A stream that had reached its
 * limit has stood still since: the head finds the next sector from t on.
 */
static void stream_extend(struct hd_sim *s, uint64_t lim, int64_t t)
{
	if (lim <= s->ra_limit)
		return;
	if (s->ra_next >= s->ra_limit && s->ra_t < t) {
		s->ra_t = t;
		s->ra_fresh = 1;
	}
	s->ra_limit = lim;
}

/* Does segment i hold all of [a, b)? */
static int read_hit_on(const struct hd_sim *s, uint32_t i, uint64_t a, uint64_t b)
{
	return s->segs[i].start <= a && b <= s->segs[i].end && a < s->segs[i].end;
}

/* Is [a, b) wholly inside data already waiting in the write-back cache? */
static int dirty_covers(const struct hd_sim *s, uint64_t a, uint64_t b);

/*
 * A read wholly in the cache: 1 + the segment's index, or -1 for write
 * data, 0 for a miss.  Where two segments hold it, the one being read
 * ahead serves it (as DiskSim's segment choice prefers a reading segment).
 */
static int read_hit(struct hd_sim *s, uint64_t a, uint64_t b)
{
	uint32_t i = 0;

	if (s->ra_on && read_hit_on(s, s->ra_seg, a, b))
		i = s->ra_seg;
	else
		while (i < s->nsegs && !read_hit_on(s, i, a, b))
			i++;
	if (i < s->nsegs) {
		s->segs[i].used = ++s->stamp;
		return (int)i + 1;
	}
	return s->dn && dirty_covers(s, a, b) ? -1 : 0;
}

/* A write of [a, b) arriving at t drops what the read cache holds of it, and the read-ahead into it. */
static void seg_invalidate(struct hd_sim *s, uint64_t a, uint64_t b, int64_t t)
{
	uint32_t i;

	for (i = 0; i < s->nsegs; i++)
		if (s->segs[i].start < b && a < s->segs[i].end) {
			/*
			 * DiskSim's disk keeps a segment that read-ahead is still
			 * filling when the write has a segment of its own.
			 */
			if (disconnects(s) && s->m->separate_write_segment && s->ra_on &&
			    s->ra_seg == i && s->ra_next < s->ra_limit)
				continue;
			if (s->ra_on && s->ra_seg == i)
				stream_halt(s, t);
			s->segs[i].start = s->segs[i].end = 0;
		}
}

/*
 * After a media read of [a, b) ending at t4: cache it, with the sectors
 * before it that passed under the head during a rotational wait of wait
 * ns on its first track (read_any_free_blocks), and read ahead from b.
 */
static void seg_fill(struct hd_sim *s, uint64_t a, uint64_t b, int64_t t4, int64_t wait)
{
	uint32_t i, victim = 0;
	struct seg *g;

	if (!s->nsegs)
		return;
	for (i = 0; i < s->nsegs; i++)
		if (s->segs[i].used < s->segs[victim].used)
			victim = i;
	g = &s->segs[victim];
	g->start = a;
	g->end = b;
	g->used = ++s->stamp;
	if (s->m->read_any_free_blocks && wait > 0) {
		struct hd_sim_loc l;
		uint64_t before, free;

		locate(s, a, &l);
		before = l.z->spt > l.run ? l.z->spt - l.run : 0;	/* LBAs on the track before a */
		free = (uint64_t)((double)wait / (s->rev_ns / l.z->spt));
		g->start = a - (free < before ? free : before);
	}
	seg_trim(s, g);
	stream_start(s, victim, b, ra_limit_for(s, a, b, g->start), b + s->ra_min_sectors, t4, 0);
}

/*
 * After a read of [a, b) served wholly from segment i at t: the read-ahead
 * on that segment goes on to the limit this read sets; an idle segment
 * starts read-ahead when readahead_on_hit says so.
 */
static void hit_readahead(struct hd_sim *s, uint32_t i, uint64_t a, uint64_t b, int64_t t)
{
	struct seg *g = &s->segs[i];
	uint64_t lim = ra_limit_for(s, a, b, g->start);

	/*
	 * Read-ahead under way reads on.  Read-ahead that stopped with its
	 * segment full (readahead_over_requested off), or with
	 * readahead_preempt at its limit, starts again only on
	 * readahead_on_hit, as in DiskSim.
	 */
	if (s->ra_on && s->ra_seg == i &&
	    (s->ra_next < s->ra_limit || (s->m->readahead_over_requested && !s->m->readahead_preempt))) {
		stream_extend(s, lim, t);
		return;
	}
	if (!s->m->readahead_on_hit || g->end >= lim)
		return;
	if (s->ra_on && s->ra_seg == i) {
		stream_extend(s, lim, t);
		return;
	}
	if (s->ra_on)
		return;
	stream_start(s, i, g->end, lim, b + s->ra_min_sectors, t > s->free_at ? t : s->free_at, 1);
}

/* ---- write-back cache ---- */

static struct extent *ext(const struct hd_sim *s, size_t j)
{
	return &s->dirty[(s->dhead + j) % MAX_DIRTY];
}

static int dirty_covers(const struct hd_sim *s, uint64_t a, uint64_t b)
{
	for (size_t j = 0; j < s->dn; j++) {
		const struct extent *e = ext(s, j);

		if (e->start <= a && b <= e->end)
			return 1;
	}
	return 0;
}

/*
 * The extent to destage next from t: the oldest, or with the modern
 * write-back cache the one of the 16 oldest that the head reaches first.
 */
static size_t destage_pick(struct hd_sim *s, int64_t t)
{
	size_t j, best = 0, n = s->dn < 16 ? s->dn : 16;
	int64_t bt = INT64_MAX;

	if (s->wc != HD_SIM_WC_ON)
		return 0;
	for (j = 0; j < n; j++) {
		const struct extent *e = ext(s, j);
		struct hd_sim_loc l;
		int64_t w, st = e->t0 > t ? e->t0 : t;

		locate(s, e->start, &l);
		w = rot_wait(s, hd_sim_loc_angle(s->m, &l), st + rnd(move_ns(s, l.cyl, l.surf, SETTLE_SEEK, 0, NULL)));
		if (w < bt) {
			bt = w;
			best = j;
		}
	}
	return best;
}

/*
 * DiskSim's segments (fast write levels 1 and 2, "Combine seq writes"): a
 * media access writes on, sector by sector, through whatever data follows
 * in its segment, also that of a write which joined the segment while the
 * access went on, until it reaches a sector whose data has not arrived
 * yet; the joined write still gets an access of its own later, which
 * finds its first sectors just written and waits for them to come round.
 * When the destaging that ends last stopped where the oldest extent, one
 * to be covered, begins, the access goes on through it (the head is
 * there: nothing used the mechanism since).  Returns when the mechanism is
 * free.
 */
static int64_t wc_cover(struct hd_sim *s)
{
	struct extent *e = s->dn ? ext(s, 0) : NULL;
	struct hd_sim_loc l;
	uint64_t n, k = 0;
	double st, end;
	int64_t d0, t;

	if (!e || !e->cover || e->start != s->infl_next || s->media_next != s->infl_next ||
	    s->media_end != s->infl_end || s->free_at != s->infl_end)
		return s->free_at;
	e->cover = 0;
	d0 = e->pt0 + rnd(((double)e->start - (double)e->p) * e->psec);
	locate(s, e->start, &l);
	st = s->rev_ns / l.z->spt;
	n = e->end - e->start;
	/* Sector i comes under the head at infl_end + i st; its data is in at d0 + (i + 1) psec. */
	end = (double)s->infl_end - 1;
	if ((double)d0 + e->psec <= end) {
		k = n;
		if (e->psec > st && ((double)d0 + e->psec - end) / (st - e->psec) + 1 < (double)n)
			k = (uint64_t)(((double)d0 + e->psec - end) / (st - e->psec)) + 1;
	}
	if (!k)
		return s->free_at;
	t = media(s, e->start, k, 1, s->infl_end, d0, e->psec, NULL, NULL);
	s->infl_next = e->start + k;
	s->infl_end = s->free_at = t;
	return t;
}

/*
 * Write one piece of dirty data to the media, no earlier than t: the rest
 * of a track of the extent destage_pick() chooses.  Returns when it ends
 * (the mechanism is busy until then).
 */
static int64_t destage_step(struct hd_sim *s, int64_t t)
{
	size_t j = destage_pick(s, t);
	struct extent *e = ext(s, j);
	uint64_t n = e->end - e->start, k;
	/* When sector start - 1 arrived, counted back from the last write at the interface's pace. */
	int64_t d0 = e->pt0 + rnd(((double)e->start - (double)e->p) * e->psec);
	struct hd_sim_loc l;

	if (t < e->t0)
		t = e->t0;
	stream_stop(s, t);
	if (t < s->free_at)
		t = s->free_at;
	locate(s, e->start, &l);
	k = l.run < n ? l.run : n;
	e->cover = 0;
	s->infl_start = e->start;
	t = write_retry(s, media(s, e->start, k, 1, t, d0, e->psec, &s->infl_first, NULL));
	e->start += k;
	s->infl_next = e->start;
	s->dirty_bytes -= k * s->sb;
	s->infl_end = t;
	s->infl_bytes = k * s->sb;
	s->infl_ext = e->start == e->end;
	if (e->start == e->end) {
		*e = *ext(s, 0);
		s->dhead = (s->dhead + 1) % MAX_DIRTY;
		s->dn--;
		s->st.destages++;
	}
	s->free_at = t;
	return wc_cover(s);
}

/* Write out all dirty data, starting no earlier than t; returns when done (or t). */
static int64_t wc_flush(struct hd_sim *s, int64_t t)
{
	while (s->dn) {
		int64_t e = destage_step(s, t > s->free_at ? t : s->free_at);

		if (e > t)
			t = e;
	}
	return t;
}

static int64_t destage_at(const struct hd_sim *s);

/* Put [a, b), arriving from t0 until t1, into the cache. */
static void dirty_add(struct hd_sim *s, uint64_t a, uint64_t b, int64_t t0, int64_t t1)
{
	struct extent *tail = s->dn ? ext(s, s->dn - 1) : NULL;

	/* Rewriting data the cache holds replaces it in place: no more room, no more destaging. */
	if (s->wc == HD_SIM_WC_ON && dirty_covers(s, a, b))
		return;
	/* Sequential writes are destaged as one (DiskSim's segments: one access a request). */
	if (s->wc == HD_SIM_WC_ON && tail && tail->end == a) {
		tail->end = b;
	} else {
		/*
		 * Each write an access of its own; as DiskSim does it, the access
		 * under way also writes one that joins its segment.
		 */
		int join = s->wc != HD_SIM_WC_ON && s->m->write_combine == HD_SIM_WCOMB_DISKSIM &&
			   s->infl_end > t0 && (tail ? tail->end == a : a == s->infl_next);

		tail = ext(s, s->dn++);
		*tail = (struct extent){ .start = a, .end = b, .t0 = t0, .cover = join };
	}
	tail->p = a;
	tail->pt0 = t0;
	tail->psec = (double)(t1 - t0) / (double)(b - a);
	s->dirty_bytes += (b - a) * s->sb;
	if (s->dn == 1)
		wc_cover(s);
}

/*
 * Is the cache too full at t to take [a, b), n sectors?  The piece of
 * destaging that is still writing at t holds its room until it ends.
 */
static int wc_full(const struct hd_sim *s, uint64_t a, uint64_t n, int64_t t)
{
	const struct extent *tail = s->dn ? ext(s, s->dn - 1) : NULL;
	int appends = tail && tail->end == a, busy = s->infl_end > t;
	uint64_t bytes = s->dirty_bytes + (busy ? s->infl_bytes : 0);
	size_t exts = s->dn + (busy ? s->infl_ext : 0);

	if (s->wc == HD_SIM_WC_ON)
		return bytes + n * s->sb > s->wc_bytes || (!appends && exts >= s->wsegs);
	/*
	 * write_combine = stream: a write that continues the data of the
	 * segment being written joins it once there is room, and the media
	 * write goes on through it.
	 */
	if (s->m->write_combine == HD_SIM_WCOMB_STREAM && (appends || (!s->dn && busy && a == s->infl_next)))
		return bytes / s->sb + n > s->wseg_sectors;
	/*
	 * DiskSim's segments (Combine seq writes): while a segment's media
	 * writes go on, a write that continues the last one joins it, unless
	 * a request is waiting for a media access of its own (the one that
	 * joined before it); a write that does not append, or finds one
	 * waiting, takes another segment, or waits for one.
	 */
	if (busy && s->dn <= (s->infl_ext ? 0u : 1u) && a == (s->dn ? tail->end : s->infl_next) &&
	    bytes / s->sb + n <= s->wseg_sectors)
		return 0;
	/* At fast write level 2 any other write waits until all dirty data is on the media. */
	return s->wc == HD_SIM_WC_FLUSH ? exts > 0 : exts >= s->wsegs;
}

/*
 * When the write cache takes the write [a, b) that is ready at t: at t, or
 * once destaging has made room; -1 when the write goes to the media
 * instead (no write cache, FUA, larger than the cache, or at fast write
 * level 1 a write that does not continue a sequential write stream).
 */
static int64_t wc_admit(struct hd_sim *s, uint64_t a, uint64_t b, int64_t t)
{
	uint64_t n = b - a;

	if (s->fua || s->wc == HD_SIM_WC_OFF)
		return -1;
	if (s->wc == HD_SIM_WC_ON) {
		if (n * s->sb > s->wc_bytes)
			return -1;
		if (dirty_covers(s, a, b))
			return t;
	} else {
		const struct extent *tail = s->dn ? ext(s, s->dn - 1) : NULL;

		if (n > s->wseg_sectors)
			return -1;
		if (s->wc == HD_SIM_WC_APPEND && !(tail && tail->end == a) &&
		    !(!s->dn && s->prev_write && s->prev_end == a + 1))
			return -1;
	}
	/* The mechanism destages on from where it is; the write goes in once there is room. */
	while (wc_full(s, a, n, t)) {
		int64_t e;

		if (s->infl_end > t && !wc_full(s, a, n, s->infl_end))
			e = s->infl_end;
		else if (s->dn)
			e = destage_step(s, destage_at(s));
		else
			e = s->infl_end;
		if (e > t)
			t = e;
	}
	return t;
}

/*
 * Before a request that needs the mechanism at t: at fast write levels 1
 * and 2 all dirty data goes first; the modern cache destages under load
 * once dirty data passes the high water mark, down to the low one.
 */
static int64_t wc_before_media(struct hd_sim *s, int64_t t)
{
	if (!s->dn)
		return t;
	if (s->wc != HD_SIM_WC_ON)
		return wc_flush(s, t);
	if (s->dirty_bytes > s->hi_bytes)
		s->draining = 1;
	if (s->draining) {
		while (s->dn && s->dirty_bytes > s->lo_bytes) {
			int64_t e = destage_step(s, t > s->free_at ? t : s->free_at);

			if (e > t)
				t = e;
		}
		s->draining = 0;
	}
	return t;
}

/* ---- serving a request ---- */

static int bad_overlap(const struct hd_sim_model *m, uint64_t a, uint64_t b)
{
	size_t lo = 0, hi = m->nbad;

	/* The first range whose last sector is >= a, then whether it starts before b. */
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (m->bad[mid].last < a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < m->nbad && m->bad[lo].first < b;
}

/*
 * A read of [a, b), len bytes, that the read-ahead is reading, or will
 * read before its limit: no positioning, the stream reads on to b (beyond
 * its limit too; one that had stopped there goes on from t0, the miss
 * overhead done).  Its data may begin to cross the interface at x0 (the
 * command's overhead done).  Returns when it has crossed.
 */
static int64_t stream_continue(struct hd_sim *s, uint64_t a, uint64_t b, int64_t t0, int64_t x0, size_t len)
{
	struct seg *g = &s->segs[s->ra_seg];
	uint64_t lim;

	stream_extend(s, b, t0);
	stream_run(s, x0, b);
	stream_run(s, INT64_MAX, a);
	pipe_begin(s, x0, s->ra_next - a);
	stream_run(s, INT64_MAX, b);
	lim = ra_limit_for(s, a, b, g->start);
	s->ra_limit = lim > b ? lim : b;
	s->ra_min = b + s->ra_min_sectors < s->ra_limit ? b + s->ra_min_sectors : s->ra_limit;
	return pipe_end(s, x0, len);
}

/*
 * Does a read from a continue the read-ahead under way (readahead_join):
 * one that begins in its segment's data, or (next) at the sector it reads
 * next, or (window) anywhere up to its limit.
 */
static int stream_joins(const struct hd_sim *s, uint64_t a)
{
	const struct seg *g = &s->segs[s->ra_seg];

	if (!s->ra_on || s->dn || a < g->start)
		return 0;
	switch (s->m->readahead_join) {
	case HD_SIM_JOIN_OFF:
		return a < g->end;
	case HD_SIM_JOIN_NEXT:
		return a <= g->end;
	default:
		return a <= s->ra_limit;
	}
}

/*
 * The reselection of a model without DiskSim's disconnection keys
 * (read_watermark, write_disconnect_overhead_ms; pipe_begin_miss() and
 * write_disconnected() have DiskSim's own): a drive that disconnected for
 * positioning reselects the host, reselect_overhead_ms plus
 * data_prep_overhead_ms, while the platter turns; when the first sector of
 * [a, ..) comes round sooner, the access misses it and waits a revolution.
 * Returns when the access may start: t, or a revolution later.
 */
static int64_t reselect(struct hd_sim *s, uint64_t a, int64_t t)
{
	int64_t need = s->resel_ns[0] + s->prep_ns;
	struct hd_sim_loc l;
	int64_t arrive;

	if (!s->resel_ns[0])
		return t;
	locate(s, a, &l);
	arrive = t + rnd(move_ns(s, l.cyl, l.surf, SETTLE_NONE, 0, NULL));
	return rot_wait(s, hd_sim_loc_angle(s->m, &l), arrive) - arrive < need ? t + rnd(s->rev_ns) : t;
}

/* When a media read of [a, ..) may start, the mechanism free at t: a model with read_watermark reselects after it. */
static int64_t read_start(struct hd_sim *s, uint64_t a, int64_t t)
{
	return disconnects(s) ? t : reselect(s, a, t);
}

/*
 * The media read of [lba, lba + n) of the read the segments owe the host
 * (stream_owner; the sectors before lba in the buffer already), larger
 * than a segment, from t on, with its host transfer counted (pipe_begin):
 * the buffer holds at most a segment of it that the host has yet to take,
 * so its sector j may be read only once sector j - segment has crossed the
 * interface; until then it passes unread and the head waits on the track
 * for it to come round again (DiskSim's buffer).  Sector by sector;
 * returns the time the last one has passed under the head, *first (if not
 * NULL) the time the first began to.
 */
static int64_t media_window(struct hd_sim *s, uint64_t lba, uint64_t n, int64_t t, int64_t *first)
{
	const struct hd_sim_model *m = s->m;
	uint64_t j = lba - s->own_a, end = j + n, seg = s->seg_sectors;
	struct hd_sim_loc l;
	double tt;

	locate(s, lba, &l);
	while (j < end) {
		uint64_t k = l.run < end - j ? l.run : end - j, i;
		double st = s->rev_ns / l.z->spt;

		t += rnd(move_ns(s, l.cyl, l.surf, SETTLE_NONE, 1, &s->rng));
		s->cyl = l.cyl;
		s->surf = l.surf;
		t = wait_for(s, &l, t, j == lba - s->own_a, first);
		for (tt = (double)t, i = 0; i < k; i++, j++) {
			/* Room for sector j once sector j - seg has crossed. */
			if (j >= seg) {
				double need = (double)own_sent(s, j - seg);

				if (tt < need)
					tt += ceil((need - tt) / s->rev_ns) * s->rev_ns;
			}
			tt += st;
			pipe_sector(s, tt);
		}
		t = rnd(tt);
		if (j < end)
			hd_sim_next_track(m, &l);
	}
	s->media_next = lba + n;
	s->media_end = t;
	return t;
}

/* A segment holding the first sectors of [a, b), not all of them: 1 + its index, or 0. */
static int partial_hit(struct hd_sim *s, uint64_t a, uint64_t b)
{
	uint32_t i;

	for (i = 0; i < s->nsegs; i++)
		if (s->segs[i].start <= a && a < s->segs[i].end && s->segs[i].end < b) {
			s->segs[i].used = ++s->stamp;
			return (int)i + 1;
		}
	return 0;
}

/*
 * A read of [a, b), len bytes, whose first sectors segment i holds (no
 * read-ahead under way on it): they cross the interface from x0 on, the
 * rest comes off the media from the segment's end, from t0 on (the miss
 * overhead done), into the same segment, and read-ahead follows.  Returns
 * when the data has crossed.
 */
static int64_t partial_read(struct hd_sim *s, uint32_t i, uint64_t a, uint64_t b, int64_t ts, int64_t t0,
			    int64_t x0, size_t len)
{
	struct seg *g = &s->segs[i];
	uint64_t e = g->end;
	int64_t t;

	stream_take(s, ts, t0);
	t = wc_before_media(s, t0);
	if (t < s->free_at)
		t = s->free_at;
	stream_owner(s, i, a, b, x0, INT64_MAX);
	pipe_begin(s, x0, e - a);
	if (b - a > s->seg_sectors)
		t = media_window(s, e, b - e, read_start(s, e, t), NULL);
	else
		t = media(s, e, b - e, 0, read_start(s, e, t), DATA_HERE, 0, NULL, NULL);
	s->free_at = t;
	g->end = b;
	seg_trim(s, g);
	stream_start(s, i, b, ra_limit_for(s, a, b, g->start), b + s->ra_min_sectors, t, 0);
	return pipe_end(s, x0, len);
}

/* A read of [a, b) arriving at ts (its request overhead done); returns its completion. */
static int64_t serve_read(struct hd_sim *s, void *buf, size_t len, uint64_t off, uint64_t a, uint64_t b,
			  int64_t ts, int *hit)
{
	int lw = s->last_write, h = read_hit(s, a, b);
	int64_t t, first = 0, t0 = ts + s->rmiss_ns[lw];

	data_read(s, buf, off, len);
	if (h) {
		s->st.read_hits++;
		*hit = 1;
		t = ts + s->rhit_ns[lw] + s->prep_ns + iface_ns(s, len);
		/* With readahead_preempt a hit on another segment takes the mechanism from the read-ahead. */
		if (s->m->readahead_preempt && s->ra_on && h != (int)s->ra_seg + 1)
			stream_stop(s, ts);
		if (h > 0) {
			/* DiskSim's disk (read_watermark) reads ahead from the end of the command's overhead on. */
			hit_readahead(s, (uint32_t)h - 1, a, b, disconnects(s) ? t0 : t);
			stream_owner(s, (uint32_t)h - 1, a, b, t - iface_ns(s, len), t + s->compl_ns[0]);
		}
		return t + s->compl_ns[0];
	}
	/*
	 * A read of the sector the read-ahead is reading when it arrives is
	 * no hit; with readahead_stop_in_sector the read-ahead stops inside
	 * that sector, and the read waits for it to come round again.
	 */
	if (s->m->readahead_stop_in_sector && s->ra_on && a == s->ra_next && s->ra_next < s->ra_limit &&
	    s->ra_t < ts) {
		s->ra_on = 0;
		if (s->free_at < ts)
			s->free_at = ts;
	}
	if (stream_joins(s, a)) {
		/* With read_partial_hits, the part already in the segment is a hit. */
		int64_t x0 = s->m->read_partial_hits && a < s->segs[s->ra_seg].end ?
			     ts + s->rhit_ns[lw] + s->prep_ns : t0;

		stream_owner(s, s->ra_seg, a, b, x0, INT64_MAX);
		t = stream_continue(s, a, b, t0, x0, len);
		s->own_until = t + s->compl_ns[0];
		return t + s->compl_ns[0];
	}
	if (s->m->read_partial_hits && (h = partial_hit(s, a, b)) > 0) {
		int64_t x0 = ts + s->rhit_ns[lw] + s->prep_ns;

		t = partial_read(s, (uint32_t)h - 1, a, b, ts, t0, x0, len);
		s->own_until = t + s->compl_ns[0];
		return t + s->compl_ns[0];
	}
	stream_take(s, ts, t0);
	t = wc_before_media(s, t0);
	if (t < s->free_at)
		t = s->free_at;
	stream_owner(s, UINT32_MAX, a, b, 0, INT64_MAX);
	pipe_begin_miss(s, b - a, ts);
	if (s->nsegs && b - a > s->seg_sectors)
		t = media_window(s, a, b - a, read_start(s, a, t), &first);
	else
		t = media(s, a, b - a, 0, read_start(s, a, t), DATA_HERE, 0, &first, NULL);
	s->free_at = t;
	seg_fill(s, a, b, t, s->wait0);
	t = pipe_end(s, first, len);
	/* The read-ahead seg_fill started is on the segment that holds the read. */
	s->own_seg = s->ra_seg;
	s->own_until = t + s->compl_ns[0];
	return t + s->compl_ns[0];
}

/*
 * The piece, in sectors, in which a write of n sectors streams through the
 * cache, or 0 where it does not: one larger than a quarter of the modern
 * write-back cache enters a quarter of the cache at a time, as destaging
 * makes room; one larger than a segment at fast write level 2 with
 * write_combine = stream, a quarter of a segment at a time.
 */
static uint64_t wc_stream_piece(const struct hd_sim *s, uint64_t n)
{
	uint64_t piece;

	if (s->fua)
		return 0;
	if (s->wc == HD_SIM_WC_ON && n * s->sb > s->wc_bytes / 4)
		piece = s->wc_bytes / 4 / s->sb;
	else if (s->wc == HD_SIM_WC_FLUSH && s->m->write_combine == HD_SIM_WCOMB_STREAM && n > s->wseg_sectors)
		piece = s->wseg_sectors / 4;
	else
		return 0;
	return piece ? piece : 1;
}

/* A write of [a, b) streamed through the cache in pieces (wc_stream_piece); returns when the last is in. */
static int64_t wc_stream(struct hd_sim *s, uint64_t a, uint64_t b, uint64_t piece, int64_t t)
{
	while (a < b) {
		uint64_t e = b - a > piece ? a + piece : b;
		int64_t done;

		t = wc_admit(s, a, e, t);
		done = t + iface_w_ns(s, (size_t)((e - a) * s->sb));
		dirty_add(s, a, e, t, done);
		t = done;
		a = e;
	}
	s->st.write_cached++;
	return t;
}

/*
 * A write of [a, b) that goes to the media, arriving at ts, as DiskSim's
 * disk without a write cache has it (the key write_disconnect_overhead_ms):
 * the mechanism may start after the command's overhead, the host sends the
 * data once the command and its data preparation are done; the
 * drive disconnects after the data (write_disconnect_overhead_ms) and
 * reselects the host after the media write (reselect_overhead_ms) to
 * complete.  A write that follows a write (the write segment is the one
 * used last) but does not continue it takes DiskSim's extra write
 * disconnect where the model has one (extra_write_disconnect_ms:
 * the mechanism waits COMMAND + SEEK_DELTA; the drive disconnects after
 * COMMAND + DISCONNECT, reselects INTER later (reselect_overhead_ms,
 * data_prep_overhead_ms) for the data, disconnects after it with
 * DISCONNECT2 and reselects for the completion with
 * reselect_other_overhead_ms).  A write's first positioning takes at
 * least min_write_seek_ms.  Returns the completion.
 */
static int64_t write_disconnected(struct hd_sim *s, size_t len, uint64_t off, uint64_t a, uint64_t b, int64_t ts)
{
	/* The extra disconnect: a write after a write (its segment the last used) that does not continue it. */
	int lw = s->last_write, xd = s->m->extra_write_disconnect && lw && s->wend && s->wend != a + 1;
	int64_t go, d0, in, disc, t;
	struct xfer xf = { .min_move = s->min_wseek_ns };
	double sec_ns = (double)s->sb * s->iface_w_ns_per_byte;

	if (xd) {
		go = ts + s->xdisc_ns[0] + s->xdisc_ns[4];
		d0 = ts + s->xdisc_ns[0] + s->xdisc_ns[1] + s->xdisc_ns[2] + s->resel_ns[0] + s->prep_ns;
	} else {
		go = ts + s->wmiss_ns[lw];
		d0 = ts + s->wmiss_ns[lw] + s->prep_ns;
	}
	in = d0 + iface_w_ns(s, len);
	disc = in + (xd ? s->xdisc_ns[3] : s->wdisc_ns);
	/*
	 * Each sector may be written once it has arrived; a model with the
	 * extra write disconnect writes none before the buffer holds ten of
	 * them (or all of fewer), fifteen of a write of 45 or more.
	 */
	if (s->m->extra_write_disconnect) {
		uint64_t n = b - a, k = n >= 45 ? 15 : n < 10 ? n : 10;

		xf.data_min = d0 + rnd((double)k * sec_ns);
	}
	stream_stop_arrival(s, ts, go);
	stream_stop(s, go);
	t = wc_flush(s, go);
	if (t < s->free_at)
		t = s->free_at;
	t = media(s, a, b - a, 1, t, d0, sec_ns, NULL, &xf);
	/* A partial physical sector is read first and written a revolution later. */
	if (off % s->sb || len % s->sb)
		t += rnd(s->rev_ns);
	t = write_retry(s, t);
	s->free_at = t;
	s->wend = b + 1;
	if (t < disc)
		t = disc;
	return t + (xd ? s->resel2_ns : s->resel_ns[0]) + s->compl_ns[1];
}

/*
 * DiskSim's segments at fast write level 2 (Combine seq writes): a write
 * that continues the segment being written (not full; its data may go on
 * past the piece being written, to the next track) but is larger than
 * the room left in it sends, from t, piece after piece, what fits as each
 * piece starts (what the access under way has written is room again), and
 * that access writes on through it.  When a piece finds no room the drive
 * disconnects; the write reconnects once its own media access, the next,
 * has written all but the last sector it sent (the write water mark at 0:
 * one sector) and sends the rest, [*rest, b).  Returns when the rest
 * starts to move (or all is in), or -1 when the write is not such a one.
 */
static int64_t wc_split(struct hd_sim *s, uint64_t a, uint64_t b, int64_t t, uint64_t *rest)
{
	struct hd_sim_loc l;
	uint64_t out = a, held = (s->dirty_bytes + s->infl_bytes) / s->sb;
	int64_t own, t0 = t;
	double st;

	/* The segment: the piece being written and, unless that emptied it, the rest of its extent. */
	if (s->fua || s->wc != HD_SIM_WC_FLUSH || s->m->write_combine != HD_SIM_WCOMB_DISKSIM ||
	    s->dn != (s->infl_ext ? 0u : 1u) || s->infl_end <= t ||
	    (s->dn ? ext(s, 0)->start != s->infl_next || ext(s, 0)->end != a : a != s->infl_next) ||
	    b - a > s->wseg_sectors || held >= s->wseg_sectors || held + (b - a) <= s->wseg_sectors)
		return -1;
	locate(s, s->infl_start, &l);
	st = s->rev_ns / l.z->spt;
	/*
	 * Each piece of the transfer takes the room there is as it starts:
	 * what the access under way has written is free, and it writes on
	 * through the write's data as that arrives.
	 */
	for (;;) {
		uint64_t done = t < s->infl_first ? 0 : (uint64_t)((double)(t - s->infl_first) / st), c;

		/* The rest of the extent is written after the piece: counted as not yet. */
		if (done > (s->dn ? s->infl_next : out) - s->infl_start)
			done = (s->dn ? s->infl_next : out) - s->infl_start;
		held = out - s->infl_start - done;
		c = held >= s->wseg_sectors ? 0 : s->wseg_sectors - held;
		if (c > b - out)
			c = b - out;
		if (!c)
			break;
		t += iface_w_ns(s, (size_t)(c * s->sb));
		out += c;
		if (out == b)
			break;
	}
	if (out == a)
		return -1;
	dirty_add(s, a, out, t0, t);
	if (out == b) {
		*rest = b;
		return t;
	}
	/* The write's own access: after the one under way, the first piece of the extent. */
	while (s->dn && ext(s, 0)->start < out)
		destage_step(s, destage_at(s));
	*rest = out;
	locate(s, out - 1, &l);
	own = s->infl_end - rnd(s->rev_ns / l.z->spt);
	return own > t ? own : t;
}

/* A write of [a, b) arriving at ts (its request overhead done); returns its completion. */
static int64_t serve_write(struct hd_sim *s, size_t len, uint64_t off, uint64_t a, uint64_t b, int64_t ts,
			   int *hit)
{
	int lw = s->last_write;
	uint64_t piece = wc_stream_piece(s, b - a);
	int64_t t, d0;

	if (piece) {
		*hit = 1;
		return wc_stream(s, a, b, piece, ts + s->whit_ns[lw] + s->prep_ns) + s->compl_ns[1];
	}
	t = wc_split(s, a, b, ts + s->whit_ns[lw] + s->prep_ns, &a);
	if (t >= 0) {
		int64_t done = t + iface_w_ns(s, (size_t)((b - a) * s->sb));

		if (a < b)
			dirty_add(s, a, b, t, done);
		s->st.write_cached++;
		*hit = 1;
		return done + s->compl_ns[1];
	}
	t = wc_admit(s, a, b, ts + s->whit_ns[lw] + s->prep_ns);
	if (t >= 0) {
		int64_t done = t + iface_w_ns(s, len);

		dirty_add(s, a, b, t, done);
		s->st.write_cached++;
		*hit = 1;
		return done + s->compl_ns[1];
	}
	if (s->m->write_disconnect)
		return write_disconnected(s, len, off, a, b, ts);
	/* To the media, after all dirty data; the host sends the data from the end of the overhead on. */
	d0 = ts + s->wmiss_ns[lw] + s->prep_ns;
	stream_stop(s, s->m->readahead_preempt ? ts : d0);
	t = wc_flush(s, d0);
	if (t < s->free_at)
		t = s->free_at;
	t = media(s, a, b - a, 1, reselect(s, a, t), d0, (double)s->sb * s->iface_w_ns_per_byte, NULL, NULL);
	/* A partial physical sector is read first and written a revolution later. */
	if (off % s->sb || len % s->sb)
		t += rnd(s->rev_ns);
	t = write_retry(s, t);
	s->free_at = t;
	return t + s->compl_ns[1];
}

/*
 * Serve one request arriving at ts (the controller is free).  Returns the
 * completion time; *result is 0 or -errno.
 */
static int64_t serve(struct hd_sim *s, enum hd_op op, void *buf, size_t len, uint64_t off,
		     int64_t ts, int *hit, int *result)
{
	const struct hd_sim_model *m = s->m;
	uint64_t a = off / s->sb, b = (off + len + s->sb - 1) / s->sb;
	int64_t t;

	*hit = 0;
	*result = 0;
	if (op == HD_OP_READ)
		s->st.reads++;
	else
		s->st.writes++;
	ts += s->req_ovh_ns;
	stream_run(s, ts, UINT64_MAX);
	if (m->nbad && bad_overlap(m, a, b)) {
		t = ts + (op == HD_OP_READ ? s->rmiss_ns[s->last_write] : s->wmiss_ns[s->last_write]);
		stream_stop(s, t);
		t = wc_flush(s, t);
		if (t < s->free_at)
			t = s->free_at;
		t = media(s, a, b - a, op == HD_OP_WRITE, t, DATA_HERE, 0, NULL, NULL) + rnd(RETRY_REVS * s->rev_ns);
		s->free_at = t;
		s->st.errors++;
		*result = -EIO;
		return t;
	}
	if (op == HD_OP_READ) {
		t = serve_read(s, buf, len, off, a, b, ts, hit);
	} else {
		if ((*result = data_write(s, buf, off, len)))
			return ts;
		seg_invalidate(s, a, b, ts);
		t = serve_write(s, len, off, a, b, ts, hit);
	}
	s->last_write = op == HD_OP_WRITE;
	s->prev_write = s->last_write;
	s->prev_end = b + 1;
	return t;
}

/* Estimated time from ts until r's data starts to move, for the queue's choice. */
static double estimate(struct hd_sim *s, const struct hd_req *r, int64_t ts)
{
	uint64_t a = r->off / s->sb, b = (r->off + r->len + s->sb - 1) / s->sb;
	struct hd_sim_loc l;
	double t;

	if (r->op == HD_OP_READ) {
		uint32_t i;

		for (i = 0; i < s->nsegs; i++)
			if (s->segs[i].start <= a && b <= s->segs[i].end && a < s->segs[i].end)
				return (double)s->rhit_ns[0];
	} else if (s->wc != HD_SIM_WC_OFF && !s->fua && !wc_full(s, a, b - a, ts)) {
		return (double)s->whit_ns[0];
	}
	locate(s, a, &l);
	t = (double)(ts > s->free_at ? ts : s->free_at) +
	    (double)(r->op == HD_OP_READ ? s->rmiss_ns[0] : s->wmiss_ns[0]) +
	    move_ns(s, l.cyl, l.surf, r->op == HD_OP_WRITE ? SETTLE_SEEK : SETTLE_NONE, 0, NULL);
	return (double)(rot_wait(s, hd_sim_loc_angle(s->m, &l), rnd(t)) - ts);
}

/* Serve one pending request at ts: FIFO at depth 1, else least positioning time. */
static void serve_pending(struct hd_sim *s, int64_t ts)
{
	size_t i, pick = 0, n = s->npend < s->m->queue_depth ? s->npend : s->m->queue_depth;
	struct qent q;

	if (n > 1) {
		double best;

		stream_run(s, ts, UINT64_MAX);
		best = estimate(s, &s->pend[0].r, ts);
		for (i = 1; i < n && s->pend[i].r.submit_ns <= ts; i++) {
			double e = estimate(s, &s->pend[i].r, ts);

			if (e < best) {
				best = e;
				pick = i;
			}
		}
	}
	q = s->pend[pick];
	memmove(&s->pend[pick], &s->pend[pick + 1], (s->npend - pick - 1) * sizeof(q));
	s->npend--;
	q.r.done_ns = serve(s, q.r.op, q.r.buf, q.r.len, q.r.off, ts, &q.hit, &q.r.result);
	s->ctl_at = q.r.done_ns;
	s->done[s->ndone++] = q;	/* room was made at submit */
}

/* When background destaging would start its next piece, or INT64_MAX. */
static int64_t destage_at(const struct hd_sim *s)
{
	int64_t t0;

	if (!s->dn)
		return INT64_MAX;
	t0 = ext(s, 0)->t0;
	return t0 > s->free_at ? t0 : s->free_at;
}

/*
 * Run the drive: destage while the mechanism is free, serve pending
 * requests, for every piece of work that starts before T.
 */
static void run_until(struct hd_sim *s, int64_t T)
{
	for (;;) {
		int64_t first = s->npend ? s->pend[0].r.submit_ns : INT64_MAX, d = destage_at(s);

		if (d < T && d < first) {
			destage_step(s, d);
			continue;
		}
		if (s->npend) {
			int64_t ts = s->ctl_at > first ? s->ctl_at : first;

			if (ts < T) {
				serve_pending(s, ts);
				continue;
			}
		}
		break;
	}
}

/*
 * One piece of work: a piece of destaging if the mechanism is free before
 * the next request arrives, else the next request (chosen by
 * serve_pending).  The queued interface advances one completion at a
 * time, so that requests submitted in reaction to a completion compete
 * with those still waiting.
 */
static void run_step(struct hd_sim *s)
{
	int64_t first = s->npend ? s->pend[0].r.submit_ns : INT64_MAX, d = destage_at(s);

	if (d < first) {
		destage_step(s, d);
		return;
	}
	if (s->npend)
		serve_pending(s, s->ctl_at > first ? s->ctl_at : first);
}

static int check_req(const struct hd_sim *s, size_t len, uint64_t off)
{
	uint64_t size = s->m->sectors * s->sb;

	if (len == 0 || len % BLK || off % BLK)
		return -EINVAL;
	if (off > size || len > size - off)
		return -ERANGE;
	return 0;
}

static int grow_queues(struct hd_sim *s)
{
	size_t need = s->npend + s->ndone + 1;

	if (need > s->pcap) {
		size_t nc = need * 2;
		struct qent *np = realloc(s->pend, nc * sizeof(*np)), *nd;

		if (!np)
			return -ENOMEM;
		s->pend = np;
		nd = realloc(s->done, nc * sizeof(*nd));
		if (!nd)
			return -ENOMEM;
		s->done = nd;
		s->pcap = s->dcap = nc;
	}
	return 0;
}

static int enqueue(struct hd_sim *s, const struct hd_req *r, int sync)
{
	int rc = check_req(s, r->len, r->off);

	if (rc)
		return rc;
	if ((rc = grow_queues(s)))
		return rc;
	run_until(s, s->now);
	s->pend[s->npend] = (struct qent){ .r = *r, .sync = sync };
	s->pend[s->npend].r.submit_ns = s->now;
	s->npend++;
	return 0;
}

int hd_sim_submit(struct hd_sim *s, struct hd_req *r)
{
	int rc = enqueue(s, r, 0);

	if (!rc)
		r->submit_ns = s->now;
	return rc;
}

/*
 * Take the earliest completion out of the done list (sync ones only when
 * want_sync); the clock goes on to it unless the drive runs in real time.
 */
static int take_done_at(struct hd_sim *s, int want_sync, struct qent *out, int advance)
{
	size_t i, best = SIZE_MAX;

	for (i = 0; i < s->ndone; i++)
		if (s->done[i].sync == want_sync &&
		    (best == SIZE_MAX || s->done[i].r.done_ns < s->done[best].r.done_ns))
			best = i;
	if (best == SIZE_MAX)
		return 0;
	*out = s->done[best];
	memmove(&s->done[best], &s->done[best + 1], (s->ndone - best - 1) * sizeof(*out));
	s->ndone--;
	if (advance && out->r.done_ns > s->now)
		s->now = out->r.done_ns;
	return 1;
}

static int take_done(struct hd_sim *s, int want_sync, struct qent *out)
{
	return take_done_at(s, want_sync, out, 1);
}

int hd_sim_reap(struct hd_sim *s, struct hd_req *r)
{
	struct qent q;

	for (;;) {
		if (take_done(s, 0, &q)) {
			*r = q.r;
			return 0;
		}
		if (!s->npend)
			return -EAGAIN;
		run_step(s);
	}
}

int hd_sim_io(struct hd_sim *s, enum hd_op op, void *buf, size_t len, uint64_t off, int *hit)
{
	struct hd_req r = { .op = op, .off = off, .len = len, .buf = buf };
	struct qent q;
	int rc, h;

	if (!s->npend) {
		/* The common case, kept short: nobody else is waiting for the drive. */
		int64_t ts;

		if ((rc = check_req(s, len, off)))
			return rc;
		run_until(s, s->now);
		ts = s->ctl_at > s->now ? s->ctl_at : s->now;
		s->now = s->ctl_at = serve(s, op, buf, len, off, ts, &h, &rc);
		if (hit)
			*hit = h;
		return rc;
	}
	if ((rc = enqueue(s, &r, 1)))
		return rc;
	while (!take_done(s, 1, &q))
		run_step(s);
	if (hit)
		*hit = q.hit;
	return q.r.result;
}

void hd_sim_store_count(const struct hd_sim *s, uint64_t *written, uint64_t *changed)
{
	const struct store *st = &s->store;
	unsigned char blank[BLK];

	*written = st->n;
	*changed = 0;
	for (size_t i = 0; i < st->cap; i++)
		if (st->keys[i]) {
			hd_sim_fill(blank, (st->keys[i] - 1) * BLK, BLK);
			*changed += memcmp(blank, st->pool + (size_t)st->vals[i] * BLK, BLK) != 0;
		}
}

void hd_sim_run_to(struct hd_sim *s, int64_t T)
{
	run_until(s, T);
	if (T > s->now)
		s->now = T;
}

int hd_sim_take(struct hd_sim *s, struct hd_req *r)
{
	struct qent q;

	if (!take_done_at(s, 0, &q, 0))
		return -EAGAIN;
	*r = q.r;
	return 0;
}

int64_t hd_sim_next_work(const struct hd_sim *s)
{
	int64_t d = destage_at(s);

	if (s->npend) {
		int64_t ts = s->ctl_at > s->pend[0].r.submit_ns ? s->ctl_at : s->pend[0].r.submit_ns;

		if (ts < d)
			d = ts;
	}
	return d;
}

int64_t hd_sim_flush(struct hd_sim *s)
{
	int64_t t = s->now;

	if (s->ctl_at > t)
		t = s->ctl_at;
	t = wc_flush(s, s->free_at > t ? s->free_at : t);
	if (t > s->ctl_at)
		s->ctl_at = t;
	return t;
}

void hd_sim_idle(struct hd_sim *s, int64_t ns)
{
	if (ns > 0)
		s->now += ns;
}

int64_t hd_sim_now(const struct hd_sim *s)
{
	return s->now;
}

const struct hd_sim_model *hd_sim_model_of(const struct hd_sim *s)
{
	return s->m;
}

void hd_sim_get_stats(const struct hd_sim *s, struct hd_sim_stats *st)
{
	*st = s->st;
}

/* The write cache's size and what follows from it: water marks, write segments. */
static void wc_size(struct hd_sim *s, uint64_t bytes)
{
	const struct hd_sim_model *m = s->m;

	s->wc_bytes = bytes;
	s->wsegs = m->write_segments < MAX_DIRTY ? m->write_segments : MAX_DIRTY;
	if (s->wc == HD_SIM_WC_ON && m->write_cache == HD_SIM_WC_OFF)
		s->wsegs = MAX_DIRTY;
	s->wseg_sectors = bytes / s->wsegs / s->sb;
	s->lo_bytes = (uint64_t)(m->destage_low * (double)bytes);
	s->hi_bytes = (uint64_t)(m->destage_high * (double)bytes);
}

int hd_sim_new(struct hd_sim **out, const struct hd_sim_model *m, uint64_t seed)
{
	struct hd_sim *s = calloc(1, sizeof(*s));

	if (!s)
		return -ENOMEM;
	s->m = m;
	s->lc = &s->lcache;
	hd_rng_seed(&s->rng, seed);
	s->sb = m->sector_bytes;
	s->rev_ns = 60e9 / m->rpm;
	s->iface_ns_per_byte = 1e3 / m->interface_mb_s;
	s->iface_w_ns_per_byte = 1e3 / m->interface_write_mb_s;
	s->seek_sd_ns = m->seek_stddev_ms * 1e6;
	s->head_switch_ns = rnd(m->head_switch_ms * 1e6);
	s->settle_ns = rnd(m->write_settle_ms * 1e6);
	s->req_ovh_ns = rnd(m->request_overhead_ms * 1e6);
	for (int i = 0; i < 2; i++) {
		s->rmiss_ns[i] = rnd(m->read_miss_ovh_ms[i] * 1e6);
		s->rhit_ns[i] = rnd(m->read_hit_ovh_ms[i] * 1e6);
		s->wmiss_ns[i] = rnd(m->write_miss_ovh_ms[i] * 1e6);
		s->whit_ns[i] = rnd(m->write_hit_ovh_ms[i] * 1e6);
		s->compl_ns[i] = rnd(m->completion_ovh_ms[i] * 1e6);
	}
	s->resel_ns[0] = rnd(m->reselect_overhead_ms * 1e6);
	s->prep_ns = rnd(m->data_prep_overhead_ms * 1e6);
	s->rdisc_ns[0] = rnd(m->read_disc_ovh_ms[0] * 1e6);
	s->rdisc_ns[1] = rnd(m->read_disc_ovh_ms[1] * 1e6);
	s->wdisc_ns = rnd(m->write_disc_ovh_ms * 1e6);
	s->resel2_ns = rnd(m->reselect_other_ms * 1e6);
	for (int i = 0; i < 5; i++)
		s->xdisc_ns[i] = rnd(m->xdisc_ms[i] * 1e6);
	s->min_wseek_ns = rnd(m->min_write_seek_ms * 1e6);
	s->seg_sectors = m->cache_segment_blocks * BLK / m->sector_bytes;
	s->ra_sectors = m->readahead_max_blocks * BLK / m->sector_bytes;
	s->ra_min_sectors = m->readahead_min_blocks * BLK / m->sector_bytes;
	s->wc = m->write_cache;
	wc_size(s, m->write_cache_kb * 1024);
	/* No segment that holds a sector: no read cache at all; a separate write segment is one of them. */
	s->nsegs = s->seg_sectors ? m->cache_segments : 0;
	if (s->nsegs > 1 && m->separate_write_segment)
		s->nsegs--;
	if (s->nsegs && !(s->segs = calloc(s->nsegs, sizeof(*s->segs))))
		goto nomem;
	if (s->nsegs && !(s->sent = malloc(s->seg_sectors * sizeof(*s->sent))))
		goto nomem;
	if (m->write_cache && !(s->dirty = malloc(MAX_DIRTY * sizeof(*s->dirty))))
		goto nomem;
	if (grow_queues(s))
		goto nomem;
	/* A read's seek times looked up, not computed from the curve on every seek (the same doubles). */
	if (m->cylinders <= SEEK_TAB_MAX)
		s->seek_ns = calloc(m->cylinders, sizeof(*s->seek_ns));
	*out = s;
	return 0;
nomem:
	hd_sim_free(s);
	return -ENOMEM;
}

void hd_sim_free(struct hd_sim *s)
{
	if (!s)
		return;
	free(s->seek_ns);
	free(s->segs);
	free(s->sent);
	free(s->dirty);
	free(s->pend);
	free(s->done);
	free(s->store.keys);
	free(s->store.vals);
	free(s->store.pool);
	free(s);
}

/*
 * The write cache switched as a drive does on SET FEATURES: turning it off
 * first writes out what it holds; turning it on gives it the model's size,
 * or 1 MiB where the model has none.
 */
int hd_sim_set_write_cache(struct hd_sim *s, int on)
{
	if (!on) {
		int64_t t = wc_flush(s, s->free_at > s->now ? s->free_at : s->now);

		if (t > s->now)
			s->now = t;
		s->wc = HD_SIM_WC_OFF;
		return 0;
	}
	if (s->wc != HD_SIM_WC_OFF)
		return 0;
	if (!s->dirty && !(s->dirty = malloc(MAX_DIRTY * sizeof(*s->dirty))))
		return -ENOMEM;
	/* The model's write cache, or where it has none a modern one of 1 MiB. */
	s->wc = s->m->write_cache != HD_SIM_WC_OFF ? s->m->write_cache : HD_SIM_WC_ON;
	wc_size(s, s->wc_bytes ? s->wc_bytes : 1024 * 1024);
	return 0;
}

int hd_sim_write_cache(const struct hd_sim *s)
{
	return s->wc != HD_SIM_WC_OFF;
}

void hd_sim_set_fua(struct hd_sim *s, int on)
{
	s->fua = !!on;
}
