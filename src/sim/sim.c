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
 * Per access the cost is O(log zones + log seek points + cache segments);
 * nothing is allocated on the read path.
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

struct extent {
	uint64_t start, end;
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

struct hd_sim {
	const struct hd_sim_model *m;
	struct hd_rng rng;
	int64_t now;		/* the host's clock */
	int fua;		/* every write goes to the media before it completes */
	int wc;			/* the write-back cache is on (the model's, until switched) */
	int64_t free_at;	/* the drive is busy until then */
	uint32_t cyl, surf;	/* where the head is */

	/* constants from the model */
	double rev_ns, iface_ns_per_byte, seek_sd_ns;
	int64_t head_switch_ns, settle_ns, rd_ovh_ns, wr_ovh_ns, hit_ovh_ns;
	uint64_t seg_sectors, ra_sectors, wc_bytes;
	uint32_t sb;		/* sector bytes */

	/* read cache and the read-ahead stream */
	struct seg *segs;
	uint32_t nsegs;
	uint64_t stamp;
	int ra_on;
	uint64_t ra_next, ra_limit;	/* next sector to read, where to stop */
	int64_t ra_t;			/* when sector ra_next starts under the head */
	uint32_t ra_seg;

	/* write-back cache: a ring of extents waiting to be destaged, oldest first */
	struct extent *dirty;
	size_t dhead, dn;
	uint64_t dirty_bytes;

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
		uint64_t w[BLK / 8], h = mix64(blk + 0x5eed);

		for (i = 0; i < BLK / 8; i++)
			w[i] = h ^ fill_tab[i];
		memcpy(p + b * BLK, w, BLK);
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
	for (b = 0; b < len / BLK; b++)
		if ((rc = store_put(&s->store, off / BLK + b, p + b * BLK)))
			return rc;
	return 0;
}

/* ---- mechanics ---- */

/* Round to whole nanoseconds; cheaper than llround() on this hot path. */
static int64_t rnd(double x)
{
	return (int64_t)(x >= 0 ? x + 0.5 : x - 0.5);
}

/* Positioning time from the head's place to (cyl, surf), without moving it. */
static double move_ns(const struct hd_sim *s, uint32_t cyl, uint32_t surf, int write, int jitter,
		      struct hd_rng *rng)
{
	double ns = 0;

	if (cyl != s->cyl) {
		uint64_t d = cyl > s->cyl ? cyl - s->cyl : s->cyl - cyl;

		ns = (write ? hd_sim_write_seek_ms(s->m, d) : hd_sim_seek_ms(s->m, d)) * 1e6;
		if (jitter && s->seek_sd_ns > 0) {
			ns += s->seek_sd_ns * hd_rng_gauss(rng);
			if (ns < 0)
				ns = 0;
		}
	} else if (surf != s->surf) {
		ns = (double)s->head_switch_ns;
	}
	/* Writing needs the head settled more precisely than reading does. */
	if (write && (cyl != s->cyl || surf != s->surf))
		ns += (double)s->settle_ns;
	return ns;
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

/*
 * Transfer sectors [lba, lba + n) between media and buffer, starting at t
 * with the head wherever it is: per track, positioning (a seek, or a head
 * switch), then the rotational wait for the first sector, then the
 * sectors.  A write starts on the media no earlier than data_ready.
 * Returns the time the last sector has passed under the head; *first (if
 * not NULL) receives the time the first one began to.
 */
static int64_t media(struct hd_sim *s, uint64_t lba, uint64_t n, int write, int64_t t,
		     int64_t data_ready, int64_t *first)
{
	const struct hd_sim_model *m = s->m;
	struct hd_sim_loc l;
	int started = 0;

	hd_sim_locate(m, lba, &l);
	while (n > 0) {
		uint64_t k = l.run;

		if (k > n)
			k = n;
		t += rnd(move_ns(s, l.cyl, l.surf, write, 1, &s->rng));
		s->cyl = l.cyl;
		s->surf = l.surf;
		if (t < data_ready)
			t = data_ready;
		t = rot_wait(s, hd_sim_loc_angle(m, &l), t);
		if (!started && first)
			*first = t;
		started = 1;
		t += rnd((double)k * s->rev_ns / l.z->spt);
		n -= k;
		if (n)
			hd_sim_next_track(m, &l);
	}
	return t;
}

/* An unstable writer: now and then a write has to go round once more. */
static int64_t write_retry(struct hd_sim *s, int64_t t)
{
	if (s->m->write_retry_probability > 0 && hd_rng_uniform(&s->rng) < s->m->write_retry_probability)
		t += rnd(s->rev_ns);
	return t;
}

static int64_t iface_ns(const struct hd_sim *s, size_t len)
{
	return rnd((double)len * s->iface_ns_per_byte);
}

/*
 * When a read whose media transfer ran from first to end completes: the
 * buffer passes sectors to the host while the platter delivers them, so
 * the host transfer overlaps the media transfer.  It ends one sector's
 * host transfer after the last sector, or when the whole request has
 * crossed the interface, whichever is later.
 */
static int64_t read_done(const struct hd_sim *s, int64_t first, int64_t end, size_t len)
{
	int64_t tail = end + iface_ns(s, len < s->sb ? len : s->sb), all = first + iface_ns(s, len);

	return tail > all ? tail : all;
}

/* ---- read cache and read-ahead ---- */

static void seg_trim(struct hd_sim *s, struct seg *g)
{
	if (g->end - g->start > s->seg_sectors)
		g->start = g->end - s->seg_sectors;
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
	while (s->ra_next < s->ra_limit && s->ra_next < target && s->ra_t < T) {
		struct hd_sim_loc l;
		uint64_t k;
		double st;
		int64_t end;

		hd_sim_locate(m, s->ra_next, &l);
		if (l.cyl != s->cyl || l.surf != s->surf) {
			int64_t t = s->ra_t + rnd(move_ns(s, l.cyl, l.surf, 0, 1, &s->rng));

			s->cyl = l.cyl;
			s->surf = l.surf;
			s->ra_t = rot_wait(s, hd_sim_loc_angle(m, &l), t);
			continue;
		}
		k = l.run;
		if (k > s->ra_limit - s->ra_next)
			k = s->ra_limit - s->ra_next;
		if (k > target - s->ra_next)
			k = target - s->ra_next;
		st = s->rev_ns / l.z->spt;
		end = s->ra_t + rnd((double)k * st);
		if (end > T) {
			k = (uint64_t)((double)(T - s->ra_t) / st);
			end = s->ra_t + rnd((double)k * st);
		}
		s->ra_next += k;
		s->ra_t = end;
		if (k == 0)
			break;
	}
	g->end = s->ra_next;
	seg_trim(s, g);
}

static void stream_stop(struct hd_sim *s, int64_t t)
{
	stream_run(s, t, UINT64_MAX);
	s->ra_on = 0;
}

static int read_hit(struct hd_sim *s, uint64_t a, uint64_t b)
{
	uint32_t i;
	size_t j;

	for (i = 0; i < s->nsegs; i++)
		if (s->segs[i].start <= a && b <= s->segs[i].end && a < s->segs[i].end) {
			s->segs[i].used = ++s->stamp;
			return 1;
		}
	for (j = 0; j < s->dn; j++) {
		const struct extent *e = &s->dirty[(s->dhead + j) % MAX_DIRTY];

		if (e->start <= a && b <= e->end)
			return 1;
	}
	return 0;
}

static void seg_invalidate(struct hd_sim *s, uint64_t a, uint64_t b)
{
	uint32_t i;

	for (i = 0; i < s->nsegs; i++)
		if (s->segs[i].start < b && a < s->segs[i].end) {
			if (s->ra_on && s->ra_seg == i)
				s->ra_on = 0;
			s->segs[i].start = s->segs[i].end = 0;
		}
}

/* After a media read of [a, b) ending at t4: cache it and read ahead from b. */
static void seg_fill(struct hd_sim *s, uint64_t a, uint64_t b, int64_t t4)
{
	uint32_t i, victim = 0;

	if (!s->nsegs)
		return;
	for (i = 0; i < s->nsegs; i++)
		if (s->segs[i].used < s->segs[victim].used)
			victim = i;
	s->segs[victim].start = a;
	s->segs[victim].end = b;
	s->segs[victim].used = ++s->stamp;
	seg_trim(s, &s->segs[victim]);
	s->ra_on = 1;
	s->ra_seg = victim;
	s->ra_next = b;
	s->ra_t = t4;
	s->ra_limit = b + s->ra_sectors < s->m->sectors ? b + s->ra_sectors : s->m->sectors;
}

/* ---- write-back cache ---- */

/* Write the oldest dirty extent to the media, starting at t; returns when done. */
static int64_t destage_one(struct hd_sim *s, int64_t t)
{
	struct extent e = s->dirty[s->dhead];

	stream_stop(s, t);
	t = write_retry(s, media(s, e.start, e.end - e.start, 1, t, t, NULL));
	s->dhead = (s->dhead + 1) % MAX_DIRTY;
	s->dn--;
	s->dirty_bytes -= (e.end - e.start) * s->sb;
	s->st.destages++;
	return t;
}

/* Is [a, b) wholly inside data already waiting in the write-back cache? */
static int dirty_covers(const struct hd_sim *s, uint64_t a, uint64_t b)
{
	for (size_t j = 0; j < s->dn; j++) {
		const struct extent *e = &s->dirty[(s->dhead + j) % MAX_DIRTY];

		if (e->start <= a && b <= e->end)
			return 1;
	}
	return 0;
}

static void dirty_add(struct hd_sim *s, uint64_t a, uint64_t b)
{
	struct extent *tail = s->dn ? &s->dirty[(s->dhead + s->dn - 1) % MAX_DIRTY] : NULL;

	/* Rewriting data the cache holds replaces it in place: no more room, no more destaging. */
	if (dirty_covers(s, a, b))
		return;

	/* Sequential writes are destaged as one. */
	if (tail && tail->end == a) {
		tail->end = b;
	} else {
		s->dirty[(s->dhead + s->dn) % MAX_DIRTY] = (struct extent){ a, b };
		s->dn++;
	}
	s->dirty_bytes += (b - a) * s->sb;
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

/* Would the write-back cache take this write now, without waiting for room? */
static int cache_takes(const struct hd_sim *s, size_t len, uint64_t off)
{
	uint64_t a = off / s->sb, b = (off + len + s->sb - 1) / s->sb;

	return s->wc && (uint64_t)len <= s->wc_bytes &&
	       ((s->dn < MAX_DIRTY && s->dirty_bytes + (b - a) * s->sb <= s->wc_bytes) || dirty_covers(s, a, b));
}

/* Put a write into the write-back cache at t; returns its completion time. */
static int64_t write_cached(struct hd_sim *s, uint64_t off, size_t len, int64_t t)
{
	uint64_t a = off / s->sb, b = (off + len + s->sb - 1) / s->sb;

	seg_invalidate(s, a, b);
	dirty_add(s, a, b);
	s->st.write_cached++;
	t += s->wr_ovh_ns + iface_ns(s, len);
	/* Destaging cannot begin before the data is in the cache. */
	if (s->free_at < t)
		s->free_at = t;
	return t;
}

/*
 * Serve one request starting at ts (the drive is free, the request has
 * arrived).  Returns the completion time; *result is 0 or -errno.
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
	stream_run(s, ts, UINT64_MAX);
	if (m->nbad && bad_overlap(m, a, b)) {
		stream_stop(s, ts);
		t = ts + (op == HD_OP_READ ? s->rd_ovh_ns : s->wr_ovh_ns);
		t = media(s, a, b - a, op == HD_OP_WRITE, t, t, NULL) + rnd(RETRY_REVS * s->rev_ns);
		s->st.errors++;
		*result = -EIO;
		return t;
	}
	if (op == HD_OP_READ) {
		if (read_hit(s, a, b)) {
			s->st.read_hits++;
			*hit = 1;
			data_read(s, buf, off, len);
			return ts + s->hit_ovh_ns + iface_ns(s, len);
		}
		data_read(s, buf, off, len);
		if (s->ra_on && s->ra_next < s->ra_limit && a >= s->segs[s->ra_seg].start &&
		    a <= s->ra_next) {
			/*
			 * It continues what the read-ahead is reading: no positioning
			 * at all, but every sector up to b still has to come off the
			 * platter, beyond the read-ahead limit too.
			 */
			if (s->ra_limit < b)
				s->ra_limit = b;
			stream_run(s, INT64_MAX, b);
			t = s->ra_t > ts + s->rd_ovh_ns ? s->ra_t : ts + s->rd_ovh_ns;
			s->ra_limit = b + s->ra_sectors < m->sectors ? b + s->ra_sectors : m->sectors;
			return read_done(s, ts + s->rd_ovh_ns, t, len);
		}
		stream_stop(s, ts);
		{
			int64_t first = 0;

			t = media(s, a, b - a, 0, ts + s->rd_ovh_ns, 0, &first);
			seg_fill(s, a, b, t);
			return read_done(s, first, t, len);
		}
	}

	/* write */
	if ((*result = data_write(s, buf, off, len)))
		return ts;
	seg_invalidate(s, a, b);
	if (s->wc && !s->fua && (uint64_t)len <= s->wc_bytes) {
		t = ts;
		/* A write that does not fit waits for destaging to make room. */
		while (!cache_takes(s, len, off))
			t = destage_one(s, t);
		*hit = 1;
		return write_cached(s, off, len, t);
	}
	stream_stop(s, ts);
	t = ts;
	while (s->dn)
		t = destage_one(s, t);
	t += s->wr_ovh_ns;
	t = media(s, a, b - a, 1, t, t + iface_ns(s, len), NULL);
	/* A partial physical sector is read first and written a revolution later. */
	if (off % s->sb || len % s->sb)
		t += rnd(s->rev_ns);
	return write_retry(s, t);
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
				return (double)s->hit_ovh_ns;
	} else if (s->wc && !s->fua && r->len <= s->wc_bytes &&
		   s->dirty_bytes + r->len <= s->wc_bytes && s->dn < MAX_DIRTY) {
		return (double)s->wr_ovh_ns;
	}
	hd_sim_locate(s->m, a, &l);
	t = (double)ts + (double)(r->op == HD_OP_READ ? s->rd_ovh_ns : s->wr_ovh_ns) +
	    move_ns(s, l.cyl, l.surf, r->op == HD_OP_WRITE, 0, NULL);
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
	s->free_at = q.r.done_ns;
	s->done[s->ndone++] = q;	/* room was made at submit */
}

/*
 * Run the drive: destage while idle, serve pending requests, for every
 * piece of work that starts before T.
 */
static void run_until(struct hd_sim *s, int64_t T)
{
	for (;;) {
		int64_t first = s->npend ? s->pend[0].r.submit_ns : INT64_MAX;

		if (s->dn && s->free_at < T && s->free_at < first) {
			s->free_at = destage_one(s, s->free_at);
			continue;
		}
		if (s->npend) {
			int64_t ts = s->free_at > first ? s->free_at : first;

			if (ts < T) {
				serve_pending(s, ts);
				continue;
			}
		}
		break;
	}
}

/*
 * One piece of work: a destage if the drive is free before the next
 * request arrives, else the next request (chosen by serve_pending).  The
 * queued interface advances one completion at a time, so that requests
 * submitted in reaction to a completion compete with those still waiting.
 */
static void run_step(struct hd_sim *s)
{
	int64_t first = s->npend ? s->pend[0].r.submit_ns : INT64_MAX;

	if (s->dn && s->free_at < first) {
		s->free_at = destage_one(s, s->free_at);
		return;
	}
	if (s->npend)
		serve_pending(s, s->free_at > first ? s->free_at : first);
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

/* Take the earliest completion out of the done list (sync ones only when want_sync). */
static int take_done(struct hd_sim *s, int want_sync, struct qent *out)
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
	if (out->r.done_ns > s->now)
		s->now = out->r.done_ns;
	return 1;
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
		if (op == HD_OP_WRITE && !s->fua && cache_takes(s, len, off)) {
			/*
			 * The cache has room: the controller takes the write while the
			 * media may still be destaging an earlier one.
			 */
			if ((rc = data_write(s, buf, off, len)))
				return rc;
			s->st.writes++;
			s->now = write_cached(s, off, len, s->now);
			if (hit)
				*hit = 1;
			return 0;
		}
		ts = s->free_at > s->now ? s->free_at : s->now;
		s->now = s->free_at = serve(s, op, buf, len, off, ts, &h, &rc);
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

int hd_sim_new(struct hd_sim **out, const struct hd_sim_model *m, uint64_t seed)
{
	struct hd_sim *s = calloc(1, sizeof(*s));

	if (!s)
		return -ENOMEM;
	s->m = m;
	hd_rng_seed(&s->rng, seed);
	s->sb = m->sector_bytes;
	s->rev_ns = 60e9 / m->rpm;
	s->iface_ns_per_byte = 1e3 / m->interface_mb_s;
	s->seek_sd_ns = m->seek_stddev_ms * 1e6;
	s->head_switch_ns = rnd(m->head_switch_ms * 1e6);
	s->settle_ns = rnd(m->write_settle_ms * 1e6);
	s->rd_ovh_ns = rnd(m->read_overhead_ms * 1e6);
	s->wr_ovh_ns = rnd(m->write_overhead_ms * 1e6);
	s->hit_ovh_ns = rnd(m->cache_hit_overhead_ms * 1e6);
	s->seg_sectors = m->cache_segment_kb * 1024 / m->sector_bytes;
	s->ra_sectors = m->readahead_kb * 1024 / m->sector_bytes;
	s->wc_bytes = m->write_cache_kb * 1024;
	s->wc = !!m->write_cache;
	/* No segment that holds a sector: no read cache at all. */
	s->nsegs = s->seg_sectors ? m->cache_segments : 0;
	if (s->nsegs && !(s->segs = calloc(s->nsegs, sizeof(*s->segs))))
		goto nomem;
	if (m->write_cache && !(s->dirty = malloc(MAX_DIRTY * sizeof(*s->dirty))))
		goto nomem;
	if (grow_queues(s))
		goto nomem;
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
	free(s->segs);
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
		while (s->dn)
			s->free_at = destage_one(s, s->free_at > s->now ? s->free_at : s->now);
		if (s->free_at > s->now)
			s->now = s->free_at;
		s->wc = 0;
		return 0;
	}
	if (!s->dirty && !(s->dirty = malloc(MAX_DIRTY * sizeof(*s->dirty))))
		return -ENOMEM;
	if (!s->wc_bytes)
		s->wc_bytes = 1024 * 1024;
	s->wc = 1;
	return 0;
}

int hd_sim_write_cache(const struct hd_sim *s)
{
	return s->wc;
}

void hd_sim_set_fua(struct hd_sim *s, int on)
{
	s->fua = !!on;
}
