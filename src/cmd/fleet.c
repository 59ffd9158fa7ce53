/*
 * The drives of burn-in results for table and report: each operand is a
 * device directory (its device.json) or a result directory (its
 * burnin.json, whose devices are read from their own device.json), and
 * every figure shown is the one device.json holds, so that a fleet table
 * says what the files say.  The drives come out the worst first (FAIL,
 * WARN, PASS, not judged), in the operands' order within a verdict.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "hddscope/burnin.h"
#include "hddscope/json.h"
#include "hddscope/msg.h"
#include "fleet_local.h"

const char *const fl_head[FL_NCOL] = {
	"where", "device", "model", "serial", "verdict", "rounds", "slow writes %", "95% interval %",
	"write p99 ms", "temp C", "realloc +", "pending +", "offline unc +", "crc +", "reasons",
};
const int fl_numeric[FL_NCOL] = { 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0 };

static int exists(const char *dir, const char *name)
{
	char path[4200];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

int fl_kind(const char *dir)
{
	struct stat st;

	if (stat(dir, &st) != 0) {
		int e = errno;

		hd_err("stat %s: %s", dir, strerror(e));
		return -e;
	}
	if (!S_ISDIR(st.st_mode)) {
		hd_err("%s: %s (a profile or a burn-in result is a directory)", dir, strerror(ENOTDIR));
		return -ENOTDIR;
	}
	if (exists(dir, "device.json"))
		return FL_DEVICE;
	return exists(dir, "burnin.json") ? FL_RESULT : FL_PROFILE;
}

int fl_family(const char *cmd, char *const *dirs, size_t n)
{
	int family = -1;
	size_t first = 0;

	for (size_t i = 0; i < n; i++) {
		int k = fl_kind(dirs[i]);

		if (k < 0)
			return -HD_EXIT_SETUP;
		if (family < 0) {
			family = k != FL_PROFILE;
			first = i;
		} else if (family != (k != FL_PROFILE)) {
			hd_err("%s: %s is a %s and %s a %s: give profiles or burn-in results, not both", cmd,
			       dirs[first], family ? "burn-in result" : "profile", dirs[i],
			       family ? "profile" : "burn-in result");
			return -HD_EXIT_USAGE;
		}
	}
	return family;
}

/* The last two components of a path ("host-a/01-sdb"), trailing slashes aside. */
static void where_of(const char *dir, char *buf, size_t len)
{
	size_t end = strlen(dir), slashes = 0, start;

	while (end > 1 && dir[end - 1] == '/')
		end--;
	for (start = end; start > 0; start--)
		if (dir[start - 1] == '/' && ++slashes == 2)
			break;
	snprintf(buf, len, "%.*s", (int)(end - start), dir + start);
}

static int push(struct fl_fleet *f, const char *dir, struct hd_jv *doc)
{
	const char *v;
	struct fl_drive *d;

	if (f->n == f->cap) {
		size_t cap = f->cap ? 2 * f->cap : 16;
		struct fl_drive *p = realloc(f->d, cap * sizeof(*p));

		if (!p) {
			hd_err("%s: %s", dir, strerror(ENOMEM));
			hd_jv_free(doc);
			return HD_EXIT_RUNTIME;
		}
		f->d = p;
		f->cap = cap;
	}
	d = &f->d[f->n];
	memset(d, 0, sizeof(*d));
	snprintf(d->dir, sizeof(d->dir), "%s", dir);
	where_of(dir, d->where, sizeof(d->where));
	d->doc = doc;
	d->order = f->n++;
	v = hd_jv_str(doc, "verdict");
	d->rank = !v ? 3 : !strcmp(v, "FAIL") ? 0 : !strcmp(v, "WARN") ? 1 : !strcmp(v, "PASS") ? 2 : 3;
	return HD_EXIT_OK;
}

/* path as a JSON object of format fmt, version 1; NULL (printed) otherwise. */
static struct hd_jv *load_doc(const char *path, const char *fmt)
{
	char err[1024];
	struct hd_jv *j;
	const char *got;

	if (hd_jv_load(path, &j, err, sizeof(err))) {
		hd_err("%s", err);
		return NULL;
	}
	got = hd_jv_str(j, "format");
	if (j->type != HD_JV_OBJ || !got || strcmp(got, fmt) || hd_jv_num(j, "version", 0) != 1) {
		hd_err("%s: not a %s version 1 document (format %s, version %g)", path, fmt, got ? got : "missing",
		       hd_jv_num(j, "version", NAN));
		hd_jv_free(j);
		return NULL;
	}
	return j;
}

static int load_device(struct fl_fleet *f, const char *dir)
{
	char path[4200];
	struct hd_jv *doc;

	snprintf(path, sizeof(path), "%s/device.json", dir);
	if (!(doc = load_doc(path, "hddscope-burnin-device")))
		return HD_EXIT_SETUP;
	return push(f, dir, doc);
}

/* A result directory: each device of its burnin.json, from DIR/NN-NAME/device.json. */
static int load_result(struct fl_fleet *f, const char *dir)
{
	char path[4200], sub[4096];
	struct hd_jv *j;
	const struct hd_jv *devs;
	int ex = HD_EXIT_OK;

	snprintf(path, sizeof(path), "%s/burnin.json", dir);
	if (!(j = load_doc(path, "hddscope-burnin")))
		return HD_EXIT_SETUP;
	devs = hd_jv_get(j, "devices");
	if (!devs || devs->type != HD_JV_ARR) {
		hd_err("%s: no array 'devices'", path);
		ex = HD_EXIT_SETUP;
	}
	for (size_t i = 0; ex == HD_EXIT_OK && i < devs->n; i++) {
		const char *name = hd_jv_str(devs->items[i], "directory");

		if (!name || !*name || strchr(name, '/') || !strcmp(name, "..") || !strcmp(name, ".")) {
			hd_err("%s: devices[%zu]: no directory name", path, i);
			ex = HD_EXIT_SETUP;
			break;
		}
		snprintf(sub, sizeof(sub), "%.3800s/%s", dir, name);
		ex = load_device(f, sub);
	}
	hd_jv_free(j);
	return ex;
}

static int by_rank(const void *a, const void *b)
{
	const struct fl_drive *x = a, *y = b;

	if (x->rank != y->rank)
		return x->rank - y->rank;
	return x->order < y->order ? -1 : x->order > y->order;
}

int fl_load(char *const *dirs, size_t n, struct fl_fleet *f)
{
	int ex = HD_EXIT_OK;

	memset(f, 0, sizeof(*f));
	for (size_t i = 0; ex == HD_EXIT_OK && i < n; i++) {
		int k = fl_kind(dirs[i]);

		if (k < 0)
			ex = HD_EXIT_SETUP;
		else if (k == FL_PROFILE) {
			hd_err("%s: neither device.json nor burnin.json (not a burn-in result)", dirs[i]);
			ex = HD_EXIT_SETUP;
		} else
			ex = k == FL_DEVICE ? load_device(f, dirs[i]) : load_result(f, dirs[i]);
	}
	if (ex != HD_EXIT_OK) {
		fl_free(f);
		return ex;
	}
	if (f->n)
		qsort(f->d, f->n, sizeof(f->d[0]), by_rank);
	return HD_EXIT_OK;
}

void fl_free(struct fl_fleet *f)
{
	for (size_t i = 0; i < f->n; i++)
		hd_jv_free(f->d[i].doc);
	free(f->d);
	memset(f, 0, sizeof(*f));
}

const char *fl_verdict(const struct fl_drive *d)
{
	const char *v = hd_jv_str(d->doc, "verdict");

	return v ? v : "none";
}

const struct hd_jv *fl_last_round(const struct fl_drive *d)
{
	const struct hd_jv *r = hd_jv_get(d->doc, "rounds");

	return r && r->type == HD_JV_ARR && r->n ? r->items[r->n - 1] : NULL;
}

void fl_num(char *buf, size_t len, const struct hd_jv *v, const char *path, const char *fmt)
{
	const struct hd_jv *x = v ? hd_jv_get(v, path) : NULL;

	if (x && x->type == HD_JV_NUM)
		snprintf(buf, len, fmt, x->num);
	else
		snprintf(buf, len, "-");
}

/* The change of a SMART counter from smart_before to smart_after: "+N", "0", or "-" unknown. */
static void delta(char *buf, size_t len, const struct hd_jv *doc, const char *counter)
{
	char b[128], a[128];
	const struct hd_jv *x, *y;

	snprintf(b, sizeof(b), "smart_before.%s", counter);
	snprintf(a, sizeof(a), "smart_after.%s", counter);
	x = hd_jv_get(doc, b);
	y = hd_jv_get(doc, a);
	if (x && y && x->type == HD_JV_NUM && y->type == HD_JV_NUM)
		snprintf(buf, len, y->num > x->num ? "+%.0f" : "%.0f", y->num - x->num);
	else
		snprintf(buf, len, "-");
}

/* The FAIL and WARN reasons' texts, "; " between them; "-" for none. */
static void reasons(char *buf, size_t len, const struct hd_jv *doc)
{
	const struct hd_jv *r = hd_jv_get(doc, "reasons");
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; r && r->type == HD_JV_ARR && i < r->n && used + 1 < len; i++) {
		const char *lv = hd_jv_str(r->items[i], "level"), *t = hd_jv_str(r->items[i], "text");
		int w;

		if (!lv || !t || (strcmp(lv, "FAIL") && strcmp(lv, "WARN")))
			continue;
		w = snprintf(buf + used, len - used, "%s%s", used ? "; " : "", t);
		used += w > 0 ? (size_t)w : 0;
	}
	if (!buf[0])
		snprintf(buf, len, "-");
}

/* A fraction of device.json as a percentage with 3 decimals: "-" where absent. */
static void pct(char *buf, size_t len, const struct hd_jv *v, const char *path)
{
	const struct hd_jv *x = v ? hd_jv_get(v, path) : NULL;

	if (x && x->type == HD_JV_NUM)
		snprintf(buf, len, "%.3f", 100 * x->num);
	else
		snprintf(buf, len, "-");
}

void fl_cells(const struct fl_drive *d, char cell[FL_NCOL][FL_CELL])
{
	const struct hd_jv *last = fl_last_round(d), *rounds = hd_jv_get(d->doc, "rounds");
	const char *s;
	char lo[64], hi[64];

	snprintf(cell[0], FL_CELL, "%s", d->where);
	snprintf(cell[1], FL_CELL, "%s", (s = hd_jv_str(d->doc, "device")) ? s : "-");
	snprintf(cell[2], FL_CELL, "%s", (s = hd_jv_str(d->doc, "identity.model")) && *s ? s : "-");
	snprintf(cell[3], FL_CELL, "%s", (s = hd_jv_str(d->doc, "identity.serial")) && *s ? s : "-");
	snprintf(cell[4], FL_CELL, "%s", fl_verdict(d));
	snprintf(cell[5], FL_CELL, "%zu", rounds && rounds->type == HD_JV_ARR ? rounds->n : (size_t)0);
	pct(cell[6], FL_CELL, last, "slow_write_rate");
	pct(lo, sizeof(lo), last, "slow_write_rate_lo");
	pct(hi, sizeof(hi), last, "slow_write_rate_hi");
	if (strcmp(lo, "-") && strcmp(hi, "-"))
		snprintf(cell[7], FL_CELL, "%s-%s", lo, hi);
	else
		snprintf(cell[7], FL_CELL, "-");
	fl_num(cell[8], FL_CELL, last, "write_p99_ms", "%.3f");
	fl_num(cell[9], FL_CELL, last, "temperature_c", "%.0f");
	for (int c = 0; c < HD_BI_NCOUNTERS; c++)
		delta(cell[10 + c], FL_CELL, d->doc, hd_burnin_counter_name[c]);
	reasons(cell[14], FL_CELL, d->doc);
}
