/*
 * The layout probe: the drive's layout and short-seek mechanics from the
 * host side, in the spirit of DIXtrac's extraction and of Skippy and MTBRC
 * (Worthington et al.).  Every access is one physical sector.
 *
 * The clock is the ruler.  A media read completes a fixed time after its
 * sector has passed under the head, so the interval between two
 * completions, modulo the revolution, is the angle between the two sectors
 * (whatever the positioning between them cost: only whole revolutions).
 * From that:
 *  - sectors per revolution: reading back k sectors on one track takes
 *    rev - k * st (st = rev / S): a line in k (Skippy's slope);
 *  - track boundaries and skews: the angle of LBA y on a track is P + y
 *    sectors; P steps by the skew at every track boundary (a track skew at
 *    a head switch, a cylinder skew at a cylinder switch), so each read
 *    says which track it lies on, and a bisection finds a boundary;
 *  - surfaces: the number of tracks between cylinder skews;
 *  - switch times, MTBRC style: a transition from the sector just read to
 *    a target with a chosen slack (the angular gap less a host delay) is
 *    made in the first pass when the slack covers what the transition
 *    needs (overhead, plus a head switch or a one-cylinder seek), and costs
 *    a revolution more otherwise.  Slacks are bisected per kind of
 *    transition; the need of a crossing less that of a step on one track
 *    is the switch.
 * Reads only go down the disk, each below every read before it at its
 * place, so that no read-ahead (which runs forwards) has cached a target.
 * With --write the same walk is done with FUA writes (data-preserving:
 * each target's bytes are read first and written back unchanged), and a
 * write's one-cylinder seek less a read's is the write settle.  Then
 * sectors per revolution at positions spread over the disk give the zones.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hddscope/cli.h"
#include "hddscope/msg.h"
#include "hddscope/probes.h"
#include "hddscope/session.h"
#include "hddscope/stats.h"

#define O(member) offsetof(struct hd_layout_opts, member)

static const struct hd_option layout_options[] = {
	{ .name = "at", .kind = HD_OPT_SIZE, .arg = "OFFSET", .off = O(at),
	  .given = HD_OPT_GIVEN(struct hd_layout_opts, have_at), .shown = "middle of the device",
	  .help = "where the tracks are walked" },
	{ .name = "tracks", .kind = HD_OPT_COUNT, .arg = "N", .off = O(tracks), .def = "120", .lo = 8, .hi = 100000,
	  .help = "tracks walked down from there (reads)" },
	{ .name = "cylinders", .kind = HD_OPT_COUNT, .arg = "N", .off = O(cylinders), .def = "24", .lo = 0,
	  .hi = 100000, .help = "then cylinder boundaries crossed (reads), jumping\n"
				 "from one to the next" },
	{ .name = "write-cylinders", .kind = HD_OPT_COUNT, .arg = "N", .off = O(wcylinders), .def = "20", .lo = 1,
	  .hi = 100000, .help = "of those, crossed again with FUA writes (--write)" },
	{ .name = "points", .kind = HD_OPT_COUNT, .arg = "N", .off = O(points), .def = "64", .lo = 0, .hi = 10000,
	  .help = "positions over the disk where sectors per track are\n"
		  "measured (the zones); 0: none" },
	{ .name = "refine", .kind = HD_OPT_COUNT, .arg = "N", .off = O(refine), .def = "6", .lo = 0, .hi = 40,
	  .help = "bisections of each zone boundary found" },
	{ .kind = HD_OPT_END },
};

static const struct hd_cmdspec layout_spec = {
	HD_PROBE_SPEC("layout", "[OPTIONS] [DEVICE]"),
	.intro = "The drive's layout and short-seek mechanics, from one-sector reads timed\n"
		 "against each other: sectors per track, track boundaries and skews, surfaces,\n"
		 "head switch and one-cylinder seek (MTBRC: the least slack a transition needs),\n"
		 "with --write the write settle (FUA writes, data-preserving), and sectors per\n"
		 "track at positions spread over the disk (zones).  Reads go only down the disk,\n"
		 "so that read-ahead never serves a target.\n"
		 "\n",
	.opts = layout_options,
	.outro = "\n"
		 "Output: layout.tsv unless -o is given.\n",
	.writes = 1,
};

enum { TY_SAME, TY_HEAD, TY_CYL, TY_OTHER };

/* One transition timed: its slack, whether it was made in the first pass, its kind. */
struct smp {
	double slack;
	int made;
	int skew;	/* rounded measured skew, 0 on one track */
	int write;
};

#define MAX_SKEWS 64
#define MAX_SMP 8192
#define MAX_CYLX 1024
#define MAX_SEEN 256

struct lay {
	struct hd_session *s;
	struct hd_dev *d;
	uint64_t u, nunits;
	void *buf, *ybuf, *xbuf;
	double rev, st;		/* ns */
	int S;
	int loc;
	long track;		/* the current track's index at this location (0 first, down from there) */
	/* The previous access: the head's place. */
	int have_prev, prev_media;
	int64_t t_prev;
	uint64_t y_prev;
	double A_prev;		/* its end's angle in sectors */
	int fatal;
	/* What the walks learnt. */
	struct smp smp[MAX_SMP];
	size_t nsmp;
	int skv[MAX_SKEWS], skc[MAX_SKEWS];
	size_t nsk;
	long cylx[MAX_CYLX];	/* track index above each crossing with the second skew */
	size_t ncylx;
	int fua;		/* 1: FUA writes; 0: the device writes through (--sync) */
	double t0_plan;		/* the slack a crossing set up for the step after it (ns), 0: none */
	int rotates;		/* sectors per track were found somewhere: the revolution is one */
	/*
	 * The clock's noise, where sectors per track had to be found through
	 * it (lay_spt_noisy): a measured skew within tol sectors of a value is
	 * that value (0: the clock places a sector to a fraction of one, and a
	 * skew is its nearest whole number within 0.3).
	 */
	double tol;
	double noise_ns;	/* the completions' spread (the pairs' robust sd), 0 where not measured */
	int noisy_cap;		/* long steps lay_spt_noisy may take here */
	int noisy;		/* the first place's short steps showed the clock's noise */
	double rev_w, rev_ws;	/* the revolution pooled over the noisy places: weights, weighted sum */
	int seen[MAX_SEEN];	/* sectors per track found at the places before */
	size_t nseen;
};

/* Whether the clock was found noisy: at the first position's short steps, or a position needed the long ones. */
static int lay_noisy(const struct lay *L)
{
	return L->noisy || L->tol > 0;
}

/* x modulo m into [0, m). */
static double fmodp(double x, double m)
{
	double r = fmod(x, m);

	return r < 0 ? r + m : r;
}

static int sk_near_known(const struct lay *L, double sk);

/*
 * One access of one unit at y (a read, or with write a write of wsrc's
 * bytes, FUA where the device has it), after a host delay of delay_ns past
 * the previous one's completion.  Writes its row.  *skew receives the
 * measured skew between the previous access and this one (sectors; 0 on
 * one track; NAN where it cannot be told), *made and *slack the MTBRC
 * sample (*made -1 where there is none).  Returns 0, -1 when the run
 * must stop, or -2 (nothing done) for a write the device can neither send
 * with FUA nor write through.
 */
static int lay_access(struct lay *L, uint64_t y, int64_t delay_ns, const char *kind, int write, void *wsrc,
		      double *skew, int *made, double *slack)
{
	struct hd_session *s = L->s;
	int64_t lat = 0, t0, h;
	enum hd_class cls;
	int rc, media;
	double A = NAN, sk = NAN;

	*made = -1;
	*slack = NAN;
	if (skew)
		*skew = NAN;
	if (hd_session_stop(s) || hd_interrupted)
		return -1;
	if (L->have_prev && delay_ns > 0)
		hd_dev_idle(L->d, delay_ns);
	t0 = hd_dev_now(L->d);
	if (!write) {
		rc = hd_dev_timed(L->d, HD_OP_READ, L->buf, L->u, y * L->u, &lat);
	} else {
		rc = L->fua ? hd_dev_timed_fua(L->d, wsrc, L->u, y * L->u, &lat) : -ENOTSUP;
		if (rc == -ENOTSUP) {
			/* No FUA: a device opened with --sync writes through; anything else would time the cache. */
			L->fua = 0;
			if (!L->d->sync)
				return -2;
			t0 = hd_dev_now(L->d);
			rc = hd_dev_timed(L->d, HD_OP_WRITE, wsrc, L->u, y * L->u, &lat);
		}
	}
	if (rc == -EINTR && hd_interrupted)
		return -1;
	h = L->have_prev ? t0 - L->t_prev : 0;
	if (hd_session_sample(s, rc, write ? HD_OP_WRITE : HD_OP_READ, y * L->u, lat, &cls))
		L->fatal = 1;
	media = rc == 0 && (cls == HD_CLASS_MEDIA || (!write && cls == HD_CLASS_CACHE));
	if (media && L->have_prev && L->prev_media && L->S > 0 && L->rev > 0) {
		double I = (double)(h + lat), g;
		double n = floor((I - L->st + 0.01 * L->st) / L->rev);

		A = fmodp(L->A_prev + fmodp(I, L->rev) / L->st, L->S);
		/* P = A - (y + 1): its step down is the skew. */
		sk = fmodp(-((A - (double)(y + 1)) - (L->A_prev - (double)(L->y_prev + 1))), L->S);
		if (sk > L->S - 0.5 - L->tol)
			sk -= L->S;
		g = I - L->st - n * L->rev;
		*made = n < 0.5;
		*slack = g - (double)h;
	}
	/*
	 * A read the calibration calls a hit may be a media read whose sector
	 * came round at once (a short gap costs less than a hit).  A hit's
	 * completion falls anywhere; a media read's on the lattice of sector
	 * starts: where it does, it is a media read.
	 */
	if (cls == HD_CLASS_CACHE) {
		if (!isnan(sk) && (L->tol > 0 ? sk_near_known(L, sk) : fabs(sk - lround(sk)) < 0.02)) {
			cls = HD_CLASS_MEDIA;
			s->ncache--;
			s->nmedia++;
		} else {
			media = 0;
			sk = NAN;
			*made = -1;
			*slack = NAN;
		}
	}
	if (media && isnan(A))
		A = 0;
	fprintf(s->rows, "%d\t%d\t%" PRIu64 "\t%s\t%ld\t", L->loc, L->S, y * L->u, kind, L->track);
	if (isnan(sk))
		fputs("-1", s->rows);
	else
		fprintf(s->rows, "%.3f", sk);
	fputc('\t', s->rows);
	hd_put_ms(s->rows, h);
	fputc('\t', s->rows);
	hd_put_ms(s->rows, lat);
	fprintf(s->rows, "\t%s\t%s\n", write ? "write" : "read", hd_class_name(cls));
	L->have_prev = 1;
	L->prev_media = media;
	L->t_prev = t0 + lat;
	L->y_prev = y;
	L->A_prev = isnan(A) ? 0 : A;
	if (skew)
		*skew = sk;
	return L->fatal ? -1 : 0;
}

/* The row of a location's result: its offset and sectors per track (0: not found). */
static void lay_loc_row(struct lay *L, uint64_t y)
{
	fprintf(L->s->rows, "%d\t%d\t%" PRIu64 "\tloc\t-1\t-1\t0\t0\tread\tmedia\n", L->loc, L->S, y * L->u);
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_dbl);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/*
 * Sectors per revolution where the clock is noisier than the steps of
 * lay_spt allow: a host path whose completions jitter by microseconds (an
 * interrupt, a wake-up; a drive served through another kernel device).  A
 * sector's angle is S times the clock's noise over the revolution: at 238
 * sectors a track and 8.3 ms, 5 us of noise is a seventh of a sector, and
 * the slope over a fifth of a track carries five times that.
 *
 * So the steps are of two lengths on one track: short ones, q units back
 * (a sixteenth of a track), and one from near the top of a track to near
 * its bottom, k units back.  Each interval is (n + 1) rev - k st for a
 * whole number n of revolutions missed, and the line through both kinds
 * gives rev and st, and S = rev / st, to about the noise over the
 * difference of the two lengths' angles (most of a revolution); the rough
 * revolution lay_spt had, which noise biases (0.2% at 20 us, a tenth of a
 * sector in S), is left behind.  To stay on one track the short steps go
 * down until one crosses (its interval off rev - q st by more than tol0
 * sectors: the skew, tens of sectors), which lands within q of a track's
 * top; the long step keeps a margin clear of that track's bottom (its
 * length S0, the rough estimate, off by a few).  A long step whose own S
 * (its interval with the rough revolution) lies far from the others' (a
 * crossing, a slip) is left out, as the short steps that crossed are.
 * Tracks are taken until S's standard error is under NOISY_SE (at least
 * NOISY_MIN long steps), up to L->noisy_cap of them; S is the whole number
 * within 0.3 of rev / st.  The steps' spread about the line is the clock's
 * noise (noise_ns), and four times it in sectors, at least 1.5, the
 * tolerance of every skew after (tol).  Returns the last unit read (0: the
 * run must stop); L->S 0 where no whole number stands.
 */
#define NOISY_SE 0.1
#define NOISY_MIN 8
#define NOISY_MAIN 48
#define NOISY_POINT 24
#define NOISY_POINTS 24
#define NOISY_REFINE 3

/* The steps of lay_spt_noisy: interval, units back, revolutions (n + 1). */
struct nsteps {
	double *I, *k, *n1;
	size_t m;
};

/*
 * The line I = (n + 1) rev - k st through the steps (least squares in rev
 * and st): rev, its variance and the steps' spread sd about the line.  -1
 * where it does not stand.
 */
static int noisy_line(const struct nsteps *s, double *rev, double *var_rev, double *sd)
{
	double a = 0, b = 0, c = 0, p = 0, q = 0, det, rss = 0, st;

	for (size_t i = 0; i < s->m; i++) {
		a += s->n1[i] * s->n1[i];
		b -= s->n1[i] * s->k[i];
		c += s->k[i] * s->k[i];
		p += s->n1[i] * s->I[i];
		q -= s->k[i] * s->I[i];
	}
	det = a * c - b * b;
	if (s->m < 4 || !(fabs(det) > 0))
		return -1;
	*rev = (c * p - b * q) / det;
	st = (a * q - b * p) / det;
	if (!(st > 0) || !(*rev > 0))
		return -1;
	for (size_t i = 0; i < s->m; i++) {
		double r = s->I[i] - (s->n1[i] * *rev - s->k[i] * st);

		rss += r * r;
	}
	*sd = sqrt(rss / (double)(s->m - 2));
	*var_rev = *sd * *sd * c / det;
	return 0;
}

/*
 * S = rev / st with the revolution pooled over the places measured so far
 * and this one's (rev_i, var_i: one turning speed under every head): st
 * from the steps with that revolution held, *se from st's noise and the
 * pool's.  -1 where it does not stand.
 */
static int noisy_S(const struct lay *L, const struct nsteps *s, double rev_i, double var_i, double sd, double *S,
		   double *se, double *rev)
{
	double w = L->rev_w + 1 / var_i, rp = (L->rev_ws + rev_i / var_i) / w, kk = 0, kn = 0, num = 0, st;

	for (size_t i = 0; i < s->m; i++) {
		kk += s->k[i] * s->k[i];
		kn += s->k[i] * s->n1[i];
		num += s->k[i] * (s->n1[i] * rp - s->I[i]);
	}
	if (!(kk > 0))
		return -1;
	st = num / kk;
	if (!(st > 0))
		return -1;
	*rev = rp;
	*S = rp / st;
	/* S moves with the revolution held by (1 - S kn / kk) / st for each unit of it. */
	*se = sqrt(pow(*S * sd / sqrt(kk) / st, 2) + pow((1 - *S * kn / kk) / st, 2) / w);
	return 0;
}


/*
 * The whole number S stands for, with its standard error se over nl long
 * steps: the nearest where within 0.3, se at most 2 NOISY_SE and nl at
 * least NOISY_MIN (fewer say little of their own spread); or a number found at another
 * place (a zone seen before) within 2 se of it, at most 0.7 (zones differ
 * by two sectors or more), se at most 3.5 NOISY_SE.  0 where none.
 */
static int noisy_whole(const struct lay *L, double S, double se, int nl)
{
	int best = 0;
	double bd = INFINITY;

	if (nl >= NOISY_MIN && se <= 2 * NOISY_SE && fabs(S - lround(S)) <= 0.3)
		return (int)lround(S);
	for (size_t i = 0; se <= 3.5 * NOISY_SE && i < L->nseen; i++) {
		double d = fabs(S - L->seen[i]);

		if (d <= fmin(2 * se, 0.7) && d < bd) {
			bd = d;
			best = L->seen[i];
		}
	}
	return best;
}

/*
 * Whether the long steps (k above a tenth of S) spread about S more than
 * the clock's noise sd allows: their median absolute deviation, in units
 * of each one's noise, over twice a normal spread's (0.6745), robust to
 * the odd step over a slip.  At a zone boundary the tracks walked down lie
 * in two zones, and S came out between them (239 for 238 and 240).
 */
static int noisy_mixed(const struct nsteps *s, double rev, double sd, double S)
{
	double z[NOISY_MAIN * 16];
	size_t n = 0;

	for (size_t i = 0; i < s->m && n < sizeof(z) / sizeof(z[0]); i++) {
		double Si;

		if (s->k[i] < S / 10 || !(s->n1[i] * rev - s->I[i] > 0))
			continue;
		Si = s->k[i] * rev / (s->n1[i] * rev - s->I[i]);
		z[n++] = fabs(Si - S) / (Si * Si * sd / (rev * s->k[i]));
	}
	return n >= 4 && median(z, n) > 2 * 0.6745;
}

/*
 * One read of lay_spt_noisy's at x: *y becomes x, *reads counts it, *I the
 * interval from the read before.  1 for a media read, 0 for a hit (no
 * interval), -1 when the run must stop.
 */
static int noisy_read(struct lay *L, uint64_t x, uint64_t *y, int *reads, double *I)
{
	int64_t t = L->t_prev;
	double slack;
	int made;

	if (lay_access(L, x, 0, "spt", 0, NULL, NULL, &made, &slack))
		return -1;
	(*reads)++;
	*y = x;
	*I = (double)(L->t_prev - t);
	return L->prev_media;
}

static uint64_t lay_spt_noisy(struct lay *L, uint64_t y, double S0)
{
	int cap = L->noisy_cap, nl = 0, reads = 0;
	long q = (long)(S0 / 16) > 2 ? (long)(S0 / 16) : 2, mg = q + (long)(S0 / 25) + 2;
	size_t room = (size_t)cap * 16, m = 0;
	double *I = malloc(room * 3 * sizeof(double)), *K = I ? I + room : NULL, *N1 = I ? I + 2 * room : NULL;
	struct nsteps ns = { I, K, N1, 0 };
	double Sv[NOISY_MAIN], st0 = L->rev / S0, tol0 = fmax(2, S0 / 40), rev = NAN, se = INFINITY;
	double sd = 0, rev_i, var_i, Sh = NAN;

	L->S = 0;
	if (!I || cap > NOISY_MAIN || !(S0 >= 32) || (uint64_t)(S0 * 2) >= y || !L->prev_media) {
		free(I);
		return y;
	}
	while (nl < cap && reads < cap * 8 && m + 2 < room && y > (uint64_t)(3 * S0)) {
		uint64_t x = y - (uint64_t)q, xb;
		double d, Iv, Sk;
		int rc;

		/* Down by q until a read crosses to the next track. */
		if ((rc = noisy_read(L, x, &y, &reads, &Iv)) < 0) {
			free(I);
			return 0;
		}
		if (!rc)
			continue;
		d = fmodp(Iv - (L->rev - (double)q * st0) + L->rev / 2, L->rev) - L->rev / 2;
		if (fabs(d) <= tol0 * st0) {
			I[m] = Iv;
			K[m] = (double)q;
			N1[m++] = (double)lround((Iv + (double)q * st0) / L->rev);
			continue;
		}
		/* x lies within q of its track's top: the long step to a margin above its bottom. */
		xb = x + (uint64_t)q - (uint64_t)lround(S0) + (uint64_t)mg;
		if (xb >= x)
			break;
		if ((rc = noisy_read(L, xb, &y, &reads, &Iv)) < 0) {
			free(I);
			return 0;
		}
		if (!rc)
			continue;
		Sk = (double)(x - xb) * L->rev / (L->rev - fmodp(Iv, L->rev));
		/* Far from the others: a crossing, a slip. */
		if (nl >= 4) {
			double tmp[NOISY_MAIN], med;

			memcpy(tmp, Sv, (size_t)nl * sizeof(double));
			med = median(tmp, (size_t)nl);
			if (fabs(Sk - med) > fmax(2, 0.02 * med))
				continue;
		}
		Sv[nl++] = Sk;
		I[m] = Iv;
		K[m] = (double)(x - xb);
		N1[m++] = (double)lround((Iv + (double)(x - xb) * st0) / L->rev);
		/* Enough: S to a tenth; at a zone point, a whole number that stands (a zone seen before, mostly). */
		ns.m = m;
		if (nl >= (cap == NOISY_MAIN ? NOISY_MIN : NOISY_MIN / 2) && noisy_line(&ns, &rev_i, &var_i, &sd) == 0 &&
		    fabs(rev_i / L->rev - 1) < 0.01 && noisy_S(L, &ns, rev_i, var_i, sd, &Sh, &se, &rev) == 0 &&
		    ((nl >= NOISY_MIN && se <= NOISY_SE) ||
		     (cap < NOISY_MAIN && noisy_whole(L, Sh, se, nl) > 0 && !noisy_mixed(&ns, rev, sd, Sh))))
			break;
	}
	ns.m = m;
	if (nl >= (cap == NOISY_MAIN ? NOISY_MIN : NOISY_MIN / 2) && noisy_line(&ns, &rev_i, &var_i, &sd) == 0 &&
	    fabs(rev_i / L->rev - 1) < 0.01 && noisy_S(L, &ns, rev_i, var_i, sd, &Sh, &se, &rev) == 0) {
		int v = noisy_mixed(&ns, rev, sd, Sh) ? 0 : noisy_whole(L, Sh, se, nl);

		L->rev_w += 1 / var_i;
		L->rev_ws += rev_i / var_i;
		if (v >= 32) {
			L->S = v;
			L->rev = rev;
			L->st = rev / L->S;
			L->rotates = 1;
			L->noise_ns = sd;
			L->tol = fmax(1.5, 4 * sd / L->st);
		}
	}
	free(I);
	return y;
}

/*
 * Sectors per revolution at y (and, where it is not known yet, the
 * revolution): reads back from y by k units, each on the same track but
 * for the odd one, take rev - k * st.  Leaves the head at the last read and
 * L->S at the estimate (0 when the reads do not agree).  Returns the unit
 * below the last read, or 0 when the run must stop.
 */
static uint64_t lay_spt(struct lay *L, uint64_t y, int guess)
{
	static const int kb[] = { 1, 2, 3, 4, 6, 8 };
	double I[16], K[16], v[256];
	int nk = 0, made;
	double slack;

	L->S = 0;
	L->have_prev = 0;
	if (lay_access(L, y, 0, "anchor", 0, NULL, NULL, &made, &slack))
		return 0;
	if (L->rev <= 0) {
		size_t n = 0;

		for (size_t i = 0; i < sizeof(kb) / sizeof(kb[0]); i++) {
			int64_t t = L->t_prev;
			int pm = L->prev_media;

			y -= (uint64_t)kb[i];
			if (lay_access(L, y, 0, "spt", 0, NULL, NULL, &made, &slack))
				return 0;
			if (pm && L->prev_media) {
				I[nk] = (double)(L->t_prev - t);
				K[nk++] = kb[i];
			}
		}
		for (int a = 0; a < nk; a++)
			for (int b = a + 1; b < nk; b++)
				v[n++] = (I[a] - I[b]) / (K[b] - K[a]);
		if (n < 3)
			return y;
		L->st = median(v, n);
		n = 0;
		for (int a = 0; a < nk; a++)
			v[n++] = I[a] + K[a] * L->st;
		L->rev = median(v, n);
		/*
		 * The clock's noise: the reads' spread about that line (robust: one
		 * of them may have crossed to another track).  Over a twentieth of
		 * a sector (a true clock is exact to nanoseconds), a step's agreement
		 * with a whole number is chance: every place takes lay_spt_noisy.
		 */
		for (int a = 0; a < nk; a++)
			v[a] = fabs(I[a] + K[a] * L->st - L->rev);
		if (nk >= 3 && median(v, (size_t)nk) > 0.05 * L->st)
			L->noisy = 1;
		/* Spinning disks turn in 1 to 100 ms: anything else is no rotation (an SSD, a file in RAM). */
		if (!(L->st > 0) || !(L->rev >= 1e6 && L->rev <= 1e8) || L->rev / L->st > 100000) {
			L->rev = 0;
			return y;
		}
		guess = (int)lround(L->rev / L->st);
	}
	if (guess < 8)
		guess = L->st > 0 ? (int)lround(L->rev / L->st) : 64;
	/* Longer steps back, a fifth to a third of a track: the slope to a fraction of a sector. */
	{
		int ks[4] = { guess / 5, guess / 4, guess / 3, 3 };
		int est[4], ne = 0, best = 0, bestc = 0;
		double raw[4];
		size_t nraw = 0;

		for (int i = 0; i < 4; i++) {
			int64_t t = L->t_prev;
			int pm = L->prev_media, k = ks[i] < 1 ? 1 : ks[i];
			double Iv, stv, Sv;

			if (y < (uint64_t)k + 1)
				break;
			y -= (uint64_t)k;
			if (lay_access(L, y, 0, "spt", 0, NULL, NULL, &made, &slack))
				return 0;
			if (!pm || !L->prev_media)
				continue;
			Iv = (double)(L->t_prev - t);
			stv = (L->rev - Iv) / k;
			Sv = stv > 0 ? L->rev / stv : 0;
			if (Sv >= 4 && fabs(Sv - lround(Sv)) < 0.25)
				est[ne++] = (int)lround(Sv);
			if (k >= 8 && Sv >= 32)
				raw[nraw++] = Sv;
		}
		for (int i = 0; i < ne; i++) {
			int c = 0;

			for (int j = 0; j < ne; j++)
				c += est[j] == est[i];
			if (c > bestc) {
				bestc = c;
				best = est[i];
			}
		}
		/*
		 * Every disk holds dozens of sectors a track at least: fewer is noise
		 * that happened to agree.  A step that crossed to another track is
		 * off by its skew over k (a slip by S / k): sectors, not a fraction;
		 * one off by less than two is the clock's noise, and two that agreed
		 * beside it may have done so by chance.  So may any two once the
		 * clock was found noisy (at the first position, or where a position
		 * needed lay_spt_noisy): dtla307030 at 3 us took 379 for 378 so.
		 */
		for (size_t i = 0; i < nraw; i++)
			if (lay_noisy(L) || (fabs(raw[i] - best) > 0.25 && fabs(raw[i] - best) <= 2))
				bestc = 0;
		if (bestc >= 2 && best >= 32) {
			L->S = best;
			L->st = L->rev / best;
			L->rotates = 1;
		} else if (nraw >= 2 || (nraw && lay_noisy(L))) {
			/* The steps disagree: the clock is noisier than they allow. */
			y = lay_spt_noisy(L, y, nraw >= 2 ? median(raw, nraw) : raw[0]);
		}
	}
	if (L->S > 0 && L->nseen < MAX_SEEN)
		L->seen[L->nseen++] = L->S;
	return y;
}

/* ---- the walk ---- */

/*
 * A measured skew's circular distance (mod S) from the whole number v, in
 * sectors.
 */
static double sk_dist(const struct lay *L, double sk, int v)
{
	return fabs(fmodp(sk - v + L->S / 2.0, L->S) - L->S / 2.0);
}

static void skew_top(const struct lay *L, int *head, int *cyl);

/*
 * Whether the clock placed a measured skew: within 0.3 of a whole number,
 * or with a noisy clock (tol) any measure at all.
 */
static int sk_placed(const struct lay *L, double sk)
{
	return !isnan(sk) && (L->tol > 0 || fabs(sk - lround(sk)) <= 0.3);
}

/*
 * The whole number a placed skew stands for: its nearest, or with a noisy
 * clock 0, the track skew or the cylinder skew where it lies within tol of
 * one (the nearest), else its nearest.
 */
static int sk_round(const struct lay *L, double sk)
{
	int head, cyl, v[3], best = (int)lround(sk);
	double bd = INFINITY;

	if (!(L->tol > 0))
		return best;
	skew_top(L, &head, &cyl);
	v[0] = 0;
	v[1] = head;
	v[2] = cyl;
	for (int i = 0; i < 3; i++) {
		double dd = v[i] >= 0 ? sk_dist(L, sk, v[i]) : INFINITY;

		if (dd <= L->tol && dd < bd) {
			bd = dd;
			best = v[i];
		}
	}
	return best;
}

/*
 * With a noisy clock, whether a measured skew lies within half the
 * tolerance of 0 or of a skew seen: a hit's completion falls anywhere, so
 * one lands there by chance once in some S / (1.5 tol) reads.
 */
static int sk_near_known(const struct lay *L, double sk)
{
	int v = sk_round(L, sk);
	int head, cyl;

	skew_top(L, &head, &cyl);
	return (v == 0 || v == head || v == cyl) && sk_dist(L, sk, v) <= L->tol / 2;
}

/* Whether two whole-number skews are one: equal, or with a noisy clock within tol. */
static int sk_same(const struct lay *L, int a, int b)
{
	return L->tol > 0 ? sk_dist(L, a, b) <= L->tol : a == b;
}

/* Count a measured skew (rounded) into the clusters. */
static void skew_count(struct lay *L, int sk)
{
	for (size_t i = 0; i < L->nsk; i++)
		if (L->skv[i] == sk) {
			L->skc[i]++;
			return;
		}
	if (L->nsk < MAX_SKEWS) {
		L->skv[L->nsk] = sk;
		L->skc[L->nsk++] = 1;
	}
}


/* The most frequent skew (the track skew) and the next (the cylinder skew); -1 where none. */
static void skew_top(const struct lay *L, int *head, int *cyl)
{
	int c1 = 0, c2 = 0, gv[MAX_SKEWS], gc[MAX_SKEWS];
	const int *sv = L->skv, *sc = L->skc;
	size_t n = L->nsk;

	/* With a noisy clock, a skew measured in several whole numbers: their groups. */
	if (L->tol > 0) {
		n = hd_int_groups(L->skv, L->skc, L->nsk, L->tol, gv, gc);
		sv = gv;
		sc = gc;
	}
	*head = *cyl = -1;
	for (size_t i = 0; i < n; i++) {
		if (sc[i] > c1 || (sc[i] == c1 && sv[i] < *head)) {
			*cyl = *head;
			c2 = c1;
			*head = sv[i];
			c1 = sc[i];
		} else if (sc[i] > c2) {
			*cyl = sv[i];
			c2 = sc[i];
		}
	}
	/* Two tracks to a cylinder: as many of each; the longer skew is the cylinder's. */
	if (*cyl >= 0 && c1 == c2 && *cyl < *head) {
		int t = *cyl;
		*cyl = *head;
		*head = t;
	}
}

/* The kind of transition a skew is, given the track and cylinder skews (skew_top). */
static int type_with(const struct lay *L, int sk, int head, int cyl)
{
	if (sk_same(L, sk, 0))
		return TY_SAME;
	if (head >= 0 && sk_same(L, sk, head))
		return TY_HEAD;
	if (cyl >= 0 && sk_same(L, sk, cyl))
		return TY_CYL;
	return TY_OTHER;
}

static int type_of(const struct lay *L, int sk)
{
	int head, cyl;

	skew_top(L, &head, &cyl);
	return type_with(L, sk, head, cyl);
}

/* The bracket [lo, hi] on the slack a kind of transition needs, from every sample so far. */
static void need_bracket(const struct lay *L, int ty, int write, double *lo, double *hi)
{
	int head, cyl;

	/* The skews once: with a noisy clock each look groups them (hd_int_groups). */
	skew_top(L, &head, &cyl);
	*lo = 0;
	*hi = INFINITY;
	for (size_t i = 0; i < L->nsmp; i++) {
		const struct smp *m = &L->smp[i];

		if (m->write != write || type_with(L, m->skew, head, cyl) != ty)
			continue;
		if (m->made && m->slack < *hi)
			*hi = m->slack;
		if (!m->made && m->slack > *lo)
			*lo = m->slack;
	}
	if (*lo >= *hi) {
		/* Noise: the bracket widened around its middle. */
		double mid = (*lo + *hi) / 2, w = fabs(*lo - *hi) + L->st;

		*lo = mid - w > 0 ? mid - w : 0;
		*hi = mid + w;
	}
}

/* The slack to try next for a kind of transition: bisect, then test the bracket's edges. */
static double need_target(struct lay *L, int ty, int write)
{
	double lo, hi;

	need_bracket(L, ty, write, &lo, &hi);
	if (isinf(hi))
		return lo > 0 ? fmin(lo + fmax(lo, 1e6), 0.9 * L->rev) : 0.3 * L->rev;
	if (hi - lo > 1000)
		return (lo + hi) / 2;
	return lo + (hi - lo) * (3 * hd_rng_uniform(&L->s->run.rng) - 1);
}

static void note_sample(struct lay *L, double sk, int made, double slack, int write)
{
	int r;

	if (made < 0 || !sk_placed(L, sk) || L->nsmp >= MAX_SMP)
		return;
	r = sk_round(L, sk);
	L->smp[L->nsmp++] = (struct smp){ slack, made, r, write };
}

/* The cylinder pattern: surfaces h and a cylinder crossing's track index c; 0 where unknown. */
static int cyl_pattern(const struct lay *L, long *c)
{
	int counts[257] = { 0 }, best = 0;

	for (size_t i = 1; i < L->ncylx; i++) {
		long dlt = L->cylx[i - 1] - L->cylx[i];

		if (dlt > 0 && dlt <= 256)
			counts[dlt]++;
	}
	for (int h = 1; h <= 256; h++)
		if (counts[h] > counts[best])
			best = h;
	*c = L->ncylx ? L->cylx[L->ncylx - 1] : 0;
	return counts[best] ? best : 0;
}

/* The skew expected at the boundary below track t. */
static int skew_expect(const struct lay *L, long t)
{
	int head, cyl;
	long c;
	int h = cyl_pattern(L, &c);

	skew_top(L, &head, &cyl);
	if (head < 0)
		return L->S / 4;
	if (h > 0 && cyl >= 0 && ((c - t) % h + h) % h == 0)
		return cyl;
	return head;
}

/*
 * The unit x in [lo, hi] whose start lies the least whole number of sectors
 * G >= g0 (and less than a revolution) after the end of y, for a target on
 * a track whose P lies sk below that of y's: x = y + 1 + sk + G (mod S).
 * 0 with *G set, or -1 when no unit of the range will do.
 */
static int pick_target(const struct lay *L, uint64_t y, int sk, uint64_t lo, uint64_t hi, long g0, uint64_t *x,
		       long *G)
{
	if (hi < lo)
		return -1;
	for (long g = g0 < 0 ? 0 : g0; g < L->S; g++) {
		long r = (long)(((int64_t)(y % (uint64_t)L->S) + 1 + sk + g) % L->S);
		long lr = (long)(lo % (uint64_t)L->S);
		uint64_t c = lo + (uint64_t)(((r - lr) % L->S + L->S) % L->S);

		if (c <= hi) {
			*x = c;
			*G = g;
			return 0;
		}
	}
	return -1;
}

/*
 * Find the first unit of the track under y by bisection: a read at x on the
 * same track says the boundary is at or below x; one on the track below,
 * above x (and the search goes on there, a track lower, the track taken
 * *Lt units long).  *b receives the boundary, *y the last unit read.  With
 * a boundary found before (*fb, at track *ft), the units per track are
 * taken as the mean between the two.  Returns 0, or -1 when the run must
 * stop.
 */
static int lay_find(struct lay *L, uint64_t *y, uint64_t *Lt, uint64_t *b, long *ft, uint64_t *fb)
{
	uint64_t lo = *y + 1 >= *Lt ? *y + 1 - *Lt : 0, hi = *y;
	int guard = 0;

	while (lo < hi && guard++ < 64) {
		uint64_t x = lo + (hi - lo) / 2;
		double sk, slack;
		int made;

		if (lay_access(L, x, 0, "find", 0, NULL, &sk, &made, &slack))
			return -1;
		*y = x;
		if (!sk_placed(L, sk)) {
			/* A read the clock cannot place: start again from here. */
			lo = x + 1 >= *Lt ? x + 1 - *Lt : 0;
			hi = x;
			continue;
		}
		if (sk_round(L, sk) == 0) {
			hi = x;
		} else {
			skew_count(L, (int)lround(sk));
			lo = x + 1 >= *Lt ? x + 1 - *Lt : 0;
			hi = hi >= *Lt ? hi - *Lt : 0;
			if (hi > x)
				hi = x;
			if (lo > hi)
				lo = hi;
			L->track--;
		}
	}
	*b = lo;
	if (*ft > L->track && *fb > *b) {
		double l = (double)(*fb - *b) / (double)(*ft - L->track);

		if (fabs(l - lround(l)) < 0.2 && lround(l) <= L->S && lround(l) >= L->S / 2)
			*Lt = (uint64_t)lround(l);
	}
	*ft = L->track;
	*fb = *b;
	return 0;
}

/* A walk's record of a track: its first unit, the skew measured crossing from it to the next (-1: none). */
struct trk {
	long t;
	uint64_t b;
	int skew_below;
};

/* The walk's margins: units kept clear of a track's first one, and the width of the landing range above them. */
static long walk_margin(const struct lay *L)
{
	return 1 + L->S / 128;
}

static long walk_width(const struct lay *L)
{
	return 2 + L->S / 64;
}

/*
 * One step of a walk from y on the track starting at b; the next track
 * down starts at bn and ends at top (with jump_sk >= 0, a jump to a track
 * further down, whose skew is expected to be jump_sk).
 *
 * Reads: a step on the track goes to its first unit at once (no delay):
 * the read-ahead after y, which runs up the track and may switch to the
 * next one at its end, has not reached that end when the drive takes the
 * request if and only if the slack covers what the step needs, so the
 * threshold is the step's whatever the read-ahead does.  A crossing lands
 * near the top of the next track, where that step then has the slack the
 * bisection asks for; the crossing's own slack is set by a delay (its read
 * starts near a track's start: the read-ahead has most of a revolution to
 * go).  Writes (no read-ahead): a step on the track near its start, at a
 * slack set by a delay, and a crossing to near the next track's start.
 *
 * kind names the row; with write, FUA writes (the target's bytes read
 * first, the unit before written again to put the head there).  *cross
 * says which it was; *sk the skew measured.  Returns 0, 1 when no target
 * would do, -1 when the run must stop, -2 when the device cannot write
 * through.
 */
static int walk_step(struct lay *L, uint64_t *y, uint64_t b, uint64_t bn, uint64_t top, int jump_sk, int write,
		     int *cross, double *sk)
{
	long m = walk_margin(L), w = walk_width(L), G;
	uint64_t p = *y - b, lo, hi, x;
	int ty, sk_exp, made, rc;
	double t, slack;
	int64_t delay;

	if (!write) {
		*cross = jump_sk >= 0 || p < 1;
		if (!*cross) {
			ty = TY_SAME;
			sk_exp = 0;
			lo = hi = b;
			/* The slack the crossing here planned for, where it did. */
			t = L->t0_plan > 0 ? L->t0_plan : need_target(L, TY_SAME, 0);
		} else {
			uint64_t len = top - bn + 1;
			double t0 = need_target(L, TY_SAME, 0);
			long D = (long)ceil(t0 / L->st) - (L->S - (long)len);

			if (D > (long)len - 2 - m)
				D = (long)len - 2 - m;
			if (D < 1)
				D = 1;
			sk_exp = jump_sk >= 0 ? jump_sk : skew_expect(L, L->track);
			ty = type_of(L, sk_exp);
			if (ty == TY_OTHER)
				ty = TY_HEAD;
			lo = hi = top - (uint64_t)D;
			t = need_target(L, ty, 0);
			L->t0_plan = t0;
		}
		L->t0_plan = *cross ? L->t0_plan : 0;
		if (pick_target(L, *y, sk_exp, lo, hi, (long)ceil(t / L->st), &x, &G)) {
			/* Not that much slack where the step on the next track wants it: land where there is. */
			if (!*cross || pick_target(L, *y, sk_exp, bn + (uint64_t)m + 1, top - 1, (long)ceil(t / L->st), &x,
						   &G)) {
				if (pick_target(L, *y, sk_exp, lo, hi, 0, &x, &G))
					return 1;
			} else {
				L->t0_plan = 0;
			}
		}
		if ((double)G * L->st < t)
			t = (double)G * L->st;
	} else {
		*cross = jump_sk >= 0 || !(p >= (uint64_t)m + 1 && p <= (uint64_t)(m + 1 + w));
		if (!*cross && !(*y < b + (uint64_t)(m + 1 + w) + 1))
			*cross = 1;
		if (!*cross) {
			ty = TY_SAME;
			sk_exp = 0;
			lo = b + (uint64_t)m;
			hi = *y - 1;
		} else {
			sk_exp = jump_sk >= 0 ? jump_sk : skew_expect(L, L->track);
			ty = type_of(L, sk_exp);
			if (ty == TY_OTHER)
				ty = TY_HEAD;
			lo = bn + (uint64_t)m + 1;
			hi = bn + (uint64_t)(m + 1 + w);
			if (hi >= b)
				hi = b - 1;
		}
		t = need_target(L, ty, write);
		if (pick_target(L, *y, sk_exp, lo, hi, (long)ceil(t / L->st), &x, &G)) {
			/*
			 * A crossing landing near the next track's start cannot give
			 * that much slack: land anywhere on it, or else take the slack
			 * it gives.
			 */
			if (!*cross || (pick_target(L, *y, sk_exp, bn + (uint64_t)m + 1, b - 1 - (uint64_t)m,
						    (long)ceil(t / L->st), &x, &G) &&
					pick_target(L, *y, sk_exp, lo, hi, 0, &x, &G)))
				return 1;
		}
	}
	delay = (int64_t)((double)G * L->st - t);
	if (write) {
		void *tmp;

		rc = hd_dev_io(L->d, HD_OP_READ, L->xbuf, L->u, x * L->u);
		if (rc) {
			enum hd_class c;

			if (hd_session_sample(L->s, rc, HD_OP_READ, x * L->u, 0, &c))
				L->fatal = 1;
			return L->fatal ? -1 : 1;
		}
		rc = lay_access(L, *y, 0, "wpos", 1, L->ybuf, NULL, &made, &slack);
		if (rc)
			return rc;
		rc = lay_access(L, x, delay > 0 ? delay : 0, "wwalk", 1, L->xbuf, sk, &made, &slack);
		tmp = L->ybuf;
		L->ybuf = L->xbuf;
		L->xbuf = tmp;
	} else {
		rc = lay_access(L, x, delay > 0 ? delay : 0, jump_sk >= 0 ? "jump" : "walk", 0, NULL, sk, &made, &slack);
	}
	if (rc)
		return rc;
	if (jump_sk < 0)
		note_sample(L, *sk, made, slack, write);
	*y = x;
	return 0;
}

/* The track index of the next cylinder boundary at or below track t (the crossing below it); t+1 where unknown. */
static long next_cyl(const struct lay *L, long t)
{
	long c;
	int h = cyl_pattern(L, &c);

	if (h <= 0)
		return t + 1;
	return t - (((t - c) % h) + h) % h;
}

/*
 * Walk down from y: ntracks tracks, on each a crossing to near the top of
 * the next and a step to that track's first unit, at slacks bisecting what
 * each kind needs; then ncyl cylinder boundaries, jumping (a head switch
 * within the cylinder) to the first track of each, a step on it and the
 * crossing.  The tracks are recorded into tr (up to ntr).  Returns 0, or
 * -1 when the run must stop.
 */
static int lay_walk(struct lay *L, uint64_t y, uint64_t ntracks, uint64_t ncyl, struct trk *tr, size_t ntr,
		    size_t *ntrk)
{
	uint64_t b, Lt = (uint64_t)L->S, fb = 0, cyls = 0, steps = 0, budget = 4 * (ntracks + 4 * ncyl) + 200;
	long start = L->track, ft = L->track + 1;

	*ntrk = 0;
	if (lay_find(L, &y, &Lt, &b, &ft, &fb))
		return -1;
	while (b > 2 * Lt && steps++ < budget) {
		int cross, rc, jump = -1, head, cyl;
		long tgt = L->track - 1;
		double sk;

		if ((uint64_t)(start - L->track) >= ntracks) {
			/*
			 * The cylinder phase: on a cylinder's first track, step and
			 * cross; else jump to it (a head switch within the cylinder).
			 */
			long tc = next_cyl(L, L->track);

			skew_top(L, &head, &cyl);
			if (cyls >= ncyl || tc > L->track || head < 0)
				break;
			if (tc < L->track) {
				jump = (int)(((L->track - tc) * (long)head) % L->S);
				tgt = tc;
			}
		}
		if (*ntrk < ntr && (*ntrk == 0 || tr[*ntrk - 1].t != L->track))
			tr[(*ntrk)++] = (struct trk){ L->track, b, -1 };
		rc = walk_step(L, &y, b, b - (uint64_t)(L->track - tgt) * Lt, b - (uint64_t)(L->track - tgt - 1) * Lt - 1,
			       jump, 0, &cross, &sk);
		if (rc < 0)
			return -1;
		if (rc == 0 && sk_placed(L, sk)) {
			int r = sk_round(L, sk);

			if (jump >= 0) {
				if (sk_same(L, r, jump) || (L->tol > 0 && sk_dist(L, sk, jump) <= L->tol)) {
					b -= (uint64_t)(L->track - tgt) * Lt;
					L->track = tgt;
					continue;
				}
				/* A jump that missed (spares at a cylinder's end): the track count is lost; stop here. */
				break;
			} else {
				if (r != 0 && (uint64_t)(start - L->track) < ntracks) {
					skew_count(L, (int)lround(sk));
					if (type_of(L, r) == TY_CYL && L->ncylx < MAX_CYLX)
						L->cylx[L->ncylx++] = L->track;
				}
				if ((r != 0) == cross) {
					if (cross) {
						if (*ntrk && tr[*ntrk - 1].t == L->track)
							tr[*ntrk - 1].skew_below = r;
						if ((uint64_t)(start - L->track) >= ntracks)
							cyls++;
						L->track--;
						b -= Lt;
					}
					continue;
				}
			}
			/* Not the track expected: the boundaries moved (a slip, spares). */
			if (r != 0)
				L->track--;
		}
		/* Lost, or no target would do: find the track again from here (its index is a guess now). */
		if (lay_find(L, &y, &Lt, &b, &ft, &fb))
			return -1;
		if (*ntrk && tr[*ntrk - 1].t == L->track)
			tr[*ntrk - 1].b = b;
	}
	return 0;
}

/*
 * The cylinder crossings of a read walk again, with FUA writes: on each
 * recorded cylinder boundary, a step on the upper track near its start and
 * the crossing.  Returns 0, or -1 when the run must stop.
 */
static int lay_wwalk(struct lay *L, const struct trk *tr, size_t ntrk, uint64_t ncyl)
{
	uint64_t done = 0;
	int head, cyl;

	skew_top(L, &head, &cyl);
	if (cyl < 0)
		return 0;
	for (size_t k = 0; k + 1 < ntrk && done < ncyl; k++) {
		uint64_t y;
		int cross, rc;
		double sk;

		if (tr[k].skew_below < 0 || !sk_same(L, tr[k].skew_below, cyl) || tr[k + 1].t != tr[k].t - 1)
			continue;
		L->track = tr[k].t;
		y = tr[k].b + (uint64_t)(walk_margin(L) + 1 + walk_width(L) / 2);
		if (hd_dev_io(L->d, HD_OP_READ, L->ybuf, L->u, y * L->u)) {
			hd_err_access(L->d, HD_OP_READ, y * L->u, -EIO);
			return -1;
		}
		L->have_prev = 0;
		for (int st = 0; st < 2; st++) {
			rc = walk_step(L, &y, tr[k].b, tr[k + 1].b, tr[k].b - 1, -1, 1, &cross, &sk);
			if (rc == -2) {
				hd_warn("%s: no FUA writes and not --sync: no write walk (the write cache would answer)",
					L->d->path);
				return 0;
			}
			if (rc < 0)
				return -1;
			if (rc > 0 || cross != st)
				break;
		}
		done++;
	}
	return 0;
}

/*
 * What a byte costs on the interface: reads of 1 and 8 units that the
 * cache serves (each read again right after a media read of the same
 * place, at the end of the device, above everything the walks read), their
 * median times in the header.  A write on the track under the head waits
 * for its data to cross, which a seek hides: the fit adds one unit's
 * crossing back to the write settle.
 */
static void lay_iface(struct lay *L)
{
	double t[2][5];
	void *b8 = hd_buf_alloc(L->d, 8 * L->u);
	uint64_t y = L->nunits - 64;

	if (!b8)
		return;
	for (int k = 0; k < 2; k++) {
		size_t len = k ? 8 * L->u : L->u;
		int n = 0;

		if (hd_dev_io(L->d, HD_OP_READ, b8, 8 * L->u, y * L->u))
			break;
		for (int i = 0; i < 5; i++) {
			int64_t lat;

			if (hd_dev_timed(L->d, HD_OP_READ, b8, len, y * L->u, &lat) == 0)
				t[k][n++] = (double)lat;
		}
		if (n < 3)
			break;
		hd_dfw_meta(L->s->w, k ? "hit_8_units_ms" : "hit_1_unit_ms", "%.6f", median(t[k], (size_t)n) / 1e6);
	}
	hd_buf_free(b8, 8 * L->u);
}

/* ---- the zones ---- */

struct zpt {
	uint64_t y;
	int S;
};

/* Sectors per track at unit y, as a location of its own. */
static int lay_point(struct lay *L, uint64_t y, int guess, struct zpt *z)
{
	L->loc++;
	L->track = 0;
	z->y = y;
	L->noisy_cap = NOISY_POINT;
	if (!lay_spt(L, y, guess) && hd_session_stop(L->s))
		return -1;
	z->S = L->S;
	lay_loc_row(L, y);
	return hd_session_stop(L->s) || hd_interrupted ? -1 : 0;
}

/*
 * Zone boundaries: bisect between neighbouring points of zp[0..nz) whose
 * sectors per track differ, refine times each; the points measured go
 * after zp[nz - 1] (room for refine * points of them).
 */
static void lay_refine_zones(struct lay *L, struct zpt *zp, size_t nz, uint64_t refine, uint64_t points)
{
	for (size_t i = 0; i + 1 < nz && refine && !hd_session_stop(L->s); i++) {
		struct zpt hi = zp[i], lo = zp[i + 1];	/* hi above lo */
		size_t base = nz;

		if (hi.S <= 0 || lo.S <= 0 || hi.S == lo.S)
			continue;
		for (uint64_t r = 0; r < refine && hi.y - lo.y > 8192 && !hd_session_stop(L->s); r++) {
			struct zpt mid;
			uint64_t my = lo.y + (hi.y - lo.y) / 2;

			if (lay_point(L, my, hi.S, &mid))
				break;
			if (base < nz + (size_t)refine * points)
				zp[base++] = mid;
			if (mid.S == hi.S)
				hi = mid;
			else if (mid.S == lo.S)
				lo = mid;
			else if (mid.S > 0)
				lo = mid;	/* a zone between: the upper boundary is refined */
			else
				break;
		}
	}
}

/* The header lines of what the run found: revolution, the walk's place, skews, surfaces, writes. */
static void lay_end_meta(struct lay *L, uint64_t main_y, int main_S, int writes)
{
	struct hd_df_writer *w = L->s->w;
	int head, cyl, h;
	long c;

	/* A revolution that no track's reads bear out is noise (a device that does not rotate). */
	if (L->rotates)
		hd_dfw_meta(w, "revolution_ms", "%.6f", L->rev / 1e6);
	else
		hd_dfw_meta(w, "revolution_ms", "none");
	hd_dfw_meta(w, "main_offset_bytes", "%llu", (unsigned long long)(main_y * L->u));
	hd_dfw_meta(w, "main_sectors_per_track", "%d", main_S);
	h = cyl_pattern(L, &c);
	skew_top(L, &head, &cyl);
	hd_dfw_meta(w, "track_skew_sectors", "%d", head);
	hd_dfw_meta(w, "cylinder_skew_sectors", "%d", cyl);
	hd_dfw_meta(w, "surfaces_seen", "%d", h);
	if (L->tol > 0) {
		hd_dfw_meta(w, "clock_noise_ms", "%.6f", L->noise_ns / 1e6);
		hd_dfw_meta(w, "skew_tolerance_sectors", "%.2f", L->tol);
	}
	if (writes)
		hd_dfw_meta(w, "write_kind", "%s", L->fua ? "FUA" : "synchronous (--sync)");
}

/*
 * The walk's unit (the physical sector, or the access unit), the device's
 * size in units, the reference unit *at and the buffers.  0, or the exit
 * code with the message printed.
 */
static int lay_setup(struct lay *L, struct hd_session *s, const struct hd_layout_opts *o, uint64_t *at)
{
	const struct hd_dev *d = s->dev;

	L->s = s;
	L->d = s->dev;
	L->u = d->physical_sector_bytes > d->io_align ? d->physical_sector_bytes : d->io_align;
	if (L->u % d->io_align)
		L->u = d->io_align;
	L->nunits = d->size / L->u;
	L->loc = -1;
	if (L->nunits < 65536) {
		hd_err("%s: device too small (%llu bytes; the layout probe walks tracks of up to thousands of sectors)",
		       d->path, (unsigned long long)d->size);
		return HD_EXIT_SETUP;
	}
	*at = o->have_at ? o->at / L->u : L->nunits / 2;
	if (*at >= L->nunits) {
		hd_err("--at %llu: beyond the end of %s (%llu bytes)", (unsigned long long)o->at, d->path,
		       (unsigned long long)d->size);
		return HD_EXIT_USAGE;
	}
	L->buf = hd_buf_alloc(d, L->u);
	L->ybuf = hd_buf_alloc(d, L->u);
	L->xbuf = hd_buf_alloc(d, L->u);
	if (!L->buf || !L->ybuf || !L->xbuf) {
		hd_err("%s: cannot allocate %llu-byte buffers", d->path, (unsigned long long)L->u);
		return HD_EXIT_SETUP;
	}
	return 0;
}

/*
 * The walk at the reference unit at: sectors per track there, then the
 * read walk and with writes the write walk.  *main_S the sectors per track
 * (0: none, no walk).  0, or -1 when the run must stop.
 */
static int lay_main(struct lay *L, const struct hd_layout_opts *o, uint64_t at, int writes, int guess, struct trk *tr,
		    size_t *ntrk, int *main_S)
{
	L->loc++;
	L->track = 0;
	L->noisy_cap = NOISY_MAIN;
	if (!lay_spt(L, at, guess) && hd_session_stop(L->s))
		return -1;
	*main_S = L->S;
	lay_loc_row(L, at);
	hd_dfw_meta(L->s->w, "main_location", "%d", L->loc);
	if (L->S <= 0)
		return 0;
	if (lay_walk(L, L->y_prev, o->tracks, o->cylinders, tr, o->tracks + o->cylinders * 2 + 2, ntrk))
		return -1;
	if (writes) {
		/* FUA writes (or writes through, --sync) reach the media: all media. */
		L->s->run.wcal = 1;
		L->s->run.wcache_threshold_ns = -1;
		if (lay_wwalk(L, tr, *ntrk, o->wcylinders))
			return -1;
	}
	return 0;
}

static int layout_run(void *vo)
{
	struct hd_layout_opts o = *(const struct hd_layout_opts *)vo;
	struct hd_session s;
	struct lay *L = NULL;
	struct trk *tr = NULL;
	struct zpt *zp = NULL;
	size_t ntrk = 0, nz = 0;
	uint64_t at, main_y = 0;
	int ex, done = 0, main_S = 0, writes = o.c.write_ok;

	ex = hd_session_begin(&s, "layout", &o.c, writes, "layout.tsv");
	if (ex)
		return ex;
	L = calloc(1, sizeof(*L));
	tr = calloc(o.tracks + o.cylinders * 2 + 2, sizeof(*tr));
	zp = calloc(o.points + 2 + (size_t)o.points * (o.refine + 1), sizeof(*zp));
	if (!L || !tr || !zp) {
		hd_err("%s: out of memory", s.dev->path);
		ex = HD_EXIT_SETUP;
		hd_session_abort(&s);
		goto out;
	}
	ex = lay_setup(L, &s, &o, &at);
	if (ex) {
		hd_session_abort(&s);
		goto out;
	}
	L->fua = 1;
	hd_dfw_meta(s.w, "unit_bytes", "%llu", (unsigned long long)L->u);
	hd_dfw_meta(s.w, "params", "at=%llu tracks=%llu cylinders=%llu write_cylinders=%llu points=%llu refine=%llu "
		    "writes=%s seed=%llu",
		    (unsigned long long)(at * L->u), (unsigned long long)o.tracks, (unsigned long long)o.cylinders,
		    (unsigned long long)o.wcylinders,
		    (unsigned long long)o.points, (unsigned long long)o.refine, writes ? "yes" : "no",
		    (unsigned long long)o.c.seed);
	hd_dfw_meta(s.w, "phase", "set by the plan: each access follows the one before it at a chosen angle, with a "
		    "host delay (host_gap_ms) chosen to set its slack; none random");
	s.run.unit = "steps";
	hd_session_calibrate(&s, L->buf, L->u);
	if (writes && !hd_session_stop(&s))
		lay_iface(L);

	/*
	 * The zone points from the top of the disk down, the walk where it
	 * falls among them: every read lies below the reads before it.
	 */
	{
		uint64_t margin = 8192, span = L->nunits - 2 * margin, np = o.points;
		uint64_t total = np + o.tracks * 2 + o.cylinders * 3 + (writes ? o.wcylinders * 6 : 0), stepc = 0;
		int main_done = 0, guess = 0;

		s.run.total = total;
		for (uint64_t i = 0; i <= np && !hd_session_stop(&s); i++) {
			uint64_t y = i < np ? margin + (np > 1 ? span * (np - 1 - i) / (np - 1) : span / 2) : 0;

			if (!main_done && (i == np || y < at)) {
				main_done = 1;
				main_y = at;
				if (lay_main(L, &o, at, writes, guess, tr, &ntrk, &main_S))
					break;
				if (main_S > 0)
					guess = main_S;
				stepc += o.tracks * 2 + o.cylinders * 3 + (writes ? o.wcylinders * 6 : 0);
				hd_run_progress(&s.run, stepc, total);
			}
			if (i == np)
				break;
			if (y + 1 >= L->nunits || y < 4096)
				continue;
			/*
			 * Through a noisy clock a position costs some twenty reads a
			 * track over several tracks, not nine: at most NOISY_POINTS
			 * of them, evenly (a zone narrower than their spacing is
			 * missed).
			 */
			if (lay_noisy(L) && np > NOISY_POINTS && i % ((np + NOISY_POINTS - 1) / NOISY_POINTS))
				continue;
			if (lay_point(L, y, guess ? guess : main_S, &zp[nz]))
				break;
			if (zp[nz].S > 0)
				guess = zp[nz].S;
			nz++;
			hd_run_progress(&s.run, ++stepc, total);
		}
		/* Through a noisy clock, each bisection as dear: at most NOISY_REFINE of them a boundary. */
		lay_refine_zones(L, zp, nz, lay_noisy(L) && o.refine > NOISY_REFINE ? NOISY_REFINE : o.refine, o.points);
		done = !hd_session_stop(&s);
	}
	lay_end_meta(L, main_y, main_S, writes);
	ex = hd_session_end(&s, "location spt offset_bytes kind track skew_sectors host_gap_ms latency_ms op class",
			    done);
out:
	if (L) {
		hd_buf_free(L->buf, L->u);
		hd_buf_free(L->ybuf, L->u);
		hd_buf_free(L->xbuf, L->u);
	}
	free(L);
	free(tr);
	free(zp);
	return ex;
}

const struct hd_probe hd_probe_layout = { "layout", &layout_spec, sizeof(struct hd_layout_opts), layout_run };

int hd_cmd_layout(int argc, char **argv)
{
	return hd_probe_main(&hd_probe_layout, argc, argv);
}
